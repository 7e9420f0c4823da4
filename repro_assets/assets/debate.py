"""Scholarly debate assets (seed 002): the sample corpus and one transcript per debate session.

``debate_transcript`` is partitioned by ``debates`` (one key per session). It runs the
two-scientist loop (:mod:`repro_assets.debate`), logs the seed's runtime signals as
``[[STATUS]] ...`` lines while it runs, and stores the transcript (Markdown + JSON turns with
markers, ingestion counts, retrieved chunk ids and references) in the blob store and Postgres
after every turn. Terminating the run interrupts the debate: the transcript so far is kept with
"=== Debate Interrupted ===". Runs of ``debate_job`` carry the tag ``repro/workflow=debate``,
which dagster.yaml limits to one at a time; a Postgres advisory lock enforces the same for any
other way of starting a debate (the seed's HTTP 409).
"""


from typing import Any

import dagster as dg
from dagster._core.errors import DagsterExecutionInterruptedError
from pydantic import Field

from repro_assets.debate.loop import DebateEvent
from repro_assets.debate.models import DebateError, DebateSettings, DebateTranscript
from repro_assets.debate.session import live_search_enabled, run_debate_session, session_observer
from repro_assets.debate.store import transcript_keys
from repro_assets.jobs import DEBATE_GROUP as GROUP
from repro_assets.jobs import debate_job, scholarly_corpus_job
from repro_assets.llm import pool_name
from repro_assets.partitions import debates_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.llm import LLMResource
from repro_assets.resources.vectorstore import VectorStoreResource
from repro_assets.scholarly.models import ScholarlyError
from repro_assets.scholarly.samples import scholarly_document_counts, seed_sample_corpus


class DebateConfig(dg.Config):
    """One debate request (the seed's /api/stream body plus its environment controls)."""

    question: str = Field(description="The question the scientists debate.")
    history: list[str] = Field(default_factory=list,
                               description="Earlier conversation messages, oldest first.")
    url: str = Field(default="", description="Optional URL the user referenced.")
    max_turns: int = Field(default=0, description="Most responses; 0 = DEBATE_MAX_TURNS (6).")
    results_per_source: int = Field(
        default=0, description="arXiv and Crossref results ingested per turn; 0 = "
        "DEBATE_ARXIV_RESULTS / DEBATE_CROSSREF_RESULTS (5).")
    live_search: str = Field(
        default="auto", description="auto (on when an LLM is configured), on or off.")
    stream: bool = Field(
        default=False, description="Stream model tokens (the CLI shows them as they arrive).")


def _settings(config: DebateConfig, live: bool) -> DebateSettings:
    per_source = config.results_per_source or None
    return DebateSettings.from_env(
        config.question,
        history=config.history,
        url=config.url or None,
        max_turns=config.max_turns or None,
        arxiv_results=per_source,
        crossref_results=per_source,
        live_search=live,
        stream=config.stream,
    )


@dg.asset(
    group_name=GROUP,
    kinds={"arxiv", "crossref", "pgvector"},
    description="The sample scholarly corpus (recorded arXiv/Crossref payloads in "
    "data/samples/scholarly) chunked, embedded and upserted; debates add live results to it.",
)
def scholarly_corpus(
    context: dg.AssetExecutionContext, vector_store: VectorStoreResource
) -> dg.MaterializeResult:
    store = vector_store.get_store()
    try:
        counts = seed_sample_corpus(store)
    except ScholarlyError as exc:
        raise dg.Failure(description=str(exc), metadata={"code": exc.code}) from exc
    totals = scholarly_document_counts(store)
    context.log.info("sample corpus: %s", {k: v.model_dump() for k, v in counts.items()})
    return dg.MaterializeResult(metadata={
        "sample_arxiv_documents": counts["arxiv"].documents,
        "sample_crossref_documents": counts["crossref"].documents,
        "chunks_inserted": sum(c.chunks_inserted for c in counts.values()),
        "corpus_arxiv_documents": int(totals.get("arxiv", 0)),
        "corpus_crossref_documents": int(totals.get("crossref", 0)),
    })


class _LogSink:
    """Writes status events as ``[[STATUS]]`` log lines and each response as one log entry."""

    def __init__(self, context: dg.AssetExecutionContext, forward: Any) -> None:
        self.context = context
        self.forward = forward
        self.buffer: list[str] = []

    def __call__(self, event: DebateEvent) -> None:
        if self.forward is not None:
            self.forward(event)
        if event.kind == "text":
            self.buffer.append(event.message)
            return
        self.flush()
        self.context.log.info(event.render().rstrip("\n"))

    def flush(self) -> None:
        text = "".join(self.buffer).strip()
        self.buffer.clear()
        if text:
            self.context.log.info(text)


def _preview(markdown: str, limit: int = 6000) -> str:
    """The transcript's head and its ending (the terminal state), within ``limit`` chars."""
    if len(markdown) <= limit:
        return markdown
    tail = markdown[-1500:]
    return markdown[: limit - len(tail) - 20] + "\n\n[...]\n\n" + tail


