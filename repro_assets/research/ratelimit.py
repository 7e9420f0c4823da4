"""Rate limits: per key (a provider, or ``host:<name>`` for page fetches), one request per slot.

Two implementations of one interface, :class:`RateLimiter`:

* :class:`PostgresRateLimiter`, what the research asset, the CLI and the API use: the limit is
  shared by every session in every process that uses the same database. A caller reserves the
  next free slot of its key with one atomic ``UPDATE ... RETURNING`` on ``research_rate_slots``
  (``next_at = greatest(next_at, now) + 1/rps``), then sleeps until its slot. The row lock
  serializes reservations; the slot times come from the database clock, so the processes'
  clocks do not matter. A reserved slot is never given to another caller (a caller that dies
  after reserving wastes one slot: the limit errs on the safe side).
* :class:`RateLimiterRegistry` (aiolimiter), for a single process: providers use it when no
  shared limiter is bound (a provider used on its own), and the fake-clock tests use it.

Both are leaky buckets of capacity 1: two requests of one key are never closer than
``1 / requests_per_second``. Every HTTP request counts (PubMed's esearch and efetch are two).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from aiolimiter import AsyncLimiter

from repro_assets.storage.database import Database


class RateLimiter(Protocol):
    """Waits until one more request of ``key`` is allowed."""

    async def acquire(self, key: str, requests_per_second: float) -> None:
        """Wait for the next slot of ``key``."""


def _check_rate(key: str, requests_per_second: float) -> None:
    if requests_per_second <= 0:
        raise ValueError(f"requests_per_second must be > 0 for {key}")


class RateLimiterRegistry:
    """One in-process :class:`AsyncLimiter` per key."""

    def __init__(self) -> None:
        self._limiters: dict[str, AsyncLimiter] = {}

    def limiter(self, key: str, requests_per_second: float) -> AsyncLimiter:
        """The limiter of ``key`` (created on first use).

        Raises:
            ValueError: non-positive rate.
        """
        _check_rate(key, requests_per_second)
        limiter = self._limiters.get(key)
        if limiter is None:
            limiter = AsyncLimiter(max_rate=1, time_period=1.0 / requests_per_second)
            self._limiters[key] = limiter
        return limiter

    async def acquire(self, key: str, requests_per_second: float) -> None:
        """Wait until a request of ``key`` is allowed."""
        await self.limiter(key, requests_per_second).acquire()


RESERVE_SQL = """
WITH now_ AS (SELECT clock_timestamp() AS t),
ensured AS (
    INSERT INTO research_rate_slots (key, next_at) VALUES (%(key)s, (SELECT t FROM now_))
    ON CONFLICT (key) DO NOTHING
)
UPDATE research_rate_slots s
   SET next_at = greatest(s.next_at, n.t) + make_interval(secs => %(interval)s)
  FROM now_ n
 WHERE s.key = %(key)s
RETURNING extract(epoch FROM (greatest(s.next_at, n.t) - n.t))
"""


class PostgresRateLimiter:
    """A rate limit shared by all sessions and processes on one database.

    Args:
        db: the project database (``research_rate_slots`` is created by migration 071).
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    def reserve(self, key: str, requests_per_second: float) -> float:
        """Reserve the next slot of ``key``; returns the seconds to wait until it."""
        _check_rate(key, requests_per_second)
        interval = 1.0 / requests_per_second
        with self.db.connection() as conn:
            for _ in range(2):  # the first call of a new key inserts its row
                row = conn.execute(RESERVE_SQL, {"key": key, "interval": interval}).fetchone()
                if row is not None:
                    return max(0.0, float(row[0]))
        raise RuntimeError(f"could not reserve a rate-limit slot for {key}")

    async def acquire(self, key: str, requests_per_second: float) -> None:
        """Reserve a slot (in a worker thread) and sleep until it."""
        wait = await asyncio.to_thread(self.reserve, key, requests_per_second)
        if wait > 0:
            await asyncio.sleep(wait)
