"""Hostile PDFs are parsed under limits (issue #27, item 1).

* a content-stream bomb (about 200 KB inflating to hundreds of MB of glyphs) is refused with
  ``E_PDF_TOO_COMPLEX``: by the decoded-content budget, and with that budget lifted by the
  worker's kernel limits (address space, CPU), never by the caller's process;
* a PDF of 2,000 pages is refused with ``E_PDF_TOO_MANY_PAGES`` (``REPRO_MAX_PAGES``);
* through ``repro-assets ingest`` and through the API: a coded error, nothing stored, and the
  calling process does not grow.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from repro_assets.papers.pages import extract_pages
from repro_assets.papers.pdf import PaperIngestError, validate_pdf
from repro_assets.papers.sandbox import current_limits, run_limited
from tests.pdfs import PAPER_PAGES, make_pdf
from tests.reliability.hostile import content_bomb, many_pages

pytestmark = pytest.mark.reliability

GIB = 1024 * 1024 * 1024


@pytest.fixture(scope="module")
def bomb() -> bytes:
    data = content_bomb()
    assert len(data) < 250_000
    return data


def _code(call, *args) -> str:  # noqa: ANN001
    with pytest.raises(PaperIngestError) as info:
        call(*args)
    return info.value.code


def test_the_bomb_is_refused_by_the_content_budget(bomb: bytes) -> None:
    assert _code(validate_pdf, bomb) == "E_PDF_TOO_COMPLEX"


def test_without_the_budget_the_memory_limit_stops_it(
        bomb: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_MAX_CONTENT_MB", "100000")
    monkeypatch.setenv("REPRO_PDF_MEMORY_MB", "512")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert _code(validate_pdf, bomb) == "E_PDF_TOO_COMPLEX"
    assert _code(extract_pages, bomb, "bomb") == "E_PDF_TOO_COMPLEX"
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 300 * 1024, "the bomb was parsed in this process"


def spin() -> None:
    """Burn CPU for ever (run in a worker by the CPU-limit test)."""
    while True:
        pass


def test_the_cpu_limit_stops_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_CPU_S", "1")
    with pytest.raises(PaperIngestError) as info:
        run_limited(spin)
    assert info.value.code == "E_PDF_TOO_COMPLEX"
    assert "CPU" in info.value.message


def test_workers_run_under_kernel_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_MEMORY_MB", "700")
    address_space, cpu = run_limited(current_limits)
    assert 700 * 1024 * 1024 < address_space < (700 + 2048) * 1024 * 1024  # start-up + budget
    assert 0 < cpu < 120
    assert current_limits()[0] == resource.RLIM_INFINITY  # the caller is not limited


def test_two_thousand_pages_are_refused_and_the_cap_is_configurable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = many_pages(2000)
    assert _code(validate_pdf, data) == "E_PDF_TOO_MANY_PAGES"
    assert _code(extract_pages, data, "long") == "E_PDF_TOO_MANY_PAGES"
    monkeypatch.setenv("REPRO_MAX_PAGES", "2000")
    assert validate_pdf(data).page_count == 2000
    monkeypatch.setenv("REPRO_MAX_PAGES", "1")
    assert _code(validate_pdf, make_pdf(PAPER_PAGES)) == "E_PDF_TOO_MANY_PAGES"


def test_an_ordinary_pdf_still_reads() -> None:
    data = make_pdf(PAPER_PAGES, title="Ordinary")
    assert validate_pdf(data).page_count == 2
    pages = extract_pages(data, "ordinary")
    assert len(pages.pages) == 2 and pages.pages[0].text.strip()


def _paper_rows(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM papers").fetchone()[0]


def test_api_refuses_the_bomb_and_stores_nothing(
        client: TestClient, api_database: str, bomb: bytes,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_MAX_CONTENT_MB", "100000")  # the worker's limits must hold
    papers = _paper_rows(api_database)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    answer = client.post("/api/v1/papers/ingest",
                         files={"file": ("bomb.pdf", bomb, "application/pdf")})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "E_PDF_TOO_COMPLEX"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 300 * 1024
    assert _paper_rows(api_database) == papers


def test_api_refuses_two_thousand_pages(client: TestClient) -> None:
    answer = client.post("/api/v1/papers/ingest",
                         files={"file": ("long.pdf", many_pages(2000), "application/pdf")})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "E_PDF_TOO_MANY_PAGES"


def test_cli_ingest_refuses_the_bomb_within_its_memory(
        api_database: str, bomb: bytes, tmp_path: Path) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(bomb)
    (tmp_path / "home").mkdir()
    script = Path(sys.executable).with_name("repro-assets")
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home"),
           "REPRO_PDF_MAX_CONTENT_MB": "100000"}
    papers = _paper_rows(api_database)
    # the wrapper reports the peak memory of the command and the workers it waited for
    done = subprocess.run([sys.executable, "-c", MEASURE, str(script), "ingest", str(path)],
                          capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert done.returncode != 0
    assert "E_PDF_TOO_COMPLEX" in done.stderr, done.stderr[-2000:]
    peak_kib = int(done.stderr.strip().splitlines()[-1].split()[-1])
    assert peak_kib * 1024 < 1.5 * GIB
    assert _paper_rows(api_database) == papers


MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "print('peak_kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def test_forms_upload_refuses_the_bomb_before_the_pipeline(
        client: TestClient, bomb: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_MAX_CONTENT_MB", "100000")  # the worker's limits must hold
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    answer = client.post("/api/runs", files=[
        ("input_docs", ("bomb.pdf", bomb, "application/pdf"))])
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "E_PDF_TOO_COMPLEX"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 300 * 1024
