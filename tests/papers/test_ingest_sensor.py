import json
import shutil

import dagster as dg

from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.sensors.papers import paper_inbox_sensor
from tests.pdfs import PAPER_PAGES, make_corrupt_pdf, make_pdf


def _tick(instance, inbox_root, cursor=None) -> dg.SensorResult:
    context = dg.build_sensor_context(
        instance=instance, cursor=cursor,
        resources={"inbox": DropFolderResource(root=str(inbox_root))},
    )
    return paper_inbox_sensor(context)


def test_new_duplicate_and_bad_files(tmp_path) -> None:
    inbox = tmp_path / "inbox"
    folder = inbox / "papers"
    folder.mkdir(parents=True)
    instance = dg.DagsterInstance.ephemeral()
    (folder / "a.pdf").write_bytes(make_pdf(PAPER_PAGES))
    shutil.copyfile(folder / "a.pdf", folder / "a-copy.pdf")
    (folder / "broken.pdf").write_bytes(make_corrupt_pdf())
    (folder / "notes.txt").write_text("hello")

    result = _tick(instance, inbox)
    assert len(result.run_requests) == 1  # duplicate bytes -> one run
    [request] = result.run_requests
    assert request.run_key.startswith("paper-")
    assert request.run_config["ops"]["paper_pdf"]["config"]["source"].endswith(".pdf")
    [add] = result.dynamic_partitions_requests
    assert list(add.partition_keys) == [request.partition_key]
    rejected = sorted(p.name for p in (folder / "rejected").iterdir())
    assert rejected == ["broken.pdf", "broken.pdf.error.json", "notes.txt",
                        "notes.txt.error.json"]
    error = json.loads((folder / "rejected" / "broken.pdf.error.json").read_text())
    assert error["code"] == "E_PDF_CORRUPT" and error["message"]
    assert json.loads((folder / "rejected" / "notes.txt.error.json").read_text())["code"] == (
        "E_UNSUPPORTED_MEDIA_TYPE"
    )

    # same files, cursor kept: nothing new
    instance.add_dynamic_partitions("papers", [request.partition_key])
    second = _tick(instance, inbox, cursor=result.cursor)
    assert second.run_requests == [] and second.dynamic_partitions_requests == []

    # a new file with new bytes: one new partition
    (folder / "b.pdf").write_bytes(make_pdf(PAPER_PAGES[:1]))
    third = _tick(instance, inbox, cursor=second.cursor)
    assert len(third.run_requests) == 1
    assert third.run_requests[0].partition_key != request.partition_key


def test_a_tick_survives_an_empty_or_missing_folder(tmp_path) -> None:
    instance = dg.DagsterInstance.ephemeral()
    result = _tick(instance, tmp_path / "nothing-here")
    assert result.run_requests == []
    assert (tmp_path / "nothing-here" / "papers" / "rejected").is_dir()
