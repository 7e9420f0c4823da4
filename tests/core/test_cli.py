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


def test_show_without_materialization_fails_cleanly(cli_env, capsys) -> None:
    assert main(["show", "paper_pages", "--partition", "nope"]) == 1
    assert "no materialization" in capsys.readouterr().err
