"""The research workflow (seed section 5) as plain Python over :class:`ResearchState`.

clarify -> plan -> [collect -> process -> analyze -> evaluate] * -> synthesize -> export

The bracketed cycle repeats until the saturation check (seed section 6) says stop; hard caps on
cycles and provider calls are a backstop only. The state is checkpointed in Postgres after
every cycle, so a killed run resumes from the last completed cycle. Each node returns a partial
update merged with the seed's accumulate-or-replace semantics, logs a decision to the audit
trail and reports a plain-language status line.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import LLMClient, LLMError, Role
from repro_assets.research import prompts
from repro_assets.research.analysis import cross_verify, follow_up_entities
from repro_assets.research.answer_models import SourceText, answer_check_dict
from repro_assets.research.answering import check_answer
from repro_assets.research.breaker import BreakerRegistry
from repro_assets.research.corpus_answer import check_corpus
from repro_assets.research.domains import (
    DOMAINS,
    DomainConfiguration,
    detect_domain,
    get_domain,
    host_excluded,
)
from repro_assets.research.errors import ResearchConfigError, ResearchError
from repro_assets.research.extraction import Encoder, default_encoder, extract, merge_extraction
from repro_assets.research.models import (
    PRIVACY_MODES,
    CycleRecord,
    Decision,
    RankedSource,
    ResearchState,
    SearchTask,
    SourceResult,
    merge_update,
)
from repro_assets.research.obstacles import Action, ObstacleHandler
from repro_assets.research.privacy import llm_allowed
from repro_assets.research.providers.base import SearchProvider
from repro_assets.research.providers.fetcher import PageFetcher
from repro_assets.research.providers.local import LocalCorpusProvider
from repro_assets.research.ratelimit import (
    PostgresRateLimiter,
    RateLimiter,
    RateLimiterRegistry,
)
from repro_assets.research.relevance import (
    FACT_FLOOR,
    RESULT_FLOOR,
    score_results,
    similarities,
)
from repro_assets.research.report import export, plain_language_status, synthesize
from repro_assets.research.retry import RetryPolicy
from repro_assets.research.saturation import calculate_saturation, should_stop
from repro_assets.research.store import ResearchStore, SourceStats, process_owner

log = logging.getLogger(__name__)

TIER_PRIOR = {"primary": 0.3, "secondary": 0.15, "other": 0.0}
#: Seconds between two heartbeats of a running session (the reaper's threshold is larger).
HEARTBEAT_S = 10.0
STOPPED_BY_USER = "Stopped early at the user's request"
#: Closest sources listed as "related, does not answer" (or beside the answer).
RELATED_SOURCES = 5


class ProviderCallCapReached(ResearchError):
    """The hard cap on provider calls was reached (a backstop, not the stopping rule)."""

    code = "E_PROVIDER_CALL_CAP"


class _Heartbeat:
    """Beats for a running session in a daemon thread until stopped."""

    def __init__(self, store: ResearchStore, session_id: str, every: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(store, session_id, every),
                                        name=f"research-heartbeat-{session_id}", daemon=True)
        self._thread.start()

    def _run(self, store: ResearchStore, session_id: str, every: float) -> None:
        while not self._stop.wait(every):
            try:
                store.heartbeat(session_id)
            except Exception as exc:  # a missed beat is logged; the reaper tolerates a few
                log.warning("heartbeat of research session %s failed: %s", session_id, exc)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


@dataclass
class AgentOptions:
    """Tunables of one session.

    Attributes:
        max_results: results asked of each provider per search.
        tasks_per_cycle: planned searches executed per cycle.
        follow_ups_per_cycle: entities turned into follow-up searches per cycle.
        follow_up_providers: best-ranked providers that get follow-up searches.
        max_provider_calls: hard cap on provider calls (backstop).
        base_timeout: first attempt's timeout in seconds (doubled after a timeout).
        fetch_pages: new web results per cycle whose full page is fetched (robots.txt
            respected; 0 disables; never in local_only mode).
        fetch_rps: request rate of the page fetcher, per host.
        relevance_floor: results less similar to the question are not read (calibrated for
            all-MiniLM-L6-v2, see :mod:`repro_assets.research.relevance`).
        fact_relevance_floor: facts less similar to the question are never key points.
        heartbeat_s: seconds between two heartbeats of a running session.
    """

    max_results: int = 8
    tasks_per_cycle: int = 8
    follow_ups_per_cycle: int = 3
    follow_up_providers: int = 2
    max_provider_calls: int = 60
    base_timeout: float = 30.0
    fetch_pages: int = 3
    fetch_rps: float = 2.0
    relevance_floor: float = RESULT_FLOOR
    fact_relevance_floor: float = FACT_FLOOR
    heartbeat_s: float = HEARTBEAT_S


class ClarifyOutput(BaseModel):
    """Structured output of the clarify node's LLM call."""

    model_config = ConfigDict(extra="forbid")

    refined_query: str = Field(description="A precise, searchable research question.")
    domain: str = Field(description="medical, competitive_intelligence or academic.")
    questions: list[str] = Field(description="At most 2 clarifying questions; empty if clear.")


