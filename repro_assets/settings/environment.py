"""The process environment: the one module that touches ``os.environ``.

Everything else reads configuration through the settings tree (:mod:`repro_assets.settings`)
and changes the environment (for itself or for a child process) through the helpers here, so
that a search for ``os.environ`` finds one place.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager


def read(name: str) -> str | None:
    """The raw value of ``name``, or None when it is unset."""
    return os.environ.get(name)


def snapshot(names: Iterable[str]) -> tuple[str | None, ...]:
    """The raw values of ``names`` (None for unset ones), in order: a cache key."""
    environ = os.environ
    return tuple(environ.get(name) for name in names)


def names_with_prefix(prefix: str) -> dict[str, str]:
    """Every variable whose name starts with ``prefix``, with its value."""
    return {k: v for k, v in os.environ.items() if k.startswith(prefix)}


def export(name: str, value: str) -> None:
    """Set ``name`` in this process (and so for every child it starts)."""
    os.environ[name] = value


def export_default(name: str, value: str) -> str:
    """Set ``name`` unless it is set already; return its value."""
    return os.environ.setdefault(name, value)


def unset(name: str) -> None:
    """Remove ``name`` from this process's environment (no error when unset)."""
    os.environ.pop(name, None)


def child_environment(extra: Mapping[str, str] | None = None,
                      drop: Iterable[str] = ()) -> dict[str, str]:
    """The environment for a child process: this one's, less ``drop``, plus ``extra``."""
    dropped = frozenset(drop)
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(extra or {})
    return env


@contextmanager
def scoped(values: Mapping[str, str], clear: Iterable[str] = ()) -> Iterator[None]:
    """Within the block: ``clear`` unset, then ``values`` set; everything restored after."""
    keys = set(clear) | set(values)
    saved = {k: os.environ.get(k) for k in keys}
    for key in clear:
        os.environ.pop(key, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
