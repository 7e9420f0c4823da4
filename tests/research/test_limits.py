"""Limits that hold (issue #16 item 6), each reproduced defect first.

Reproduced defects: the rate limiter was per session (two sessions hit Semantic Scholar 0.001 s
apart; nothing across processes); PubMed made 2 calls per search at a declared 3/s; a stop sent
before the agent started was lost; a crash left the session "running" forever; resuming with
other arguments crashed or silently ignored them; PDFs and binary responses were decoded as
text; report.html rendered raw HTML from fetched pages; the "wikipedia" exclusion compared
provider names; local_only trusted any OpenAI-compatible endpoint as local.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
import respx

from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import AgentOptions, ResearchAgent
from repro_assets.research.errors import ResearchConfigError, UnsupportedContentError
from repro_assets.research.models import Fact, Provenance, ResearchState, SourceResult
from repro_assets.research.privacy import llm_allowed
from repro_assets.research.providers.base import make_result
from repro_assets.research.providers.fetcher import PageFetcher
from repro_assets.research.providers.pubmed import PubMedProvider
from repro_assets.research.providers.semantic_scholar import SemanticScholarProvider
from repro_assets.research.ratelimit import RateLimiterRegistry
from repro_assets.research.report import export, synthesize
from repro_assets.research.store import ResearchStore
from repro_assets.storage.database import get_database
from tests.research.fakes import ScriptedProvider
from tests.research.local_site import local_site

QUERY = "How are ecological forecasting models validated for conservation?"
PROJECT = Path(__file__).resolve().parents[2]


class FakeSleep:
    async def __call__(self, seconds: float) -> None:
        return None


def make_agent(providers, store=None, **options):
    return ResearchAgent({p.name: p for p in providers}, llm=OfflineClient(), store=store,
                         writer=lambda key, text: f"mem://{key}",
                         options=AgentOptions(**options), sleep=FakeSleep())


def _gaps(stamps: list[float]) -> list[float]:
    ordered = sorted(stamps)
    return [b - a for a, b in zip(ordered, ordered[1:], strict=False)]


def assert_shared_rate(stamps: list[float], interval: float) -> None:
    """Requests from several senders arrive at one shared rate (a rate property).

    The span of ``n`` requests is at least ``n - 1`` slots: independent limiters would overlap
    and finish in about ``1 / senders`` of it. The gap between two arrivals is not asserted: the
    limiter spaces the slots it grants, but on a loaded machine a sender that wakes late for its
    slot arrives close to the next sender's request (a wall-clock figure, not the limiter's).
    """
    ordered = sorted(stamps)
    span = ordered[-1] - ordered[0]
    assert span >= 0.9 * (len(ordered) - 1) * interval, (span, _gaps(ordered))


# -- PubMed counts every HTTP call -------------------------------------------------------------
def test_pubmed_counts_every_http_call(virtual_loop, fixture_text, no_network):
    stamps: list[float] = []

    def reply(body: str):
        def side_effect(request):
            stamps.append(virtual_loop.time())
            return httpx.Response(200, text=body)
        return side_effect

    with respx.mock:
        respx.get("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi").mock(
            side_effect=reply(fixture_text("esearch_pubmed_term_biopython.xml")))
        respx.get("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/efetch.fcgi").mock(
            side_effect=reply(fixture_text("efetch_pubmed_xml_11748933_11700088.xml")))
        provider = PubMedProvider()
        provider.bind_limiter(RateLimiterRegistry())

        async def three_searches() -> None:
            for _ in range(3):
                await provider.search("biopython", 20)

        virtual_loop.run_until_complete(three_searches())
    assert len(stamps) == 6  # esearch + efetch per search, each one counted
    assert min(_gaps(stamps)) >= 1 / 3 - 1e-6  # 3 requests per second, never more


# -- shared limits across sessions and processes ----------------------------------------------
class TwoPerSecondS2(SemanticScholarProvider):
    """Semantic Scholar at 2 rps so the test is short; the limit logic is the same."""

    @property
    def requests_per_second(self) -> float:
        return 2.0


def _s2_route(fixture_text):
    data = json.loads(fixture_text("graph_v1_paper_search_turing_allfields_limit100.json"))

    def search(query: dict[str, list[str]]):
        n = int(query.get("limit", ["5"])[0])
        return 200, "application/json", json.dumps({**data, "data": data["data"][:n]}).encode()

    return search


def test_two_concurrent_sessions_share_the_provider_limit(fresh_database, fixture_text):
    """Spacing between requests at the server, from two sessions running at once."""
    store = ResearchStore(get_database())
    errors: list[BaseException] = []
    with local_site({"/graph/v1/paper/search": _s2_route(fixture_text)}) as site:
        def session(session_id: str) -> None:
            provider = TwoPerSecondS2()
            provider.BASE_URL = site.url + "/graph/v1"
            try:
                make_agent([provider], store=store, max_results=5, follow_ups_per_cycle=1,
                           follow_up_providers=1, fetch_pages=0).run(
                    session_id, "large transformer language model training", max_cycles=2)
            except BaseException as exc:  # surfaced below
                errors.append(exc)

        threads = [threading.Thread(target=session, args=(f"rl-{i}",)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        hits = site.hits("/graph/v1/paper/search")
    assert not errors, errors
    assert len(hits) >= 2
    assert_shared_rate(hits, 0.5)  # 2 rps shared by both sessions


SCRIPT = textwrap.dedent("""
    import asyncio, sys
    from repro_assets.research.providers.semantic_scholar import SemanticScholarProvider
    from repro_assets.research.ratelimit import PostgresRateLimiter
    from repro_assets.storage.database import get_database

    class TwoPerSecond(SemanticScholarProvider):
        @property
        def requests_per_second(self):
            return 2.0

    provider = TwoPerSecond()
    provider.BASE_URL = sys.argv[1]
    provider.bind_limiter(PostgresRateLimiter(get_database()))

    async def main():
        for _ in range(3):
            await provider.search("turing", 2)

    asyncio.run(main())