class ResearchAgent:
    """Runs research sessions.

    Args:
        providers: name -> provider (already filtered by privacy mode; the plan re-checks).
        llm: the LLM client (offline in tests and the demo).
        store: Postgres persistence (None: no checkpoints, memory or failure table).
        writer: ``writer(key, text) -> location`` for the exported report (None: no files).
        options: tunables.
        on_status: called with ``(node, state)`` after every node (logs, status line).
        sleep: coroutine used for backoff waits (tests pass a fake clock).
        fetcher: page fetcher for full content of web results (None: snippets only).
        limiter: rate limiter bound to every provider and the fetcher (default: shared in
            Postgres when a store is given, so sessions and processes share the limits).
        embedder: sentence embedder for relevance and fact merging (default: the project's).
    """

    def __init__(
        self,
        providers: dict[str, SearchProvider],
        llm: LLMClient | None = None,
        store: ResearchStore | None = None,
        writer: Callable[[str, str], str] | None = None,
        options: AgentOptions | None = None,
        on_status: Callable[[str, ResearchState], None] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        fetcher: PageFetcher | None = None,
        limiter: RateLimiter | None = None,
        embedder: Encoder | None = None,
    ) -> None:
        self.providers = providers
        self.fetcher = fetcher
        self.llm = llm
        self.store = store
        self.writer = writer
        self.options = options or AgentOptions()
        self.on_status = on_status
        self.limiter: RateLimiter = limiter or (
            PostgresRateLimiter(store.db) if store is not None else RateLimiterRegistry())
        for provider in providers.values():
            provider.bind_limiter(self.limiter)
        if fetcher is not None:
            fetcher.bind_limiter(self.limiter, self.options.fetch_rps)
        self._embedder = embedder
        self.breakers = BreakerRegistry()
        self.retry = RetryPolicy(base_timeout=self.options.base_timeout, sleep=sleep)
        self.state: ResearchState | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handler: ObstacleHandler | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def run(
        self,
        session_id: str,
        query: str,
        privacy_mode: str = "cloud_allowed",
        domain: str = "auto",
        max_cycles: int = 6,
        resume: bool = True,
    ) -> ResearchState:
        """Run (or resume) a session to its exported report and return the final state.

        Raises:
            ResearchConfigError: unknown privacy mode or domain, empty query, bad caps.
        """
        if privacy_mode not in PRIVACY_MODES:
            raise ResearchConfigError(
                f"unknown privacy mode {privacy_mode!r}; expected one of {PRIVACY_MODES}",
                code="E_UNKNOWN_PRIVACY_MODE",
            )
        if domain not in ("auto", "", *DOMAINS):
            get_domain(domain)  # raises E_UNKNOWN_DOMAIN
        if not query.strip():
            raise ResearchConfigError("the research query is empty", code="E_EMPTY_QUERY")
        if max_cycles < 1:
            raise ResearchConfigError("max_cycles must be >= 1", code="E_BAD_CAP")
        self._handler = ObstacleHandler(session_id, self.store)
        state = self._resume_or_start(session_id, query, privacy_mode, domain, max_cycles, resume)
        self.state = state
        heartbeat = (_Heartbeat(self.store, session_id, self.options.heartbeat_s)
                     if self.store is not None else None)
        self._loop = asyncio.new_event_loop()
        try:
            if not self._stop_requested() and state.current_phase == "starting":
                self._apply("clarify", self.clarify(state))
                self._apply("plan", self.plan(self.state))
                self._checkpoint()
            while not self.state.should_stop:
                if self._stop_requested():
                    break
                self._apply("collect", self._loop.run_until_complete(self.collect(self.state)))
                self._apply("process", self.process(self.state))
                self._apply("analyze", self.analyze(self.state))
                self._apply("evaluate", self.evaluate(self.state))
                self._checkpoint()
            return self.finish()
        except Exception as exc:  # never leave a session "running" after a failure
            self._mark_failed(session_id, exc)
            raise
        finally:
            if heartbeat is not None:
                heartbeat.stop()
            self._loop.run_until_complete(self._close_resources())
            self._loop.close()
            self._loop = None

    def _mark_failed(self, session_id: str, exc: Exception) -> None:
        if self.store is None:
            return
        code = exc.code if isinstance(exc, ResearchError) else "E_RESEARCH_CRASHED"
        log.error("research session %s failed: %s: %s", session_id, code, exc)
        try:
            self.store.finish_session(session_id, "failed",
                                      f"{code}: {type(exc).__name__}: {exc}"[:2000], None)
        except Exception as store_exc:  # the original error is what the caller must see
            log.error("could not mark research session %s failed: %s", session_id, store_exc)

    async def _close_resources(self) -> None:
        closers = [p.aclose() for p in self.providers.values()]
        if self.fetcher is not None:
            closers.append(self.fetcher.aclose())
        for outcome in await asyncio.gather(*closers, return_exceptions=True):
            if isinstance(outcome, BaseException):
                log.warning("closing a research resource failed: %s", outcome)

    @property
    def embedder(self) -> Encoder:
        """The sentence embedder (the project's configured one unless injected)."""
        if self._embedder is None:
            self._embedder = default_encoder()
        return self._embedder

    def _check_resume_arguments(
        self, row: dict[str, Any], checkpoint: ResearchState, query: str, privacy_mode: str,
        domain: str, max_cycles: int,
    ) -> None:
        """Refuse to resume a session with arguments other than the ones it started with."""
        given = {"query": query.strip(), "privacy_mode": privacy_mode,
                 "domain": domain or "auto", "max_cycles": max_cycles,
                 "max_provider_calls": self.options.max_provider_calls}
        started = {"query": checkpoint.original_query, "privacy_mode": checkpoint.privacy_mode,
                   "domain": row.get("domain") or "auto", "max_cycles": checkpoint.max_cycles,
                   "max_provider_calls": checkpoint.max_provider_calls}
        changed = [f"{k}: {started[k]!r} -> {given[k]!r}" for k in given
                   if given[k] != started[k]]
        if changed:
            raise ResearchConfigError(
                f"session {checkpoint.session_id} cannot resume with other arguments ("
                + "; ".join(changed) + "); resume it with its own arguments, or start it "
                "afresh (resume=False) or under a new session id",
                code="E_RESUME_MISMATCH",
            )

    def _resume_or_start(
        self, session_id: str, query: str, privacy_mode: str, domain: str, max_cycles: int,
        resume: bool,
    ) -> ResearchState:
        if self.store is not None:
            self.store.reap_stale_sessions(session_id=session_id)
            row = self.store.session(session_id)
            checkpoint = self.store.latest_checkpoint(session_id)
            if row and row["status"] == "running" and row["owner"] not in (None,
                                                                            process_owner()):
                raise ResearchConfigError(
                    f"session {session_id} is running in process {row['owner']}",
                    code="E_SESSION_RUNNING")
            if resume and row and row["status"] in ("running", "failed") \
                    and checkpoint is not None:
                self._check_resume_arguments(row, checkpoint, query, privacy_mode, domain,
                                             max_cycles)
                state = merge_update(checkpoint, {"decisions": [Decision(
                    node="resume", cycle=checkpoint.cycle, decision="resumed",
                    reason=f"found checkpoint after cycle {checkpoint.cycle} of an interrupted run",
                )]})
                log.info("resuming research session %s after cycle %s", session_id,
                         checkpoint.cycle)
                self.store.start_session(session_id, query, privacy_mode, domain, max_cycles,
                                         self.options.max_provider_calls)
                return state
            self.store.clear_checkpoints(session_id)
            self.store.start_session(session_id, query, privacy_mode, domain, max_cycles,
                                     self.options.max_provider_calls)
        return ResearchState(
            session_id=session_id, original_query=query.strip(), privacy_mode=privacy_mode,
            domain=domain or "auto", max_cycles=max_cycles,
            max_provider_calls=self.options.max_provider_calls,
        )

    def _apply(self, node: str, update: dict[str, Any]) -> None:
        assert self.state is not None
        update = {**update, "current_phase": node}
        self.state = merge_update(self.state, update)
        status = plain_language_status(self.state)
        (log.debug if self.on_status is not None else log.info)("[%s] %s", node, status)
        if self.store is not None:
            self.store.update_status(self.state.session_id, node, status, self.state.cycle)
        if self.on_status is not None:
            self.on_status(node, self.state)

    def _checkpoint(self) -> None:
        if self.store is not None and self.state is not None:
            self.store.save_checkpoint(self.state)

    def _stop_requested(self) -> bool:
        if self.store is None or self.state is None:
            return False
        if not self.store.stop_requested(self.state.session_id):
            return False
        self._apply("evaluate", {
            "should_stop": True, "stop_reason": STOPPED_BY_USER,
            "decisions": [Decision(node="evaluate", cycle=self.state.cycle, decision="stop",
                                   reason="a stop was requested for this session")],
        })
        return True

    def finish(self, reason: str | None = None) -> ResearchState:
        """Synthesize and export from what was collected (also used to stop early)."""
        assert self.state is not None
        if reason is not None:
            self.state = merge_update(self.state, {
                "should_stop": True, "stop_reason": reason,
                "decisions": [Decision(node="evaluate", cycle=self.state.cycle,
                                       decision="stop", reason=reason)],
            })
        if self.state.results:
            self.state = merge_update(self.state, {"answer_check": self.check_answer(self.state)})
        self.state = merge_update(self.state, {"outcome": self.outcome(self.state)})
        self._apply("synthesize", self.synthesize(self.state))
        self._apply("export", self.export(self.state))
        self._update_memory()
        self._apply("done", {})
        if self.store is not None:
            self.store.finish_session(self.state.session_id, self.session_status(self.state),
                                      self.state.stop_reason, self.state.export_path)
        return self.state

    def relevant_results(self, state: ResearchState) -> list[SourceResult]:
        """Results at or above the relevance floor (the only ones read)."""
        return [r for r in state.results
                if r.relevance is not None and r.relevance >= self.options.relevance_floor]

    def check_answer(self, state: ResearchState) -> dict[str, Any]:
        """Does a source state the asked fact? (see :mod:`repro_assets.research.answering`).

        The local corpus is read through its lexicon (every stored document, not only the
        retrieved chunks); results of other providers through their texts.
        """
        question = state.original_query
        local = self.providers.get("local")
        store = getattr(local, "_get_store", None)
        check = None
        if isinstance(local, LocalCorpusProvider) and callable(store):
            hits: list[tuple[int, int]] = [
                (r.metadata.get("document_id"), r.metadata.get("chunk_id"))  # type: ignore[misc]
                for r in state.results if r.source_name == "local"]
            try:
                check, _ = check_corpus(question, store().db, hits)
            except Exception as exc:  # a failed check never passes as an answer
                log.warning("answer check over the local corpus failed: %s", exc)
        if check is None or not check.answered:
            web = [r for r in state.results if r.source_name != "local"]
            if web or check is None:
                from repro_assets.research.report import document_of

                by_doc: dict[str, list[str]] = {}
                titles: dict[str, str] = {}
                for r in web or state.results:
                    doc = document_of(r.url)
                    by_doc.setdefault(doc, []).append(r.full_content or r.snippet or "")
                    titles.setdefault(doc, r.title)
                other = check_answer(question, [SourceText(key=k, title=titles[k],
                                                           windows=tuple(v))
                                                for k, v in by_doc.items()])
                if check is None or other.answered:
                    check = other
        related = self._related(state, check.answer.source if check.answer else None)
        return answer_check_dict(check, related)

    def _related(self, state: ResearchState, answer_source: str | None) -> list[dict[str, Any]]:
        """The closest sources by relevance (document level), best first."""
        from repro_assets.research.report import document_of

        best: dict[str, tuple[float, str]] = {}
        for r in state.results:
            doc = document_of(r.url)
            score = r.relevance or 0.0
            if doc != answer_source and score > best.get(doc, (-1.0, ""))[0]:
                best[doc] = (score, r.title)
        ranked = sorted(best.items(), key=lambda kv: -kv[1][0])[:RELATED_SOURCES]
        return [{"url": doc, "title": title, "relevance": round(score, 4)}
                for doc, (score, title) in ranked]

    def outcome(self, state: ResearchState) -> str:
        """``no_sources``, ``insufficient_evidence`` or ``answered``.

        A question that asks for a number is answered only when a source states it (the
        answer check found a grounded passage); a forecast (a future year) or a name no
        source holds is never answered.
        """
        if not state.results:
            return "no_sources"
        check = state.answer_check or {}
        if check.get("future_years") or check.get("missing_anchors"):
            return "insufficient_evidence"
        if check.get("asks_number") and not check.get("answer"):
            return "insufficient_evidence"
        if check.get("answer"):
            return "answered"
        on_topic = [f for f in state.facts_extracted
                    if f.relevance >= self.options.fact_relevance_floor]
        if not self.relevant_results(state) or not on_topic:
            return "insufficient_evidence"
        return "answered"

    @staticmethod
    def session_status(state: ResearchState) -> str:
        """The session row's final status: stopped, the honest outcome, or completed."""
        if (state.stop_reason or "").startswith("Stopped"):
            return "stopped"
        return "completed" if state.outcome == "answered" else state.outcome

    # -- nodes ------------------------------------------------------------------------------
    def _domain(self, state: ResearchState) -> DomainConfiguration:
        return get_domain(state.domain)

    def clarify(self, state: ResearchState) -> dict[str, Any]:
        """Refine the query and pick the domain; at most 2 questions, recorded not asked."""
        query = state.original_query
        detected, hits = detect_domain(query)
        domain = state.domain if state.domain in DOMAINS else detected
        refined, questions, method, note = " ".join(query.split()), [], "heuristic", None
        if llm_allowed(state.privacy_mode, self.llm):
            try:
                out = self.llm.structured(  # type: ignore[union-attr]
                    role=Role.PLANNER, system=prompts.CLARIFY_SYSTEM,
                    user=f"Query: {query}", schema=ClarifyOutput,
                ).value
                refined = out.refined_query.strip() or refined
                questions = [q.strip() for q in out.questions if q.strip()][:2]
                if state.domain not in DOMAINS and out.domain in DOMAINS:
                    domain = out.domain
                method = "llm"
            except LLMError as exc:
                note = f"clarify: LLM failed ({exc.code}); heuristic"
        if method == "heuristic":
            words = re.findall(r"\w+", query)
            if len(words) < 3:
                questions.append(f"Which aspect of \u201c{query}\u201d matters most "
                                 "(definition, methods, results, comparisons)?")
            if not re.search(r"\b(19|20)\d\d\b", query) and len(words) < 6:
                questions.append("Is there a time range the research should focus on?")
            questions = questions[:2]
        return {
            "refined_query": refined, "domain": domain, "clarifying_questions": questions,
            "llm_notes": [*state.llm_notes, *([note] if note else [])],
            "decisions": [Decision(
                node="clarify", cycle=0, decision=f"domain={domain}; {len(questions)} question(s)",
                reason=("domain given" if state.domain in DOMAINS else
                        f"keyword hits {hits}" if method == "heuristic" else "LLM classification")
                + ("; questions recorded, not asked (non-interactive run)" if questions else ""),
                data={"method": method, "refined_query": refined},
            )],
        }

    def _rank_sources(self, state: ResearchState) -> tuple[list[RankedSource], list[Decision]]:
        domain = self._domain(state)
        memory = dict(self.store.get_ranked_sources(domain.domain)) if self.store else {}
        ranked: list[RankedSource] = []
        skipped: list[str] = []
        for name, provider in self.providers.items():
            if state.privacy_mode == "local_only" and provider.kind != "local":
                skipped.append(f"{name}: not allowed in local_only mode")
                continue
            if not self._loop.run_until_complete(provider.is_available()):  # type: ignore
                skipped.append(f"{name}: not configured")
                continue
            tier = domain.tier_of(name)
            past = memory.get(name)
            score = TIER_PRIOR[tier] + (past if past is not None else 0.25)
            ranked.append(RankedSource(
                name=name, score=round(score, 4), tier=tier,
                reason=(f"{tier} source for {domain.domain}; "
                        + (f"past quality {past:.2f}" if past is not None else "no history yet")),
            ))
        ranked.sort(key=lambda r: (-r.score, r.name))
        decisions = [Decision(
            node="plan", cycle=0, decision="source order: " + ", ".join(r.name for r in ranked),
            reason="ranked by domain tier plus past quality from source memory",
            data={"ranked": [r.model_dump() for r in ranked], "skipped": skipped},
        )]
        return ranked, decisions

    def plan(self, state: ResearchState) -> dict[str, Any]:
        """Rank sources by past quality for the domain; plan the first searches."""
        ranked, decisions = self._rank_sources(state)
        if not ranked:
            raise ResearchConfigError(
                "no search provider is available in this privacy mode",
                code="E_NO_PROVIDERS",
            )
        tasks = [SearchTask(provider=r.name, query=state.refined_query, cycle_added=1)
                 for r in ranked]
        return {"ranked_sources": ranked, "tasks": tasks, "decisions": decisions}

    async def _guarded_search(
        self, provider: SearchProvider, task: SearchTask, cycle: int,
        counters: dict[str, Any],
    ) -> list[dict]:
        """One search through rate limiter, breaker and retry policy."""
        state = self.state
        assert state is not None and self._handler is not None

        async def attempt(timeout: float) -> list[dict]:
            if counters["calls"] >= state.max_provider_calls:
                raise ProviderCallCapReached(
                    f"provider-call cap of {state.max_provider_calls} reached"
                )
            counters["calls"] += 1
            counters["per_provider"][provider.name] = \
                counters["per_provider"].get(provider.name, 0) + 1
            try:
                return await self.breakers.call(
                    provider.name,
                    lambda: provider.search(task.query, self.options.max_results,
                                            timeout=timeout),
                )
            finally:
                for url, obstacle in provider.drain_obstacles():
                    _, failure = self._handler.handle(  # type: ignore[union-attr]
                        obstacle, provider.name, url, cycle=cycle, retries_exhausted=True)
                    if failure is not None:
                        counters["failures"].append(failure)

        async def on_retry(error: BaseException, attempt_no: int, wait: float) -> None:
            self._handler.handle(error, provider.name, task.query, cycle=cycle,  # type: ignore
                                 retries_exhausted=False)
            counters["decisions"].append(Decision(
                node="collect", cycle=cycle, decision=f"retry {provider.name}",
                reason=f"{type(error).__name__} on attempt {attempt_no}; backoff {wait:.1f}s",
            ))

        return await self.retry.call(attempt, on_retry=on_retry)

    async def collect(self, state: ResearchState) -> dict[str, Any]:
        """Run this cycle's pending searches (providers in parallel, each rate-limited)."""
        cycle = state.cycle + 1
        rank = {r.name: i for i, r in enumerate(state.ranked_sources)}
        tasks = [t.model_copy() for t in state.tasks]
        pending = sorted(
            ((i, t) for i, t in enumerate(tasks) if not t.done),
            key=lambda it: (rank.get(it[1].provider, 99), it[0]),
        )[: self.options.tasks_per_cycle]
        counters: dict[str, Any] = {"calls": state.provider_calls,
                                    "per_provider": dict(state.provider_call_counts),
                                    "decisions": [], "failures": [], "cap": False}
        outputs: dict[int, list[dict]] = {}

        async def run_provider(name: str, items: list[tuple[int, SearchTask]]) -> None:
            provider = self.providers[name]
            for index, task in items:
                try:
                    outputs[index] = await self._guarded_search(provider, task, cycle, counters)
                except ProviderCallCapReached:
                    counters["cap"] = True
                    return
                except Exception as exc:  # every failure goes through the decision tree
                    action, failure = self._handler.handle(  # type: ignore[union-attr]
                        exc, name, task.query, cycle=cycle, retries_exhausted=True)
                    if failure is not None:
                        counters["failures"].append(failure)
                    task.done = True
                    if action is Action.ABORT:
                        raise
                    if action is Action.FALLBACK:
                        return  # circuit open: leave this provider, others continue

        groups: dict[str, list[tuple[int, SearchTask]]] = {}
        for index, task in pending:
            groups.setdefault(task.provider, []).append((index, task))
        await asyncio.gather(*(run_provider(n, items) for n, items in groups.items()))

        known = {r.url for r in state.results}
        results = list(state.results)
        new, refound = 0, 0
        result_counts = dict(state.provider_result_counts)
        queried = []
        exclusions = self._domain(state).excluded_sources
        excluded: list[str] = []
        for index, raw in sorted(outputs.items()):
            task = tasks[index]
            task.done, task.results = True, len(raw)
            queried.append(f"{task.provider}: {task.query}")
            for item in raw:
                result = SourceResult.model_validate(item)
                if host_excluded(result.url, exclusions):
                    excluded.append(result.url)
                    continue
                if result.url in known:
                    refound += 1
                    continue
                known.add(result.url)
                results.append(result)
                new += 1
                result_counts[task.provider] = result_counts.get(task.provider, 0) + 1
        fresh = results[len(results) - new:]
        fetched = await self._fetch_pages(state, fresh, cycle, counters)
        question = state.refined_query or state.original_query
        await asyncio.to_thread(score_results, self.embedder, question, fresh)
        floor = self.options.relevance_floor
        off_topic = sum(1 for r in fresh if (r.relevance or 0.0) < floor)
        update: dict[str, Any] = {
            "cycle": cycle, "tasks": tasks, "results": results, "cycle_new_results": new,
            "cycle_refound_results": refound, "provider_calls": counters["calls"],
            "provider_call_counts": counters["per_provider"],
            "provider_result_counts": result_counts, "sources_queried": queried,
            "access_failures": counters["failures"],
            "decisions": [*counters["decisions"], Decision(
                node="collect", cycle=cycle,
                decision=f"ran {len(outputs)} of {len(pending)} searches",
                reason=f"{new} new sources ({off_topic} below the relevance floor {floor}, "
                f"not read), {refound} already known, {fetched} page(s) fetched, "
                f"{len(counters['failures'])} failure(s)"
                + (f"; {len(excluded)} result(s) excluded by the domain's site exclusions "
                   f"{exclusions}" if excluded else ""),
                data={"searches": queried, "excluded": excluded, "off_topic": off_topic},
            )],
        }
        if counters["cap"]:
            update["should_stop"] = True
            update["stop_reason"] = (f"Provider-call cap of {state.max_provider_calls} reached "
                                     "(backstop, before saturation)")
        return update

    async def _fetch_pages(
        self, state: ResearchState, fresh: list[SourceResult], cycle: int,
        counters: dict[str, Any],
    ) -> int:
        """Fetch full pages of new web results (robots.txt respected; failures recorded)."""
        if self.fetcher is None or state.privacy_mode == "local_only" or counters["cap"]:
            return 0
        web = {n for n, p in self.providers.items() if p.kind == "web"}
        todo = [r for r in fresh if r.source_name in web and not r.full_content]
        fetched = 0
        for result in todo[: self.options.fetch_pages]:
            if counters["calls"] >= state.max_provider_calls:
                counters["cap"] = True
                break

            async def attempt(timeout: float, url: str = result.url) -> dict[str, Any]:
                counters["calls"] += 1  # the fetcher waits for the host's rate limit itself
                return await self.fetcher.fetch(url, timeout=timeout)  # type: ignore[union-attr]

            try:
                page = await self.retry.call(attempt)
            except Exception as exc:  # robots, paywall, CAPTCHA ... -> recorded, skipped
                _, failure = self._handler.handle(  # type: ignore[union-attr]
                    exc, self.fetcher.name, result.url, cycle=cycle, retries_exhausted=True)
                if failure is not None:
                    counters["failures"].append(failure)
                continue
            if page["text"].strip():
                result.full_content = page["text"][:20_000]
                fetched += 1
        return fetched

    def process(self, state: ResearchState) -> dict[str, Any]:
        """Extract entities and facts (with provenance) from this cycle's new results."""
        floor = self.options.relevance_floor
        new = state.results[len(state.results) - state.cycle_new_results:] \
            if state.cycle_new_results else []
        fresh = [r for r in new if r.relevance is not None and r.relevance >= floor]
        use_llm = llm_allowed(state.privacy_mode, self.llm)
        extraction = extract(self.llm, use_llm, fresh, state.refined_query)
        entities, facts = merge_extraction(state.entities_found, state.facts_extracted,
                                           extraction, fresh, state.cycle, self.embedder)
        unscored = [f for f in facts if f.first_cycle == state.cycle and not f.relevance]
        for fact, score in zip(unscored, similarities(
                self.embedder, state.refined_query or state.original_query,
                [f.statement for f in unscored]), strict=True):
            fact.relevance = score
        method = "llm" if extraction.method == "llm" or state.extraction_method == "llm" \
            else "heuristic"
        return {
            "entities_found": entities, "facts_extracted": facts, "extraction_method": method,
            "llm_notes": [*state.llm_notes, *([extraction.note] if extraction.note else [])],
            "decisions": [Decision(
                node="process", cycle=state.cycle,
                decision=f"extracted {len(extraction.facts)} fact mentions, "
                f"{len(extraction.entities)} entity mentions",
                reason=f"{extraction.method} extraction over {len(fresh)} new sources"
                + (f"; {extraction.note}" if extraction.note else ""),
                data={"entities_before": len(state.entities_found),
                      "facts_before": len(state.facts_extracted)},
            )],
        }

    def analyze(self, state: ResearchState) -> dict[str, Any]:
        """Cross-verify facts, score confidence, find contradictions, plan follow-ups."""
        domain = self._domain(state)
        academic = {n for n, p in self.providers.items() if p.kind in ("academic", "local")}
        facts, contradictions = cross_verify(state.facts_extracted, state.results, academic,
                                             domain)
        used = {t.query.lower() for t in state.tasks}
        used_entities = {q.removeprefix(state.refined_query.lower()).strip() for q in used}
        follow = follow_up_entities(state.entities_found, state.cycle, state.refined_query,
                                    used_entities, self.options.follow_ups_per_cycle)
        top = [r.name for r in state.ranked_sources[: self.options.follow_up_providers]]
        new_tasks = [
            SearchTask(provider=p, query=f"{state.refined_query} {name}",
                       cycle_added=state.cycle + 1)
            for name in follow for p in top
            if f"{state.refined_query} {name}".lower() not in used
        ]
        verified = sum(f.verified for f in facts)
        return {
            "facts_extracted": facts, "contradictions": contradictions,
            "tasks": [*state.tasks, *new_tasks],
            "decisions": [Decision(
                node="analyze", cycle=state.cycle,
                decision=f"{verified}/{len(facts)} facts verified; {len(contradictions)} "
                f"contradiction(s); {len(new_tasks)} follow-up search(es)",
                reason=f"verification threshold {domain.verification_threshold} "
                f"({'academic source required' if domain.academic_required else 'any source'});"
                f" follow-ups on new entities {follow}",
            )],
        }

    def evaluate(self, state: ResearchState) -> dict[str, Any]:
        """Saturation metrics after the cycle; stop on saturation (caps are a backstop)."""
        before = next(
            (d.data for d in reversed(state.decisions)
             if d.node == "process" and d.cycle == state.cycle), {},
        )
        metrics = calculate_saturation(
            entities_before=before.get("entities_before", 0),
            entities_after=len(state.entities_found),
            facts_before=before.get("facts_before", 0),
            facts_after=len(state.facts_extracted),
            circular_citations=state.cycle_refound_results,
            total_citations=state.cycle_new_results + state.cycle_refound_results,
            sources_queried=sum(t.done for t in state.tasks),
            sources_available=len(state.tasks),
        )
        stop, reason = should_stop(metrics)
        if not self.relevant_results(state) and not any(not t.done for t in state.tasks):
            # nothing to saturate: say what happened instead of "saturation reached"
            stop, reason = True, (
                "No sources: no provider returned any result for this question"
                if not state.results else
                f"Insufficient evidence: {len(state.results)} result(s) retrieved, none "
                f"relevant to the question (relevance floor {self.options.relevance_floor})")
        stop_reason = reason if stop else None
        if state.should_stop and state.stop_reason:  # provider-call cap hit during collect
            stop, stop_reason = True, state.stop_reason
        elif not stop and state.cycle >= state.max_cycles:
            stop, stop_reason = True, (f"Cycle cap of {state.max_cycles} reached (backstop, "
                                       "before saturation)")
        record = CycleRecord(
            cycle=state.cycle, metrics=metrics, should_stop=stop, reason=reason,
            entities_total=len(state.entities_found), facts_total=len(state.facts_extracted),
            results_total=len(state.results), provider_calls=state.provider_calls,
        )
        return {
            "saturation_metrics": metrics, "saturation_history": [record],
            "should_stop": stop, "stop_reason": stop_reason,
            "decisions": [Decision(
                node="evaluate", cycle=state.cycle, decision="stop" if stop else "continue",
                reason=stop_reason or reason, data=metrics.model_dump(),
            )],
        }

    def synthesize(self, state: ResearchState) -> dict[str, Any]:
        """Build the report from everything collected."""
        report, method, note = synthesize(
            state, self.llm, llm_allowed(state.privacy_mode, self.llm),
            self.options.relevance_floor, self.options.fact_relevance_floor)
        return {
            "final_report": report, "synthesis_method": method,
            "llm_notes": [*state.llm_notes, *([note] if note else [])],
            "decisions": [Decision(node="synthesize", cycle=state.cycle,
                                   decision=f"report with {len(report['facts'])} facts",
                                   reason=f"{method} synthesis; outcome {state.outcome}")],
        }

    def export(self, state: ResearchState) -> dict[str, Any]:
        """Write markdown, JSON and HTML."""
        if self.writer is None or state.final_report is None:
            return {}
        paths = export(state.final_report, self.writer, f"research/{state.session_id}")
        return {"export_paths": paths, "export_path": paths["markdown"],
                "decisions": [Decision(node="export", cycle=state.cycle,
                                       decision="exported markdown, json, html",
                                       reason="report formats", data=paths)]}

    def _update_memory(self) -> None:
        state = self.state
        if self.store is None or state is None:
            return
        cited = {u for f in state.facts_extracted for u in f.sources}
        by_url = {r.url: r.source_name for r in state.results}
        useful: dict[str, int] = {}
        for url in cited:
            name = by_url.get(url)
            if name:
                useful[name] = useful.get(name, 0) + 1
        failures: dict[str, int] = {}
        for failure in state.access_failures:
            failures[failure.source_name] = failures.get(failure.source_name, 0) + 1
        stats = {
            name: SourceStats(calls=calls, failures=failures.get(name, 0),
                              results=state.provider_result_counts.get(name, 0),
                              useful=useful.get(name, 0))
            for name, calls in state.provider_call_counts.items()
        }
        self.store.update_source_memory(self._domain(state).domain, stats)
