"""The bucket drop folder on a real S3 API: a moto server on loopback (issue #17).

Injected: ``REPRO_INBOX_ROOT`` and ``REPRO_BLOB_ROOT`` pointing at ``s3://`` prefixes of a
bucket served by ``moto[server]`` on 127.0.0.1 (reached through s3fs with ``AWS_ENDPOINT_URL``),
three PDFs and two broken files uploaded to ``inbox/papers/``. Verified: the sensor rejects the
broken files on S3 (moved to ``rejected/`` with an ``.error.json``), ingests the PDFs end to end
(PDF blobs byte-identical to the uploads, chunk artifacts, database rows), leaves no temporary
object behind, and a second tick launches nothing.
"""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import dagster as dg
import fsspec
import pytest

from repro_assets.partitions import papers_partitions
from repro_assets.settings import env_name
from repro_assets.storage.blobstore import BlobStore
from tests.reliability.inbox import (
    INGEST,
    apply_partitions,
    digest,
    materializations,
    paper,
    row_counts,
    run_request,
    tick,
)

pytestmark = [pytest.mark.slow, pytest.mark.reliability]



@dataclass(frozen=True)
class Bucket:
    """An S3 filesystem (s3fs) and the name of a fresh bucket on the moto server."""

    fs: fsspec.AbstractFileSystem
    name: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture()
def s3_bucket(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bucket]:
    """A moto S3 server on loopback with a new empty bucket; stopped afterwards (moto keeps
    its state per process, hence a new bucket name per test)."""
    import s3fs
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_DEFAULT_REGION": "us-east-1",
                       "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}.items():
        monkeypatch.setenv(key, value)
    s3fs.S3FileSystem.clear_instance_cache()
    fs = fsspec.filesystem("s3")
    bucket = f"repro-drop-{uuid.uuid4().hex[:8]}"
    fs.mkdir(bucket)
    try:
        yield Bucket(fs, bucket)
    finally:
        s3fs.S3FileSystem.clear_instance_cache()
        server.stop()


def test_the_sensor_ingests_from_a_bucket(
    s3_bucket: Bucket, fresh_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs, bucket = s3_bucket.fs, s3_bucket.name
    monkeypatch.setenv("REPRO_INBOX_ROOT", f"s3://{bucket}/inbox")
    monkeypatch.setenv("REPRO_BLOB_ROOT", f"s3://{bucket}/blobs")
    uploads = {f"paper{n}.pdf": paper(n, pages=2) for n in range(3)}
    broken = {"garbage.pdf": b"%PDF-1.7\n" + b"\x00garbage" * 100, "notes.docx": b"PK\x03\x04"}
    for name, data in {**uploads, **broken}.items():
        fs.pipe_file(f"{bucket}/inbox/papers/{name}", data)
    instance = dg.DagsterInstance.ephemeral()

    first = tick(instance)
    apply_partitions(instance, first)
    keys = instance.get_dynamic_partitions(papers_partitions.name)
    assert len(keys) == 3
    rejected = f"{bucket}/inbox/papers/rejected"
    assert sorted(p.rsplit("/", 1)[-1] for p in fs.ls(rejected)) == [
        "garbage.pdf", "garbage.pdf.error.json", "notes.docx", "notes.docx.error.json",
    ]
    assert json.loads(fs.cat_file(f"{rejected}/garbage.pdf.error.json"))["code"] == (
        "E_PDF_CORRUPT"
    )
    assert json.loads(fs.cat_file(f"{rejected}/notes.docx.error.json"))["code"] == (
        "E_UNSUPPORTED_MEDIA_TYPE"
    )
    assert not fs.exists(f"{bucket}/inbox/papers/garbage.pdf")

    [request] = first.run_requests
    assert all(url.startswith("s3://") for url in
               request.run_config["ops"]["paper_pdf"]["config"]["sources"].values())
    result = run_request(instance, request)
    assert result.success
    counts = materializations([result])
    assert {(asset, key) for asset in INGEST for key in keys} == set(counts)

    blobs = BlobStore(f"s3://{bucket}/blobs")
    stored = blobs.list("papers")
    pdfs = [key for key in stored if key.endswith(".pdf")]
    assert sorted(digest(blobs.read_bytes(key)) for key in pdfs) == sorted(
        digest(data) for data in uploads.values()
    )
    assert sorted(key for key in stored if "/chunks/" in key) == sorted(
        f"papers/{env_name()}/chunks/{key}.json" for key in keys
    )
    for key in keys:
        assert json.loads(blobs.read_text(f"papers/{env_name()}/chunks/{key}.json"))
    everything = fs.find(bucket)
    assert not [path for path in everything if path.endswith(".tmp")]
    rows = row_counts(fresh_database)
    assert rows["papers"] == rows["documents"] == 3 and rows["chunks"] >= 3

    assert tick(instance, cursor=first.cursor).run_requests == []


def test_blob_writes_on_s3_are_whole_and_leave_nothing_behind(
    s3_bucket: Bucket,
) -> None:
    bucket = s3_bucket.name
    blobs = BlobStore(f"s3://{bucket}/store")
    first, second = b"a" * 70_000, b"b" * 10
    url = blobs.write_bytes("runs/r1/final.json", first)
    assert url == f"s3://{bucket}/store/runs/r1/final.json"
    assert blobs.read_bytes("runs/r1/final.json") == first
    blobs.write_bytes("runs/r1/final.json", second)  # an overwrite replaces the whole object
    assert blobs.read_bytes("runs/r1/final.json") == second
    assert blobs.list("runs") == ["runs/r1/final.json"]
    with pytest.raises(ValueError):
        blobs.write_bytes("../outside.json", b"{}")
