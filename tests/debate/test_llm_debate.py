"""The whole debate through the LLM layer: real OpenAI SDK client, wire-level fake (respx).

arXiv and Crossref are answered by respx from recorded payloads, so every turn really searches,
ingests (deduplicated), retrieves and prompts; nothing leaves the process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import respx

from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.models import DebateSettings
from repro_assets.debate.store import render_markdown
from repro_assets.scholarly.arxiv import API_URL as ARXIV_URL
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import API_URL as CROSSREF_URL
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore
from tests.fakes.llm_wire import OpenAIWireFake
from tests.scholarly.test_clients import ARXIV_FEED, CROSSREF_LIST

PROPOSAL = """Position: test the forecasting models against decision outcomes, not only scores [1].

Evidence synthesis: deep learning forecasts of critical transitions need calibrated
uncertainty [1], and accurate forecasts can still lead to worse decisions [2].

```python
def evaluate(model, scenarios):
    return [decision_value(model.forecast(s)) for s in scenarios]
```

Critique: no previous response.

Next verification step: run the evaluation on the classic fisheries models [2].

References (APA 7)
- Boettiger, C. (2022). The forecast trap. *Ecology Letters*.

Agreement: AGREE
Viability: VIABLE
Validation: N/A
Conclusion: Validate models by the decisions they lead to, with calibrated uncertainty.
"""

APPROVAL = """Position: the proposal is supported [1, 2] and the code is correct.

Critique: the proposer's evidence holds.

References (APA 7)
- ...

Agreement: AGREE
Viability: VIABLE
Validation: PASS
Conclusion: Decision-based validation with calibrated uncertainty is viable.
Answer: VERIFIED
Verification Reason: The cited studies support both steps.
"""

REJECTION = """Position: the evidence is thin [1].

Agreement: DISAGREE
Viability: NOT_VIABLE
Validation: FAIL
Conclusion: The code never measures calibration.
"""

MISSING_VIABILITY = """Position: fine overall [1].

