from datetime import UTC, datetime

import pytest

from repro_assets.storage.blobstore import BlobStore, paper_pdf_key
from repro_assets.storage.dropfolder import DropFolder


def test_write_read_list_and_atomicity(tmp_path) -> None:
    store = BlobStore(str(tmp_path / "blobs"))
    url = store.write_bytes("a/b/c.bin", b"123")
    assert store.read_bytes("a/b/c.bin") == b"123"
    assert url.endswith("a/b/c.bin")
    store.write_text("a/d.txt", "hé")
    assert store.list("a") == ["a/b/c.bin", "a/d.txt"]
    leftovers = [p for p in (tmp_path / "blobs").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_keys_cannot_escape_the_root(tmp_path) -> None:
    store = BlobStore(str(tmp_path / "blobs"))
    with pytest.raises(ValueError):
        store.write_bytes("../outside.txt", b"x")
    with pytest.raises(ValueError):
        store.read_bytes("a/../../x")


def test_paper_key_follows_the_seed_layout() -> None:
    when = datetime(2025, 11, 6, tzinfo=UTC)
    assert paper_pdf_key("abc123", when, env="dev") == "papers/dev/2025/11/06/abc123.pdf"


def test_memory_filesystem_works_like_a_bucket() -> None:
    store = BlobStore("memory://bucket-test")
    store.write_bytes("x/y.pdf", b"%PDF-")
    assert store.exists("x/y.pdf")
    assert store.url("x/y.pdf").startswith("memory://")


def test_drop_folder_rejects_with_error_json(tmp_path) -> None:
    folder = DropFolder(str(tmp_path / "inbox"))
    folder.ensure("papers")
    (tmp_path / "inbox" / "papers" / "bad.txt").write_text("nope")
    [entry] = folder.list("papers", "*")
    target = folder.reject("papers", entry, "E_UNSUPPORTED_MEDIA_TYPE", "not a pdf")
    assert target.endswith("rejected/bad.txt")
    error = (tmp_path / "inbox" / "papers" / "rejected" / "bad.txt.error.json").read_text()
    assert "E_UNSUPPORTED_MEDIA_TYPE" in error
    assert folder.list("papers", "*") == []
