"""Scripted search providers for workflow tests (no network)."""

from __future__ import annotations

import asyncio
from typing import Any

from repro_assets.research.providers.base import SearchProvider, make_result

NAMES = ["Alpha Forecast Model", "Beta Habitat Network", "Gamma Survey Protocol",
         "Delta Ensemble Method", "Epsilon Occupancy Index", "Zeta Drift Detector",
         "Eta Transfer Scheme", "Theta Calibration Test", "Iota Benchmark Suite",
         "Kappa Field Dataset", "Lambda Audit Procedure", "Mu Validation Study"]


def batch(source: str, n: int, per_batch: int = 3) -> list[dict]:
    """``per_batch`` results with fresh entities and claim sentences (batch ``n``)."""
    out = []
    for k in range(per_batch):
        i = n * per_batch + k
        name = NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" V{i}")
        other = NAMES[(i + 5) % len(NAMES)]
        out.append(make_result(
            url=f"https://{source}-{i}.example.org/paper/{i}",
            title=f"Study {i} of {name}",
            snippet=(f"The {name} improves forecast skill by {10 + i}% over baselines in "
                     f"ecological monitoring study number {i}. Field trials show that "
                     f"{other} reduces false alarms for conservation managers in region {i}."),
            source_name=source, quality_score=0.7,
            metadata={"authors": [f"Author{i} Person"]},
        ))
    return out


class ScriptedProvider(SearchProvider):
    """Returns a fresh batch for the first ``fresh_queries`` distinct queries, then repeats."""

    def __init__(self, name: str = "scripted", kind: str = "academic", fresh_queries: int = 4,
                 rps: float = 100.0, errors: list[BaseException] | None = None,
                 available: bool = True, per_batch: int = 3) -> None:
        self._name = name
        self.kind = kind  # type: ignore[assignment]
        self.fresh_queries = fresh_queries
        self.rps = rps
        self.errors = list(errors or [])
        self.available = available
        self.per_batch = per_batch
        self.calls: list[str] = []
        self.stamps: list[float] = []  # event-loop time of each request, after its rate limit
        self.seen: list[str] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def requests_per_second(self) -> float:
        return self.rps

    async def search(self, query: str, max_results: int = 10,
                     filters: dict[str, Any] | None = None, *,
                     timeout: float | None = None) -> list[dict]:
        await self.throttle()  # one request per search, rate-limited like a real provider
        self.stamps.append(asyncio.get_running_loop().time())
        self.calls.append(query)
        if self.errors:
            raise self.errors.pop(0)
        if query not in self.seen:
            self.seen.append(query)
        index = self.seen.index(query)
        return batch(self.name, index if index < self.fresh_queries else 0, self.per_batch)

    async def is_available(self) -> bool:
        return self.available