Agreement: AGREE
Validation: PASS
Conclusion: Looks good.
"""


@pytest.fixture()
def scholarly_apis() -> Iterator[dict[str, respx.Route]]:
    """arXiv and Crossref answered from recorded payloads."""
    with respx.mock(assert_all_called=False) as router:
        routes = {
            "arxiv": router.get(ARXIV_URL).mock(
                return_value=httpx.Response(200, content=ARXIV_FEED)),
            "crossref": router.get(CROSSREF_URL).mock(
                return_value=httpx.Response(200, json=CROSSREF_LIST)),
        }
        yield routes


def _runner(fake: OpenAIWireFake, store: VectorStore, emit: Callable[[DebateEvent], None],
            should_stop: Callable[[], bool] | None = None, **settings: Any) -> DebateRunner:
    values = {"max_turns": 6, "arxiv_results": 3, "crossref_results": 3, **settings}
    return DebateRunner(
        session_id="t-llm", settings=DebateSettings(question=SAMPLE_QUESTION, **values),
        llm=fake.make_client(), store=store,
        arxiv=ArxivClient(limiter=None, backoff_s=0),
        crossref=CrossrefClient(limiter=None, backoff_s=0),
        emit=emit, should_stop=should_stop,
    )


def test_consensus_on_turn_two(corpus_store: VectorStore, scholarly_apis, no_network: None) -> None:  # noqa: ANN001
    events: list[DebateEvent] = []
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL, usage=(900, 300)).reply_text(APPROVAL, usage=(1200, 200))
        transcript = _runner(fake, corpus_store, events.append).run()
    assert transcript.mode == "llm" and transcript.provider == "openai"
    assert transcript.terminal_state == "consensus" and len(transcript.turns) == 2
    assert transcript.conclusion == (
        "Decision-based validation with calibrated uncertainty is viable.")
    # each turn searched both APIs and ingested (the second time: deduplicated, no new chunks)
    assert scholarly_apis["arxiv"].call_count == 2 and scholarly_apis["crossref"].call_count == 2
    first, second = transcript.turns
    assert first.ingestion["arxiv"].documents == 3 and first.ingestion["crossref"].documents == 3
    assert second.ingestion["arxiv"].chunks_inserted == 0
    assert first.method == "llm" and first.citations == [1, 2] and not first.invalid_citations
    assert len(first.references) == len({c.document_id for c in first.evidence[:2]})
    # the prompting contract went over the wire
    request_1, request_2 = (r.json for r in fake.requests)
    system_1 = request_1["messages"][0]["content"]
    assert "Research Scientist 1" in system_1 and "References (APA 7)" in system_1
    assert "Viability: VIABLE or NOT_VIABLE" in system_1 and "1000 tokens" in system_1
    assert "Research Scientist 2" in request_2["messages"][0]["content"]
    user_2 = request_2["messages"][-1]["content"]
    assert "Previous response (Research Scientist 1)" in user_2 and "def evaluate" in user_2
    assert "[1] " in user_2 and "APA: " in user_2
    assert (request_1.get("max_tokens") or request_1.get("max_completion_tokens")) == 1000
    # the turn-2 query was built from the question and turn 1's conclusion
    assert second.query.endswith("Validate models by the decisions they lead to, with "
                                 "calibrated uncertainty.")
    stream = "".join(e.render() for e in events)
    assert "[[STATUS]] Research Scientist 1 Ingested: arXiv=3, Crossref=3" in stream
    assert "=== Viable Solution Reached ===" in stream and "def evaluate" in stream
    assert transcript.llm_usage["calls"] == 2


def test_max_turns_when_reviewer_keeps_rejecting(
    corpus_store: VectorStore, scholarly_apis, no_network: None  # noqa: ANN001
) -> None:
    events: list[DebateEvent] = []
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL).reply_text(REJECTION).reply_text(PROPOSAL)
        transcript = _runner(fake, corpus_store, events.append, max_turns=3).run()
    assert transcript.terminal_state == "max_turns" and len(transcript.turns) == 3
    assert [t.role for t in transcript.turns] == ["optimist", "pessimist", "optimist"]
    # the revision prompt carries the reviewer's critique and the optimist's own last proposal
    revision = fake.requests[2].json["messages"][-1]["content"]
    assert "The code never measures calibration." in revision
    assert "Your previous proposal:" in revision and "def evaluate" in revision
    assert "Your previous proposal:" not in fake.requests[1].json["messages"][-1]["content"]
    assert "[[STATUS]] Terminal state: Max Turns after 3 turn(s)" in "".join(
        e.render() for e in events)


def test_interrupt_between_turns(
    corpus_store: VectorStore, scholarly_apis, no_network: None  # noqa: ANN001
) -> None:
    events: list[DebateEvent] = []
    stop = threading.Event()

    def emit(event: DebateEvent) -> None:
        events.append(event)
        if event.message.startswith("Research Scientist 1 Markers"):
            stop.set()

    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL)
        transcript = _runner(fake, corpus_store, emit, should_stop=stop.is_set).run()
    assert transcript.terminal_state == "interrupted" and len(transcript.turns) == 1
    assert len(fake.requests) == 1 and scholarly_apis["arxiv"].call_count == 1
    assert "=== Debate Interrupted ===" in "".join(e.render() for e in events)
    assert "=== Debate Interrupted ===" in render_markdown(transcript)


def test_malformed_markers_are_not_viable(
    corpus_store: VectorStore, scholarly_apis, no_network: None  # noqa: ANN001
) -> None:
    events: list[DebateEvent] = []
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL).reply_text(MISSING_VIABILITY)
        transcript = _runner(fake, corpus_store, events.append, max_turns=2).run()
    review = transcript.turns[1]
    assert review.markers.viability is None and "viability" in review.markers.missing
    assert transcript.terminal_state == "max_turns"  # PASS alone is not consensus
    assert "missing: viability" in "".join(e.render() for e in events)
    assert "malformed markers (missing: viability" in render_markdown(transcript)


def test_citation_to_a_chunk_that_was_not_retrieved_is_flagged(
    corpus_store: VectorStore, scholarly_apis, no_network: None  # noqa: ANN001
) -> None:
    events: list[DebateEvent] = []
    with OpenAIWireFake() as fake:
        fake.reply_text(PROPOSAL.replace("uncertainty [1]", "uncertainty [42]"))
        fake.reply_text(APPROVAL)
        transcript = _runner(fake, corpus_store, events.append).run()
    first = transcript.turns[0]
    assert first.invalid_citations == [42] and first.citations == [1, 2]
    assert "cited chunks that were not retrieved: [42]" in "".join(e.render() for e in events)
    assert "cites chunks that were not retrieved: [42]" in render_markdown(transcript)


def test_streamed_tokens_and_interrupt_mid_response(
    corpus_store: VectorStore, no_network: None
) -> None:
    events: list[DebateEvent] = []
    stop = threading.Event()

    def emit(event: DebateEvent) -> None:
        events.append(event)
        if event.kind == "text" and event.message == "evidence ":
            stop.set()

    with OpenAIWireFake() as fake:
        fake.reply_stream_text(["Position: ", "the ", "evidence ", "is ", "strong [1]."])
        runner = DebateRunner(
            session_id="t-stream",
            settings=DebateSettings(question=SAMPLE_QUESTION, live_search=False, stream=True),
            llm=fake.make_client(), store=corpus_store, emit=emit, should_stop=stop.is_set,
        )
        transcript = runner.run()
    assert transcript.terminal_state == "interrupted"
    [turn] = transcript.turns
    assert not turn.complete and turn.response == "Position: the evidence "
    assert [e.message for e in events if e.kind == "text"][1:4] == ["Position: ", "the ",
                                                                   "evidence "]


def test_llm_failure_ends_the_debate_with_its_code(
    corpus_store: VectorStore, no_network: None
) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(500).reply_status(500).reply_status(500)
        transcript = DebateRunner(
            session_id="t-fail",
            settings=DebateSettings(question=SAMPLE_QUESTION, live_search=False),
            llm=fake.make_client(), store=corpus_store,
        ).run()
    assert transcript.terminal_state == "failed" and transcript.error_code
    assert transcript.error_code.startswith("E_LLM")
