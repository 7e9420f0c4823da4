"""``repro-assets ui`` / ``make ui``: run ``dagster dev`` so that Ctrl-C stops it in seconds.

Left to itself, Ctrl-C in the terminal reaches every process of ``dagster dev`` at once: the run
workers, the code servers, the daemon and the webserver. ``dagster dev`` then waits up to 60 s
each for the webserver and the daemon, and every code server waits until all its run workers
have exited, however long an interrupted step takes to unwind (a run worker still importing
the code location, a kernel, an LLM call, a report synthesized on termination, a run the
daemon launched during the shutdown). The stop has no bound, and runs whose worker is killed
stay ``STARTED`` for ever.

Here ``dagster dev`` runs in a session of its own, so the terminal's Ctrl-C reaches only this
supervisor, which stops it in order and within a bound:

1. every run this ``dagster dev`` launched and that is still in flight gets Dagster's own
   termination request (``CANCELING``), so it ends ``CANCELED``;
2. ``dagster dev`` gets SIGINT, the signal it expects from a terminal, and stops the
   webserver, the daemon and the code servers in order;
3. whatever is still alive after ``REPRO_UI_STOP_SECONDS`` (default 6 s), or at a second
   Ctrl-C, is killed, descendants that left the group (notebook kernels) included;
4. runs of this ``dagster dev`` that are still in flight then (their worker is gone) are marked
   ``CANCELED`` (termination was requested) or ``FAILURE`` (launched during the stop).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from types import FrameType

import dagster as dg
import psutil
from dagster._core.storage.tags import GRPC_INFO_TAG

from repro_assets import settings

log = logging.getLogger(__name__)

STOP_SECONDS_ENV = "REPRO_UI_STOP_SECONDS"
DEFAULT_STOP_SECONDS = 6.0
IN_FLIGHT = (
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
STOPPED_MESSAGE = "the Dagster UI (`repro-assets ui`) was stopped while this run was in flight"


def stop_seconds() -> float:
    """How long the services get to stop by themselves (``REPRO_UI_STOP_SECONDS``)."""
    return max(0.0, settings.env_float(STOP_SECONDS_ENV, DEFAULT_STOP_SECONDS))


def server_endpoint(cmdline: Sequence[str]) -> str | None:
    """The gRPC endpoint (``socket:<path>`` / ``port:<n>``) a code server command serves."""
    args = list(cmdline)
    is_server = ("code-server" in args and "start" in args) or ("api" in args and "grpc" in args)
    if not is_server:
        return None
    for flag, kind in (("--socket", "socket"), ("--port", "port"), ("-p", "port")):
        if flag in args[:-1]:
            return f"{kind}:{args[args.index(flag) + 1]}"
    return None


def run_endpoint(run: dg.DagsterRun) -> str | None:
    """The code server endpoint a run was launched on (Dagster's ``grpc_info`` run tag)."""
    raw = run.tags.get(GRPC_INFO_TAG)
    if not raw:
        return None
    try:
        info = json.loads(raw)
    except ValueError:
        return None
    if info.get("socket"):
        return f"socket:{info['socket']}"
    return f"port:{info['port']}" if info.get("port") else None


@dataclass
class DevSupervisor:
    """Runs ``argv`` (``dagster dev ...``) and stops it, its runs and its processes on request.

    Attributes:
        argv: the ``dagster dev`` command line.
        instance: the project's Dagster instance (the one ``dagster dev`` uses).
        grace: seconds the services get to stop by themselves before they are killed.
    """

    argv: list[str]
    instance: dg.DagsterInstance
    grace: float = field(default_factory=stop_seconds)
    process: subprocess.Popen | None = None
    stop_requests: int = 0
    _known: dict[int, psutil.Process] = field(default_factory=dict)
    _endpoints: set[str] = field(default_factory=set)

    def run(self) -> int:
        """Start ``dagster dev`` and wait; on SIGINT/SIGTERM/SIGHUP stop it (:meth:`stop`).

        Returns:
            ``dagster dev``'s exit code, or 130 after a requested stop.
        """
        previous = {sig: signal.signal(sig, self._on_signal) for sig in STOP_SIGNALS}
        try:
            # own session: the terminal's Ctrl-C reaches this process only. Signals handled
            # here are reset to their defaults in the child, so SIGINT stops `dagster dev`.
            self.process = subprocess.Popen(self.argv, start_new_session=True)
            while not self.stop_requests:
                try:
                    return self.process.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    self._remember()
            self.stop()
            return 130
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stop_requests += 1

    def _remember(self) -> None:
        """Note every live process of the tree and the code servers' endpoints."""
        assert self.process is not None
        try:
            root = psutil.Process(self.process.pid)
            tree = [root, *root.children(recursive=True)]
        except psutil.Error:
            return
        for proc in tree:
            self._known.setdefault(proc.pid, proc)
            try:
                endpoint = server_endpoint(proc.cmdline())
            except psutil.Error:
                continue
            if endpoint:
                self._endpoints.add(endpoint)

    def _runs_in_flight(self) -> list[dg.DagsterRun]:
        """In-flight runs launched on this ``dagster dev``'s code servers."""
        runs = self.instance.get_runs(dg.RunsFilter(statuses=list(IN_FLIGHT)))
        return [run for run in runs if run_endpoint(run) in self._endpoints]

    def stop(self) -> None:
        """Cancel this UI's runs, interrupt the services, kill leftovers, close the runs."""
        assert self.process is not None
        started = time.monotonic()
        first_request = self.stop_requests
        log.info("stopping Dagster (at most %.0f s; Ctrl-C again to stop now)", self.grace)
        self._remember()
        runs = self._runs_in_flight()
        if runs:
            log.info("terminating %d run(s) in flight: %s", len(runs),
                     ", ".join(run.run_id[:8] for run in runs))
            self._terminate(runs, started + self.grace, first_request)
        self.process.send_signal(signal.SIGINT)  # `dagster dev` stops its services in order
        stopped = self._wait_for_exit(started + self.grace, first_request)
        if not stopped:
            left = self._kill_leftovers()
            log.warning("killed %d process(es) that had not stopped after %.0f s", left,
                        time.monotonic() - started)
        self._close_runs()
        log.info("Dagster stopped in %.1f s", time.monotonic() - started)

    def _hurried(self, first_request: int) -> bool:
        """Another Ctrl-C (or stop signal) arrived since the stop began."""
        return self.stop_requests > first_request

    def _terminate(self, runs: list[dg.DagsterRun], deadline: float, first_request: int) -> None:
        """Dagster's termination request for each run, in parallel, bounded by ``deadline``
        and by another Ctrl-C."""
        pool = ThreadPoolExecutor(max_workers=min(8, len(runs)), thread_name_prefix="terminate")
        futures = {pool.submit(self.instance.run_launcher.terminate, run.run_id): run
                   for run in runs}
        pending = set(futures)
        while pending and time.monotonic() < deadline and not self._hurried(first_request):
            _, pending = wait(pending, timeout=0.2)
        for future, run in futures.items():
            error = future.exception() if future.done() else "no answer yet"
            if error:  # unreachable code server, timeout: the kill below covers the run
                log.warning("could not ask run %s to terminate: %s", run.run_id[:8], error)
        pool.shutdown(wait=False, cancel_futures=True)

    def _signal_group(self, sig: signal.Signals) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass

    def _alive(self) -> list[psutil.Process]:
        alive = []
        for proc in self._known.values():
            try:
                if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(proc)
            except psutil.Error:
                continue
        return alive

    def _wait_for_exit(self, deadline: float, first_request: int) -> bool:
        """Wait until ``dagster dev`` and every process of its tree are gone, or the deadline
        passes, or another stop signal arrives."""
        assert self.process is not None
        while time.monotonic() < deadline and not self._hurried(first_request):
            self._remember()
            if self.process.poll() is not None and not self._alive():
                return True
            time.sleep(0.2)
        return False

    def _kill_leftovers(self) -> int:
        assert self.process is not None
        self._remember()
        alive = self._alive()
        for proc in alive:
            try:
                log.info("killing %d: %s", proc.pid, " ".join(proc.cmdline())[:160])
            except psutil.Error:
                continue
        self._signal_group(signal.SIGKILL)
        for proc in alive:  # descendants that left the group (kernels in their own session)
            try:
                proc.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(alive, timeout=5)
        self.process.wait()
        return len(alive)

    def _close_runs(self) -> None:
        """Runs of this UI still in flight have lost their worker: record how they ended."""
        for run in self._runs_in_flight():
            if run.status == dg.DagsterRunStatus.CANCELING:
                self.instance.report_run_canceled(run, message=f"{STOPPED_MESSAGE}; canceled")
            else:
                self.instance.report_run_failed(run, message=f"{STOPPED_MESSAGE}; re-run it")
            log.info("run %s marked %s", run.run_id[:8],
                     "canceled" if run.status == dg.DagsterRunStatus.CANCELING else "failed")
