"""The seed's three mocked-LLM integration tests, through the real SDK clients and wire fakes."""

from __future__ import annotations

import json

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.evalset import CASE2_TEXT
from repro_assets.factory.models import ErrorCode, ExtractionError
from tests.fakes.llm_wire import AnthropicWireFake, OpenAIWireFake

MACHINES = [{"id": "M1", "name": "assembly"}, {"id": "M2", "name": "drill"},
            {"id": "M3", "name": "pack"}]
JOBS = [{"id": j, "name": j} for j in ("J1", "J2", "J3", "J4")]
STEPS = [{"machine_id": m, "duration_hours": d} for m, d in (("M1", 2), ("M2", 1), ("M3", 1))]
RAW = {"machines": MACHINES,  # what the canonical text says: J1, J2 due 12:00; J3, J4 17:00
       "jobs": [{**job, "steps": STEPS, "due_time_hour": 12 if job["id"] in ("J1", "J2") else 17}
                for job in JOBS]}


def _user_message(request_json: dict) -> str:
    return next(m["content"] for m in request_json["messages"] if m["role"] == "user")


def test_onboarding_success_canonical(canonical_text: str, no_network: None) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json({"machines": MACHINES, "jobs": JOBS})
        fake.reply_json(RAW)
        agent = OnboardingAgent(fake.make_client())
        result = agent.run_detailed(canonical_text)
    assert result.method == "llm"
    assert [m.id for m in result.config.machines] == ["M1", "M2", "M3"]
    assert [j.id for j in result.config.jobs] == ["J1", "J2", "J3", "J4"]
    assert result.coverage.complete
    assert len(fake.requests) == 2  # exactly one call per LLM stage
    first, second = (request.json for request in fake.requests)
    assert "Detected machine ids: M1, M2, M3" in _user_message(first)
    assert "Detected job ids: J1, J2, J3, J4" in _user_message(first)
    assert json.dumps(MACHINES[0]["id"]) in _user_message(second)


def test_onboarding_coverage_mismatch(no_network: None) -> None:
    three = MACHINES[:3]
    jobs = [{"id": "J1", "name": "J1"}, {"id": "J2", "name": "J2"}]
    with OpenAIWireFake() as fake:
        fake.reply_json({"machines": three, "jobs": jobs})
        fake.reply_json({"machines": three, "jobs": [
            {**job, "steps": STEPS, "due_time_hour": 10} for job in jobs]})
        with pytest.raises(ExtractionError) as info:
            OnboardingAgent(fake.make_client()).run(CASE2_TEXT)
    error = info.value
    assert error.code is ErrorCode.COVERAGE_MISMATCH
    assert error.details["missing_machines"] == ["M4"]
    assert error.details["machine_coverage"] == 0.75
    assert error.details["job_coverage"] == 1.0


def test_onboarding_llm_failure(canonical_text: str, no_network: None) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(401, message="Incorrect API key provided")
        with pytest.raises(ExtractionError) as info:
            OnboardingAgent(fake.make_client()).run(canonical_text)
    assert info.value.code is ErrorCode.LLM_FAILURE
    assert info.value.stage == "coarse"
    assert len(fake.requests) == 1


def test_onboarding_malformed_json_after_reask(canonical_text: str, no_network: None) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json({"machines": MACHINES, "jobs": JOBS})
        fake.reply_malformed('{"machines": [')
        fake.reply_malformed('{"machines": [')
        with pytest.raises(ExtractionError) as info:
            OnboardingAgent(fake.make_client()).run(canonical_text)
    assert info.value.code is ErrorCode.INVALID_JSON
    assert info.value.stage == "steps"


def test_onboarding_success_anthropic(canonical_text: str, no_network: None) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json({"machines": MACHINES, "jobs": JOBS})
        fake.reply_json(RAW)
        config = OnboardingAgent(fake.make_client()).run(canonical_text)
    assert len(config.jobs) == 4
    assert len(fake.requests) == 2


def test_factory_config_asset_with_llm(fresh_database: str, canonical_text: str,
                                       tmp_path, no_network: None) -> None:
    """The asset records method=llm and the usage summary when a provider is configured."""
    import dagster as dg

    from repro_assets.assets import factory as factory_assets
    from repro_assets.factory.store import partition_key_for
    from repro_assets.resources.llm import LLMResource
    from repro_assets.resources.registry import default_resources
    from tests.fakes.llm_wire import FAST_CLIENT_CONFIG

    path = tmp_path / "canonical.txt"
    path.write_text(canonical_text, encoding="utf-8")
    key = partition_key_for(path.name, path.read_bytes())
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("factories", [key])
    resources = {
        **default_resources(),
        "llm": LLMResource(provider="openai", openai_api_key="sk-test", **FAST_CLIENT_CONFIG),
    }
    with OpenAIWireFake() as fake:
        fake.reply_json({"machines": MACHINES, "jobs": JOBS})
        fake.reply_json(RAW)
        result = dg.materialize(
            [factory_assets.factory_text, factory_assets.factory_config,
             factory_assets.factory_config_coverage],
            instance=instance, partition_key=key, resources=resources,
            run_config={"ops": {"factory_text": {"config": {"source_path": str(path)}}}},
        )
    assert result.success
    meta = result.asset_materializations_for_node("factory_config")[0].metadata
    assert meta["method"].value == "llm"
    assert meta["llm_usage"].value["calls"] == 2
    assert [c.passed for c in result.get_asset_check_evaluations()] == [True]
