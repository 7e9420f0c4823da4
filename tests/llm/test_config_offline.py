"""Provider selection, models per role, prices, pools, offline mode and guardrails."""

from __future__ import annotations

import pytest

from repro_assets.instance import LLM_POOLS
from repro_assets.llm import (
    Guardrail,
    GuardrailError,
    LLMError,
    LLMUnavailable,
    Role,
    model_for_role,
    pool_name,
    resolve_provider,
)
from repro_assets.llm.config import cost_usd, price_for
from repro_assets.llm.offline import OfflineClient
from repro_assets.resources.llm import LLMResource
from tests.fakes.llm_wire import OpenAIWireFake
from tests.llm.helpers import ExtractorOutput


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "offline"),
        ({"OPENAI_API_KEY": "sk-x"}, "openai"),
        ({"ANTHROPIC_API_KEY": "sk-ant-x"}, "anthropic"),
        ({"OPENAI_API_KEY": "sk-x", "ANTHROPIC_API_KEY": "sk-ant-x"}, "openai"),
        ({"REPRO_LLM_BASE_URL": "http://localhost:11434/v1"}, "openai_compatible"),
        ({"OPENAI_API_KEY": "sk-x", "REPRO_LLM_PROVIDER": "offline"}, "offline"),
        ({"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o", "REPRO_LLM_PROVIDER": "anthropic"},
         "anthropic"),
    ],
)
def test_auto_picks_provider_from_environment(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    resource = LLMResource()
    assert resource.resolved_provider() == expected
    assert resource.get_client().provider == expected
    assert pool_name() == f"llm_{expected}"


def test_explicit_provider_wins_and_unknown_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert resolve_provider("offline") == "offline"
    with pytest.raises(LLMError) as info:
        resolve_provider("bard")
    assert info.value.code == "E_LLM_CONFIG"
    with pytest.raises(LLMError) as missing:
        LLMResource(provider="anthropic").get_client()
    assert missing.value.code == "E_LLM_CONFIG"
    with pytest.raises(LLMError):
        LLMResource(provider="openai_compatible").get_client()


def test_pools_match_the_instance_pools() -> None:
    for provider in ("openai", "anthropic", "openai_compatible"):
        assert pool_name(provider) in LLM_POOLS


def test_models_per_role(monkeypatch: pytest.MonkeyPatch) -> None:
    assert model_for_role("openai", Role.EXTRACTOR) == "gpt-4o"
    assert model_for_role("openai", Role.PLANNER) == "o3-mini"
    assert model_for_role("openai", Role.SCHEMA_FIXER) == "gpt-4o"
    assert model_for_role("openai", "jsonizer") == "gpt-4o-mini"
    assert model_for_role("anthropic", Role.PLANNER) == "claude-sonnet-4-20250514"
    monkeypatch.setenv("OPENAI_PLANNER_MODEL", "o4-mini")
    assert model_for_role("openai", "planner") == "o4-mini"
    assert model_for_role("anthropic", "planner") == "claude-sonnet-4-20250514"
    monkeypatch.setenv("REPRO_MODEL_PLANNER", "gpt-4.1")
    assert model_for_role("openai", "planner") == "gpt-4.1"
    assert model_for_role("anthropic", "planner") == "gpt-4.1"
    monkeypatch.setenv("REPRO_LLM_MODEL", "llama3.1")
    assert model_for_role("openai_compatible", "verifier") == "llama3.1"
    assert model_for_role("openai", "planner", {"planner": "o3"}) == "o3"


def test_price_table() -> None:
    assert price_for("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert price_for("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_for("claude-sonnet-4-20250514") == (3.00, 15.00)
    assert price_for("llama3.1") is None
    assert cost_usd("o3-mini", 1_000_000, 1_000_000) == pytest.approx(5.5)
    assert cost_usd("llama3.1", 10, 10) == 0.0


def test_offline_never_opens_a_socket(no_network: None) -> None:
    client = LLMResource().get_client()
    assert isinstance(client, OfflineClient)
    assert client.available is False and client.provider == "offline"
    with pytest.raises(LLMUnavailable) as info:
        client.structured(role="extractor", system="s", user="u", schema=ExtractorOutput)
    assert info.value.code == "E_LLM_UNAVAILABLE"
    with pytest.raises(LLMUnavailable):
        client.text(role="explainer", system="s", user="u")
    with pytest.raises(LLMUnavailable):
        client.stream_text(role="explainer", system="s", user="u")
    assert client.usage_summary()["calls"] == 0


def test_no_network_fixture_really_blocks_sockets(no_network: None) -> None:
    import socket

    with pytest.raises(AssertionError):
        socket.create_connection(("127.0.0.1", 9), timeout=0.1)


def test_guardrail() -> None:
    rule = Guardrail(name="has_claims", description="at least one claim",
                     check=lambda out: (bool(out.claims), "No claims extracted"),
                     code="E_EXTRACT_NO_OUTPUT")
    rule.enforce(ExtractorOutput.model_validate({"claims": [
        {"dataset_name": "d", "metric_name": "m", "metric_value": 1.0}]}))
    with pytest.raises(GuardrailError) as info:
        rule.enforce(ExtractorOutput(claims=[]))
    assert info.value.code == "E_EXTRACT_NO_OUTPUT"
    assert "No claims extracted" in str(info.value)


def test_fake_fails_on_unscripted_and_unused_replies() -> None:
    with pytest.raises(AssertionError, match="never requested"):
        with OpenAIWireFake() as fake:
            fake.reply_text("unused")
    with pytest.raises(AssertionError, match="no reply queued"):
        with OpenAIWireFake() as fake:
            client = fake.make_client(retry_attempts=1)
            with pytest.raises(LLMUnavailable):
                client.text(role="explainer", system="s", user="u")


def test_keys_bound_with_envvar(monkeypatch: pytest.MonkeyPatch) -> None:
    import dagster as dg

    monkeypatch.setenv("MY_OPENAI_KEY", "sk-bound")
    with dg.build_resources(
        {"llm": LLMResource(provider="openai", openai_api_key=dg.EnvVar("MY_OPENAI_KEY"))}
    ) as resources:
        client = resources.llm.get_client()
    assert client.provider == "openai"
    assert client.config.api_key == "sk-bound"
    assert "sk-bound" not in repr(client.config)
