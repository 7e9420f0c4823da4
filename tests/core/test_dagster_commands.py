"""The plain Dagster commands (issue #18), each run in a subprocess on a test instance.

A temp folder plays the project root after ``make setup``: ``repro-assets init`` writes its
``.env`` (DAGSTER_HOME, REPRO_HOME) and the commands run there. The test database is the
session's Postgres; the wrapper's :func:`~repro_assets.instance.get_instance` in this process
must see what the commands wrote (same runs, partitions, event log).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import pytest

from repro_assets.papers.pdf import validate_pdf
from tests.pdfs import PAPER_PAGES, make_pdf

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
READY_TIMEOUT_S = 240  # a bound on waiting for a server under CI load, not a speed assertion


@dataclass
class Project:
    """A project folder after ``make setup`` and the environment its commands run with."""

    root: Path
    env: dict[str, str]

    def run(self, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(BIN / argv[0]), *argv[1:]], cwd=cwd or self.root, env=self.env,
            capture_output=True, text=True, timeout=600,
        )


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "REPRO_"))
           or k == "REPRO_MODEL_CACHE"}  # the session's exported embedding model
    env.update(HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **extra)
    return env


@pytest.fixture()
def project(fresh_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    data = tmp_path / "data"
    env = _clean_env(REPRO_DATABASE_URL=fresh_database, REPRO_DATA_DIR=str(data))
    root = tmp_path / "project"
    root.mkdir()
    done = subprocess.run([str(BIN / "repro-assets"), "init"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # the wrapper's view in this process: same data dir and DAGSTER_HOME, restored afterwards
    monkeypatch.setenv("REPRO_DATA_DIR", str(data))
    monkeypatch.setenv("REPRO_HOME", str(root))
    monkeypatch.setenv("DAGSTER_HOME", str(data / ".dagster"))
    monkeypatch.delenv("REPRO_DAGSTER_PG_URL", raising=False)
    return Project(root=root, env=env)


def wrapper_instance() -> dg.DagsterInstance:
    from repro_assets.instance import get_instance

    return get_instance()


def test_init_writes_dotenv_with_the_wrappers_dagster_home(project: Project) -> None:
    lines = (project.root / ".env").read_text().splitlines()
    values = dict(line.split("=", 1) for line in lines if "=" in line)
    home = Path(values["DAGSTER_HOME"].strip("'\""))
    assert home == Path(project.env["REPRO_DATA_DIR"]) / ".dagster"
    assert (home / "dagster.yaml").is_file()
    assert Path(values["REPRO_HOME"].strip("'\"")) == project.root
    # a second init keeps a user's own lines
    (project.root / ".env").write_text((project.root / ".env").read_text() + "MY_VAR=1\n")
    assert project.run("repro-assets", "init").returncode == 0
    assert "MY_VAR=1" in (project.root / ".env").read_text()


def test_definitions_validate_from_the_project_root(project: Project) -> None:
    done = project.run("dagster", "definitions", "validate", "-m", "repro_assets.definitions")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "All code locations passed validation" in done.stdout + done.stderr


def test_missing_setup_is_one_clear_line(tmp_path: Path) -> None:
    """No .env, no variable: the root's dagster.yaml alone says what to run, no traceback."""
    root = tmp_path / "clone"
    root.mkdir()
    (root / "dagster.yaml").symlink_to(ROOT / "repro_assets" / "dagster.yaml")
    done = subprocess.run(
        [str(BIN / "dagster"), "asset", "materialize", "-m", "repro_assets.definitions",
         "--select", "paper_pdf", "--partition", "x"],
        cwd=root, env=_clean_env(), capture_output=True, text=True, timeout=600,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("repro_assets:") and "make setup" in last
    assert not (root / "data").exists()  # no stray embedded server in the wrong folder


def test_asset_materialize_lands_in_the_wrappers_instance(project: Project) -> None:
    pdf = project.root / "wine.pdf"
    pdf.write_bytes(make_pdf(PAPER_PAGES, title="SVMs on Wine"))
    key = validate_pdf(pdf.read_bytes()).paper_id
    wrapper_instance().add_dynamic_partitions("papers", [key])

    config = {"ops": {"paper_pdf": {"config": {"source": str(pdf), "title": ""}}}}
    done = project.run(
        "dagster", "asset", "materialize", "-m", "repro_assets.definitions",
        "--select", "paper_pdf", "--partition", key, "--config-json", json.dumps(config),
    )
    assert done.returncode == 0, done.stderr[-3000:]

    instance = wrapper_instance()
    assert key in instance.get_materialized_partitions(dg.AssetKey("paper_pdf"))
    [run] = instance.get_runs()
    assert run.status == dg.DagsterRunStatus.SUCCESS and run.tags["dagster/partition"] == key


def test_dg_check_and_list_defs(project: Project) -> None:
    done = project.run("dg", "check", "defs", cwd=ROOT)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    listed = project.run("dg", "list", "defs", "--json", cwd=ROOT)
    assert listed.returncode == 0, listed.stderr[-3000:]
    keys = {asset["asset_key"] for asset in json.loads(listed.stdout)["assets"]}
    assert {"paper_pdf", "paper_embeddings"} <= keys


# -- long-running commands: start, check they answer, stop cleanly ---------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture()
def serve(project: Project) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start a command in its own process group; every one is stopped and reaped afterwards."""
    started: list[subprocess.Popen] = []

    def start(*argv: str, cwd: Path | None = None) -> subprocess.Popen:
        process = subprocess.Popen(
            [str(BIN / argv[0]), *argv[1:]], cwd=cwd or project.root, env=project.env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_until(check: Callable[[], bool], process: subprocess.Popen) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if check():
            return
        if process.poll() is not None:
            pytest.fail(f"exited with {process.returncode}: {process.stderr.read()[-3000:]}")
        time.sleep(1)
    pytest.fail("did not become ready")


def stop_cleanly(process: subprocess.Popen) -> None:
    """Interrupt (Ctrl-C) and expect an orderly exit of the whole process group."""
    os.killpg(process.pid, signal.SIGINT)
    code = process.wait(timeout=120)
    assert code in (0, 1, -signal.SIGINT, 128 + signal.SIGINT), process.stderr.read()[-3000:]
    assert "Traceback" not in process.stderr.read()
    with pytest.raises(ProcessLookupError):  # nothing of the group is left behind
        for _ in range(60):
            os.killpg(process.pid, 0)
            time.sleep(0.5)


def server_info(port: int) -> Callable[[], bool]:
    return lambda: _answers(f"http://127.0.0.1:{port}/server_info")


@pytest.mark.slow
def test_webserver_serves_the_project_instance(project: Project, serve) -> None:
    port = _free_port()
    process = serve("dagster-webserver", "-m", "repro_assets.definitions", "-p", str(port))
    wait_until(server_info(port), process)
    stop_cleanly(process)


@pytest.mark.slow
def test_daemon_heartbeats_into_the_project_instance(project: Project, serve) -> None:
    process = serve("dagster-daemon", "run", "-m", "repro_assets.definitions")
    wait_until(lambda: bool(wrapper_instance().get_daemon_heartbeats()), process)
    stop_cleanly(process)


@pytest.mark.slow
def test_dagster_dev(project: Project, serve) -> None:
    port = _free_port()
    process = serve("dagster", "dev", "-m", "repro_assets.definitions", "-p", str(port))
    wait_until(server_info(port), process)
    stop_cleanly(process)


@pytest.mark.slow
def test_dg_dev_from_the_repository_root(project: Project, serve) -> None:
    port = _free_port()
    process = serve("dg", "dev", "-p", str(port), cwd=ROOT)
    wait_until(server_info(port), process)
    stop_cleanly(process)


@pytest.mark.slow
def test_code_server_for_another_teams_workspace(project: Project, serve) -> None:
    port = _free_port()
    process = serve("dagster", "code-server", "start", "-m", "repro_assets.definitions",
                    "-p", str(port))
    health = ["dagster", "api", "grpc-health-check", "-p", str(port)]
    wait_until(lambda: project.run(*health).returncode == 0, process)
    # another team's workspace points at it
    workspace = project.root / "other_workspace.yaml"
    workspace.write_text(
        "load_from:\n  - grpc_server:\n      host: localhost\n"
        f"      port: {port}\n      location_name: repro_assets\n"
    )
    done = project.run("dagster", "definitions", "validate", "-w", str(workspace))
    assert done.returncode == 0, done.stderr[-3000:]
    stop_cleanly(process)
