"""Rate limiting (fake clock), retry policy, circuit breaker, obstacle decision tree, fetcher."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx

from repro_assets.research.breaker import BreakerRegistry
from repro_assets.research.errors import (
    AccessDeniedError,
    CaptchaError,
    CircuitOpenError,
    PaywallError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ResearchConfigError,
    RobotsDisallowedError,
)
from repro_assets.research.models import AccessFailure
from repro_assets.research.obstacles import Action, ObstacleHandler, classify
from repro_assets.research.providers.fetcher import PageFetcher
from repro_assets.research.providers.semantic_scholar import SemanticScholarProvider
from repro_assets.research.ratelimit import RateLimiterRegistry
from repro_assets.research.retry import RetryPolicy


# -- rate limiting ---------------------------------------------------------------------------
def test_semantic_scholar_never_exceeds_one_request_per_second(virtual_loop):
    limiters = RateLimiterRegistry()
    provider = SemanticScholarProvider()
    stamps: list[float] = []

    async def call() -> None:
        await limiters.acquire(provider.name, provider.requests_per_second)
        stamps.append(virtual_loop.time())

    async def burst() -> None:
        await asyncio.gather(*(call() for _ in range(12)))
        await asyncio.sleep(5.0)  # idle: the bucket drains, still at most 1 per second
        await asyncio.gather(*(call() for _ in range(4)))

    virtual_loop.run_until_complete(burst())
    assert len(stamps) == 16
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    assert min(gaps) >= 1.0 - 1e-6
    # every 1-second window holds at most one request
    for i, t in enumerate(stamps):
        assert sum(1 for s in stamps[i:] if s < t + 1.0 - 1e-6) == 1
    # and the limiter does not over-throttle: 12 calls take about 11 virtual seconds
    assert stamps[11] - stamps[0] == pytest.approx(11.0, abs=0.05)


def test_limits_are_per_provider(virtual_loop):
    limiters = RateLimiterRegistry()
    stamps: dict[str, list[float]] = {"slow": [], "fast": []}

    async def call(name: str, rps: float) -> None:
        await limiters.acquire(name, rps)
        stamps[name].append(virtual_loop.time())

    async def both() -> None:
        await asyncio.gather(*(call("slow", 1 / 3) for _ in range(3)),
                             *(call("fast", 5.0) for _ in range(10)))

    virtual_loop.run_until_complete(both())
    start = min(stamps["slow"] + stamps["fast"])
    assert stamps["slow"][-1] - start == pytest.approx(6.0, abs=0.05)  # arXiv: 1 per 3 s
    assert stamps["fast"][-1] - start == pytest.approx(1.8, abs=0.05)  # 5 rps
    with pytest.raises(ValueError):
        limiters.limiter("bad", 0)


# -- retry ------------------------------------------------------------------------------------
class FakeSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def test_retry_rate_limit_five_attempts_exponential_4_to_60():
    sleep = FakeSleep()
    calls: list[float] = []

    async def always_429(timeout: float) -> list:
        calls.append(timeout)
        raise RateLimitError("429")

    with pytest.raises(RateLimitError):
        asyncio.run(RetryPolicy(sleep=sleep).call(always_429))
    assert len(calls) == 5  # anti-pattern 7: bounded
    # the seed's wait_exponential(multiplier=1, min=4, max=60): 2**n seconds clamped to 4..60
    assert sleep.waits == [4.0, 4.0, 4.0, 8.0]
    assert all(4.0 <= w <= 60.0 for w in sleep.waits)


def test_retry_honours_retry_after_capped_at_60_and_recovers():
    sleep = FakeSleep()
    outcomes = [RateLimitError("429", retry_after=30), RateLimitError("429", retry_after=600)]

    async def flaky(timeout: float) -> str:
        if outcomes:
            raise outcomes.pop(0)
        return "ok"

    assert asyncio.run(RetryPolicy(sleep=sleep).call(flaky)) == "ok"
    assert sleep.waits == [30.0, 60.0]


def test_timeouts_retry_with_longer_timeout_at_most_three():
    sleep = FakeSleep()
    timeouts: list[float] = []

    async def slow(timeout: float) -> list:
        timeouts.append(timeout)
        raise ProviderTimeoutError("slow")

    with pytest.raises(ProviderTimeoutError):
        asyncio.run(RetryPolicy(base_timeout=10, sleep=sleep).call(slow))
    assert timeouts == [10, 20, 40]


@pytest.mark.parametrize("error", [AccessDeniedError("403"), ProviderError("500"),
                                   ValueError("bug"), CircuitOpenError("open")])
def test_other_errors_are_not_retried(error):
    sleep = FakeSleep()
    calls = []

    async def fail(timeout: float) -> list:
        calls.append(timeout)
        raise error

    with pytest.raises(type(error)):
        asyncio.run(RetryPolicy(sleep=sleep).call(fail))
    assert len(calls) == 1 and sleep.waits == []


# -- circuit breaker ---------------------------------------------------------------------------
def test_breaker_opens_after_five_failures_then_half_open_probe():
    breakers = BreakerRegistry()
    made: list[str] = []

    async def failing() -> None:
        made.append("call")
        raise ProviderError("boom")

    async def working() -> str:
        made.append("call")
        return "ok"

    async def scenario() -> None:
        for _ in range(5):
            with pytest.raises(ProviderError):
                await breakers.call("s2", failing)
        assert breakers.state("s2") == "open"
        with pytest.raises(CircuitOpenError):
            await breakers.call("s2", working)  # rejected without a call
        assert len(made) == 5
        storage = breakers.get("s2")._state_storage
        storage.opened_at = datetime.now(UTC) - timedelta(seconds=61)  # recovery elapsed
        with pytest.raises(ProviderError):
            await breakers.call("s2", failing)  # half-open probe fails -> open again
        assert breakers.state("s2") == "open"
        with pytest.raises(CircuitOpenError):
            await breakers.call("s2", working)
        storage.opened_at = datetime.now(UTC) - timedelta(seconds=61)
        assert await breakers.call("s2", working) == "ok"  # probe succeeds -> closed
        assert breakers.state("s2") == "closed"
        assert breakers.state("other") == "closed"  # per provider

    asyncio.run(scenario())
    assert breakers.fail_max == 5 and breakers.reset_timeout == 60


def test_access_denied_does_not_trip_the_breaker():
    breakers = BreakerRegistry()

    async def denied() -> None:
        raise PaywallError("402")

    async def scenario() -> None:
        for _ in range(8):
            with pytest.raises(PaywallError):
                await breakers.call("web", denied)

    asyncio.run(scenario())
    assert breakers.state("web") == "closed"


# -- obstacle decision tree --------------------------------------------------------------------
class MemoryRecorder:
    def __init__(self) -> None:
        self.rows: list[tuple[str, AccessFailure]] = []

    def record_access_failure(self, session_id: str, failure: AccessFailure) -> None:
        self.rows.append((session_id, failure))


@pytest.mark.parametrize(
    ("error", "exhausted", "action", "error_type", "recorded"),
    [
        (RateLimitError("429", retry_after=2), False, Action.RETRY, "rate_limit", False),
        (RateLimitError("429"), True, Action.SKIP, "rate_limit", True),
        (ProviderTimeoutError("slow"), False, Action.RETRY, "timeout", False),
        (ProviderTimeoutError("slow"), True, Action.SKIP, "timeout", True),
        (AccessDeniedError("403"), True, Action.SKIP, "access_denied", True),
        (PaywallError("402"), True, Action.SKIP, "paywall", True),
        (CaptchaError("captcha"), True, Action.SKIP, "captcha", True),
        (RobotsDisallowedError("robots"), True, Action.SKIP, "robots_disallowed", True),
        (CircuitOpenError("open"), True, Action.FALLBACK, "circuit_open", True),
        (ResearchConfigError("bad"), True, Action.ABORT, "config_error", True),
        (KeyError("weird"), True, Action.SKIP, "unknown", True),
    ],
)
def test_obstacle_decision_tree(error, exhausted, action, error_type, recorded, caplog):
    recorder = MemoryRecorder()
    handler = ObstacleHandler("sess", recorder)
    got, failure = handler.handle(error, "tavily", "https://x.test/a", cycle=2,
                                  retries_exhausted=exhausted)
    assert got is action
    assert classify(error) == error_type
    assert bool(recorder.rows) is recorded
    if recorded:
        session, row = recorder.rows[0]
        assert session == "sess" and row == failure
        assert row.error_type == error_type and row.action == action.value and row.cycle == 2
    if error_type == "unknown":
        assert any("unknown_obstacle" in r.message for r in caplog.records)  # never silent


def test_access_failures_are_recorded_in_postgres(fresh_database):
    from repro_assets.research.store import ResearchStore
    from repro_assets.storage.database import get_database

    store = ResearchStore(get_database())
    handler = ObstacleHandler("pg-sess", store)
    handler.handle(PaywallError("402 at publisher"), "fetcher", "https://pub.test/x", cycle=1)
    handler.handle(CaptchaError("challenge"), "brave", "query text", cycle=1)
    rows = store.access_failures("pg-sess")
    assert [(r.source_name, r.error_type, r.action) for r in rows] == [
        ("fetcher", "paywall", "skip"), ("brave", "captcha", "skip")]


# -- page fetcher ------------------------------------------------------------------------------
ROBOTS = "User-agent: *\nDisallow: /private/\n"


@respx.mock
def test_fetcher_respects_robots_and_extracts_text(no_network):
    respx.get("https://site.test/robots.txt").mock(return_value=httpx.Response(200, text=ROBOTS))
    page = respx.get("https://site.test/public/a").mock(return_value=httpx.Response(
        200, headers={"content-type": "text/html"},
        text="<html><head><title>T</title><script>x()</script></head>"
             "<body><p>Hello <b>world</b>.</p><p>Second.</p></body></html>"))
    private = respx.get("https://site.test/private/b").mock(return_value=httpx.Response(200))
    fetcher = PageFetcher()
    out = asyncio.run(fetcher.fetch("https://site.test/public/a"))
    assert out["title"] == "T" and out["text"] == "Hello world.\nSecond."
    with pytest.raises(RobotsDisallowedError):
        asyncio.run(fetcher.fetch("https://site.test/private/b"))
    assert page.called and not private.called


@respx.mock
def test_fetcher_maps_paywall_and_captcha(no_network):
    respx.get("https://pay.test/robots.txt").mock(return_value=httpx.Response(404))
    respx.get("https://pay.test/article").mock(return_value=httpx.Response(402))
    respx.get("https://pay.test/bot").mock(return_value=httpx.Response(
        200, headers={"content-type": "text/html"},
        text="<html><form>Please verify you are human (captcha)</form></html>"))
    fetcher = PageFetcher()
    with pytest.raises(PaywallError):
        asyncio.run(fetcher.fetch("https://pay.test/article"))
    with pytest.raises(CaptchaError):
        asyncio.run(fetcher.fetch("https://pay.test/bot"))


@respx.mock
def test_fetcher_disallows_origin_when_robots_forbidden(no_network):
    respx.get("https://locked.test/robots.txt").mock(return_value=httpx.Response(403))
    with pytest.raises(RobotsDisallowedError):
        asyncio.run(PageFetcher().fetch("https://locked.test/page"))


def test_with_retry_decorator_is_bounded():
    """The seed's decorator form: 5 attempts, only rate-limit and timeout errors retried."""
    from repro_assets.research.retry import with_retry

    sleep = FakeSleep()
    calls = []

    @with_retry
    async def limited() -> None:
        calls.append(1)
        raise RateLimitError("429")

    with pytest.raises(RateLimitError):
        asyncio.run(limited.retry_with(sleep=sleep)())
    assert len(calls) == 5 and sleep.waits == [4.0, 4.0, 4.0, 8.0]
