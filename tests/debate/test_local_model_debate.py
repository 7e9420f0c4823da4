"""A debate on the seed's local model (``transformers`` provider, tiny random GPT-2).

The model's words are noise, but the whole path is real: the debate streams the model's tokens,
and the user's interrupt reaches the model's stopping criterion, which ends generation mid-way.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.models import DebateSettings
from repro_assets.llm.config import LLMConfig
from repro_assets.llm.transformers_client import TransformersClient
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore
from tests.llm.tiny_gpt2 import build_tiny_gpt2


@pytest.fixture(scope="module")
def local_client_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model, saved once for this module."""
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"))


def _client(folder: Path, monkeypatch: pytest.MonkeyPatch) -> TransformersClient:
    monkeypatch.setenv("MODEL_ID", str(folder))
    for name in ("TOKENIZER_ID", "REPRO_LLM_MODEL", "REPRO_MODEL_SCIENTIST"):
        monkeypatch.delenv(name, raising=False)
    return TransformersClient(LLMConfig(provider="transformers", cache_enabled=False,
                                        record_usage=False))


def test_interrupt_stops_the_local_model_mid_response(
    corpus_store: VectorStore, local_client_dir: Path, monkeypatch: pytest.MonkeyPatch,
    no_network: None,
) -> None:
    client = _client(local_client_dir, monkeypatch)
    stop = threading.Event()
    texts: list[str] = []

    def emit(event: DebateEvent) -> None:
        if event.kind == "text" and "### Research Scientist 1" not in event.message:
            texts.append(event.message)
            if len(texts) == 5:
                stop.set()  # Interrupt pressed while Scientist 1's tokens stream in

    # stream=False: a local model streams anyway, so its stopping criterion sees the stop
    settings = DebateSettings(question=SAMPLE_QUESTION, live_search=False, max_turns=2,
                              max_new_tokens=400, stream=False)
    transcript = DebateRunner(session_id="t-local", settings=settings, llm=client,
                              store=corpus_store, emit=emit, should_stop=stop.is_set).run()
    assert transcript.mode == "llm" and transcript.provider == "transformers"
    assert transcript.terminal_state == "interrupted"
    [turn] = transcript.turns
    assert not turn.complete and turn.response
    assert client.interrupted and client.usage[-1].output_tokens < 400


def test_noise_from_the_local_model_never_reaches_consensus(
    corpus_store: VectorStore, local_client_dir: Path, monkeypatch: pytest.MonkeyPatch,
    no_network: None,
) -> None:
    client = _client(local_client_dir, monkeypatch)
    settings = DebateSettings(question=SAMPLE_QUESTION, live_search=False, max_turns=2,
                              max_new_tokens=64)
    transcript = DebateRunner(session_id="t-local-2", settings=settings, llm=client,
                              store=corpus_store).run()
    assert transcript.terminal_state == "max_turns", transcript.error
    assert len(transcript.turns) == 2
    assert all(not t.markers.well_formed for t in transcript.turns)
    assert transcript.llm_usage["calls"] == 2 and transcript.llm_usage["output_tokens"] == 128
