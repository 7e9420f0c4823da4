"""``repro-assets debate`` streamed from a local OpenAI-compatible server, cut streams included.

The command runs in a subprocess on a database seeded with the sample scholarly corpus; each
scientist turn is an SSE stream from :class:`OpenAIServer` (live search off: no internet).
"""

from __future__ import annotations

import pytest

from repro_assets.debate.views import show_transcript
from tests.debate.test_llm_debate import APPROVAL, PROPOSAL
from tests.e2e.conftest import Cli
from tests.fakes.openai_server import OpenAIServer

pytestmark = pytest.mark.slow

QUESTION = "How should forecasting models of ecological transitions be validated?"


def _debate(cli: Cli, server: OpenAIServer, session: str):  # noqa: ANN202 - CliResult
    return cli("debate", QUESTION, "--max-turns", "2", "--live", "off", "--session", session,
               env=server.env(REPRO_LLM_MODEL="local-llm"))


def test_debate_streams_every_turn_from_the_server(
    seeded_corpus_url: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPRO_DATABASE_URL", seeded_corpus_url)
    with OpenAIServer(models=["local-llm"]) as server:
        server.reply_text(PROPOSAL, usage=(900, 300)).reply_text(APPROVAL, usage=(1200, 200))
        run = _debate(cli, server, "e2e-streamed")
    assert run.returncode == 0, run
    assert all(r.stream and r.model == "local-llm" for r in server.chat_requests)
    assert "def evaluate" in run.stdout  # the streamed text reached the terminal
    stored = show_transcript("e2e-streamed")
    assert [t["response"].strip() for t in stored["turns"]] == [PROPOSAL.strip(),
                                                                APPROVAL.strip()]
    assert stored["llm_usage"]["output_tokens"] == 500


def test_a_stream_cut_mid_turn_fails_the_debate_instead_of_storing_half_a_turn(
    seeded_corpus_url: str, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPRO_DATABASE_URL", seeded_corpus_url)
    with OpenAIServer(models=["local-llm"]) as server:
        server.reply_text(PROPOSAL)
        server.reply_stream_cut(APPROVAL, events=4)  # the engine died after a few tokens
        run = _debate(cli, server, "e2e-cut")
    assert run.returncode != 0, run
    assert "E_LLM_STREAM_INCOMPLETE" in run.stdout + run.stderr
    stored = show_transcript("e2e-cut")
    assert stored["terminal_state"] == "failed"
    assert stored["error_code"] == "E_LLM_STREAM_INCOMPLETE"
    responses = [t["response"].strip() for t in stored["turns"]]
    assert responses.count(PROPOSAL.strip()) == 1
    # no stored turn is the beginning of the cut answer
    assert not [r for r in responses if r and APPROVAL.startswith(r)]