def _checks(transcript: DebateTranscript) -> list[dg.AssetCheckResult]:
    invalid = {t.number: t.invalid_citations for t in transcript.turns if t.invalid_citations}
    malformed = {t.number: t.markers.missing + t.markers.invalid
                 for t in transcript.turns if not t.markers.well_formed and t.complete}
    return [
        dg.AssetCheckResult(
            check_name="citations_grounded", passed=not invalid,
            severity=dg.AssetCheckSeverity.WARN,
            metadata={"turns_with_invalid_citations": {str(k): v for k, v in invalid.items()}},
            description="Every [n] a scientist cited was among the chunks retrieved that turn.",
        ),
        dg.AssetCheckResult(
            check_name="markers_well_formed", passed=not malformed,
            severity=dg.AssetCheckSeverity.WARN,
            metadata={"turns_with_malformed_markers": {str(k): v for k, v in malformed.items()}},
            description="Every complete response ended with the required marker lines.",
        ),
    ]


@dg.asset(
    partitions_def=debates_partitions,
    group_name=GROUP,
    pool=pool_name(),
    deps=[scholarly_corpus],
    kinds={"llm", "pgvector", "postgres"},
    check_specs=[
        dg.AssetCheckSpec("citations_grounded", asset="debate_transcript"),
        dg.AssetCheckSpec("markers_well_formed", asset="debate_transcript"),
    ],
    description="A two-scientist scholarly debate: each turn searches arXiv + Crossref, "
    "retrieves from pgvector, answers from retrieved chunks only and ends with parsed markers; "
    "stops on consensus (the full marker set on evidence that addresses the question), "
    "insufficient evidence (NOT_VIABLE), max turns or interruption (terminate the run).",
)
def debate_transcript(
    context: dg.AssetExecutionContext,
    config: DebateConfig,
    vector_store: VectorStoreResource,
    blob_store: BlobStoreResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    session_id = context.partition_key
    client = llm.get_client()
    mode = config.live_search.strip().lower()
    live = live_search_enabled(client) if mode == "auto" else mode in ("on", "true", "1")
    try:
        settings = _settings(config, live)
    except ValueError as exc:
        raise dg.Failure(description=f"invalid debate config: {exc}",
                         metadata={"code": "E_DEBATE_CONFIG"}) from exc
    observer = session_observer(session_id)
    sink = _LogSink(context, observer[0] if observer else None)
    blobs = blob_store.get_store()
    try:
        transcript = run_debate_session(
            session_id=session_id, settings=settings, llm=client,
            store=vector_store.get_store(), blobs=blobs, emit=sink,
            should_stop=observer[1] if observer else None,
            interrupt_errors=(KeyboardInterrupt, DagsterExecutionInterruptedError),
        )
    except DebateError as exc:
        raise dg.Failure(description=str(exc), metadata={"code": exc.code}) from exc
    finally:
        sink.flush()
    if transcript.terminal_state == "failed":
        raise dg.Failure(
            description=f"debate failed: {transcript.error}",
            metadata={"code": transcript.error_code or "E_DEBATE_FAILED",
                      "turns": len(transcript.turns)},
        )
    json_key, md_key = transcript_keys(session_id)
    totals = transcript.ingestion_totals()
    markdown = blobs.read_text(md_key)
    return dg.MaterializeResult(
        metadata={
            "terminal_state": transcript.terminal_state,
            "mode": "offline mode" if transcript.mode == "offline" else "llm",
            "method": "heuristic" if transcript.mode == "offline" else "llm",
            "provider": transcript.provider,
            "turns": len(transcript.turns),
            "conclusion": transcript.conclusion or "",
            "ingested_arxiv": totals.get("arxiv", 0),
            "ingested_crossref": totals.get("crossref", 0),
            "chunks_retrieved": sum(len(t.evidence) for t in transcript.turns),
            "references_cited": sum(len(t.references) for t in transcript.turns),
            "invalid_citations": sum(len(t.invalid_citations) for t in transcript.turns),
            "evidence_addresses_question": any(
                t.assessment is not None and t.assessment.addresses for t in transcript.turns),
            "best_relevance": max((t.assessment.best_similarity for t in transcript.turns
                                   if t.assessment and t.assessment.best_similarity is not None),
                                  default=0.0),
            "llm_calls": int(transcript.llm_usage.get("calls", 0)),
            "llm_cost_usd": float(transcript.llm_usage.get("cost_usd", 0.0)),
            "transcript_json": dg.MetadataValue.path(blobs.url(json_key)),
            "transcript_md": dg.MetadataValue.path(blobs.url(md_key)),
            "preview": dg.MetadataValue.md(_preview(markdown)),
        },
        check_results=_checks(transcript),
    )


defs = dg.Definitions(
    assets=[scholarly_corpus, debate_transcript],
    jobs=[scholarly_corpus_job, debate_job],
)
