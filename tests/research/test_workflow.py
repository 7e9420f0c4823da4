"""The research workflow: saturation stopping, anti-patterns 3-7, audit trail, status, resume."""

from __future__ import annotations

import asyncio

import pytest

from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import AgentOptions, ResearchAgent
from repro_assets.research.errors import ProviderError, RateLimitError
from repro_assets.research.store import ResearchStore, SourceStats
from repro_assets.storage.database import get_database
from tests.research.fakes import ScriptedProvider

QUERY = "How are ecological forecasting models validated for conservation?"


class FakeSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def make_agent(providers, store=None, sleep=None, statuses=None, writer=None, **options):
    return ResearchAgent(
        {p.name: p for p in providers}, llm=OfflineClient(), store=store,
        writer=writer or (lambda key, text: f"mem://{key}"),
        options=AgentOptions(**options), sleep=sleep or FakeSleep(),
        on_status=(lambda node, st: statuses.append((node, st))) if statuses is not None
        else None,
    )


def test_cycles_until_saturation_not_an_arbitrary_count(no_network):
    """Anti-patterns 3 and 4: stop on saturation checked after every cycle, not on a count."""
    provider = ScriptedProvider(fresh_queries=4)
    state = make_agent([provider]).run("s1", QUERY, privacy_mode="cloud_allowed",
                                       max_cycles=10)
    history = state.saturation_history
    assert [c.cycle for c in history] == list(range(1, state.cycle + 1))  # checked each cycle
    assert all(not c.should_stop for c in history[:-1]) and history[-1].should_stop
    assert len(state.sources_queried) > 3  # anti-pattern 3: did not stop after 3 sources
    assert 2 < state.cycle < 10  # anti-pattern 4: stopped once saturated, well before the cap
    assert "saturation" in state.stop_reason.lower() or "coverage" in state.stop_reason.lower()
    assert "backstop" not in state.stop_reason
    assert state.final_report["stop_reason"] == state.stop_reason
    assert history[0].metrics.new_entities_ratio == 1.0


def test_cycle_cap_is_only_a_backstop(no_network):
    provider = ScriptedProvider(fresh_queries=100)
    state = make_agent([provider]).run("s2", QUERY, max_cycles=2)
    assert state.cycle == 2
    assert state.stop_reason.startswith("Cycle cap of 2 reached (backstop")
    assert not state.saturation_history[-1].reason.startswith("Cycle cap")


def test_provider_call_cap_is_a_backstop(no_network):
    provider = ScriptedProvider(fresh_queries=100)
    state = make_agent([provider], max_provider_calls=3).run("s3", QUERY, max_cycles=10)
    assert state.provider_calls == 3 == len(provider.calls)
    assert "Provider-call cap of 3" in state.stop_reason


def test_failures_are_recorded_and_research_continues(fresh_database, no_network):
    """Anti-pattern 6 (no silent failure) and 7 (bounded retry) inside the workflow."""
    store = ResearchStore(get_database())
    sleep = FakeSleep()
    limited = ScriptedProvider("semantic_scholar", errors=[RateLimitError("429")] * 5)
    broken = ScriptedProvider("crossref", errors=[ProviderError("HTTP 500", code="E_HTTP_500")])
    good = ScriptedProvider("arxiv", fresh_queries=2)
    state = make_agent([limited, broken, good], store=store, sleep=sleep).run(
        "s4", QUERY, max_cycles=4)
    assert len(limited.calls) >= 5 and limited.calls[:5] == [QUERY] * 5
    assert sleep.waits[:4] == [4.0, 4.0, 4.0, 8.0]  # exponential, bounded at 5 attempts
    failures = {(f.source_name, f.error_type, f.action) for f in state.access_failures}
    assert ("semantic_scholar", "rate_limit", "skip") in failures
    assert ("crossref", "unknown", "skip") in failures
    persisted = {(f.source_name, f.error_type) for f in store.access_failures("s4")}
    assert persisted == {(s, t) for s, t, _ in failures}
    assert state.final_report is not None and state.results
    retries = [d for d in state.decisions if d.decision.startswith("retry semantic_scholar")]
    assert len(retries) == 4
    report_failures = state.final_report["access_failures"]
    assert len(report_failures) == len(state.access_failures)


