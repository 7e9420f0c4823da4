"""``kill -9`` of a run process in the middle of a step, then a re-run (issue #17).

Each test runs the same work twice on separate databases and folders: once killed with SIGKILL
in the middle of a step and then run again, once without interruption. The killed-and-rerun
state must equal the uninterrupted one: same row counts, 0 duplicate rows, the same stored
rows, byte-identical artifacts, and no partial or temporary artifact left behind.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from repro_assets.forms.fill import read_back
from repro_assets.forms.models import ARTIFACT_ADAPTERS
from repro_assets.forms.samples import write_samples
from repro_assets.scholarly.samples import SAMPLE_QUESTION, seed_sample_corpus
from repro_assets.storage.database import get_database
from repro_assets.storage.embedder import get_embedder
from repro_assets.storage.vectorstore import VectorStore
from tests.reliability.inbox import duplicate_rows, paper, row_counts, vector_state
from tests.reliability.processes import (
    ROOT,
    create_database,
    drop_database,
    files_state,
    kill_when,
    project_env,
    run,
    scalar,
    start,
)

pytestmark = [pytest.mark.slow, pytest.mark.reliability]


@pytest.fixture()
def workspace(pg_server_url: str, tmp_path: Path) -> Iterator[Callable[[str], tuple[str, Path]]]:
    """``make(label)`` -> (database URL, data folder): one new database and folder per call."""
    names: list[str] = []

    def make(label: str) -> tuple[str, Path]:
        name = f"k_{label}_{uuid.uuid4().hex[:8]}"
        names.append(name)
        folder = tmp_path / label
        folder.mkdir()
        return create_database(pg_server_url, name), folder

    yield make
    for name in names:
        drop_database(pg_server_url, name)


# -- paper_embeddings ------------------------------------------------------------------------
PAPERS = 3


def _papers(folder: Path) -> list[str]:
    """Three papers of ~25 chunks each: embedding one outlasts many polls of the database."""
    folder.mkdir(exist_ok=True)
    paths = []
    for number in range(PAPERS):
        path = folder / f"paper{number}.pdf"
        path.write_bytes(paper(number, pages=8, lines=40))
        paths.append(str(path))
    return paths


def test_kill_in_the_middle_of_paper_embeddings(workspace, tmp_path: Path) -> None:
    """Injected: SIGKILL to a burst ingest run of 3 papers as soon as the first paper's
    embeddings are committed (the others are being embedded or wait). Verified: the kill left
    fewer than 3 documents; the re-run succeeds; rows, stored chunks (hash, ordinal, pages,
    model) and blob artifacts (sha256) equal an uninterrupted run's; 0 duplicate rows."""
    pdfs = _papers(tmp_path / "pdfs")
    url, data = workspace("killed")
    env = project_env(url, data)
    log = tmp_path / "killed.log"
    process = start(["tests.reliability.burst_run", *pdfs], env, log)
    killed = kill_when(process, lambda: scalar(url, "SELECT count(*) FROM documents") >= 1)
    assert killed, log.read_text()[-3000:]
    after_kill = row_counts(url)
    assert 1 <= after_kill["documents"] < PAPERS, after_kill  # really in the middle
    assert set(duplicate_rows(url).values()) == {0}
    assert run(["tests.reliability.burst_run", *pdfs], env, log) == 0, log.read_text()[-3000:]

    base_url, base_data = workspace("uninterrupted")
    base_log = tmp_path / "uninterrupted.log"
    assert run(["tests.reliability.burst_run", *pdfs], project_env(base_url, base_data),
               base_log) == 0, base_log.read_text()[-3000:]

    assert row_counts(url) == row_counts(base_url)
    assert row_counts(url)["documents"] == PAPERS
    assert set(duplicate_rows(url).values()) == {0}
    assert vector_state(url) == vector_state(base_url)
    assert scalar(url, "SELECT count(*) FROM papers WHERE status = 'indexed'") == PAPERS
    assert files_state(data / "blobs") == files_state(base_data / "blobs")
    assert not [p for p in (data / "blobs").rglob("*") if p.name.endswith(".tmp")]


# -- a form run ------------------------------------------------------------------------------
FORM_RUN = "2026-01-01T00-00-00Z_k1ll00"
#: Files whose bytes legitimately differ between two runs: the request's ``created_at``, the
#: trace's timestamps (and the killed attempt's lines), the filled PDF's ids (compared by value).
_VOLATILE = ("input/request.json", "trace/trace.jsonl", "artifacts/filled.pdf")


def _run_files(blobs: Path) -> dict[str, str]:
    return {name: digest for name, digest in files_state(blobs).items()
            if not name.endswith(_VOLATILE)}


