"""What API handlers use, built once per app and overridable in tests.

Handlers reach it as ``request.app.state.services`` (or the :func:`get_services` dependency).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import Request

from repro_assets import settings
from repro_assets.llm.types import LLMClient
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.storage.blobstore import BlobStore

log = logging.getLogger(__name__)

Recorder = Callable[[Any], None]
T = TypeVar("T")


def _default_llm_client() -> LLMClient:
    from repro_assets.resources.llm import LLMResource

    return LLMResource().get_client()


def _default_instance() -> Any:
    from repro_assets.instance import get_instance

    return get_instance()


@dataclass
class Services:
    """Shared dependencies of the API.

    Attributes:
        blob_store: the blob store (run folders live under ``runs/``).
        llm_client: factory of the LLM client used by a request.
        instance_factory: returns the Dagster instance that records API runs (lazy: the
            project's persistent instance is only opened on the first recorded run).
        record_runs: False disables recording in Dagster (tests, stateless deployments).
    """

    blob_store: BlobStore = field(default_factory=lambda: BlobStoreResource().get_store())
    llm_client: Callable[[], LLMClient] = _default_llm_client
    instance_factory: Callable[[], Any] = _default_instance
    record_runs: bool = field(
        default_factory=lambda: settings.current().api.record_runs != "0")
    _instance: Any = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def instance(self) -> Any:
        """The Dagster instance (opened once)."""
        with self._lock:
            if self._instance is None:
                self._instance = self.instance_factory()
            return self._instance


_STATE_LOCK = threading.Lock()


def app_singleton(request: Request, name: str, factory: Callable[[], T]) -> T:
    """``request.app.state.<name>``, built by ``factory()`` on first use (once, thread-safe)."""
    state = request.app.state
    value = getattr(state, name, None)
    if value is None:
        with _STATE_LOCK:
            value = getattr(state, name, None)
            if value is None:
                value = factory()
                setattr(state, name, value)
    return value


def get_services(request: Request) -> Services:
    """FastAPI dependency returning the app's :class:`Services`."""
    return request.app.state.services
