"""Postgres stopped and restarted in the middle of an ingest (issue #17).

The test runs its own embedded Postgres (pgserver), so stopping it does not touch the session's
server. Injected: a burst ingest of three papers runs in a subprocess; as soon as the first
paper's embeddings are committed, the server is shut down (pgserver's own stop), then started
again on the same data directory once the run process has ended. Verified: the run process
first retries (Dagster's storage and the connection pool log their retries), then fails
(non-zero exit, the database error named in its log) instead of hanging or reporting success; the
outage outlasts the retries on purpose. Nothing half-written stays
(every stored document has all its chunks, 0 duplicate rows); the re-run completes with the
same rows as an uninterrupted ingest needs; the papers sensor, evaluated on the same Dagster
instance object before and after the restart, keeps ticking.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pgserver
import pytest

from repro_assets.instance import get_instance
from repro_assets.storage.database import reset_databases
from tests.reliability.inbox import duplicate_rows, paper, row_counts, tick
from tests.reliability.processes import (
    create_database,
    project_env,
    run,
    scalar,
    start,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.reliability]

PAPERS = 3


@pytest.fixture()
def own_server() -> Iterator[Path]:
    """The data directory of a Postgres server of this test only (stopped and removed after)."""
    folder = Path(tempfile.mkdtemp(prefix="repro-pg-restart-"))
    try:
        yield folder / "pg"
    finally:
        reset_databases()
        server = pgserver.get_server(folder / "pg", cleanup_mode="stop")
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def test_postgres_restarted_in_the_middle_of_an_ingest(
    own_server: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = pgserver.get_server(own_server, cleanup_mode="stop")
    url = create_database(server.get_uri(), "ingest")
    data = tmp_path / "data"
    data.mkdir()
    env = project_env(url, data)
    for key in ("REPRO_DATABASE_URL", "DAGSTER_HOME", "REPRO_INBOX_ROOT", "REPRO_BLOB_ROOT"):
        monkeypatch.setenv(key, env[key])
    monkeypatch.setenv("REPRO_HOME", str(tmp_path))
    monkeypatch.delenv("REPRO_DAGSTER_PG_URL", raising=False)
    instance = get_instance()  # the project's Postgres-backed instance, as the daemon holds it
    inbox = data / "inbox" / "papers"
    inbox.mkdir(parents=True)
    (inbox / "waiting.pdf").write_bytes(paper(99))
    before = tick(instance)
    assert len(before.run_requests) == 1

    pdfs = []
    for number in range(PAPERS):
        path = tmp_path / f"paper{number}.pdf"
        path.write_bytes(paper(number, pages=8, lines=40))
        pdfs.append(str(path))
    log = tmp_path / "ingest.log"
    process = start(["tests.reliability.burst_run", *pdfs], env, log)

    def first_paper_indexed() -> bool:
        return scalar(url, "SELECT count(*) FROM documents") >= 1

    assert wait_for(process, first_paper_indexed), log.read_text()[-3000:]
    reset_databases()
    server.cleanup()  # pgserver's stop: a fast shutdown that closes every connection
    status = process.wait(timeout=300)
    output = log.read_text()
    assert status != 0, output[-3000:]
    assert "Retrying failed database connection" in output, output[-3000:]
    assert "OperationalError" in output, output[-3000:]

    restarted = pgserver.get_server(own_server, cleanup_mode="stop")
    assert restarted.get_uri() == server.get_uri()
    after_outage = row_counts(url)
    assert 1 <= after_outage["documents"] < PAPERS, after_outage
    assert set(duplicate_rows(url).values()) == {0}
    # no half-written document: each stored one has every chunk its artifact lists
    assert scalar(url, "SELECT count(*) FROM documents d WHERE NOT EXISTS"
                       " (SELECT 1 FROM chunks c WHERE c.document_id = d.id)") == 0

    after = tick(instance, cursor=before.cursor)  # the same instance object keeps ticking
    assert after.run_requests == []
    (inbox / "later.pdf").write_bytes(paper(98))
    assert len(tick(instance, cursor=after.cursor).run_requests) == 1

    assert run(["tests.reliability.burst_run", *pdfs], env, log) == 0, log.read_text()[-3000:]
    rows = row_counts(url)
    assert rows["papers"] == rows["documents"] == PAPERS
    assert set(duplicate_rows(url).values()) == {0}
    assert scalar(url, "SELECT count(*) FROM papers WHERE status = 'indexed'") == PAPERS
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=[dg.DagsterRunStatus.SUCCESS]))
    assert len(runs) == 1
