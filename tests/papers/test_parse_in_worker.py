"""Every parse of a stored upload runs in the limited worker, never in the caller (issue #27).

Ingest already parsed pages in the worker; the claims stage (table finding) and the claims
check (raw page texts) opened the stored PDF in the calling process, which is the API's when it
runs a job. Here PyMuPDF's ``open`` fails in the test process: each call must still succeed,
because the parse happens in the worker. (The paper record's first-page metadata goes through
the same ``run_limited`` call; it is not covered here.)
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.papers.pages import raw_page_texts
from repro_assets.papers.tables.reader import extract_tables
from tests.pdfs import make_pdf

TABLE_PAGE = ("Table 1: Test accuracy (%) on two benchmarks.\n"
              "Method  Alpha  Beta\nBaseline  81.2  70.4\nOurs  84.9  73.1\n")


def _no_parsing_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a PDF was parsed in the calling process")

    monkeypatch.setattr(pymupdf, "open", refuse)
    monkeypatch.setattr(pymupdf, "Document", refuse)


def test_table_finding_runs_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = make_pdf(["A results page.\n" + TABLE_PAGE])
    _no_parsing_here(monkeypatch)
    assert isinstance(extract_tables(pdf), list)


def test_raw_page_texts_run_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = make_pdf(["first page words", "second page words"])
    _no_parsing_here(monkeypatch)
    texts = raw_page_texts(pdf)
    assert sorted(texts) == [1, 2] and "second page words" in texts[2]

