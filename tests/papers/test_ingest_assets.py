import dagster as dg
import pytest

from repro_assets.assets.papers import INGEST_ASSETS, paper_pdf
from repro_assets.papers.pdf import validate_pdf
from repro_assets.resources.registry import default_resources
from tests.pdfs import PAPER_PAGES, make_encrypted_pdf, make_pdf


def _counts(url: str) -> dict[str, int]:
    from repro_assets.storage.database import get_database

    with get_database(url).connection() as conn:
        return {
            t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("papers", "paper_pages", "documents", "sections", "chunks")
        }


def _run(instance, key: str, source: str, assets=INGEST_ASSETS) -> dg.ExecuteInProcessResult:
    return dg.materialize(
        assets, instance=instance, partition_key=key, resources=default_resources(),
        run_config={"ops": {"paper_pdf": {"config": {"source": source, "title": ""}}}},
        raise_on_error=False,
    )


@pytest.fixture()
def paper_file(tmp_path):
    path = tmp_path / "svm_wine.pdf"
    path.write_bytes(make_pdf(PAPER_PAGES, title="SVMs on Wine"))
    return path


def test_each_ingest_asset_materializes_and_is_idempotent(fresh_database, paper_file) -> None:
    instance = dg.DagsterInstance.ephemeral()
    key = validate_pdf(paper_file.read_bytes()).paper_id
    instance.add_dynamic_partitions("papers", [key])
    result = _run(instance, key, str(paper_file))
    assert result.success
    mats = {e.asset_key.to_user_string(): e.materialization.metadata
            for e in result.get_asset_materialization_events()}
    assert set(mats) == {"paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings"}
    assert mats["paper_pdf"]["already_exists"].value is False
    assert mats["paper_pages"]["pages"].value == 2
    assert mats["paper_embeddings"]["embedded"].value == mats["paper_chunks"]["chunks"].value
    first = _counts(fresh_database)
    assert first["papers"] == 1 and first["paper_pages"] == 2 and first["chunks"] >= 1

    again = _run(instance, key, str(paper_file))
    assert again.success
    mats = {e.asset_key.to_user_string(): e.materialization.metadata
            for e in again.get_asset_materialization_events()}
    assert mats["paper_pdf"]["already_exists"].value is True
    assert mats["paper_embeddings"]["embedded"].value == 0
    assert _counts(fresh_database) == first

    # re-materializing from the stored blob (no source) also works: the backfill path
    stored = dg.materialize([paper_pdf], instance=instance, partition_key=key,
                            resources=default_resources())
    assert stored.success


def test_search_finds_the_papers_results_chunk(fresh_database, paper_file) -> None:
    from repro_assets.storage.database import get_database
    from repro_assets.storage.embedder import get_embedder
    from repro_assets.storage.vectorstore import VectorStore

    instance = dg.DagsterInstance.ephemeral()
    key = validate_pdf(paper_file.read_bytes()).paper_id
    instance.add_dynamic_partitions("papers", [key])
    assert _run(instance, key, str(paper_file)).success
    store = VectorStore(get_database(fresh_database), get_embedder())
    hits = store.search("what accuracy does the model reach on Wine?", k=1, paper_id=key)
    assert "97.2% accuracy" in hits[0].content
    assert hits[0].page_end == 2 and hits[0].paper_id == key


def test_bad_inputs_fail_with_codes(fresh_database, tmp_path) -> None:
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", ["deadbeefdeadbeef"])
    cases = {
        "notes.pdf": (b"just text", "E_UNSUPPORTED_MEDIA_TYPE"),
        "locked.pdf": (make_encrypted_pdf(), "E_PDF_ENCRYPTED"),
    }
    for name, (data, code) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        result = _run(instance, "deadbeefdeadbeef", str(path), assets=[paper_pdf])
        assert not result.success
        failure = next(e for e in result.all_events if e.is_step_failure)
        assert failure.step_failure_data.user_failure_data.metadata["code"].value == code
    missing = _run(instance, "deadbeefdeadbeef", str(tmp_path / "gone.pdf"), assets=[paper_pdf])
    assert not missing.success
    # a good PDF under the wrong partition is refused
    good = tmp_path / "good.pdf"
    good.write_bytes(make_pdf(PAPER_PAGES))
    wrong = _run(instance, "deadbeefdeadbeef", str(good), assets=[paper_pdf])
    failure = next(e for e in wrong.all_events if e.is_step_failure)
    assert failure.step_failure_data.user_failure_data.metadata["code"].value == (
        "E_PARTITION_MISMATCH"
    )
    assert _counts(fresh_database)["papers"] == 0


def test_same_pdf_twice_is_one_paper(fresh_database, tmp_path) -> None:
    from repro_assets.papers.ingest import store_paper
    from repro_assets.resources.blobstore import BlobStoreResource
    from repro_assets.storage.database import get_database

    data = make_pdf(PAPER_PAGES)
    db, blobs = get_database(fresh_database), BlobStoreResource().get_store()
    first = store_paper(db, blobs, data, title="one")
    second = store_paper(db, blobs, data, title="two")
    assert first.paper_id == second.paper_id
    assert not first.already_exists and second.already_exists
    assert _counts(fresh_database)["papers"] == 1


def test_failed_insert_leaves_nothing_behind(fresh_database, tmp_path) -> None:
    from repro_assets.papers.ingest import store_paper
    from repro_assets.papers.pdf import PaperIngestError
    from repro_assets.storage.blobstore import BlobStore
    from repro_assets.storage.database import get_database

    db = get_database(fresh_database)
    with db.connection() as conn:
        conn.execute(
            "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full';"
            " END $$ LANGUAGE plpgsql"
        )
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON papers FOR EACH ROW"
                     " EXECUTE FUNCTION refuse()")
    blobs = BlobStore(str(tmp_path / "blobs"))
    with pytest.raises(PaperIngestError) as info:
        store_paper(db, blobs, make_pdf(PAPER_PAGES))
    assert info.value.code == "E_DB_INSERT_FAILED" and "disk full" in info.value.message
    assert blobs.list("papers") == []
    assert _counts(fresh_database)["papers"] == 0
