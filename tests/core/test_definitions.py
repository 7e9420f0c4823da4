import dagster as dg


def test_definitions_load_and_jobs_resolve() -> None:
    from repro_assets.definitions import defs

    assert isinstance(defs, dg.Definitions)
    graph = defs.resolve_asset_graph()
    keys = {key.to_user_string() for key in graph.get_all_asset_keys()}
    assert {"paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings"} <= keys
    for job in ("papers_job", "paper_ingest_job"):
        assert defs.resolve_job_def(job) is not None
    assert defs.resolve_sensor_def("paper_inbox_sensor") is not None
    assert defs.resolve_schedule_def("papers_backfill_schedule") is not None
    assert set(defs.resources) >= {"database", "blob_store", "inbox", "embedder", "vector_store",
                                   "llm"}


def test_every_asset_has_a_group_and_description() -> None:
    from repro_assets.definitions import defs

    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        if node.is_materializable:
            assert node.group_name != "default", key
