"""The debate loop (seed 002 section 3): alternate scientists until consensus, max turns or stop.

Each turn: build the query, ingest arXiv + Crossref (when live search is on), retrieve from the
whole corpus, assess whether the evidence addresses the question (whole sentences against a
calibrated relevance floor, :mod:`repro_assets.debate.relevance`), generate (LLM, or the offline
digest), parse markers and citations, check the viability gate. Consensus needs the reviewer's
full marker set *and* evidence that addresses the question; a debate whose retrieval never
addresses the question ends ``insufficient_evidence`` (NOT_VIABLE). Progress is reported
through ``emit`` as :class:`DebateEvent`s (status lines and text) and through ``on_turn`` after
every turn so callers can persist as they go. The stop flag is checked before and after
ingestion, between turns and between streamed tokens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from repro_assets.debate import offline
from repro_assets.debate.evidence import build_turn_query, references_for, retrieve_evidence
from repro_assets.debate.markers import check_citations, is_consensus, parse_markers
from repro_assets.debate.models import (
    CONSENSUS_BANNER,
    INSUFFICIENT_BANNER,
    INTERRUPTED_BANNER,
    MAX_TURNS_BANNER,
    OFFLINE_LABEL,
    DebateSettings,
    DebateTranscript,
    ScientistRole,
    Turn,
)
from repro_assets.debate.prompts import system_prompt, user_prompt
from repro_assets.debate.relevance import assess, relevance_floor
from repro_assets.llm.types import LLMClient, LLMError, Role
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.ingest import IngestCounts, ingest_query, ingest_url
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.vectorstore import VectorStore

log = logging.getLogger(__name__)
STATUS_PREFIX = "[[STATUS]] "


@dataclass(frozen=True)
class DebateEvent:
    """A streamed event: a status line, response text, or the end of the debate."""

    kind: Literal["status", "text"]
    message: str

    def render(self) -> str:
        """Wire format: ``[[STATUS]] message`` lines, text as is (seed section 9)."""
        return f"{STATUS_PREFIX}{self.message}\n" if self.kind == "status" else self.message


class DebateInterrupted(Exception):
    """Raised inside the loop when the stop flag is seen."""


def _now() -> datetime:
    return datetime.now(UTC)


class DebateRunner:
    """Run one debate.

    Args:
        session_id: the debate session id.
        settings: question and controls.
        llm: LLM client; offline (``available`` False) takes the deterministic path.
        store: the shared vector store.
        arxiv: arXiv client, or None (no live arXiv search).
        crossref: Crossref client, or None.
        emit: receives every :class:`DebateEvent`.
        should_stop: polled for user interruption.
        on_turn: called with the transcript after every turn (and at the end).
        blobs: the blob store holding ingested paper PDFs (their references are read from
            them when first cited); None: flat document fields only.
    """

    def __init__(
        self,
        *,
        session_id: str,
        settings: DebateSettings,
        llm: LLMClient,
        store: VectorStore,
        arxiv: ArxivClient | None = None,
        crossref: CrossrefClient | None = None,
        emit: Callable[[DebateEvent], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_turn: Callable[[DebateTranscript], object] | None = None,
        blobs: BlobStore | None = None,
    ) -> None:
        self.settings = settings
        self.llm = llm
        self.store = store
        self.blobs = blobs
        self.arxiv = arxiv if settings.live_search else None
        self.crossref = crossref if settings.live_search else None
        self._emit = emit or (lambda _event: None)
        self._should_stop = should_stop or (lambda: False)
        self._on_turn = on_turn or (lambda _t: None)
        self.transcript = DebateTranscript(
            session_id=session_id,
            settings=settings,
            mode="llm" if llm.available else "offline",
            provider=llm.provider,
            started_at=_now(),
        )
        self.floor = relevance_floor(store.embedder.model_name)
        bind_interrupt = getattr(llm, "set_interrupt", None)
        if callable(bind_interrupt):  # stop-aware generation (a local transformers model)
            bind_interrupt(self._should_stop)

    # -- events ------------------------------------------------------------------------------
    def status(self, message: str) -> None:
        """Emit a status line (and log it)."""
        log.debug("%s%s", STATUS_PREFIX, message)
        self._emit(DebateEvent("status", message))

    def text(self, message: str) -> None:
        """Emit response text."""
        self._emit(DebateEvent("text", message))

    def _check_stop(self) -> None:
        if self._should_stop():
            raise DebateInterrupted()

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> DebateTranscript:
        """Run to a terminal state and return the transcript (never raises for LLM errors)."""
        mode = "LLM " + self.llm.provider if self.llm.available else OFFLINE_LABEL
        self.status(f"Debate started ({mode}): {self.settings.question}")
        if not self.llm.available:
            self.status("Offline mode: no LLM configured; scientists write extractive evidence "
                        "digests with rule-decided markers.")
        self._check_question()
        try:
            for number in range(1, self.settings.max_turns + 1):
                self._check_stop()
                turn = self._turn(number)
                if turn.role != "pessimist":
                    continue
                if is_consensus(turn.markers):
                    refusal = self._consensus_refusal(turn)
                    if refusal is None:
                        return self.finish("consensus", turn.markers.conclusion)
                    self.status(f"Consensus refused: {refusal}")
                if self._evidence_exhausted():
                    break
            if not self._addressed():
                return self.finish("insufficient_evidence", self._insufficient_conclusion())
            last = self.transcript.turns[-1].markers.conclusion if self.transcript.turns else None
            return self.finish("max_turns", last)
        except DebateInterrupted:
            return self.interrupt()
        except LLMError as exc:
            self.transcript.error_code = exc.code
            self.transcript.error = str(exc)
            self.status(f"LLM error {exc.code}: {exc}")
            return self.finish("failed", None)

    def _consensus_refusal(self, review: Turn) -> str | None:
        """Why the reviewer's VIABLE + PASS cannot stand (None: it stands).

        Consensus needs evidence that addresses the question: the reviewer's own retrieval
        must hold an addressing chunk, and the proposal under review must cite a document
        that had an addressing chunk in its retrieval.
        """
        answer_refusal = self._answer_refusal(review)
        if answer_refusal is None:
            return None  # a source states the asked number and the conclusion gives it
        if answer_refusal and not self._blocked():
            return answer_refusal  # a source states it, the conclusion does not give it
        refusal = self._evidence_refusal(review)
        return refusal or (answer_refusal or None)

    def _evidence_refusal(self, review: Turn) -> str | None:
        """The similarity rule: the evidence must address the question (None: it does)."""
        if review.assessment is None or not review.assessment.addresses:
            return "the reviewer's evidence does not address the question: " + (
                review.assessment.summary() if review.assessment else "not assessed")
        proposal = next((t for t in reversed(self.transcript.turns[:-1])
                         if t.role == "optimist"), None)
        if proposal is None or not proposal.assessment:
            return "there is no proposal to confirm"
        addressing = {c.document_id for c in proposal.evidence
                      if c.index in proposal.assessment.addressing}
        cited = {c.document_id for c in proposal.evidence if c.index in proposal.citations}
        if not addressing & cited:
            return "the proposal cites no source that addresses the question"
        return None

    def _evidence_exhausted(self) -> bool:
        """True when nothing addressing the question was found and no new source can arrive.

        Checked after each review: when no turn retrieved an addressing chunk and the round
        ingested no new document (live search off, or it found nothing new), later turns
        would only rephrase the same nearest chunks.
        """
        if self._addressed():
            return False
        turns = self.transcript.turns
        return sum(c.documents_new for t in turns[-2:] for c in t.ingestion.values()) == 0

    # -- does a source state the asked fact? ------------------------------------------------
    def _check_question(self) -> None:
        """Run the answer check once for the question (its terms do not change by turn)."""
        from repro_assets.research.answer_models import answer_check_dict
        from repro_assets.research.corpus_answer import check_corpus

        question = self.settings.question
        try:
            hits = self.store.search(question, k=self.settings.top_k)
            check, titles = check_corpus(question, self.store.db,
                                         [(h.document_id, h.chunk_id) for h in hits])
        except Exception as exc:  # the debate runs on, but no consensus without the check
            log.warning("answer check failed: %s", exc)
            self.transcript.answer_check = {
                "answer": None, "failed": True,
                "reason": f"the answer check failed ({type(exc).__name__})"}
            self.status("Answer check failed: no consensus can be reached on this question")
            return
        related = [{"url": h.url or "", "title": h.document_title or h.external_id,
                    "relevance": round(1.0 - h.distance, 4)} for h in hits]
        seen: set[str] = set()
        unique = []
        for entry in related:
            if entry["title"] not in seen:
                seen.add(str(entry["title"]))
                unique.append(entry)
        related = unique
        self.transcript.answer_check = answer_check_dict(check, related[:5])
        if check.answer is not None:
            self.status(f"Answer check: {check.answer.value} stated in {check.answer.title}")
        else:
            self.status(f"Answer check: no source states the asked fact ({check.reason})")

    def _blocked(self) -> str | None:
        """Why no source can answer the question (None: not known to be unanswerable)."""
        check = self.transcript.answer_check
        if not check or check.get("answer"):
            return None
        if check.get("failed") or check.get("future_years") or check.get(
                "missing_anchors") or check.get("asks_number"):
            return check.get("reason") or "no source states the asked fact"
        return None

    def _answer_refusal(self, review: Turn) -> str | None | Literal[False]:
        """Consensus rule of the answer check: a refusal, None (stands) or False (no say).

        A question no source can answer gets no consensus. When a source states the asked
        number, the consensus stands only when the conclusion gives that number and every
        number the conclusion presents is in a cited quote or the answer's quote.
        """
        blocked = self._blocked()
        if blocked:
            return f"no retrieved quote states the asked fact: {blocked}"
        check = self.transcript.answer_check or {}
        answer = check.get("answer")
        conclusion = review.markers.conclusion or ""
        if answer is None:
            return False
        from repro_assets.research.stated_numbers import (
            answer_given,
            number_in_quotes,
            numbers_stated,
        )

        if not answer_given(str(answer["value"]), conclusion):
            return (f"the conclusion does not give the answer the source states "
                    f"({answer['value']})")
        quotes = [answer["quote"], answer["title"], *(c.content for c in review.evidence
                                     if c.index in review.citations)]
        parts = answer.get("parts") or []
        if parts:  # a comparison: its difference is derived from the parts' quotes
            quotes.append(str(answer["value"]))
            if not all(number_in_quotes(p["value"], [conclusion]) for p in parts):
                return "the conclusion does not give both compared numbers"
        unsupported = [n for n in numbers_stated(conclusion) if not number_in_quotes(n, quotes)]
        if unsupported:
            return f"the conclusion's number(s) {', '.join(unsupported)} are in no cited quote"
        return None

    def _addressed(self) -> bool:
        """True when some turn so far retrieved a chunk that addresses the question.

        A question the answer check finds no source for is never addressed; one whose
        asked number a source states always is.
        """
        if self._blocked():
            return False
        if (self.transcript.answer_check or {}).get("answer"):
            return True
        return any(t.assessment is not None and t.assessment.addresses
                   for t in self.transcript.turns)

    def _insufficient_conclusion(self) -> str:
        assessed = [t.assessment for t in self.transcript.turns if t.assessment]
        scores = [a.best_similarity for a in assessed if a.best_similarity is not None]
        best = f"{max(scores):.3f}" if scores else "none"
        blocked = self._blocked()
        if blocked:
            related = "; ".join(r["title"] for r in
                                (self.transcript.answer_check or {}).get("related", []))
            return (f"NOT_VIABLE: insufficient evidence. No evidence states the asked fact: "
                    f"{blocked}." + (f" Related, does not answer: {related}." if related
                                      else ""))
        return (f"NOT_VIABLE: insufficient evidence. No retrieved source addresses the question "
                f"(best sentence similarity {best} < floor {self.floor:.2f}).")

    def interrupt(self) -> DebateTranscript:
        """Mark the debate interrupted (keeps every turn so far) and emit the banner."""
        if self.transcript.terminal_state == "interrupted":
            return self.transcript
        self.status("Interrupted by user")
        self.text(f"\n{INTERRUPTED_BANNER}\n")
        return self.finish("interrupted", None)

    def finish(self, state: str, conclusion: str | None) -> DebateTranscript:
        """Set the terminal state, emit the closing banner and status, save via ``on_turn``."""
        transcript = self.transcript
        transcript.terminal_state = state  # type: ignore[assignment]
        transcript.conclusion = conclusion
        if state == "consensus":
            transcript.answer = (transcript.answer_check or {}).get("answer")
        transcript.finished_at = _now()
        transcript.llm_usage = self.llm.usage_summary()
        if state == "consensus":
            self.text(f"\n{CONSENSUS_BANNER}\nConclusion: {conclusion or ''}\n")
        elif state == "insufficient_evidence":
            self.text(f"\n{INSUFFICIENT_BANNER}\n{conclusion or ''}\n")
        elif state == "max_turns":
            self.text(f"\n{MAX_TURNS_BANNER}\nLast conclusion: {conclusion or 'none'}\n")
        label = {"consensus": "Consensus", "insufficient_evidence": "Insufficient Evidence",
                 "max_turns": "Max Turns", "interrupted": "Interrupted",
                 "failed": "Failed"}[state]
        self.status(f"Terminal state: {label} after {len(transcript.turns)} turn(s)")
        self._on_turn(transcript)
        return transcript

    def _turn(self, number: int) -> Turn:
        role: ScientistRole = "optimist" if number % 2 == 1 else "pessimist"
        scientist = 1 if role == "optimist" else 2
        label = f"Research Scientist {scientist}"
        previous = self.transcript.turns[-1] if self.transcript.turns else None
        query = build_turn_query(
            self.settings.question,
            previous.response if previous else None,
            previous.markers if previous else None,
        )
        turn = Turn(number=number, scientist=scientist, role=role, query=query,
                    method="llm" if self.llm.available else "heuristic",
                    model=self.llm.model_for(Role.SCIENTIST) if self.llm.available else None,
                    started_at=_now())
        self.status(f"{label} Search Query: {query}")
        turn.ingestion = self._ingest(query)
        if number == 1 and self.settings.url and (self.arxiv or self.crossref):
            from_url = ingest_url(self.store, self.settings.url, arxiv=self.arxiv,
                                  crossref=self.crossref)
            if from_url.source in turn.ingestion:
                turn.ingestion[from_url.source] = turn.ingestion[from_url.source].merge(from_url)
            self.status(f"{label} Ingested from URL {self.settings.url}: {from_url.documents}"
                        + (f" ({from_url.error_code})" if from_url.error_code else ""))
        counts = turn.ingestion
        suffix = "" if self.settings.live_search else " (live search off: stored corpus only)"
        errors = [f"{c.source} {c.error_code}" for c in counts.values() if c.error_code]
        if errors:
            suffix += f" (errors: {', '.join(errors)})"
        self.status(f"{label} Ingested: arXiv={counts['arxiv'].documents}, "
                    f"Crossref={counts['crossref'].documents}{suffix}")
        self._check_stop()
        # a revision (or review) after a rejection widens the evidence window
        k = self.settings.top_k + 2 * ((number - 1) // 2)
        turn.evidence = retrieve_evidence(self.store, query, k, question=self.settings.question,
                                          blobs=self.blobs, arxiv=self.arxiv,
                                          crossref=self.crossref)
        turn.assessment = assess(turn.evidence, self.floor)
        self.status(f"{label} Retrieved chunks from vector DB: {len(turn.evidence)}")
        self.status(f"{label} Evidence: {turn.assessment.summary()}")
        self._check_stop()
        self.status(f"{label} Response:")
        self.text(f"\n### {label} ({role}), turn {number}\n\n")
        try:
            turn.response = self._generate(turn, previous)
        except DebateInterrupted:
            turn.complete = False
            self._record(turn)
            raise
        self.text("\n")
        self._record(turn)
        markers = turn.markers
        self.status(
            f"{label} Markers: Agreement={markers.agreement or 'missing'}, "
            f"Viability={markers.viability or 'missing'}, "
            f"Validation={markers.validation or 'missing'}"
            + (f", Answer={markers.answer}" if markers.answer else "")
            + (f"; missing: {', '.join(markers.missing)}" if markers.missing else "")
        )
        if turn.invalid_citations:
            self.status(f"{label} cited chunks that were not retrieved: "
                        f"{', '.join(f'[{n}]' for n in turn.invalid_citations)}")
        return turn

    def _record(self, turn: Turn) -> None:
        turn.markers = parse_markers(turn.response)
        turn.citations, turn.invalid_citations = check_citations(
            turn.response, len(turn.evidence))
        turn.references = references_for(turn.evidence, turn.citations)
        turn.finished_at = _now()
        self.transcript.turns.append(turn)
        self._on_turn(self.transcript)

    def _ingest(self, query: str) -> dict[str, IngestCounts]:
        if self.arxiv is None and self.crossref is None:
            return {"arxiv": IngestCounts(source="arxiv"),
                    "crossref": IngestCounts(source="crossref")}
        return ingest_query(
            self.store, query, arxiv=self.arxiv, crossref=self.crossref,
            arxiv_results=self.settings.arxiv_results,
            crossref_results=self.settings.crossref_results,
        )

    def _generate(self, turn: Turn, previous: Turn | None) -> str:
        if not self.llm.available:
            text = self._offline_response(turn)
            self.text(text)
            return text
        system = system_prompt(turn.role, self.settings.max_new_tokens)
        user = user_prompt(
            question=self.settings.question, history=self.settings.history,
            url=self.settings.url, role=turn.role, turn_number=turn.number,
            previous_label=previous.label if previous else None,
            previous_response=previous.response if previous else None,
            evidence=turn.evidence,
            own_previous=self._own_previous(turn),
        )
        # a local model (``interruptible``) always streams: its stopping criterion ends the
        # generation on interrupt, and the partial text is kept as an interrupted turn
        if not (self.settings.stream or getattr(self.llm, "interruptible", False)):
            result = self.llm.text(role=Role.SCIENTIST, system=system, user=user,
                                   temperature=0.3, max_tokens=self.settings.max_new_tokens)
            self.text(result.raw_text)
            return result.raw_text
        parts: list[str] = []
        try:
            for delta in self.llm.stream_text(role=Role.SCIENTIST, system=system, user=user,
                                              temperature=0.3,
                                              max_tokens=self.settings.max_new_tokens):
                parts.append(delta)
                self.text(delta)
                if self._should_stop():
                    raise DebateInterrupted()
            self._check_stop()  # generation may have ended because of the interrupt
        except DebateInterrupted:
            turn.response = "".join(parts)
            raise
        return "".join(parts)

    def _own_previous(self, turn: Turn) -> str | None:
        """The optimist's last proposal, shown again when it revises (None otherwise)."""
        if turn.role != "optimist":
            return None
        own = [t for t in self.transcript.turns if t.role == "optimist"]
        return own[-1].response if own else None

    def _offline_response(self, turn: Turn) -> str:
        if turn.role == "optimist":
            reviewer = self.transcript.turns[-1] if self.transcript.turns else None
            return offline.optimist_turn(turn.evidence, reviewer, self.floor, **self._stated())
        return offline.pessimist_turn(turn.evidence, self.transcript.turns[-1], self.floor,
                                      **self._stated())

    def _stated(self) -> dict[str, Any]:
        """The answer check's verdict for the offline scientists."""
        check = self.transcript.answer_check or {}
        return {"answer": check.get("answer"), "blocked": self._blocked()}
