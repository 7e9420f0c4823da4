"""Per-provider rate limiting with aiolimiter (seed 3.2).

Each provider gets a leaky bucket of capacity 1 that drains at ``requests_per_second``: two
calls are never closer than ``1 / rps`` seconds, so Semantic Scholar never exceeds 1 rps.
The limit is per *search call*; providers that make two HTTP requests per search (PubMed)
declare half their per-request limit. The registry belongs to one agent (one event loop).
"""

from __future__ import annotations

from aiolimiter import AsyncLimiter


class RateLimiterRegistry:
    """One :class:`AsyncLimiter` per provider name."""

    def __init__(self) -> None:
        self._limiters: dict[str, AsyncLimiter] = {}

    def limiter(self, provider: str, requests_per_second: float) -> AsyncLimiter:
        """The limiter of ``provider`` (created on first use).

        Raises:
            ValueError: non-positive rate.
        """
        if requests_per_second <= 0:
            raise ValueError(f"requests_per_second must be > 0 for {provider}")
        limiter = self._limiters.get(provider)
        if limiter is None:
            limiter = AsyncLimiter(max_rate=1, time_period=1.0 / requests_per_second)
            self._limiters[provider] = limiter
        return limiter

    async def acquire(self, provider: str, requests_per_second: float) -> None:
        """Wait until a request to ``provider`` is allowed."""
        await self.limiter(provider, requests_per_second).acquire()
