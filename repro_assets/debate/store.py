"""Persist debates: Postgres rows (sessions, turns) and blob-store transcripts (JSON + Markdown).

Saved after every turn, so an interrupted or killed debate keeps everything said so far. A
Postgres advisory lock allows one debate at a time across every process (the seed's HTTP 409).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from repro_assets.debate.models import (
    CONSENSUS_BANNER,
    INSUFFICIENT_BANNER,
    INTERRUPTED_BANNER,
    MAX_TURNS_BANNER,
    OFFLINE_LABEL,
    DebateError,
    DebateTranscript,
)
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import Database

#: pg advisory lock key of "a debate is running" (any fixed bigint).
DEBATE_LOCK_KEY = 2_002_043_035


def transcript_keys(session_id: str) -> tuple[str, str]:
    """Blob keys of the JSON and Markdown transcripts."""
    return f"debates/{session_id}/transcript.json", f"debates/{session_id}/transcript.md"


@contextmanager
def debate_lock(db: Database) -> Iterator[None]:
    """Hold the one-debate-at-a-time lock for the duration of the block.

    Raises:
        DebateError: ``E_DEBATE_BUSY`` when another debate holds it.
    """
    with db.connection() as conn:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (DEBATE_LOCK_KEY,)).fetchone()
        got = bool(row and row[0])
        conn.commit()
        if not got:
            raise DebateError("another debate is already running; only one runs at a time",
                              "E_DEBATE_BUSY")
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (DEBATE_LOCK_KEY,))
            conn.commit()


def render_markdown(transcript: DebateTranscript) -> str:
    """A readable transcript: header, every turn with its signals, the terminal state."""
    s = transcript.settings
    mode = OFFLINE_LABEL if transcript.mode == "offline" else f"LLM ({transcript.provider})"
    lines = [
        f"# Debate {transcript.session_id}",
        "",
        f"**Question:** {s.question}",
        "",
        f"- Mode: {mode}",
        f"- Max turns: {s.max_turns}; results per source: arXiv {s.arxiv_results}, "
        f"Crossref {s.crossref_results}; live search: {'on' if s.live_search else 'off'}",
        f"- Started: {transcript.started_at.isoformat()}",
    ]
    if s.url:
        lines.append(f"- URL: {s.url}")
    for turn in transcript.turns:
        counts = turn.ingestion
        arxiv = counts["arxiv"].documents if "arxiv" in counts else 0
        crossref = counts["crossref"].documents if "crossref" in counts else 0
        lines += [
            "",
            f"## Turn {turn.number}: {turn.label} ({turn.role})"
            + ("" if turn.complete else " [interrupted mid-response]"),
            "",
            f"- Search Query: {turn.query}",
            f"- Ingested: arXiv={arxiv}, Crossref={crossref}",
            f"- Retrieved chunks from vector DB: {len(turn.evidence)} (chunk ids "
            f"{', '.join(str(c.chunk_id) for c in turn.evidence)})",
            f"- Method: {turn.method}" + (f" ({turn.model})" if turn.model else ""),
        ]
        if turn.assessment is not None:
            lines.append(f"- Evidence: {turn.assessment.summary()}")
        if turn.invalid_citations:
            lines.append("- **Flagged:** cites chunks that were not retrieved: "
                         + ", ".join(f"[{n}]" for n in turn.invalid_citations))
        if turn.markers.missing or turn.markers.invalid:
            lines.append("- **Flagged:** malformed markers (missing: "
                         f"{', '.join(turn.markers.missing) or 'none'}; invalid: "
                         f"{', '.join(turn.markers.invalid) or 'none'}), treated as not viable")
        lines += ["", "### Response", "", turn.response.strip() or "(empty)"]
    lines.append("")
    state = transcript.terminal_state
    if state == "consensus":
        lines += [CONSENSUS_BANNER, "", f"Conclusion: {transcript.conclusion or ''}"]
    elif state == "insufficient_evidence":
        lines += [INSUFFICIENT_BANNER, "", transcript.conclusion or ""]
    elif state == "interrupted":
        lines.append(INTERRUPTED_BANNER)
    elif state == "max_turns":
        lines += [MAX_TURNS_BANNER, "", f"Last conclusion: {transcript.conclusion or 'none'}"]
    elif state == "failed":
        lines.append(f"=== Debate Failed ({transcript.error_code}) ===\n\n{transcript.error}")
    else:
        lines.append("(debate in progress)")
    return "\n".join(lines) + "\n"


class DebateStore:
    """Writes debates to Postgres and the blob store; reads them back."""

    def __init__(self, db: Database, blobs: BlobStore) -> None:
        self.db = db
        self.blobs = blobs

    def save(self, transcript: DebateTranscript) -> tuple[str, str]:
        """Upsert the session and its turns; write JSON + Markdown. Returns the blob keys."""
        json_key, md_key = transcript_keys(transcript.session_id)
        self.blobs.write_text(json_key, transcript.model_dump_json(indent=2))
        self.blobs.write_text(md_key, render_markdown(transcript))
        s = transcript.settings
        with self.db.connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO debate_sessions (id, question, settings, mode, provider,"
                " terminal_state, conclusion, error_code, turns, transcript_key, markdown_key,"
                " llm_usage, started_at, finished_at) VALUES"
                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET question = EXCLUDED.question,"
                " settings = EXCLUDED.settings, mode = EXCLUDED.mode,"
                " provider = EXCLUDED.provider, terminal_state = EXCLUDED.terminal_state,"
                " conclusion = EXCLUDED.conclusion, error_code = EXCLUDED.error_code,"
                " turns = EXCLUDED.turns, transcript_key = EXCLUDED.transcript_key,"
                " markdown_key = EXCLUDED.markdown_key, llm_usage = EXCLUDED.llm_usage,"
                " started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at,"
                " updated_at = now()",
                (transcript.session_id, s.question, s.model_dump_json(), transcript.mode,
                 transcript.provider, transcript.terminal_state, transcript.conclusion,
                 transcript.error_code, len(transcript.turns), json_key, md_key,
                 json.dumps(transcript.llm_usage, default=str), transcript.started_at,
                 transcript.finished_at),
            )
            conn.execute("DELETE FROM debate_turns WHERE session_id = %s AND turn_no > %s",
                         (transcript.session_id, len(transcript.turns)))
            for turn in transcript.turns:
                conn.execute(
                    "INSERT INTO debate_turns (session_id, turn_no, scientist, role, query,"
                    " ingestion, retrieved_chunk_ids, response, markers, citations,"
                    " invalid_citations, \"references\", method, model, complete, started_at,"
                    " finished_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
                    " %s, %s, %s, %s) ON CONFLICT (session_id, turn_no) DO UPDATE SET"
                    " scientist = EXCLUDED.scientist, role = EXCLUDED.role,"
                    " query = EXCLUDED.query, ingestion = EXCLUDED.ingestion,"
                    " retrieved_chunk_ids = EXCLUDED.retrieved_chunk_ids,"
                    " response = EXCLUDED.response, markers = EXCLUDED.markers,"
                    " citations = EXCLUDED.citations,"
                    " invalid_citations = EXCLUDED.invalid_citations,"
                    " \"references\" = EXCLUDED.\"references\", method = EXCLUDED.method,"
                    " model = EXCLUDED.model, complete = EXCLUDED.complete,"
                    " started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at",
                    (
                        transcript.session_id, turn.number, turn.scientist, turn.role,
                        turn.query,
                        json.dumps({k: v.model_dump() for k, v in turn.ingestion.items()}),
                        [c.chunk_id for c in turn.evidence], turn.response,
                        turn.markers.model_dump_json(), turn.citations,
                        turn.invalid_citations, json.dumps(turn.references), turn.method,
                        turn.model, turn.complete, turn.started_at, turn.finished_at,
                    ),
                )
        return json_key, md_key

    def load(self, session_id: str) -> DebateTranscript | None:
        """The stored transcript of ``session_id`` (None when there is none)."""
        json_key, _ = transcript_keys(session_id)
        if not self.blobs.exists(json_key):
            return None
        return DebateTranscript.model_validate_json(self.blobs.read_text(json_key))

    def sessions(self, limit: int = 20) -> list[dict[str, object]]:
        """Latest sessions (id, question, state, turns, started_at)."""
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT id, question, terminal_state, turns, mode, started_at"
                " FROM debate_sessions ORDER BY started_at DESC LIMIT %s", (limit,),
            ).fetchall()
        return [
            {"id": r[0], "question": r[1], "terminal_state": r[2], "turns": r[3], "mode": r[4],
             "started_at": r[5].isoformat()}
            for r in rows
        ]
