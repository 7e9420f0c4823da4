"""A bounded worker pool for blocking work that waits on other servers (outbound fetches).

Starlette runs sync endpoints in one shared thread pool; a request that fetches a URL from a
slow server would hold one of its threads for the whole fetch, and enough of them would stall
every sync endpoint (``/healthz`` included). Fetches run here instead: at most ``workers`` at
once, at most ``queue`` more waiting, and past that the request is refused at once with 503
``E_SERVER_BUSY`` and a ``Retry-After`` header rather than queued behind the others.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.requests import Request

from repro_assets import settings
from repro_assets.api.errors import ApiError
from repro_assets.api.services import app_singleton

T = TypeVar("T")

BUSY_CODE = "E_SERVER_BUSY"


class BoundedPool:
    """Run blocking calls in a few threads; refuse work past capacity.

    Args:
        workers: threads (``REPRO_API_FETCH_WORKERS``, default 8).
        queue: calls that may wait for a thread (default: as many as ``workers``).
        retry_after_s: the ``Retry-After`` of a refusal (about one fetch's deadline).
    """

    def __init__(self, workers: int | None = None, queue: int | None = None,
                 retry_after_s: int = 30) -> None:
        self.workers = workers or max(1, settings.env_int("REPRO_API_FETCH_WORKERS", 8))
        self.capacity = self.workers + (self.workers if queue is None else queue)
        self.retry_after_s = retry_after_s
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="api-fetch")
        self._pending = 0
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        """Calls running or waiting."""
        return self._pending

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        """Await ``func(*args)`` run in the pool.

        Raises:
            ApiError: 503 ``E_SERVER_BUSY`` (with ``Retry-After``) when the pool is full.
        """
        with self._lock:
            if self._pending >= self.capacity:
                raise ApiError(503, BUSY_CODE,
                               f"{self._pending} outbound fetches are in progress; retry later",
                               headers={"Retry-After": str(self.retry_after_s)})
            self._pending += 1
        try:
            return await asyncio.wrap_future(self._executor.submit(func, *args))
        finally:
            with self._lock:
                self._pending -= 1

    def shutdown(self) -> None:
        """Stop the threads (running calls finish)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


def fetch_pool(request: Request) -> BoundedPool:
    """The app's fetch pool (``app.state.fetch_pool``, created on first use)."""
    return app_singleton(request, "fetch_pool", BoundedPool)
