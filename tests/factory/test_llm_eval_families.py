"""``eval factory --cases ... --use-llm`` on #24 phrasing families, against the scripted
OpenAI-compatible server on loopback (texts written for this test)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from repro_assets.cli import main as cli_main
from repro_assets.folds import in_fold
from tests.fakes.openai_server import Answer, OpenAIServer, RecordedRequest, Reply


def _machines(*ids: str) -> list[dict[str, str]]:
    return [{"id": i, "name": i} for i in ids]


def _job(job_id: str, steps: list[tuple[str, float]], due: float | None = None) -> dict:
    return {"id": job_id, "name": job_id, "due_time_hour": due,
            "steps": [{"machine_id": m, "duration_hours": h} for m, h in steps]}


CASES = [
    {"name": "headerless_rows", "expect": "ok",
     "text": "sheet dump:\nJ3;M2;2h\nJ3;M1;1h\nJ4;M1;3h",
     "machines": ["M1", "M2"],
     "jobs": {"J3": {"route": ["M2", "M1"], "hours": [2, 1], "due": None},
              "J4": {"route": ["M1"], "hours": [3], "due": None}}},
    {"name": "defined_end_of_day", "expect": "ok",
     "text": "Our EOD is 18:00. M1 = saw, M2 = drill.\nJ1: M1 1h, M2 1h - EOD\nJ2: M2 2h",
     "machines": ["M1", "M2"],
     "jobs": {"J1": {"route": ["M1", "M2"], "hours": [1, 1], "due": 18},
              "J2": {"route": ["M2"], "hours": [2], "due": None}}},
]

#: The scripted model: right on the table, a guessed end of day (17) on the second case.
ANSWERS = {
    "headerless_rows": ({"machines": _machines("M1", "M2"), "jobs": _machines("J3", "J4")},
                        {"machines": _machines("M1", "M2"), "jobs": [
                            _job("J3", [("M2", 2), ("M1", 1)]), _job("J4", [("M1", 3)])]}),
    "defined_end_of_day": ({"machines": _machines("M1", "M2"), "jobs": _machines("J1", "J2")},
                           {"machines": _machines("M1", "M2"), "jobs": [
                               _job("J1", [("M1", 1), ("M2", 1)], 17),
                               _job("J2", [("M2", 2)])]}),
}


@pytest.fixture()
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAIServer]:
    with OpenAIServer(models=["local-model"]) as scripted:
        for name, value in scripted.env(REPRO_LLM_MODEL="local-model").items():
            monkeypatch.setenv(name, value)
        yield scripted


def _responder(request: RecordedRequest) -> Reply:
    case = next(c for c in CASES if c["text"] in request.user)
    coarse, fine = ANSWERS[case["name"]]
    answer = coarse if request.schema_name == "CoarseStructure" else fine
    return Reply(answer=Answer(content=json.dumps(answer)))


def _eval(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict]:
    code = cli_main(["eval", "factory", "--cases", str(path), "--use-llm", "--no-cache",
                     "--json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_use_llm_eval_on_new_families(
    server: OpenAIServer, fresh_database: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.responder = _responder
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": CASES}), encoding="utf-8")
    code, report = _eval(path, capsys)
    verdicts = {case["name"]: case["verdict"] for case in report["cases"]}
    # the guessed due time differs from what the text defines: refused, not accepted
    assert verdicts == {"headerless_rows": "correct", "defined_end_of_day": "safe fail"}
    assert "due 17 but the text reads 18" in report["cases"][1]["detail"]
    assert report["totals"]["silent wrong"] == 0 and code == 0
    assert len(server.chat_requests) == 4

    fold = next(k for k in range(3) if in_fold("headerless_rows", (k, 3)))
    _, only_fold = _eval(path, capsys, "--fold", f"{fold}/3")
    assert "headerless_rows" in [case["name"] for case in only_fold["cases"]]
    _, without = _eval(path, capsys, "--exclude-fold", f"{fold}/3")
    assert "headerless_rows" not in [case["name"] for case in without["cases"]]
