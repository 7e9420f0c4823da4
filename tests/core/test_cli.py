"""The CLI against the project's Postgres-backed Dagster instance (storage in a temp home)."""

import json

import pytest

from repro_assets.cli import main
from repro_assets.papers.pdf import validate_pdf
from tests.pdfs import PAPER_PAGES, make_pdf


@pytest.fixture()
def cli_env(fresh_database, tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    return tmp_path


def test_ingest_search_show_materialize_status(cli_env, capsys) -> None:
    pdf = cli_env / "wine.pdf"
    pdf.write_bytes(make_pdf(PAPER_PAGES, title="SVMs on Wine"))
    key = validate_pdf(pdf.read_bytes()).paper_id

    assert main(["ingest", str(pdf)]) == 0
    out = capsys.readouterr().out
    assert f"paper_id: {key}" in out and "paper_embeddings" in out

    assert main(["search", "accuracy on the Wine test split", "-k", "1"]) == 0
    assert "SVMs on Wine [paper] p.1-2" in capsys.readouterr().out

    assert main(["show", "paper_pages", "--partition", key, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["partition"] == key and shown["metadata"]["pages"] == 2

    assert main(["materialize", "paper_chunks", "--partition", key]) == 0
    assert "materialized paper_chunks" in capsys.readouterr().out

    assert main(["status"]) == 0
    assert "partitions papers: 1" in capsys.readouterr().out


def test_bad_input_exits_with_the_code(cli_env, capsys) -> None:
    bad = cli_env / "notes.pdf"
    bad.write_text("not a pdf at all")
    assert main(["ingest", str(bad)]) == 2
    assert "E_UNSUPPORTED_MEDIA_TYPE" in capsys.readouterr().err


def test_a_bad_setting_exits_with_its_code_not_a_traceback(cli_env, capsys, monkeypatch) -> None:
    monkeypatch.setenv("REPRO_HNSW_EF_SEARCH", "several")  # read by every search
    assert main(["search", "accuracy on the Wine test split"]) == 2
    assert ("error E_BAD_SETTING: environment variable REPRO_HNSW_EF_SEARCH must be an integer, "
            "got 'several'") in capsys.readouterr().err


def test_several_pdfs_in_one_command_each_get_their_run(cli_env, capsys) -> None:
    first, second, bad = cli_env / "a.pdf", cli_env / "b.pdf", cli_env / "notes.pdf"
    first.write_bytes(make_pdf(PAPER_PAGES, title="SVMs on Wine"))
    second.write_bytes(make_pdf(PAPER_PAGES[:1], title="Trees on Iris"))
    bad.write_text("not a pdf at all")
    keys = {validate_pdf(path.read_bytes()).paper_id for path in (first, second)}

    assert main(["ingest", str(first), str(bad), str(second)]) == 2  # the bad input's code
    captured = capsys.readouterr()
    assert f"E_UNSUPPORTED_MEDIA_TYPE: {bad}" in captured.err
    assert "2 of 3 PDFs ingested" in captured.out
    assert {line.split()[1] for line in captured.out.splitlines()
            if line.startswith("paper_id:")} == keys
    assert captured.out.count("paper_embeddings") == 2

    from repro_assets.instance import get_instance

    instance = get_instance()
    try:
        runs = instance.get_run_records()
        assert sorted(r.dagster_run.tags.get("dagster/partition") for r in runs) == sorted(keys)
    finally:
        instance.dispose()

    assert main(["ingest", str(first), str(second), "--title", "One title"]) == 2
    assert "--title names one paper" in capsys.readouterr().err


def test_show_without_materialization_fails_cleanly(cli_env, capsys) -> None:
    assert main(["show", "paper_pages", "--partition", "nope"]) == 1
    assert "no materialization" in capsys.readouterr().err
