"""The LLM path against a scripted OpenAI-compatible server on loopback (real ``openai`` SDK).

The client is the project's ``LLMResource`` pointed at the server through
``REPRO_LLM_PROVIDER=openai_compatible`` / ``REPRO_LLM_BASE_URL``; the answers are what a model
could plausibly return, mistakes included. Texts are written for these tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from repro_assets.cli import main as cli_main
from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ErrorCode, ExtractionError
from repro_assets.resources.llm import LLMResource
from tests.fakes.openai_server import Answer, OpenAIServer, RecordedRequest, Reply


def _machines(*ids: str) -> list[dict[str, str]]:
    return [{"id": i, "name": i} for i in ids]


def _job(job_id: str, steps: list[tuple[str, float]], due: float | None = None) -> dict:
    return {"id": job_id, "name": job_id, "due_time_hour": due,
            "steps": [{"machine_id": m, "duration_hours": h} for m, h in steps]}


@pytest.fixture()
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAIServer]:
    with OpenAIServer(models=["local-model"]) as scripted:
        for name, value in scripted.env(REPRO_LLM_MODEL="local-model").items():
            monkeypatch.setenv(name, value)
        yield scripted


def _agent() -> OnboardingAgent:
    client = LLMResource(cache_enabled=False, record_usage=False, retry_attempts=1).get_client()
    assert client.provider == "openai_compatible"
    return OnboardingAgent(client)


def _fails(text: str) -> ExtractionError:
    with pytest.raises(ExtractionError) as info:
        _agent().run(text)
    return info.value


TYPO = "Machines: M1 (saw), M2 (drill), M3 (sander). J1: M1 2h -> M23 1h -> M3 1h. J2: M2 1h."


def test_a_route_typo_the_model_turns_into_a_machine_is_invalid_structure(
        server: OpenAIServer) -> None:
    """The stage-1 prompt asks for every detected id, so the model lists M23 as a machine."""
    machines = _machines("M1", "M2", "M23", "M3")
    server.reply_json({"machines": machines, "jobs": _machines("J1", "J2")})
    server.reply_json({"machines": machines, "jobs": [
        _job("J1", [("M1", 2), ("M23", 1), ("M3", 1)]), _job("J2", [("M2", 1)])]})
    error = _fails(TYPO)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.details["route_only_machines"] == ["M23"]
    assert "M23 appears only in a job's route" in error.message
    first = server.chat_requests[0]
    assert first.schema_name == "CoarseStructure" and first.model == "local-model"
    assert "Detected machine ids: M1, M2, M23, M3" in first.user


def test_a_route_typo_the_model_quietly_fixes_is_still_invalid_structure(
        server: OpenAIServer) -> None:
    machines = _machines("M1", "M2", "M3")
    server.reply_json({"machines": machines, "jobs": _machines("J1", "J2")})
    server.reply_json({"machines": machines, "jobs": [
        _job("J1", [("M1", 2), ("M2", 1), ("M3", 1)]), _job("J2", [("M2", 1)])]})
    error = _fails(TYPO)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.details["route_only_machines"] == ["M23"]


def test_a_stage1_job_missing_in_stage2(server: OpenAIServer) -> None:
    text = "Machines: M1 (saw), M2 (drill). J1: M1 1h -> M2 1h. J2: M2 2h."
    machines = _machines("M1", "M2")
    server.reply_json({"machines": machines, "jobs": _machines("J1", "J2")})
    server.reply_json({"machines": machines, "jobs": [_job("J1", [("M1", 1), ("M2", 1)])]})
    error = _fails(text)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.details["skeleton"]["missing_in_stage2"] == ["J2"]
    assert "stage-1 job J2 is missing in stage 2" in error.message


def test_a_stage2_step_outside_the_skeleton(server: OpenAIServer) -> None:
    text = "Machines: M1 (saw), M2 (drill). J1: M1 1h -> M2 1h."
    machines = _machines("M1", "M2")
    server.reply_json({"machines": machines, "jobs": _machines("J1")})
    server.reply_json({"machines": machines, "jobs": [_job("J1", [("M1", 1), ("M9", 1)])]})
    error = _fails(text)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.details["skeleton"]["steps_outside_skeleton"] == ["job J1 step 2 runs on M9"]


def test_an_answer_that_ignores_a_skip_is_refused(server: OpenAIServer) -> None:
    """The offline reading of this text is certain, so a different answer cannot pass."""
    text = ("Machines: M1 (wash), M2 (rinse), M3 (dry). Every job goes M1 then M2 then M3, "
            "1h each. J2 skips M2. Jobs are J1 and J2.")
    machines = _machines("M1", "M2", "M3")
    server.reply_json({"machines": machines, "jobs": _machines("J1", "J2")})
    steps = [("M1", 1), ("M2", 1), ("M3", 1)]
    server.reply_json({"machines": machines, "jobs": [_job("J1", steps), _job("J2", steps)]})
    error = _fails(text)
    assert error.code is ErrorCode.INVALID_STRUCTURE
    assert error.stage == "crosscheck"
    assert error.details["disagreements"] == [
        "job J2: route M1 1h -> M2 1h -> M3 1h but the text reads M1 1h -> M3 1h"]


def test_a_correct_answer_passes_where_the_offline_reader_gives_up(
        server: OpenAIServer) -> None:
    text = ("Machines: M1 (wash), M2 (rinse), M3 (dry). J1 goes M1 1h, M2 1h, M3 2h. "
            "J2 is like J1 but leaves out the rinse.")
    machines = [{"id": "M1", "name": "wash"}, {"id": "M2", "name": "rinse"},
                {"id": "M3", "name": "dry"}]
    server.reply_json({"machines": machines, "jobs": _machines("J1", "J2")})
    server.reply_json({"machines": machines, "jobs": [
        _job("J1", [("M1", 1), ("M2", 1), ("M3", 2)]), _job("J2", [("M1", 1), ("M3", 2)])]})
    result = _agent().run_detailed(text)
    assert result.method == "llm"
    assert [s.machine_id for s in result.config.jobs[1].steps] == ["M1", "M3"]
    assert result.warnings == [
        "not checked by the offline reader: 'J2 is like J1 but leaves out the rinse' "
        "(cannot read 'leaves out the rinse'; read as: 'J2: same as J1 but leaves out the "
        "rinse')"]  # the writer's words; 'is like' is read as 'same as'


# --------------------------------------------------------------------------- the eval


CASES = [
    {"name": "clear_routes", "expect": "ok",
     "text": "Machines: M1 (saw), M2 (drill). J1: M1 2h -> M2 1h, due 15:00. J2: M2 3h.",
     "machines": ["M1", "M2"],
     "jobs": {"J1": {"route": ["M1", "M2"], "hours": [2, 1], "due": 15},
              "J2": {"route": ["M2"], "hours": [3], "due": None}}},
    {"name": "typo_in_route", "expect": "INVALID_STRUCTURE",
     "text": "Machines: M1 (press), M2 (oven). J1: M1 1h -> M12 2h. J2: M2 1h."},
    {"name": "skip_ignored_by_model", "expect": "ok",
     "text": "Machines: M1, M2, M3. All jobs go M1 -> M2 -> M3, 2h each. J2 skips M3. "
             "Jobs: J1, J2.",
     "machines": ["M1", "M2", "M3"],
     "jobs": {"J1": {"route": ["M1", "M2", "M3"], "hours": [2, 2, 2], "due": None},
              "J2": {"route": ["M1", "M2"], "hours": [2, 2], "due": None}}},
    {"name": "model_drops_a_job", "expect": "ok",
     "text": "Machines: M1 (cut), M2 (fold). J1: M2 1h. J2: M1 1h -> M2 1h.",
     "machines": ["M1", "M2"],
     "jobs": {"J1": {"route": ["M2"], "hours": [1], "due": None},
              "J2": {"route": ["M1", "M2"], "hours": [1, 1], "due": None}}},
    {"name": "no_job_ids", "expect": "NO_IDS", "text": "Machines M1 and M2 are idle."},
]

#: What the scripted model answers per case: (stage 1, stage 2), mistakes included.
ANSWERS = {
    "clear_routes": ({"machines": _machines("M1", "M2"), "jobs": _machines("J1", "J2")},
                     {"machines": _machines("M1", "M2"), "jobs": [
                         _job("J1", [("M1", 2), ("M2", 1)], 15), _job("J2", [("M2", 3)])]}),
    "typo_in_route": ({"machines": _machines("M1", "M12", "M2"), "jobs": _machines("J1", "J2")},
                      {"machines": _machines("M1", "M12", "M2"), "jobs": [
                          _job("J1", [("M1", 1), ("M12", 2)]), _job("J2", [("M2", 1)])]}),
    "skip_ignored_by_model": (
        {"machines": _machines("M1", "M2", "M3"), "jobs": _machines("J1", "J2")},
        {"machines": _machines("M1", "M2", "M3"), "jobs": [
            _job("J1", [("M1", 2), ("M2", 2), ("M3", 2)]),
            _job("J2", [("M1", 2), ("M2", 2), ("M3", 2)])]}),
    "model_drops_a_job": ({"machines": _machines("M1", "M2"), "jobs": _machines("J1", "J2")},
                          {"machines": _machines("M1", "M2"), "jobs": [_job("J1", [("M2", 1)])]}),
}


def _responder(request: RecordedRequest) -> Reply:
    case = next(c for c in CASES if c["text"] in request.user)
    coarse, fine = ANSWERS[case["name"]]
    answer = coarse if request.schema_name == "CoarseStructure" else fine
    return Reply(answer=Answer(content=json.dumps(answer)))


def test_eval_with_use_llm_has_no_silent_wrong(
    server: OpenAIServer, fresh_database: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.responder = _responder
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": CASES}), encoding="utf-8")
    code = cli_main(["eval", "factory", "--cases", str(path), "--use-llm", "--no-cache",
                     "--json"])
    report = json.loads(capsys.readouterr().out)
    verdicts = {case["name"]: case["verdict"] for case in report["cases"]}
    assert report["method"] == "llm"
    assert verdicts == {
        "clear_routes": "correct",
        "typo_in_route": "correct",
        "skip_ignored_by_model": "safe fail",
        "model_drops_a_job": "safe fail",
        "no_job_ids": "correct",
    }
    assert report["totals"]["silent wrong"] == 0
    assert code == 0
    assert len(server.chat_requests) == 8  # two calls per case with ids, none without
