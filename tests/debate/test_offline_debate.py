"""The offline debate (no LLM) end to end over the sample corpus, with persistence."""

from __future__ import annotations

import threading

import psycopg
import pytest

from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.models import DebateError, DebateSettings
from repro_assets.debate.session import run_debate_session
from repro_assets.debate.store import DebateStore, debate_lock
from repro_assets.llm.offline import OfflineClient
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore


def _settings(**kw: object) -> DebateSettings:
    return DebateSettings(question=SAMPLE_QUESTION, live_search=False, **kw)


def test_offline_debate_reaches_consensus_with_grounded_citations(
    corpus_store: VectorStore, no_network: None
) -> None:
    events: list[DebateEvent] = []
    runner = DebateRunner(session_id="t-offline", settings=_settings(), llm=OfflineClient(),
                          store=corpus_store, emit=events.append)
    transcript = runner.run()
    assert transcript.mode == "offline" and transcript.terminal_state == "consensus"
    assert [t.role for t in transcript.turns] == ["optimist", "pessimist"]
    stream = "".join(e.render() for e in events)
    for signal in ("Research Scientist 1 Search Query: ", "Research Scientist 1 Ingested: ",
                   "Research Scientist 1 Retrieved chunks from vector DB: 6",
                   "Research Scientist 2 Response:", "Terminal state: Consensus",
                   "=== Viable Solution Reached ===", "offline mode"):
        assert signal in stream
    assert stream.count("[[STATUS]] ") == sum(e.kind == "status" for e in events)
    for turn in transcript.turns:
        assert turn.method == "heuristic" and turn.markers.well_formed
        assert turn.citations and not turn.invalid_citations
        assert len(turn.references) == len({c.document_id for c in turn.evidence
                                            if c.index in turn.citations})
        assert "References (APA 7)" in turn.response
        # every quoted sentence really is in the cited chunk (extractive)
        for chunk in turn.evidence:
            if chunk.index in turn.citations:
                quoted = [line for line in turn.response.splitlines()
                          if f'" [{chunk.index}] (similarity' in line]
                for line in quoted:
                    sentence = line.split(': "', 1)[1].rsplit('" [', 1)[0]
                    assert sentence in chunk.content
    # more than one document addresses the question and backs the proposal
    first = transcript.turns[0]
    assert len({c.document_id for c in first.evidence if c.index in first.citations}) >= 2


def test_offline_rules_refuse_an_unsupported_question(
    corpus_store: VectorStore, no_network: None
) -> None:
    settings = DebateSettings(question="What is the boiling point of liquid helium on Mars?",
                              live_search=False, max_turns=4)
    transcript = DebateRunner(session_id="t-unsupported", settings=settings,
                              llm=OfflineClient(), store=corpus_store).run()
    # one round, then the debate ends: nothing addresses the question, nothing new can arrive
    assert transcript.terminal_state == "insufficient_evidence" and len(transcript.turns) == 2
    assert transcript.turns[0].markers.viability == "NOT_VIABLE"
    assert all(t.markers.viability == "NOT_VIABLE" for t in transcript.turns)


def test_stop_between_turns_keeps_transcript_and_banner(
    corpus_store: VectorStore, blobs, no_network: None  # noqa: ANN001
) -> None:
    events: list[DebateEvent] = []
    stop = threading.Event()

    def emit(event: DebateEvent) -> None:
        events.append(event)
        if event.message.startswith("Research Scientist 1 Markers"):
            stop.set()  # the user presses Interrupt while turn 1 is shown

    transcript = run_debate_session(
        session_id="t-interrupt", settings=_settings(), llm=OfflineClient(),
        store=corpus_store, blobs=blobs, emit=emit, should_stop=stop.is_set,
    )
    assert transcript.terminal_state == "interrupted" and len(transcript.turns) == 1
    stream = "".join(e.render() for e in events)
    assert "[[STATUS]] Interrupted by user" in stream and "=== Debate Interrupted ===" in stream
    stored = DebateStore(corpus_store.db, blobs).load("t-interrupt")
    assert stored is not None and stored.terminal_state == "interrupted"
    assert len(stored.turns) == 1
    markdown = blobs.read_text("debates/t-interrupt/transcript.md")
    assert "=== Debate Interrupted ===" in markdown and "Turn 1" in markdown
    with corpus_store.db.connection() as conn:
        row = conn.execute("SELECT terminal_state, turns FROM debate_sessions WHERE id = %s",
                           ("t-interrupt",)).fetchone()
        turns = conn.execute("SELECT count(*) FROM debate_turns WHERE session_id = %s",
                             ("t-interrupt",)).fetchone()[0]
    assert row == ("interrupted", 1) and turns == 1


def test_keyboard_interrupt_mid_turn_is_saved_and_reraised(
    corpus_store: VectorStore, blobs, no_network: None  # noqa: ANN001
) -> None:
    def emit(event: DebateEvent) -> None:
        if event.message.startswith("Research Scientist 2 Retrieved"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_debate_session(session_id="t-ctrl-c", settings=_settings(), llm=OfflineClient(),
                           store=corpus_store, blobs=blobs, emit=emit)
    stored = DebateStore(corpus_store.db, blobs).load("t-ctrl-c")
    assert stored is not None and stored.terminal_state == "interrupted"
    assert [t.number for t in stored.turns] == [1]


def test_only_one_debate_runs_at_a_time(
    corpus_store: VectorStore, blobs, seeded_corpus_url: str  # noqa: ANN001
) -> None:
    # another process holds the lock
    with psycopg.connect(seeded_corpus_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(2002043035)")
        with pytest.raises(DebateError) as info:
            run_debate_session(session_id="t-busy", settings=_settings(), llm=OfflineClient(),
                               store=corpus_store, blobs=blobs)
        assert info.value.code == "E_DEBATE_BUSY"
        other.execute("SELECT pg_advisory_unlock(2002043035)")
    with debate_lock(corpus_store.db):  # released again
        pass
