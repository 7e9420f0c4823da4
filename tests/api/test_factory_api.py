"""``POST /api/onboard``, ``POST /api/simulate`` and the Gantt chart, through the real app.

The app runs ``factory_job`` on the project's Dagster instance (Postgres), offline (no LLM key):
the tests check the HTTP envelopes and that the runs are the instance's runs.
"""

from __future__ import annotations

import uuid

import dagster as dg
from fastapi.testclient import TestClient

CONFIG = {
    "machines": [{"id": "M1", "name": "saw"}, {"id": "M2", "name": "drill"}],
    "jobs": [
        {"id": "J1", "name": "J1", "due_time_hour": 3,
         "steps": [{"machine_id": "M1", "duration_hours": 2},
                   {"machine_id": "M2", "duration_hours": 1}]},
        {"id": "J2", "name": "J2", "due_time_hour": 2,
         "steps": [{"machine_id": "M2", "duration_hours": 2}]},
    ],
}


def _unique(text: str) -> str:
    """A text of its own partition (the partition key hashes the bytes)."""
    return f"{text}\nBatch {uuid.uuid4().hex[:8]}."


def test_onboard_returns_the_config_from_a_dagster_run(client: TestClient, instance) -> None:  # noqa: ANN001
    text = _unique("Machines: M1 (saw), M2 (drill).\n- J1: M1 2h -> M2 1h, due 15:00.\n"
                   "- J2: M2 90 min.")
    response = client.post("/api/onboard", json={"text": text, "name": "line 3.txt"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["method"] == "heuristic"
    assert body["partition"].startswith("line-3-")
    assert body["config"]["jobs"][0] == {
        "id": "J1", "name": "J1", "due_time_hour": 15,
        "steps": [{"machine_id": "M1", "duration_hours": 2},
                  {"machine_id": "M2", "duration_hours": 1}]}
    assert body["coverage"]["machine_coverage"] == 1.0
    assert body["repairs"] == ["job J2 step 1 on M2: duration 1.5h rounded up to 2h"]
    assert body["warnings"] == []
    run = instance.get_run_by_id(body["dagster_run_id"])
    assert run is not None and run.job_name == "factory_job"
    assert run.tags["dagster/partition"] == body["partition"]
    assert run.tags["repro/api"] == "POST /api/onboard"
    assert instance.has_dynamic_partition("factories", body["partition"])
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("factory_config"),
                              asset_partitions=[body["partition"]]), limit=1).records
    assert records and records[0].run_id == body["dagster_run_id"]


def test_onboard_failure_is_422_with_code_stage_and_details(client: TestClient) -> None:
    text = _unique("Machines: M1 (saw), M2 (drill), M3 (sander). J1: M1 1h -> M32 2h. "
                   "J2: M2 1h.")
    response = client.post("/api/onboard", json={"text": text})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "INVALID_STRUCTURE"
    assert body["stage"] == "normalize"
    assert "M32 appears only in a job's route" in body["message"]
    details = body["details"]
    assert details["route_only_machines"] == ["M32"]
    assert details["missing_machines"] == ["M32"]
    assert details["machine_coverage"] == 0.75 and details["job_coverage"] == 1.0
    assert body["partition"].startswith("onboard-") and body["dagster_run_id"]


def test_onboard_quotes_the_sentence_it_could_not_read(client: TestClient) -> None:
    text = _unique("Machines: M1 (saw). J1: M1 1h. J2 waits for parts from J1.")
    body = client.post("/api/onboard", json={"text": text}).json()
    assert body["error"] == "INVALID_STRUCTURE"
    assert body["details"]["unread"][0]["sentence"] == "J2 waits for parts from J1"


def test_onboard_without_ids(client: TestClient) -> None:
    response = client.post("/api/onboard", json={"text": _unique("We cut and we drill.")})
    assert response.status_code == 422
    body = response.json()
    assert (body["error"], body["stage"]) == ("COVERAGE_MISMATCH", "ids")
    assert body["details"]["machine_coverage"] is None


