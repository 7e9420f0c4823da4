"""Dagster layer: assets, checks, sensor, demo hook, `show` and the `onboard` command."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest

from repro_assets import settings
from repro_assets.assets import factory as factory_assets
from repro_assets.cli import main as cli_main
from repro_assets.demo import DemoContext
from repro_assets.demos import factory as factory_demo
from repro_assets.factory import views as factory_views
from repro_assets.factory.store import partition_key_for
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.registry import default_resources
from repro_assets.sensors import factory as factory_sensors

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "factory"
ASSETS = [
    factory_assets.factory_text,
    factory_assets.factory_config,
    factory_assets.factory_schedule,
    factory_assets.factory_config_coverage,
    factory_assets.factory_schedule_feasible,
]


def _materialize(instance: dg.DagsterInstance, path: Path) -> tuple[str, dg.ExecuteInProcessResult]:
    key = partition_key_for(path.name, path.read_bytes())
    instance.add_dynamic_partitions("factories", [key])
    result = dg.materialize(
        ASSETS,
        instance=instance,
        partition_key=key,
        resources=default_resources(),
        run_config={"ops": {"factory_text": {"config": {"source_path": str(path)}}}},
        raise_on_error=False,
    )
    return key, result


def _metadata(result: dg.ExecuteInProcessResult, asset: str) -> dict:
    events = result.asset_materializations_for_node(asset)
    assert len(events) == 1
    return {k: v.value for k, v in events[0].metadata.items()}


def test_partition_key_is_stable_per_bytes() -> None:
    data = b"M1 (a). J1: M1 1h."
    assert partition_key_for("My Factory.txt", data) == partition_key_for("My Factory.txt", data)
    assert partition_key_for("My Factory.txt", data).startswith("my-factory-")
    assert partition_key_for("a.txt", data) != partition_key_for("a.txt", data + b" ")


def test_success_partition(fresh_database: str) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key, result = _materialize(instance, FIXTURES / "widget_line.txt")
    assert result.success
    text_meta = _metadata(result, "factory_text")
    assert text_meta["detected_machines"] == ["M1", "M2", "M3"]
    config_meta = _metadata(result, "factory_config")
    assert config_meta["method"] == "heuristic"
    assert (config_meta["machines"], config_meta["jobs"]) == (3, 5)
    assert config_meta["machine_coverage"] == 1.0 and config_meta["job_coverage"] == 1.0
    schedule_meta = _metadata(result, "factory_schedule")
    assert schedule_meta["makespan_edd"] == 9 and schedule_meta["makespan_spt"] == 9
    assert schedule_meta["gantt"].startswith("![Gantt chart](data:image/png;base64,")
    assert Path(schedule_meta["gantt_path"]).read_bytes().startswith(b"\x89PNG")
    checks = result.get_asset_check_evaluations()
    assert sorted((c.check_name, c.passed) for c in checks) == [
        ("factory_config_coverage", True), ("factory_schedule_feasible", True),
    ]
    shown = factory_views.SHOWS["factory_config"](key)
    assert shown["status"] == "ok" and len(shown["config"]["jobs"]) == 5
    assert {s["rule"] for s in factory_views.SHOWS["factory_schedule"](key)} == {"EDD", "SPT"}
    assert "M1 (cutting)" in factory_views.SHOWS["factory_text"](key)["text"]
    assert factory_views.SHOWS["factory_config"](None) == [
        {"partition": key, "status": "ok", "code": None}
    ]


def test_structure_failure_is_a_failed_partition(fresh_database: str) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key, result = _materialize(instance, FIXTURES / "route_typo.txt")
    assert not result.success
    failures = [e for e in result.all_events if e.is_step_failure]
    assert [e.step_key for e in failures] == ["factory_config"]
    user = failures[0].step_failure_data.user_failure_data
    meta = {k: v.value for k, v in user.metadata.items()}
    assert meta["code"] == "INVALID_STRUCTURE"
    assert meta["missing_machines"] == ["M33"]
    assert meta["machine_coverage"] == 0.75
    assert meta["details"]["route_only_machines"] == ["M33"]
    assert "M33 appears only in a job's route" in user.description
    assert not result.asset_materializations_for_node("factory_schedule")
    row = factory_views.SHOWS["factory_config"](key)
    assert row["status"] == "failed" and row["error"]["code"] == "INVALID_STRUCTURE"


def test_out_of_service_machine_is_kept(fresh_database: str) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key, result = _materialize(instance, FIXTURES / "spare_press.txt")
    assert result.success
    meta = _metadata(result, "factory_config")
    assert meta["machines"] == 4 and meta["warnings"] == [
        "machine M4 is out of service: kept, with no steps"]


def test_rematerialize_text_without_config_reads_the_store(fresh_database: str) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key, first = _materialize(instance, FIXTURES / "canonical.txt")
    assert first.success
    again = dg.materialize(
        [factory_assets.factory_text], instance=instance, partition_key=key,
        resources=default_resources(),
    )
    assert _metadata(again, "factory_text")["file"] == "canonical.txt"


def test_sensor_requests_new_files_and_rejects_bad_ones(fresh_database: str) -> None:
    inbox = Path(settings.inbox_root()) / "factories"
    shutil.rmtree(inbox, ignore_errors=True)
    inbox.mkdir(parents=True)
    shutil.copy(FIXTURES / "canonical.txt", inbox / "canonical.txt")
    (inbox / "broken.txt").write_bytes(b"\xff\xfe M1 \x00\x81")
    (inbox / "empty.txt").write_bytes(b"   \n")
    (inbox / "notes.md").write_text("ignored: not *.txt")
    instance = dg.DagsterInstance.ephemeral()
    context = dg.build_sensor_context(instance=instance, resources={"inbox": DropFolderResource()})
    result = factory_sensors.factory_drop_sensor(context)
    key = partition_key_for("canonical.txt", (inbox / "canonical.txt").read_bytes())
    assert [r.partition_key for r in result.run_requests] == [key]
    assert result.run_requests[0].run_key == key
    assert result.dynamic_partitions_requests[0].partition_keys == [key]
    rejected = sorted(p.name for p in (inbox / "rejected").iterdir())
    assert rejected == ["broken.txt", "broken.txt.error.json", "empty.txt", "empty.txt.error.json"]
    error = json.loads((inbox / "rejected" / "broken.txt.error.json").read_text())
    assert error["code"] == "E_NOT_UTF8"
    again = factory_sensors.factory_drop_sensor(
        dg.build_sensor_context(instance=instance, cursor=result.cursor,
                                resources={"inbox": DropFolderResource()})
    )
    assert again.run_requests == []


def test_demo_hook(fresh_database: str) -> None:
    samples = settings.samples_dir() / "factories"
    shutil.rmtree(samples, ignore_errors=True)
    samples.mkdir(parents=True)
    for name in ("widget_line.txt", "route_typo.txt"):
        shutil.copy(FIXTURES / name, samples / name)
    (samples / "expected.json").write_text(
        json.dumps({"widget_line.txt": "ok", "route_typo.txt": "INVALID_STRUCTURE"})
    )
    defs = dg.Definitions.merge(factory_assets.defs, dg.Definitions(resources=default_resources()))
    rows = factory_demo.demo(DemoContext(instance=dg.DagsterInstance.ephemeral(), defs=defs))
    by_file = {row.partition.rsplit("-", 1)[0]: row for row in rows}
    good, bad = by_file["widget-line"], by_file["route-typo"]
    assert good.ok and "makespan EDD 9h, SPT 9h" in good.figures and good.assets == 3
    assert Path(good.where).read_bytes().startswith(b"\x89PNG")
    assert not bad.ok and bad.expected_failure
    assert bad.figures.startswith("INVALID_STRUCTURE missing M33 (machines 75%, jobs 100%)")


def test_onboard_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["onboard", str(FIXTURES / "canonical.txt"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and len(out["config"]["machines"]) == 3
    assert cli_main(["onboard", str(FIXTURES / "route_typo.txt"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "INVALID_STRUCTURE"
    assert out["error"]["details"]["route_only_machines"] == ["M33"]
    assert cli_main(["onboard", str(FIXTURES / "route_typo.txt")]) == 1
    assert "INVALID_STRUCTURE" in capsys.readouterr().err
    assert cli_main(["onboard", str(FIXTURES / "spare_press.txt")]) == 0
    assert "warning: machine M4 is out of service" in capsys.readouterr().out
    assert cli_main(["onboard", str(FIXTURES / "missing.txt")]) == 2


def test_blob_store_holds_the_text(fresh_database: str) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key, result = _materialize(instance, FIXTURES / "canonical.txt")
    assert result.success
    store = BlobStoreResource().get_store()
    assert store.read_bytes(f"factories/{key}/source.txt") == (
        FIXTURES / "canonical.txt"
    ).read_bytes()


@pytest.mark.parametrize(
    ("source", "code"),
    [("renamed", "E_PARTITION_MISMATCH"), ("missing", "E_SOURCE_NOT_FOUND")],
)
def test_factory_text_failures_carry_codes(fresh_database: str, tmp_path: Path, source: str,
                                           code: str) -> None:
    path = tmp_path / "canonical.txt"
    shutil.copy(FIXTURES / "canonical.txt", path)
    key = partition_key_for(path.name, path.read_bytes())
    if source == "renamed":
        path = path.rename(tmp_path / "other.txt")
    else:
        path = tmp_path / "nowhere.txt"
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("factories", [key])
    result = dg.materialize(
        [factory_assets.factory_text], instance=instance, partition_key=key,
        resources=default_resources(), raise_on_error=False,
        run_config={"ops": {"factory_text": {"config": {"source_path": str(path)}}}},
    )
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == code
