"""Issue #16 (debate): no consensus on evidence that does not address the question.

Reproduced on a fresh install: the offline debate proposed "VIABLE" for a salmon-returns
question from forecasting abstracts that never mention salmon, quoted chunk fragments, and ended
with exit code 0. These tests run the real embedder over the sample corpus (questions it can and
cannot answer) and failed before the fix.
"""

from __future__ import annotations

import argparse
import io
import re

import dagster as dg
import pytest

from repro_assets.assets import debate as debate_assets
from repro_assets.commands.debate import EXIT_INSUFFICIENT, register, run_debate_command
from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.markers import cited_indices
from repro_assets.debate.models import DebateSettings, DebateTranscript
from repro_assets.debate.relevance import is_whole_sentence
from repro_assets.llm.offline import OfflineClient
from repro_assets.resources.registry import default_resources
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore

#: Questions the sample corpus (forecasting, conservation, testing, open data) cannot answer.
UNANSWERABLE = [
    "How many salmon will return to the Columbia River in 2030?",
    "Will salmon returns in 2030 recover, according to neural network forecasts?",
    "Which treatment lowers blood sugar best in type 2 diabetes?",
    "Can neural networks forecast stock market crashes?",
]
#: Questions it can answer, each from at least one abstract.
ANSWERABLE = [
    SAMPLE_QUESTION,
    "Do ecology journals enforce their public data archiving policies?",
    "How can managers decide when to stop surveying a threatened species under imperfect "
    "detection?",
]
_QUOTE_RE = re.compile(r'^- .*?: "(?P<quote>.+)" \[(?P<n>\d+)\]', re.MULTILINE)


def _debate(store: VectorStore, question: str, **kw: object) -> tuple[DebateTranscript, str]:
    events: list[DebateEvent] = []
    settings = DebateSettings(question=question, live_search=False, **kw)
    transcript = DebateRunner(session_id="t-honest", settings=settings, llm=OfflineClient(),
                              store=store, emit=events.append).run()
    return transcript, "".join(e.render() for e in events)


@pytest.mark.parametrize("question", UNANSWERABLE)
def test_unanswerable_question_ends_not_viable_with_insufficient_evidence(
    corpus_store: VectorStore, no_network: None, question: str
) -> None:
    transcript, stream = _debate(corpus_store, question, max_turns=6)
    assert transcript.terminal_state == "insufficient_evidence"
    # one full round (proposal + review), then nothing new can arrive offline
    assert len(transcript.turns) == 2
    for turn in transcript.turns:
        assert turn.markers.viability == "NOT_VIABLE", turn.response
        assert turn.assessment is not None and not turn.assessment.addresses
        assert not turn.citations  # nothing off-topic is presented as evidence
    assert "=== Viable Solution Reached ===" not in stream
    assert "=== Insufficient Evidence: NOT_VIABLE ===" in stream
    assert transcript.conclusion and transcript.conclusion.startswith("NOT_VIABLE")


@pytest.mark.parametrize("question", ANSWERABLE)
def test_answerable_question_reaches_consensus_quoting_whole_sentences(
    corpus_store: VectorStore, no_network: None, question: str
) -> None:
    transcript, stream = _debate(corpus_store, question, max_turns=4)
    assert transcript.terminal_state == "consensus", stream
    review = transcript.turns[-1]
    assert review.markers.answer == "VERIFIED" and review.markers.well_formed
    for turn in transcript.turns:
        by_index = {c.index: c for c in turn.evidence}
        quotes = list(_QUOTE_RE.finditer(turn.response))
        assert quotes
        for match in quotes:
            chunk = by_index[int(match["n"])]
            assert match["quote"] in chunk.content and is_whole_sentence(match["quote"])
            assert chunk.relevance is not None and chunk.relevance >= turn.assessment.floor


def test_every_document_cited_in_a_response_is_in_its_reference_list(
    corpus_store: VectorStore, no_network: None
) -> None:
    transcript, _ = _debate(corpus_store, SAMPLE_QUESTION, max_turns=2)
    for turn in transcript.turns:
        body, _, refs = turn.response.partition("References (APA 7)")
        by_index = {c.index: c for c in turn.evidence}
        for n in cited_indices(body):
            assert by_index[n].reference in refs, (n, turn.response)
        assert len(turn.references) == len({by_index[n].document_id
                                            for n in cited_indices(body)})


def test_the_cli_exits_non_zero_when_the_evidence_is_insufficient(
    corpus_store: VectorStore, no_network: None
) -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["debate", UNANSWERABLE[0], "--session", "c-salmon"])
    defs = dg.Definitions(assets=[debate_assets.scholarly_corpus,
                                  debate_assets.debate_transcript],
                          jobs=[debate_assets.debate_job], resources=default_resources())
    out, err = io.StringIO(), io.StringIO()
    code = run_debate_command(args, instance=dg.DagsterInstance.ephemeral(), defs=defs,
                              out=out, err=err)
    assert code == EXIT_INSUFFICIENT != 0
    assert "terminal state: insufficient_evidence" in err.getvalue()
    assert "Insufficient Evidence" in out.getvalue()


def test_an_llm_reviewer_cannot_declare_consensus_on_evidence_that_misses_the_question(
    corpus_store: VectorStore, no_network: None
) -> None:
    from tests.debate.test_llm_debate import APPROVAL, PROPOSAL
    from tests.fakes.llm_wire import OpenAIWireFake

    settings = DebateSettings(question=UNANSWERABLE[0], live_search=False, max_turns=4)
    events: list[DebateEvent] = []
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL).reply_text(APPROVAL)  # a confident, well-formed VIABLE+PASS
        transcript = DebateRunner(session_id="t-llm-honest", settings=settings,
                                  llm=fake.make_client(), store=corpus_store,
                                  emit=events.append).run()
    assert transcript.turns[1].markers.viability == "VIABLE"
    assert transcript.terminal_state == "insufficient_evidence" and len(transcript.turns) == 2
    statuses = [e.message for e in events if e.kind == "status"]
    assert any(s.startswith("Consensus refused: the reviewer's evidence does not address")
               for s in statuses)
