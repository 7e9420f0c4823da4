"""Circuit breaker per provider (seed 4.2) with pybreaker.

5 consecutive failures open the circuit; after 60 s the next call is a half-open probe that
closes it on success or re-opens it on failure. Access refusals for one URL (403, paywall,
CAPTCHA, robots.txt) are business outcomes, not provider malfunction, and do not count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import pybreaker

from repro_assets.research.errors import AccessDeniedError, CircuitOpenError

T = TypeVar("T")

FAIL_MAX = 5
RESET_TIMEOUT_S = 60


class BreakerRegistry:
    """One :class:`pybreaker.CircuitBreaker` per provider."""

    def __init__(self, fail_max: int = FAIL_MAX, reset_timeout: float = RESET_TIMEOUT_S) -> None:
        self.fail_max = fail_max
        self.reset_timeout = reset_timeout
        self._breakers: dict[str, pybreaker.CircuitBreaker] = {}

    def get(self, provider: str) -> pybreaker.CircuitBreaker:
        """The breaker of ``provider`` (created closed on first use)."""
        breaker = self._breakers.get(provider)
        if breaker is None:
            breaker = pybreaker.CircuitBreaker(
                fail_max=self.fail_max,
                reset_timeout=self.reset_timeout,
                exclude=[AccessDeniedError],
                throw_new_error_on_trip=False,
                name=provider,
            )
            self._breakers[provider] = breaker
        return breaker

    def state(self, provider: str) -> str:
        """``closed``, ``open`` or ``half-open``."""
        return self.get(provider).current_state

    async def call(self, provider: str, fn: Callable[[], Awaitable[T]]) -> T:
        """Await ``fn()`` through the provider's breaker.

        Raises:
            CircuitOpenError: the circuit is open (the call is not made).
        """
        breaker = self.get(provider)
        try:
            with breaker.calling():
                return await fn()
        except pybreaker.CircuitBreakerError as exc:
            raise CircuitOpenError(
                f"{provider}: circuit open after {self.fail_max} failures; "
                f"retry after {self.reset_timeout:.0f}s"
            ) from exc
