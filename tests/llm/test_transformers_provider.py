"""The ``transformers`` provider on a tiny randomly initialised GPT-2 built by the test.

No download: the tokenizer is built with the ``tokenizers`` library, the model from a
``GPT2Config`` with random weights, both saved to a temp dir that ``MODEL_ID`` points at. Every
test runs the real ``generate`` code path on CPU (a forward pass of a 1-layer, 32-wide model).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from repro_assets.llm.config import LLMConfig, resolve_provider
from repro_assets.llm.transformers_client import (
    LocalModelSettings,
    TransformersClient,
    interrupt_stopping_criteria,
    load_model,
)
from repro_assets.llm.types import LLMError, LLMInvalidOutput, Role
from repro_assets.resources.llm import LLMResource
from tests.llm.tiny_gpt2 import CONTEXT, PUNCTUATION, WORDS, build_tiny_gpt2


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model, saved once for this module."""
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"))


def _client(folder: Path, monkeypatch: pytest.MonkeyPatch) -> TransformersClient:
    monkeypatch.setenv("MODEL_ID", str(folder))
    for name in ("TOKENIZER_ID", "USE_CUDA", "USE_8BIT", "REPRO_LLM_MODEL",
                 "REPRO_MODEL_SCIENTIST"):
        monkeypatch.delenv(name, raising=False)
    return TransformersClient(LLMConfig(provider="transformers", cache_enabled=False,
                                        record_usage=False))


def test_provider_is_selected_by_env_and_needs_model_id(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPRO_LLM_PROVIDER", "transformers")
    monkeypatch.delenv("MODEL_ID", raising=False)
    assert resolve_provider() == "transformers"
    with pytest.raises(LLMError) as info:
        LLMResource().get_client()
    assert info.value.code == "E_LLM_CONFIG" and "MODEL_ID" in str(info.value)
    monkeypatch.setenv("MODEL_ID", str(tiny_model_dir))
    client = LLMResource(record_usage=False, cache_enabled=False).get_client()
    assert isinstance(client, TransformersClient) and client.available
    assert client.provider == "transformers"
    assert client.model_for(Role.SCIENTIST) == str(tiny_model_dir)


def test_text_generates_with_the_real_model(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    result = client.text(role=Role.SCIENTIST, system="You are a scientist.",
                         user="the model shows", temperature=0.0, max_tokens=12)
    assert result.raw_text.strip()
    assert set(result.raw_text.split()) <= set(WORDS) | set(PUNCTUATION)
    [usage] = result.usage
    assert usage.provider == "transformers" and usage.output_tokens == 12
    assert usage.input_tokens > 0 and not client.interrupted


def test_stream_yields_tokens_as_they_are_generated(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    deltas = list(client.stream_text(role=Role.SCIENTIST, system="s", user="the data",
                                     temperature=0.0, max_tokens=16))
    assert len(deltas) > 1  # several pieces, not one final string
    assert client.usage[-1].output_tokens == 16


def test_interrupt_stops_generation_midway_through_the_stopping_criterion(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    stop = threading.Event()
    client.set_interrupt(stop.is_set)
    seen: list[str] = []
    for delta in client.stream_text(role=Role.SCIENTIST, system="s", user="the data",
                                    temperature=0.0, max_tokens=400):
        seen.append(delta)
        if len(seen) == 3:
            stop.set()  # the user presses Interrupt; the consumer keeps reading
    produced = client.usage[-1].output_tokens
    assert client.interrupted and 3 <= produced < 400
    # blocking generation: the interrupt ends it and no partial answer is returned
    with pytest.raises(LLMError) as info:
        client.text(role=Role.SCIENTIST, system="s", user="the data", max_tokens=50)
    assert info.value.code == "E_LLM_INTERRUPTED" and client.usage[-1].output_tokens <= 1


def test_closing_the_stream_stops_the_generation_thread(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    stream = client.stream_text(role=Role.SCIENTIST, system="s", user="the data",
                                temperature=0.0, max_tokens=400)
    next(stream)
    stream.close()  # e.g. the debate raised DebateInterrupted while reading
    assert client.interrupted and client.usage[-1].output_tokens < 400
    assert not [t for t in threading.enumerate() if t.name.startswith("generate-")]


class Verdict(BaseModel):
    """A tiny schema."""

    model_config = ConfigDict(extra="forbid")
    value: str


def test_structured_output_reasks_once_then_uses_the_fallback(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    with pytest.raises(LLMInvalidOutput):
        client.structured(role=Role.SCIENTIST, system="Judge.", user="the result",
                          schema=Verdict, temperature=0.0, max_tokens=8)
    assert len(client.usage) == 2  # the answer and the one re-ask
    rescued = client.structured(role=Role.SCIENTIST, system="Judge.", user="the result",
                                schema=Verdict, temperature=0.0, max_tokens=8,
                                fallback=lambda raw, schema: schema(value="rescued"))
    assert rescued.fallback_used and rescued.reasked and rescued.value.value == "rescued"


def test_stopping_criterion_reports_per_sequence() -> None:
    import torch

    criteria = interrupt_stopping_criteria(lambda: True)
    assert criteria(torch.zeros((2, 3), dtype=torch.long), None).tolist() == [True, True]
    assert criteria.fired


def test_use_8bit_without_bitsandbytes_or_cuda_is_a_clear_error(tiny_model_dir: Path) -> None:
    with pytest.raises(LLMError) as info:
        load_model(str(tiny_model_dir), LocalModelSettings(use_8bit=True))
    assert info.value.code == "E_LLM_CONFIG" and "USE_8BIT" in str(info.value)
    with pytest.raises(LLMError) as cuda:
        load_model(str(tiny_model_dir), LocalModelSettings(use_cuda=True))
    assert cuda.value.code == "E_LLM_CONFIG" and "CUDA" in str(cuda.value)


def test_a_model_that_cannot_be_loaded_is_a_coded_error(tmp_path: Path) -> None:
    with pytest.raises(LLMError) as info:
        load_model(str(tmp_path / "missing"), LocalModelSettings())
    assert info.value.code == "E_LLM_MODEL_LOAD"


def test_a_prompt_longer_than_the_context_is_a_coded_error(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tiny_model_dir, monkeypatch)
    with pytest.raises(LLMError) as info:
        client.text(role=Role.SCIENTIST, system="s", user="the " * (CONTEXT + 10), max_tokens=8)
    assert info.value.code == "E_LLM_CONTEXT_TOO_LONG"
    # a prompt that fits gets the answer budget that is left
    result = client.text(role=Role.SCIENTIST, system="s", user="the " * (CONTEXT - 30),
                         max_tokens=50, temperature=0.0)
    assert result.usage[-1].output_tokens < 50
