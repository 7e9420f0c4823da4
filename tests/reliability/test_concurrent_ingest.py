"""Identical concurrent uploads are one ingest (issue #27, item 3).

Twenty uploads of the same PDF at once: twenty 200 answers, one paper, one ``paper_ingest_job``
run, and exactly one answer says ``already_exists: false``. Pages are saved with upserts, so two
saves of the same paper never collide on the primary key.
"""

from __future__ import annotations

import threading
import uuid

import dagster as dg
import httpx
import psycopg
import pytest

from repro_assets.papers.models import PageText, PaperPages
from repro_assets.papers.store import save_pages
from repro_assets.storage.database import get_database
from tests.api.conftest import LiveServer
from tests.pdfs import PAPER_PAGES, make_pdf

pytestmark = pytest.mark.reliability


def test_twenty_identical_uploads_are_one_ingest(app, instance, api_database: str) -> None:  # noqa: ANN001
    pdf = make_pdf(PAPER_PAGES, title=f"Concurrent {uuid.uuid4().hex[:8]}")
    answers: list[httpx.Response] = []
    lock = threading.Lock()
    start = threading.Barrier(20)
    with LiveServer(app) as server:
        def upload() -> None:
            with httpx.Client(timeout=300) as http:
                start.wait()
                answer = http.post(server.url + "/api/v1/papers/ingest",
                                   files={"file": ("paper.pdf", pdf, "application/pdf")})
            with lock:
                answers.append(answer)

        threads = [threading.Thread(target=upload) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
    assert [a.status_code for a in answers] == [200] * 20, [a.text for a in answers[:3]]
    bodies = [a.json() for a in answers]
    paper_ids = {b["paper_id"] for b in bodies}
    assert len(paper_ids) == 1
    assert sum(not b["already_exists"] for b in bodies) == 1
    paper_id = paper_ids.pop()
    with psycopg.connect(api_database) as conn:
        assert conn.execute("SELECT count(*) FROM papers WHERE id = %s",
                            (paper_id,)).fetchone()[0] == 1
    runs = instance.get_runs(dg.RunsFilter(job_name="paper_ingest_job",
                                           tags={"dagster/partition": paper_id}))
    assert len(runs) == 1
    assert len({b["dagster_run_id"] for b in bodies if b["dagster_run_id"]}) == 1


def test_concurrent_page_saves_do_not_collide(api_database: str) -> None:
    db = get_database(api_database)
    paper_id = uuid.uuid4().hex[:16]
    with db.connection() as conn:
        conn.execute("INSERT INTO papers (id, pdf_storage_path, pdf_sha256, status) VALUES"
                     " (%s, %s, %s, 'ingested')", (paper_id, "papers/x.pdf", paper_id * 4))
    pages = PaperPages(paper_id=paper_id, title=None, pages=[
        PageText(page_no=n, text=f"page {n}", blocks=[], section_titles=[],
                 has_text_layer=True) for n in range(1, 40)])
    errors: list[BaseException] = []

    def save() -> None:
        try:
            for _ in range(5):
                save_pages(db, pages)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=save) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors[:1]
    shorter = PaperPages(paper_id=paper_id, title=None, pages=pages.pages[:3])
    save_pages(db, shorter)
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM paper_pages WHERE paper_id = %s",
                            (paper_id,)).fetchone()[0] == 3