""")


def test_two_processes_share_the_provider_limit(fresh_database, fixture_text, tmp_path):
    script = tmp_path / "searcher.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "REPRO_DATABASE_URL": fresh_database,
           "PYTHONPATH": str(PROJECT)}
    with local_site({"/graph/v1/paper/search": _s2_route(fixture_text)}) as site:
        procs = [subprocess.Popen([sys.executable, str(script), site.url + "/graph/v1"],
                                  env=env, cwd=PROJECT, stderr=subprocess.PIPE)
                 for _ in range(2)]
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err.decode()[-2000:]
        hits = site.hits("/graph/v1/paper/search")
    assert len(hits) == 6
    assert_shared_rate(hits, 0.5)  # 2 rps shared by both processes


# -- session lifecycle -----------------------------------------------------------------------
def test_stop_sent_before_the_agent_starts_is_honoured(fresh_database, no_network):
    store = ResearchStore(get_database())
    store.create_session("sb-1", QUERY, "cloud_allowed", "auto", 3)  # what POST /start does
    assert store.request_stop("sb-1")
    provider = ScriptedProvider()
    state = make_agent([provider], store=store).run("sb-1", QUERY, max_cycles=3)
    assert provider.calls == []
    assert state.stop_reason == "Stopped early at the user's request"
    assert store.session("sb-1")["status"] == "stopped"


def test_an_unexpected_exception_marks_the_session_failed(fresh_database, no_network):
    store = ResearchStore(get_database())
    agent = make_agent([ScriptedProvider()], store=store)

    def bug(node, state):
        if node == "process":
            raise RuntimeError("a bug in a node")

    agent.on_status = bug
    with pytest.raises(RuntimeError):
        agent.run("cr-1", QUERY, max_cycles=3)
    row = store.session("cr-1")
    assert row["status"] == "failed"
    assert row["stop_reason"].startswith("E_RESEARCH_CRASHED")


class Crash(BaseException):
    """The process dies (nothing may catch it)."""


def test_resume_with_other_arguments_is_refused(fresh_database, no_network):
    store = ResearchStore(get_database())
    agent = make_agent([ScriptedProvider(fresh_queries=4)], store=store)

    def crash(node, state):
        if node == "collect" and state.cycle == 2:
            raise Crash()

    agent.on_status = crash
    with pytest.raises(Crash):
        agent.run("rs-1", QUERY, max_cycles=5)
    for kwargs in ({"query": "another question entirely"},
                   {"privacy_mode": "local_only"}, {"max_cycles": 9}):
        args = {"query": QUERY, "privacy_mode": "cloud_allowed", "max_cycles": 5, **kwargs}
        query = args.pop("query")
        with pytest.raises(ResearchConfigError) as info:
            make_agent([ScriptedProvider()], store=store).run("rs-1", query, **args)
        assert info.value.code == "E_RESUME_MISMATCH"
        assert str(next(iter(kwargs.values()))) in str(info.value)
    resumed = make_agent([ScriptedProvider(fresh_queries=4)], store=store).run(
        "rs-1", QUERY, max_cycles=5)
    assert any(d.node == "resume" for d in resumed.decisions)


def test_reaper_marks_sessions_without_heartbeat_failed(fresh_database):
    store = ResearchStore(get_database())
    store.start_session("hb-1", QUERY, "cloud_allowed", "auto", 3)
    with store.db.connection() as conn:
        conn.execute("UPDATE research_sessions SET heartbeat_at = now() - interval '1 hour',"
                     " owner = 'elsewhere:1' WHERE session_id = 'hb-1'")
    store.start_session("hb-2", QUERY, "cloud_allowed", "auto", 3)
    assert store.reap_stale_sessions(stale_after_s=60) == ["hb-1"]
    row = store.session("hb-1")
    assert row["status"] == "failed" and row["stop_reason"].startswith("E_SESSION_LOST")
    assert store.session("hb-2")["status"] == "running"


# -- content types ---------------------------------------------------------------------------
def _pdf_bytes(text: str) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.drawString(72, 760, text)
    pdf.save()
    return buffer.getvalue()


@respx.mock
def test_fetcher_handles_responses_by_type(no_network):
    respx.get("https://docs.test/robots.txt").mock(return_value=httpx.Response(404))
    sentence = "The Omega sensor improves detection rates by 30 percent in field tests."
    respx.get("https://docs.test/paper").mock(return_value=httpx.Response(
        200, headers={"content-type": "application/pdf"}, content=_pdf_bytes(sentence)))
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    respx.get("https://docs.test/figure").mock(return_value=httpx.Response(
        200, headers={"content-type": "image/png"}, content=png))
    respx.get("https://docs.test/blob").mock(return_value=httpx.Response(
        200, headers={"content-type": "application/octet-stream"}, content=bytes(range(256))))
    fetcher = PageFetcher()
    page = asyncio.run(fetcher.fetch("https://docs.test/paper"))
    assert sentence in " ".join(page["text"].split())
    assert page["content_type"] == "application/pdf"
    for url in ("https://docs.test/figure", "https://docs.test/blob"):
        with pytest.raises(UnsupportedContentError) as info:
            asyncio.run(fetcher.fetch(url))
        assert info.value.error_type == "unsupported_content"


# -- report.html -----------------------------------------------------------------------------
PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def xss_state() -> ResearchState:
    url = "https://evil.test/page"
    statement = f"The Omega sensor improves detection by 30 percent {PAYLOAD} in trials."
    return ResearchState(
        session_id="xss", original_query=f"omega sensor {PAYLOAD}", refined_query="omega",
        results=[SourceResult(url=url, title=f"Evil {PAYLOAD}", snippet=statement,
                              source_name="tavily")],
        facts_extracted=[Fact(id="F1", statement=statement, sources=[url], relevance=0.9,
                              provenance=[Provenance(url=url, source_name="tavily",
                                                     quote=statement)])],
        stop_reason=f"done {PAYLOAD}", cycle=1,
    )


def test_report_html_escapes_everything_it_did_not_generate():
    from lxml import html as lxml_html

    report, _, _ = synthesize(xss_state(), None, False)
    written: dict[str, str] = {}
    export(report, lambda key, text: written.setdefault(key, text), "research/xss")
    page = written["research/xss/report.html"]
    tree = lxml_html.fromstring(page)
    assert not tree.xpath("//img | //script | //iframe")
    assert not [a for el in tree.iter() if isinstance(el.tag, str) for a in el.attrib
                if a.lower().startswith("on")]
    assert "onerror" in tree.text_content()  # shown as text, inert


# -- exclusions and privacy ------------------------------------------------------------------
class WebResults(ScriptedProvider):
    async def search(self, query, max_results=10, filters=None, *, timeout=None):
        self.calls.append(query)
        return [make_result(url=u, title="Metformin and glucose", source_name=self.name,
                            snippet="Metformin lowers blood glucose in type 2 diabetes patients.")
                for u in ("https://en.wikipedia.org/wiki/Metformin",
                          "https://www.wikipedia.org/x", "https://diabetes-journal.test/a")]


def test_wikipedia_exclusion_compares_url_hosts(no_network):
    state = make_agent([WebResults("brave", kind="web")], fetch_pages=0).run(
        "ex-1", "metformin treatment for type 2 diabetes patients", domain="medical",
        max_cycles=1)
    assert [r.url for r in state.results] == ["https://diabetes-journal.test/a"]
    assert any("excluded" in d.reason for d in state.decisions if d.node == "collect")


@pytest.mark.parametrize(("url", "allowed"), [
    ("http://127.0.0.1:8000/v1", True),
    ("http://localhost:11434/v1", True),
    ("http://10.1.2.3/v1", True),
    ("http://192.168.0.7:8080/v1", True),
    ("http://[::1]:8000/v1", True),
    ("https://api.openai.com/v1", False),
    ("https://8.8.8.8/v1", False),
    ("", False),
])
def test_local_only_accepts_only_local_llm_hosts(url, allowed, monkeypatch):
    monkeypatch.delenv("REPRO_LLM_BASE_URL", raising=False)
    llm = SimpleNamespace(available=True, provider="openai_compatible",
                          config=SimpleNamespace(base_url=url or None))
    assert llm_allowed("local_only", llm) is allowed
    assert llm_allowed("cloud_allowed", llm) is True
