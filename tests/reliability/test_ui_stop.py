"""Ctrl-C on ``repro-assets ui`` (``make ui``) while a run is in flight (issue #17).

A project folder after ``make setup`` with no database configured, so the command starts the
embedded Postgres itself, and a workspace whose one job has a step that does not unwind on
SIGINT (as a step stuck in native code or a blocking library call). The test presses Ctrl-C
the way a terminal does (SIGINT to the foreground process group) while that step runs, then
checks that every process of the tree is gone, that the run is not left in flight, and that
the embedded Postgres was shut down cleanly. No time is asserted: ``STOP_BOUND_S`` only bounds
the wait for a failure (before the fix the command never stopped by itself).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import psutil
import pytest

from tests.core.test_dagster_commands import BIN, _clean_env, _free_port, server_info, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.reliability]  # `make test-reliability`
STOP_BOUND_S = 120  # a failure bound under CI load, not a speed assertion

STUBBORN_DEFS = textwrap.dedent('''
    import signal
    import time

    import dagster as dg


    @dg.asset
    def stubborn_step() -> int:
        # does not unwind on Ctrl-C: signals blocked, as in native code
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        time.sleep(3600)
        return 1


    stubborn_job = dg.define_asset_job("stubborn_job", selection=[stubborn_step])
    defs = dg.Definitions(assets=[stubborn_step], jobs=[stubborn_job])
''')


@pytest.fixture()
def ui_project(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A set-up project root with the stubborn workspace and no database configured."""
    root = tmp_path / "project"
    root.mkdir()
    data = tmp_path / "data"
    env = _clean_env(REPRO_DATA_DIR=str(data))
    done = subprocess.run([str(BIN / "repro-assets"), "init"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (root / "stubborn_defs.py").write_text(STUBBORN_DEFS)
    (root / "workspace.yaml").write_text(
        "load_from:\n  - python_file:\n      relative_path: stubborn_defs.py\n"
        "      location_name: stubborn\n"
    )
    yield root, env
    pg = data / ".pg"
    if (pg / "postmaster.pid").exists():  # the UI did not stop it (the test failed)
        from pgserver.utils import PostmasterInfo

        from repro_assets.storage.database import stop_embedded_server

        if not stop_embedded_server(pg):
            PostmasterInfo.read_from_pgdata(pg).process.terminate()


def _instance(data: Path, root: Path, monkeypatch: pytest.MonkeyPatch) -> dg.DagsterInstance:
    """The wrapper's view of the UI's instance (the embedded server the UI started)."""
    from pgserver.utils import PostmasterInfo

    from repro_assets.instance import get_instance

    info = PostmasterInfo.read_from_pgdata(data / ".pg")
    assert info is not None and info.is_running()
    for key, value in (("REPRO_DATABASE_URL", info.get_uri()), ("REPRO_DATA_DIR", str(data)),
                       ("REPRO_HOME", str(root)), ("DAGSTER_HOME", str(data / ".dagster")),
                       ("REPRO_DAGSTER_PG_URL", "")):
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("REPRO_DAGSTER_PG_URL")
    return get_instance()


def _step_running(instance: dg.DagsterInstance) -> bool:
    runs = instance.get_runs(dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
    if not runs:
        return False
    return bool(instance.all_logs(runs[0].run_id, of_type=dg.DagsterEventType.STEP_START))


def test_ctrl_c_stops_the_ui_with_a_run_in_flight(
    ui_project: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = ui_project
    data = Path(env["REPRO_DATA_DIR"])
    port = _free_port()
    # the terminal's foreground process group, with SIGINT at its default disposition
    ui = subprocess.Popen(
        [str(BIN / "repro-assets"), "ui", "--port", str(port)], cwd=root, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        wait_until(server_info(port), ui)
        launch = subprocess.run(
            [str(BIN / "dagster"), "job", "launch", "-w", "workspace.yaml", "-j", "stubborn_job"],
            cwd=root, env=env, capture_output=True, text=True, timeout=300,
        )
        assert launch.returncode == 0, launch.stderr[-3000:]
        instance = _instance(data, root, monkeypatch)
        try:
            wait_until(lambda: _step_running(instance), ui)
            [run] = instance.get_runs()
        finally:
            instance.dispose()  # no connection of ours keeps the embedded server up
        tree = psutil.Process(ui.pid).children(recursive=True)
        assert len(tree) > 3  # dagster dev, webserver, daemon, code server, run worker ...

        os.killpg(ui.pid, signal.SIGINT)  # Ctrl-C
        output, _ = ui.communicate(timeout=STOP_BOUND_S)
    finally:
        if ui.poll() is None:  # failed: kill the whole tree, the process group first
            leftovers = psutil.Process(ui.pid).children(recursive=True)
            os.killpg(ui.pid, signal.SIGKILL)
            for proc in leftovers:
                with contextlib.suppress(psutil.Error):
                    proc.kill()
            ui.wait()

    assert ui.returncode == 130, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    gone, alive = psutil.wait_procs(tree, timeout=10)
    assert not alive, [p.cmdline() for p in alive]
    with pytest.raises(ProcessLookupError):
        os.killpg(ui.pid, 0)

    # the run ended (canceled: the UI asked for its termination), it is not left in flight
    monkeypatch.setenv("REPRO_DATABASE_URL", "")
    from pgserver import get_server

    server = get_server(data / ".pg", cleanup_mode="stop")  # this test's own handle
    try:
        monkeypatch.setenv("REPRO_DATABASE_URL", server.get_uri())
        instance = _instance(data, root, monkeypatch)
        status = instance.get_run_by_id(run.run_id).status
        instance.dispose()
    finally:
        server.cleanup()
    assert status in (dg.DagsterRunStatus.CANCELED, dg.DagsterRunStatus.FAILURE), status

    # the embedded server the UI started was shut down cleanly (not killed) before it exited
    assert "embedded Postgres stopped" in output
    log = (data / ".pg" / "log").read_text()
    first_stop = log.index("database system is shut down")
    assert "received fast shutdown request" in log[:first_stop]
