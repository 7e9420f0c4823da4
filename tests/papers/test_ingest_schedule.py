import dagster as dg

from repro_assets.assets.papers import INGEST_ASSETS
from repro_assets.resources.registry import default_resources
from repro_assets.sensors.backfill import stale_work
from tests.pdfs import PAPER_PAGES, make_pdf


def test_missing_and_stale_partitions_are_found(fresh_database, tmp_path) -> None:
    from repro_assets.papers.pdf import validate_pdf

    instance = dg.DagsterInstance.ephemeral()
    paths, keys = [], []
    for n in range(2):
        path = tmp_path / f"p{n}.pdf"
        path.write_bytes(make_pdf(PAPER_PAGES[: n + 1]))
        paths.append(path)
        keys.append(validate_pdf(path.read_bytes()).paper_id)
    instance.add_dynamic_partitions("papers", keys + ["never-ingested"])
    graph_keys = [a.key for a in INGEST_ASSETS]
    parents = {a.key: {dep.asset_key for dep in a.get_asset_spec().deps} for a in INGEST_ASSETS}

    def run(assets, key, path=None):
        config = {"ops": {"paper_pdf": {"config": {"source": str(path), "title": ""}}}}
        return dg.materialize(assets, instance=instance, partition_key=key,
                              resources=default_resources(), run_config=config if path else None)

    assert run(INGEST_ASSETS, keys[0], paths[0]).success
    assert run(INGEST_ASSETS[:1], keys[1], paths[1]).success  # only paper_pdf
    todo = {w.partition for w in stale_work(instance, graph_keys, parents)}
    assert todo == {keys[1]}  # missing downstream; never-ingested is left to the sensor

    # re-materializing paper_pages makes chunks/embeddings of key 0 stale
    assert run([INGEST_ASSETS[1]], keys[0]).success
    work = {w.partition: w for w in stale_work(instance, graph_keys, parents)}
    assert set(work) == {keys[0], keys[1]}
    assert {k.to_user_string() for k in work[keys[0]].assets} == {"paper_chunks",
                                                                  "paper_embeddings"}
    assert run(INGEST_ASSETS, keys[0], paths[0]).success
    assert {w.partition for w in stale_work(instance, graph_keys, parents)} == {keys[1]}


def test_schedule_evaluates_on_the_real_definitions(fresh_database, tmp_path) -> None:
    from repro_assets.definitions import defs

    schedule = defs.resolve_schedule_def("papers_backfill_schedule")
    (tmp_path / "home").mkdir()
    instance = dg.DagsterInstance.local_temp(str(tmp_path / "home"))
    context = dg.build_schedule_context(instance=instance,
                                        repository_def=defs.get_repository_def())
    assert schedule.evaluate_tick(context).run_requests == []

    from repro_assets.papers.pdf import validate_pdf

    path = tmp_path / "p.pdf"
    path.write_bytes(make_pdf(PAPER_PAGES))
    key = validate_pdf(path.read_bytes()).paper_id
    instance.add_dynamic_partitions("papers", [key])
    assert dg.materialize(
        INGEST_ASSETS[:1], instance=instance, partition_key=key, resources=default_resources(),
        run_config={"ops": {"paper_pdf": {"config": {"source": str(path), "title": ""}}}},
    ).success
    [request] = schedule.evaluate_tick(context).run_requests
    assert request.partition_key == key and request.run_key.startswith(f"backfill-{key}-")