def test_onboard_rejects_empty_and_oversized_text(client: TestClient) -> None:
    empty = client.post("/api/onboard", json={"text": "   "})
    assert (empty.status_code, empty.json()["error"]) == (422, "E_EMPTY_TEXT")
    large = client.post("/api/onboard", json={"text": "M1 " * 70_000})
    assert (large.status_code, large.json()["error"]) == (413, "E_FILE_TOO_LARGE")


def test_simulate_a_config(client: TestClient, instance) -> None:  # noqa: ANN001
    config = {**CONFIG, "machines": [*CONFIG["machines"],
                                     {"id": "M9", "name": uuid.uuid4().hex[:8]}]}
    response = client.post("/api/simulate", json={"config": config})
    assert response.status_code == 200, response.text
    body = response.json()
    by_rule = {s["rule"]: s for s in body["schedules"]}
    assert set(by_rule) == {"EDD", "SPT"}
    edd = by_rule["EDD"]
    # hand-checked: J1 on M1 0-2, J2 on M2 0-2, J1 on M2 2-3
    assert edd["makespan"] == 3
    assert [(o["job_id"], o["machine_id"], o["start"], o["end"]) for o in edd["operations"]] == [
        ("J1", "M1", 0, 2), ("J2", "M2", 0, 2), ("J1", "M2", 2, 3)]
    assert {j["job_id"]: j["lateness"] for j in edd["jobs"]} == {"J1": 0, "J2": 0}
    assert edd["utilisation"] == {"M1": 0.6667, "M2": 1.0, "M9": 0.0}
    assert edd["max_lateness"] == 0 and edd["late_jobs"] == []
    assert instance.get_run_by_id(body["dagster_run_id"]).tags["repro/api"] == \
        "POST /api/simulate"
    png = client.get(body["gantt_url"])
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG")


def test_simulate_an_onboarded_partition_later_in_the_day(client: TestClient) -> None:
    text = _unique("Machines: M1, M2. J1: M1 2h -> M2 1h, due 3. J2: M2 2h, due 2.")
    partition = client.post("/api/onboard", json={"text": text}).json()["partition"]
    response = client.post("/api/simulate", json={"partition": partition, "start_hour": 8})
    assert response.status_code == 200, response.text
    edd = next(s for s in response.json()["schedules"] if s["rule"] == "EDD")
    assert {j["job_id"]: j["lateness"] for j in edd["jobs"]} == {"J1": 8, "J2": 8}
    assert edd["late_jobs"] == ["J1", "J2"] and edd["start_hour"] == 8


def test_simulate_an_invalid_config_is_a_coded_422(client: TestClient) -> None:
    config = {**CONFIG, "jobs": [{**CONFIG["jobs"][0], "steps": [
        {"machine_id": "M7", "duration_hours": 1}]}]}
    response = client.post("/api/simulate", json={"config": config})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "INVALID_STRUCTURE"
    assert any("undeclared machine M7" in p for p in body["details"]["problems"])


def test_simulate_request_errors(client: TestClient) -> None:
    both = client.post("/api/simulate", json={"config": CONFIG, "partition": "x-1"})
    assert (both.status_code, both.json()["error"]) == (422, "E_BAD_REQUEST")
    unknown = client.post("/api/simulate", json={"partition": "nowhere-0123456789"})
    assert (unknown.status_code, unknown.json()["error"]) == (404, "E_FACTORY_NOT_FOUND")
    failed = client.post("/api/onboard", json={"text": _unique("Machines: M1. J1 idles.")})
    assert failed.status_code == 422
    not_onboarded = client.post("/api/simulate", json={"partition": failed.json()["partition"]})
    assert (not_onboarded.status_code, not_onboarded.json()["error"]) == (
        409, "E_FACTORY_NOT_ONBOARDED")
    missing_chart = client.get("/api/factories/nowhere-0123456789/gantt.png")
    assert missing_chart.status_code == 404