def _check_run_folder(blobs: Path) -> None:
    """Every artifact present is whole: it validates against its model; the trace parses."""
    folder = blobs / "runs" / FORM_RUN
    for path in (folder / "artifacts").glob("*.json"):
        ARTIFACT_ADAPTERS[path.stem].validate_json(path.read_bytes())
    for line in (folder / "trace" / "trace.jsonl").read_text().splitlines():
        json.loads(line)
    assert not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def test_kill_in_the_middle_of_a_form_run(workspace, tmp_path: Path) -> None:
    """Injected: SIGKILL to a form run (sample bundle with a fillable target) as soon as its
    layout artifact is written (routing, candidates, final and filled are still to come).
    Verified: every artifact left by the kill validates against its model (none partial), the
    final/filled artifacts are absent; the re-run succeeds; all artifacts are byte-identical to
    an uninterrupted run's (the filled PDF compared by its widget values), the trace parses."""
    bundle = write_samples(tmp_path / "samples")[0]
    url, data = workspace("killed")
    env = project_env(url, data)
    log = tmp_path / "killed.log"
    artifacts = data / "blobs" / "runs" / FORM_RUN / "artifacts"
    process = start(["tests.reliability.form_run", str(bundle), FORM_RUN], env, log)
    assert kill_when(process, (artifacts / "layout.json").exists), log.read_text()[-3000:]
    _check_run_folder(data / "blobs")
    assert not (artifacts / "final.json").exists() and not (artifacts / "filled.pdf").exists()
    assert run(["tests.reliability.form_run", str(bundle), FORM_RUN], env, log) == 0, (
        log.read_text()[-3000:]
    )

    base_url, base_data = workspace("uninterrupted")
    base_log = tmp_path / "uninterrupted.log"
    assert run(["tests.reliability.form_run", str(bundle), FORM_RUN],
               project_env(base_url, base_data), base_log) == 0, base_log.read_text()[-3000:]
    _check_run_folder(data / "blobs")
    assert _run_files(data / "blobs") == _run_files(base_data / "blobs")
    base_artifacts = base_data / "blobs" / "runs" / FORM_RUN / "artifacts"
    filled = read_back((artifacts / "filled.pdf").read_bytes())
    assert filled and filled == read_back((base_artifacts / "filled.pdf").read_bytes())


# -- a research session ----------------------------------------------------------------------
SESSION = "kill-research"
_STAMPS = {"at", "first_seen", "created_at", "updated_at", "finished_at", "started_at"}


def _research_command(question: str) -> list[str]:
    return [str(ROOT / ".venv" / "bin" / "repro-assets"), "research", question,
            "--privacy", "local_only", "--session", SESSION, "--max-cycles", "4"]


def _comparable(value: object) -> object:
    """A report without its clock readings and without the resume step (a resumed run says
    where it picked up; everything else must be what an uninterrupted run wrote)."""
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items() if k not in _STAMPS}
    if isinstance(value, list):
        return [_comparable(v) for v in value
                if not (isinstance(v, dict) and v.get("node") == "resume")]
    return value


def _research_rows(url: str) -> tuple:
    with psycopg.connect(url) as conn:
        session = conn.execute(
            "SELECT status, cycles, stop_reason FROM research_sessions WHERE session_id = %s",
            (SESSION,),
        ).fetchone()
        cycles = [row[0] for row in conn.execute(
            "SELECT cycle FROM research_checkpoints WHERE session_id = %s ORDER BY cycle",
            (SESSION,),
        )]
    return session, cycles


def test_kill_in_the_middle_of_a_research_cycle(workspace, tmp_path: Path) -> None:
    """Injected: SIGKILL to ``repro-assets research`` (local corpus, offline) as soon as the
    first cycle checkpoint is committed. Verified: the re-run resumes from the checkpoint and
    completes; session row and checkpoint cycles (no duplicate) equal an uninterrupted run's;
    report.md, report.html and saturation.png are byte-identical, report.json equal apart from
    clock readings and the resume step."""
    runs = {}
    for label in ("killed", "uninterrupted"):
        url, data = workspace(label)
        seed_sample_corpus(VectorStore(get_database(url), get_embedder()))
        runs[label] = (url, data, project_env(url, data), tmp_path / f"{label}.log")
    url, data, env, log = runs["killed"]
    process = start(_research_command(SAMPLE_QUESTION), env, log)
    assert kill_when(
        process, lambda: scalar(url, "SELECT count(*) FROM research_checkpoints") >= 1
    ), log.read_text()[-3000:]
    assert scalar(url, "SELECT status FROM research_sessions") == "running"  # died mid-session
    assert run(_research_command(SAMPLE_QUESTION), env, log) == 0, log.read_text()[-3000:]
    assert "resumed" in (data / "blobs" / "research" / SESSION / "report.json").read_text()
    base_url, base_data, base_env, base_log = runs["uninterrupted"]
    assert run(_research_command(SAMPLE_QUESTION), base_env, base_log) == 0, (
        base_log.read_text()[-3000:]
    )

    session, cycles = _research_rows(url)
    assert session[0] == "completed" and len(cycles) == len(set(cycles))
    assert (session, cycles) == _research_rows(base_url)
    folder, base_folder = (d / "blobs" / "research" / SESSION for d in (data, base_data))
    for name in ("report.md", "report.html", "saturation.png"):
        assert (folder / name).read_bytes() == (base_folder / name).read_bytes(), name
    report, base_report = (json.loads((f / "report.json").read_text())
                           for f in (folder, base_folder))
    assert _comparable(report) == _comparable(base_report)
    assert not [p for p in (data / "blobs").rglob("*") if p.name.endswith(".tmp")]
