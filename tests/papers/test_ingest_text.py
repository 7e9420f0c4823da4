"""Extracted text that Postgres cannot store (NUL characters) never breaks ingest."""

from __future__ import annotations

import dagster as dg
import pymupdf

from repro_assets.assets.papers import INGEST_ASSETS
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.pdf import validate_pdf
from repro_assets.resources.registry import default_resources


def _pdf_with_nul() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Results", fontname="hebo", fontsize=14)
    page.insert_text((72, 100), "Accuracy\x00 reaches 91.2% on the test split.", fontname="helv",
                     fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_nul_characters_are_dropped_from_page_text() -> None:
    pages = extract_pages(_pdf_with_nul(), "p")
    text = pages.pages[0].text
    assert "\x00" not in text and "Accuracy reaches 91.2%" in text
    assert all("\x00" not in block.text for block in pages.pages[0].blocks)


def test_a_pdf_with_nul_characters_ingests(fresh_database, tmp_path) -> None:
    path = tmp_path / "nul.pdf"
    path.write_bytes(_pdf_with_nul())
    key = validate_pdf(path.read_bytes()).paper_id
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", [key])
    result = dg.materialize(
        INGEST_ASSETS, instance=instance, partition_key=key, resources=default_resources(),
        run_config={"ops": {"paper_pdf": {"config": {"source": str(path)}}}},
        raise_on_error=False,
    )
    assert result.success
