"""OnboardingAgent end to end (offline parser and scripted extractor) and the eval set."""

from __future__ import annotations

import logging

import pytest

from repro_assets.factory import eval as factory_eval
from repro_assets.factory import evalset
from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.coarse import coarse_prompt
from repro_assets.factory.evalset import CASES, ScriptedClient, run_case
from repro_assets.factory.ids import extract_explicit_ids
from repro_assets.factory.models import CoarseStructure, ErrorCode, ExtractionError
from repro_assets.llm.offline import OfflineClient
from repro_assets.llm.types import LLMClient, LLMInvalidOutput, LLMTimeout


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_eval_case(case: evalset.EvalCase) -> None:
    outcome = run_case(case, None)
    assert outcome.actual == outcome.expected, outcome
    assert outcome.failed_checks == []
    assert outcome.passed


def test_seed_cases_expected_codes() -> None:
    codes = {case.name: case.expected_code for case in CASES if case.source.startswith("seed")}
    assert codes == {
        "case1_clean_canonical": None,
        "case2_coverage_mismatch": "COVERAGE_MISMATCH",
        "case3_contradictory_routing": None,
        "case4_invalid_normalization": "INVALID_STRUCTURE",
        "case5_empty_or_ambiguous": "COVERAGE_MISMATCH",
    }


def test_eval_main_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert factory_eval.main([]) == 0
    out = capsys.readouterr().out
    assert f"{len(CASES)}/{len(CASES)} cases passed" in out


@pytest.mark.parametrize(
    "option", [["--fold", "0/3"], ["--exclude-fold", "1/3"], ["--totals-only"]]
)
def test_case_file_options_without_cases_are_refused(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert factory_eval.main(option) == 2
    assert "E_BAD_ARGUMENTS" in capsys.readouterr().err


def test_use_llm_without_provider_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert factory_eval.main(["--use-llm"]) == 2


def test_offline_client_takes_the_heuristic_path(canonical_text: str) -> None:
    agent = OnboardingAgent(OfflineClient())
    result = agent.run_detailed(canonical_text)
    assert result.method == "heuristic"
    assert len(result.config.jobs) == 4


def test_four_log_points_plus_repairs_and_no_text(
    canonical_text: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="repro_assets.factory"):
        OnboardingAgent().run(canonical_text)
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("repro_assets.factory")]
    assert [m.split(":")[0] for m in messages] == [
        "factory stage 0", "factory stage 1", "factory stage 2", "factory stage 4",
    ]
    assert messages[0] == ("factory stage 0: detected_machines=['M1', 'M2', 'M3'], "
                           "detected_jobs=['J1', 'J2', 'J3', 'J4']")
    assert messages[1] == "factory stage 1: extracted_machines_count=3, extracted_jobs_count=4"
    assert messages[2] == "factory stage 2: jobs_with_steps=4, final_job_count=4"
    assert messages[3] == ("factory stage 4: machine_coverage=100%, job_coverage=100%, "
                           "missing_machines=[], missing_jobs=[]")
    assert not any("assembly" in m or "due by" in m for m in messages)
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="repro_assets.factory"):
        OnboardingAgent().run("Machines: M1 (saw). J1: M1 20 min, due 9:30.")
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("repro_assets.factory")]
    assert messages[3:5] == [
        "factory repair: job J1 step 1 on M1: duration 0.333333h rounded up to 1h",
        "factory repair: job J1: due hour 9.5 rounded down to 9",
    ]
    assert messages[5].startswith("factory stage 4:")


def test_two_structured_calls_with_deterministic_prompts(canonical_text: str) -> None:
    replies = _canonical_replies()
    client = ScriptedClient(replies)
    config = OnboardingAgent(client).run(canonical_text)
    assert [call["schema"] for call in client.calls] == ["CoarseStructure", "RawFactoryConfig"]
    assert len(config.jobs) == 4
    again = ScriptedClient(_canonical_replies())
    OnboardingAgent(again).run(canonical_text)
    assert [c["user"] for c in client.calls] == [c["user"] for c in again.calls]
    ids = extract_explicit_ids(canonical_text)
    assert client.calls[0]["user"] == coarse_prompt(canonical_text, ids)
    assert "Detected machine ids: M1, M2, M3" in client.calls[0]["user"]


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (LLMTimeout("timed out"), ErrorCode.LLM_FAILURE),
        (LLMInvalidOutput("bad json", raw_text="{"), ErrorCode.INVALID_JSON),
        (RuntimeError("boom"), ErrorCode.LLM_FAILURE),
    ],
)
def test_llm_errors_become_extraction_errors(
    canonical_text: str, error: Exception, code: ErrorCode
) -> None:
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent(ScriptedClient([error])).run(canonical_text)
    assert info.value.code is code
    assert info.value.stage == "coarse"


def test_the_scripted_client_is_an_llm_client() -> None:
    # it lacked cache_scope (and the fallback / use_cache options), so it was not one
    client = ScriptedClient([{"machines": [], "jobs": []}])
    assert isinstance(client, LLMClient)
    with client.cache_scope() as scope:
        assert scope.rejected is None
    client.structured(role="coarse", system="s", user="u", schema=CoarseStructure,
                      fallback=None, use_cache=False)
    assert client.calls == [{"role": "coarse", "schema": "CoarseStructure", "user": "u"}]


def test_schema_mismatch_is_invalid_json(canonical_text: str) -> None:
    client = ScriptedClient([{"machines": [{"id": "M1"}], "jobs": []}])
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent(client).run(canonical_text)
    assert info.value.code is ErrorCode.INVALID_JSON


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("We do stuff with machines and jobs.", ErrorCode.COVERAGE_MISMATCH),
        ("Machines M1 and M2 are idle.", ErrorCode.NO_IDS),
        ("J1 goes to the saw, then the drill.", ErrorCode.NO_IDS),
    ],
)
def test_missing_ids_fail_before_any_llm_call(text: str, code: ErrorCode) -> None:
    client = ScriptedClient([])
    with pytest.raises(ExtractionError) as info:
        OnboardingAgent(client).run(text)
    assert info.value.code is code
    assert info.value.stage == "ids"
    assert client.calls == []


def _canonical_replies() -> list[dict]:
    machines = [{"id": m, "name": n} for m, n in (("M1", "assembly"), ("M2", "drill"),
                                                   ("M3", "pack"))]
    jobs = [{"id": j, "name": j} for j in ("J1", "J2", "J3", "J4")]
    steps = [{"machine_id": m, "duration_hours": d} for m, d in (("M1", 2), ("M2", 1), ("M3", 1))]
    return [
        {"machines": machines, "jobs": jobs},
        {"machines": machines,
         "jobs": [{**job, "steps": steps, "due_time_hour": 12 if job["id"] in ("J1", "J2")
                   else 17} for job in jobs]},
    ]
