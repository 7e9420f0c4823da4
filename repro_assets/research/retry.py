"""Retry with exponential backoff (seed 4.1; anti-pattern 7: never infinite).

tenacity: at most 5 attempts, exponential wait between 4 and 60 seconds (a server's
``Retry-After`` is honoured when longer, still capped at 60), and only rate-limit and timeout
errors are retried. Timeouts follow the decision tree: each retry gets a longer timeout
(doubling) and at most 3 timeouts are tolerated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from repro_assets.research.errors import ProviderTimeoutError, RateLimitError

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_ATTEMPTS = 5
WAIT_MIN_S = 4.0
WAIT_MAX_S = 60.0
MAX_TIMEOUTS = 3
RETRYABLE = (RateLimitError, ProviderTimeoutError)


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    log.warning(
        "retry_attempt attempt=%s wait=%.1fs error=%s",
        state.attempt_number,
        state.next_action.sleep if state.next_action else 0.0,
        exc,
    )


def with_retry(func: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Decorator: the seed's retry policy for an async function."""
    return retry(
        stop=stop_after_attempt(MAX_ATTEMPTS),
        wait=wait_exponential(multiplier=1, min=WAIT_MIN_S, max=WAIT_MAX_S),
        retry=retry_if_exception_type(RETRYABLE),
        before_sleep=_log_retry,
        reraise=True,
    )(func)


@dataclass
class RetryPolicy:
    """The retry policy, with an injectable sleep (tests use a fake clock).

    Attributes:
        attempts: total attempts (5).
        wait_min: first backoff (4 s).
        wait_max: backoff cap (60 s).
        max_timeouts: timeouts tolerated before giving up (3).
        base_timeout: first attempt's timeout; doubled after each timeout.
        sleep: coroutine used to wait between attempts.
    """

    attempts: int = MAX_ATTEMPTS
    wait_min: float = WAIT_MIN_S
    wait_max: float = WAIT_MAX_S
    max_timeouts: int = MAX_TIMEOUTS
    base_timeout: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def _wait(self, state: RetryCallState) -> float:
        base = wait_exponential(multiplier=1, min=self.wait_min, max=self.wait_max)(state)
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, RateLimitError) and exc.retry_after:
            return min(max(base, exc.retry_after), self.wait_max)
        return base

    async def call(
        self,
        fn: Callable[[float], Awaitable[T]],
        *,
        on_retry: Callable[[BaseException, int, float], Awaitable[None]] | None = None,
    ) -> T:
        """Call ``fn(timeout)`` under the policy and return its result.

        Args:
            fn: coroutine function taking the timeout (seconds) for this attempt.
            on_retry: awaited before each backoff with ``(error, attempt, wait_s)``.

        Raises:
            The last error once attempts (or timeouts) are exhausted, or any non-retryable
            error at once.
        """
        timeouts = 0

        def stop(state: RetryCallState) -> bool:
            if state.attempt_number >= self.attempts:
                return True
            return timeouts >= self.max_timeouts

        async def before_sleep(state: RetryCallState) -> None:
            _log_retry(state)
            exc = state.outcome.exception() if state.outcome is not None else None
            if on_retry is not None and exc is not None:  # retries follow exceptions only
                wait = state.next_action.sleep if state.next_action else 0.0
                await on_retry(exc, state.attempt_number, wait)

        retrying = AsyncRetrying(
            stop=stop,
            wait=self._wait,
            retry=retry_if_exception_type(RETRYABLE),
            before_sleep=before_sleep,
            sleep=self.sleep,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                timeout = self.base_timeout * (2**timeouts)
                try:
                    return await fn(timeout)
                except ProviderTimeoutError:
                    timeouts += 1
                    raise
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover
