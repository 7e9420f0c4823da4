"""The LLM layer under a real server's failures (issue #17, item 5).

Every test talks through the real ``openai`` SDK to :class:`OpenAIServer`, a real HTTP server
on loopback that answers in the Chat Completions wire format with scripted faults.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from repro_assets.llm import LLMError, LLMTimeout, Role
from repro_assets.papers.models import PageText, PaperPages
from repro_assets.papers.verdict import VerdictError, verify_paper
from repro_assets.resources.llm import LLMResource
from tests.fakes.openai_server import OpenAIServer
from tests.llm.helpers import GOOD, ExtractorOutput

MODEL = "local-instruct"


def client_for(server: OpenAIServer, **overrides: Any) -> Any:
    """An openai_compatible client on ``server`` with near-zero backoff waits."""
    settings: dict[str, Any] = {
        "provider": "openai_compatible", "base_url": server.base_url, "cache_enabled": False,
        "record_usage": False, "retry_wait_min_s": 0.0, "retry_wait_max_s": 0.01,
        "retry_after_scale": 0.001, "models": {r.value: MODEL for r in Role}, **overrides}
    return LLMResource(**settings).get_client()


def ask(client: Any) -> Any:
    return client.structured(role=Role.EXTRACTOR, system="Extract claims.", user="paper text",
                             schema=ExtractorOutput)


def pages(*texts: str) -> PaperPages:
    return PaperPages(paper_id="p-faults", title="A study", pages=[
        PageText(page_no=n, text=t, has_text_layer=True) for n, t in enumerate(texts, 1)])


# --------------------------------------------------------------------- truncated JSON body
def test_truncated_json_body_is_retried_then_answers() -> None:
    with OpenAIServer(models=[MODEL]) as server:
        server.reply_truncated_json(GOOD).reply_json(GOOD)
        result = ask(client_for(server))
    assert result.value.claims[0].dataset_name == "SST-2"
    assert len(server.chat_requests) == 2


def test_truncated_json_body_every_time_is_a_coded_error() -> None:
    with OpenAIServer(models=[MODEL]) as server:
        for _ in range(3):
            server.reply_truncated_json(GOOD)
        with pytest.raises(LLMError) as info:
            ask(client_for(server, retry_attempts=3))
    assert info.value.code == "E_LLM_BAD_RESPONSE"
    assert len(server.chat_requests) == 3


def test_verifier_truncated_bodies_are_a_coded_error_with_the_checklist_kept() -> None:
    paper = pages("We train on the SST-2 dataset with Adam, learning rate 0.001, batch size "
                  "32, 10 epochs, seed 42. Code is at https://github.com/example/repo.")
    with OpenAIServer(models=[MODEL]) as server:
        for _ in range(3):
            server.reply_truncated_json({"reproducible": True})
        with pytest.raises(VerdictError) as info:
            verify_paper(paper, client_for(server, retry_attempts=3), [])
    assert info.value.code == "E_VERIFY_OPENAI_ERROR" and "E_LLM_BAD_RESPONSE" in str(info.value)
    assert info.value.checklist is not None and info.value.checklist.method == "heuristic"


# --------------------------------------------------------------------- stream cut mid-way
def test_stream_cut_mid_way_is_an_error_not_a_complete_answer() -> None:
    with OpenAIServer(models=[MODEL]) as server:
        server.reply_stream_cut("The optimist proposes a careful replication plan.", events=3)
        client = client_for(server)
        received: list[str] = []
        with pytest.raises(LLMError) as info:
            for delta in client.stream_text(role=Role.SCIENTIST, system="s", user="u"):
                received.append(delta)
    assert info.value.code == "E_LLM_STREAM_INCOMPLETE"
    assert "".join(received)  # what came before the cut was delivered, then the error


def test_stream_aborted_connection_is_a_coded_error() -> None:
    with OpenAIServer(models=[MODEL]) as server:
        server.reply_stream_cut("The optimist proposes a plan.", events=2, mode="abort")
        with pytest.raises(LLMError) as info:
            list(client_for(server).stream_text(role=Role.SCIENTIST, system="s", user="u"))
    assert info.value.code in ("E_LLM_STREAM_INCOMPLETE", "E_LLM_PROVIDER_ERROR")


def test_complete_stream_records_its_output_tokens() -> None:
    with OpenAIServer(models=[MODEL]) as server:
        server.reply_text("one two three", deltas=["one ", "two ", "three"], usage=(7, 3))
        client = client_for(server)
        text = "".join(client.stream_text(role=Role.SCIENTIST, system="s", user="u"))
    assert text == "one two three"
    assert client.usage_summary()["output_tokens"] == 3


# --------------------------------------------------------------------- one deadline per call
def test_defaults_bound_one_model_turn() -> None:
    config = LLMResource(provider="openai_compatible", base_url="http://127.0.0.1:9/v1").config()
    assert config.sdk_max_retries == 0  # our loop retries (Retry-After aware, deadline-bound)
    assert config.call_deadline_s <= 180
    assert config.timeout_s <= config.call_deadline_s


def test_one_deadline_covers_every_attempt() -> None:
    with OpenAIServer(models=[MODEL], strict=False) as server:
        for _ in range(5):
            server.reply_slow(3.0, json.dumps(GOOD))
        client = client_for(server, request_timeout_s=30.0, call_deadline_s=0.5,
                            retry_attempts=5)
        with pytest.raises(LLMTimeout) as info:
            ask(client)
    assert info.value.code == "E_LLM_TIMEOUT"
    assert "deadline" in str(info.value)
    assert len(server.chat_requests) == 1  # no attempt starts once the deadline is spent


def test_retry_after_waits_never_cross_the_deadline() -> None:
    with OpenAIServer(models=[MODEL], strict=False) as server:
        for _ in range(5):
            server.reply_status(503, headers={"Retry-After": "40"})
        client = client_for(server, call_deadline_s=100.0, retry_attempts=5,
                            retry_after_scale=1.0, retry_wait_max_s=60.0)
        clock = [0.0]
        client.clock = lambda: clock[0]
        client.sleep = lambda seconds: clock.__setitem__(0, clock[0] + seconds)
        with pytest.raises(LLMError) as info:
            ask(client)
    # attempt at t=0, wait 40, attempt at t=40, wait 40, attempt at t=80; a 4th would start
    # at t=120 > 100
    assert len(server.chat_requests) == 3
    assert info.value.code == "E_LLM_PROVIDER_ERROR"


# --------------------------------------------------------------------- model discovery
def test_compatible_server_model_is_read_from_v1_models() -> None:
    with OpenAIServer(models=["qwen2.5-7b-instruct"], known_models_only=True) as server:
        server.reply_json(GOOD)
        client = LLMResource(provider="openai_compatible", base_url=server.base_url,
                             cache_enabled=False, record_usage=False).get_client()
        result = ask(client)
        assert client.model_for(Role.PLANNER) == "qwen2.5-7b-instruct"
    assert result.value.claims
    assert server.chat_requests[0].model == "qwen2.5-7b-instruct"
    assert [r.path for r in server.requests].count("/v1/models") == 1


def test_configured_model_wins_over_discovery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_LLM_MODEL", "llama3.1:8b")
    with OpenAIServer(models=["llama3.1:8b", "mistral:7b"]) as server:
        server.reply_json(GOOD)
        ask(LLMResource(provider="openai_compatible", base_url=server.base_url,
                        cache_enabled=False, record_usage=False).get_client())
    assert [r.path for r in server.requests] == ["/v1/chat/completions"]
    assert server.chat_requests[0].model == "llama3.1:8b"


def test_several_served_models_and_no_setting_is_a_config_error() -> None:
    with OpenAIServer(models=["llama3.1:8b", "mistral:7b"]) as server:
        client = LLMResource(provider="openai_compatible", base_url=server.base_url,
                             cache_enabled=False, record_usage=False).get_client()
        with pytest.raises(LLMError) as info:
            ask(client)
    assert info.value.code == "E_LLM_CONFIG"
    assert "llama3.1:8b" in str(info.value) and "REPRO_LLM_MODEL" in str(info.value)