def test_plan_ranks_sources_by_past_quality(fresh_database, no_network):
    """Anti-pattern 5: source order comes from memory per domain, updated after a session."""
    store = ResearchStore(get_database())
    providers = [ScriptedProvider("crossref", fresh_queries=1),
                 ScriptedProvider("semantic_scholar", fresh_queries=1)]
    store.update_source_memory("academic", {
        "crossref": SourceStats(calls=10, failures=0, results=20, useful=19),
        "semantic_scholar": SourceStats(calls=10, failures=9, results=20, useful=0),
    })
    state = make_agent(providers, store=store).run("s5", QUERY, domain="academic",
                                                   max_cycles=1)
    order = [r.name for r in state.ranked_sources]
    assert order == ["crossref", "semantic_scholar"]  # secondary tier, but far better record
    assert state.sources_queried[0].startswith("crossref")
    store.update_source_memory("academic", {
        "crossref": SourceStats(calls=200, failures=200, results=0, useful=0)})
    state = make_agent(providers, store=store).run("s6", QUERY, domain="academic",
                                                   max_cycles=1)
    assert [r.name for r in state.ranked_sources][0] == "semantic_scholar"
    memory = dict(store.get_ranked_sources("academic"))
    assert set(memory) == {"crossref", "semantic_scholar"}


def test_privacy_local_only_uses_only_local_providers(no_network):
    local = ScriptedProvider("local", kind="local", fresh_queries=2)
    cloud = ScriptedProvider("tavily", kind="web")
    state = make_agent([local, cloud]).run("s7", QUERY, privacy_mode="local_only", max_cycles=3)
    assert cloud.calls == [] and local.calls
    skipped = state.decisions[1].data["skipped"]
    assert "tavily: not allowed in local_only mode" in skipped


def test_unavailable_providers_are_skipped_and_logged(no_network):
    missing_key = ScriptedProvider("exa", kind="web", available=False)
    ok = ScriptedProvider("arxiv", fresh_queries=1)
    state = make_agent([missing_key, ok]).run("s8", QUERY, max_cycles=2)
    assert missing_key.calls == []
    assert "exa: not configured" in state.decisions[1].data["skipped"]


def test_audit_trail_and_plain_language_status(fresh_database, no_network):
    """Every node's decision is in the audit trail; a status line is streamed after each."""
    store = ResearchStore(get_database())
    statuses: list = []
    state = make_agent([ScriptedProvider(fresh_queries=3)], store=store,
                       statuses=statuses).run("s9", QUERY, max_cycles=6)
    nodes = [node for node, _ in statuses]
    assert nodes[:2] == ["clarify", "plan"]
    assert nodes[2:6] == ["collect", "process", "analyze", "evaluate"]
    assert nodes[-3:] == ["synthesize", "export", "done"]
    assert nodes.count("evaluate") == state.cycle
    decided = {d.node for d in state.decisions}
    assert {"clarify", "plan", "collect", "process", "analyze", "evaluate", "synthesize",
            "export"} <= decided
    evaluations = [d for d in state.decisions if d.node == "evaluate"]
    assert len(evaluations) == state.cycle
    assert all({"new_entities_ratio", "source_coverage"} <= set(d.data) for d in evaluations)
    row = store.session("s9")
    assert row["status"] == "completed" and row["status_line"].startswith("Done after")
    from repro_assets.research.report import plain_language_status

    collect_state = next(st for node, st in statuses if node == "collect")
    assert plain_language_status(collect_state).startswith("Searching (cycle 1 of at most 6)")
    assert state.final_report["decisions"]


def test_stop_request_synthesizes_from_what_was_collected(fresh_database, no_network):
    store = ResearchStore(get_database())
    statuses: list = []

    def on_status(node, st):
        statuses.append(node)
        if node == "evaluate" and st.cycle == 1:
            store.request_stop(st.session_id)

    agent = make_agent([ScriptedProvider(fresh_queries=100)], store=store)
    agent.on_status = on_status
    state = agent.run("s10", QUERY, max_cycles=8)
    assert state.cycle == 1
    assert state.stop_reason == "Stopped early at the user's request"
    assert state.final_report["facts"] and "user's request" in state.final_report["stop_reason"]
    assert store.session("s10")["status"] == "stopped"


class Crash(BaseException):
    """Simulates the process being killed (not an Exception: nothing may catch it)."""


