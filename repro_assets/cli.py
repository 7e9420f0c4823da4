"""The ``repro-assets`` command.

Sub-commands live in :mod:`repro_assets.commands`: every module there defines
``register(subparsers)`` which adds its parsers with ``set_defaults(func=handler)``; a handler
takes the parsed ``argparse.Namespace`` and returns the exit code.

Building the parser imports no workflow code (no Dagster, PyMuPDF or evaluators): a command
imports what it needs when it runs, and a sub-command whose arguments come from heavy modules
adds them with :meth:`CommandParser.defer`, run only when that sub-command is chosen. A shell
loop of ``repro-assets ingest`` pays the start-up once per file.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import Any

from repro_assets import commands, settings
from repro_assets.settings import environment


class CommandParser(argparse.ArgumentParser):
    """A sub-command's parser that can add arguments only when the sub-command is chosen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: list[Callable[[argparse.ArgumentParser], None]] = []

    def defer(self, add: Callable[[argparse.ArgumentParser], None]) -> None:
        """Call ``add(self)`` before this parser parses anything (its help included), so the
        modules ``add`` imports are loaded only by the command that needs them."""
        self._deferred.append(add)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        """Run the deferred additions, then parse."""
        while self._deferred:
            self._deferred.pop(0)(self)
        return super().parse_known_args(args, namespace)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="repro-assets",
        description="Documents to trustworthy, traceable data assets (a Dagster code location).",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=CommandParser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    environment.export_default("HF_HUB_OFFLINE", "1")
    environment.export_default("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    for noisy in ("httpx", "sentence_transformers", "alembic", "urllib3", "filelock", "pgserver"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except settings.SettingsError as exc:  # a bad variable is the user's to fix, not a crash
        print(f"error {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def run() -> None:
    """The console script: :func:`main`, then exit without tearing the interpreter down.

    Everything the command wrote is committed, closed or flushed by then; skipping module
    teardown (thread pools, large module graphs) saves seconds per invocation, which a shell
    loop of ``repro-assets ingest`` pays per file.
    """
    code = main()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # ``python -m repro_assets.cli`` exits like the console script
    run()