def test_resume_after_crash_between_cycles(fresh_database, no_network):
    store = ResearchStore(get_database())
    provider = ScriptedProvider(fresh_queries=4)

    def crash_after_first_cycle(node, st):
        if node == "collect" and st.cycle == 2:
            raise Crash()

    agent = make_agent([provider], store=store)
    agent.on_status = crash_after_first_cycle
    with pytest.raises(Crash):
        agent.run("s11", QUERY, max_cycles=10)
    assert store.checkpoint_cycles("s11") == [0, 1]
    assert store.session("s11")["status"] == "running"
    calls_before = list(provider.calls)
    checkpoint = store.latest_checkpoint("s11")
    assert checkpoint.cycle == 1 and checkpoint.saturation_history[0].cycle == 1

    resumed = make_agent([provider], store=store).run("s11", QUERY, max_cycles=10)
    assert any(d.node == "resume" for d in resumed.decisions)
    assert [c.cycle for c in resumed.saturation_history] == list(range(1, resumed.cycle + 1))
    # cycle 1 was not redone: its search ran once; the crashed cycle 2 searches ran again
    assert provider.calls.count(QUERY) == 1
    assert len(provider.calls) > len(calls_before)
    assert resumed.final_report is not None
    assert store.session("s11")["status"] == "completed"
    # a completed session re-run starts fresh (no resume)
    again = make_agent([ScriptedProvider(fresh_queries=4)], store=store).run(
        "s11", QUERY, max_cycles=10)
    assert not any(d.node == "resume" for d in again.decisions)


def test_clarify_records_at_most_two_questions(no_network):
    state = make_agent([ScriptedProvider(fresh_queries=1)]).run("s12", "transformers",
                                                                max_cycles=1)
    assert 1 <= len(state.clarifying_questions) <= 2
    assert state.final_report["clarifying_questions"] == state.clarifying_questions


def test_rate_limit_of_providers_holds_inside_the_workflow(virtual_loop, no_network):
    """Semantic Scholar calls made by collect are at least 1 s apart (fake clock)."""
    provider = ScriptedProvider("semantic_scholar", fresh_queries=6, rps=1.0)
    agent = make_agent([provider], follow_ups_per_cycle=4, follow_up_providers=1)
    agent_loop_factory = asyncio.new_event_loop
    asyncio.new_event_loop = lambda: virtual_loop  # type: ignore[assignment]
    try:
        agent.run("s13", QUERY, max_cycles=3)
    finally:
        asyncio.new_event_loop = agent_loop_factory  # type: ignore[assignment]
    stamps = provider.stamps
    assert len(stamps) >= 4
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    assert min(gaps) >= 1.0 - 1e-6


def test_collect_fetches_full_pages_respecting_robots(no_network):
    """Web results get their full page; robots.txt and paywalls are recorded and skipped."""
    import httpx
    import respx

    from repro_assets.research.providers.base import make_result
    from repro_assets.research.providers.fetcher import PageFetcher

    class WebProvider(ScriptedProvider):
        async def search(self, query, max_results=10, filters=None, *, timeout=None):
            self.calls.append(query)
            return [make_result(url=f"https://web.test/{p}", title=p, snippet="short",
                                source_name=self.name) for p in ("open", "private", "paid")]

    with respx.mock:
        respx.get("https://web.test/robots.txt").mock(
            return_value=httpx.Response(200, text="User-agent: *\nDisallow: /private\n"))
        respx.get("https://web.test/open").mock(return_value=httpx.Response(
            200, headers={"content-type": "text/html"},
            text="<p>Ecological forecasting models for conservation are validated against "
                 "field surveys: the Omega Sensor Array improves detection rates by 30% in "
                 "field tests of these forecasts.</p>"))
        respx.get("https://web.test/paid").mock(return_value=httpx.Response(402))
        agent = make_agent([WebProvider("tavily", kind="web")], fetch_pages=3)
        agent.fetcher = PageFetcher()
        state = agent.run("s14", QUERY, max_cycles=1)
    opened = next(r for r in state.results if r.url.endswith("/open"))
    assert "Omega Sensor Array" in opened.full_content
    assert any("Omega Sensor Array" in f.statement for f in state.facts_extracted)
    failures = {(f.url, f.error_type) for f in state.access_failures}
    assert failures == {("https://web.test/private", "robots_disallowed"),
                        ("https://web.test/paid", "paywall")}
    assert state.provider_calls == 1 + 3  # one search + three fetch attempts (all counted)
