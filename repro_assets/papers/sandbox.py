"""Run PDF parsing in a child process under kernel-enforced limits.

A PDF can be small and still explode when parsed: a FlateDecode content stream of 200 KB can
inflate to hundreds of MB of text operators, which MuPDF then interprets for minutes while
holding gigabytes. Nothing inside the interpreter can bound that (MuPDF runs in C), so every
parse of untrusted bytes runs in a worker process that:

* sets ``RLIMIT_AS`` (address space: what it maps after importing PyMuPDF plus
  ``REPRO_PDF_MEMORY_MB``, default 768) and ``RLIMIT_CPU`` (``REPRO_PDF_CPU_S``, default 30 s;
  the kernel sends SIGXCPU, then SIGKILL) on itself before parsing a byte of the PDF;
* is killed after a wall-clock budget (``REPRO_PDF_WALL_S``, default 45 s), whatever it is
  doing (a child blocked on I/O uses no CPU);
* serves exactly one task and exits, so nothing one PDF did outlives it.

Workers are forked by a fork server (``python -m repro_assets.papers.sandbox``), a child of the
calling process that imports PyMuPDF once, never parses anything itself, and forks one worker per
task: a parse costs a fork, not an interpreter start and a PyMuPDF import (over a second each,
which made a sensor tick over many dropped PDFs take seconds per file). At most
``REPRO_PDF_WORKERS`` (default 2) parse at once; each has its own fork server.

A worker that runs out of memory, CPU or time becomes the coded error ``E_PDF_TOO_COMPLEX``; a
coded :class:`~repro_assets.papers.pdf.PaperIngestError` raised in the worker reaches the caller
unchanged.
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from repro_assets import settings
from repro_assets.papers.errors import PaperIngestError
from repro_assets.settings import environment

log = logging.getLogger(__name__)

#: Modules the fork server imports once so that every forked task finds them loaded: the parsers
#: of paper ingest and of forms uploads. Named, not imported here, because they call this module.
PRELOAD = ("repro_assets.papers.pages", "repro_assets.papers.tables.reader",
           "repro_assets.forms.reading")

T = TypeVar("T")

TOO_COMPLEX = "E_PDF_TOO_COMPLEX"
_MB = 1024 * 1024
_ALLOC_FAILED = re.compile(r"\b(?:m|re|c)alloc\b[^\n]*\bfailed|out of memory|cannot allocate",
                           re.IGNORECASE)
_IDLE_LOCK = threading.Lock()
_IDLE: list[subprocess.Popen[bytes]] = []
_IDLE_PID = os.getpid()
_SLOTS_LOCK = threading.Lock()
_SLOTS: threading.BoundedSemaphore | None = None


@dataclass(frozen=True)
class Limits:
    """The budget of one PDF parse.

    Attributes:
        memory_bytes: address space a parse may add to the worker's (``RLIMIT_AS``).
        cpu_seconds: CPU seconds the task may use (``RLIMIT_CPU``, past the start-up).
        wall_seconds: the parent kills the worker after this long.
    """

    memory_bytes: int
    cpu_seconds: int
    wall_seconds: float

    @classmethod
    def from_env(cls) -> Limits:
        """``REPRO_PDF_MEMORY_MB`` (768), ``REPRO_PDF_CPU_S`` (30), ``REPRO_PDF_WALL_S`` (45)."""
        return cls(
            memory_bytes=max(128, settings.env_int("REPRO_PDF_MEMORY_MB", 768)) * _MB,
            cpu_seconds=max(1, settings.env_int("REPRO_PDF_CPU_S", 30)),
            wall_seconds=float(max(1, settings.env_int("REPRO_PDF_WALL_S", 45))),
        )


def _slots() -> threading.BoundedSemaphore:
    global _SLOTS
    with _SLOTS_LOCK:
        if _SLOTS is None:
            _SLOTS = threading.BoundedSemaphore(max(1, settings.env_int("REPRO_PDF_WORKERS", 2)))
        return _SLOTS


#: One thread per numeric library in a worker: thread pools map memory (per-thread buffers
#: grow with the core count) that a parse never uses.
_WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: How long the parent waits past a task's wall budget for its fork server to answer.
_SERVER_GRACE_S = 10.0


def _start_server() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "repro_assets.papers.sandbox"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        close_fds=True, start_new_session=True, env=environment.child_environment(_WORKER_ENV),
    )


def _take_server() -> subprocess.Popen[bytes]:
    """An idle fork server of this process (a new one when none is idle)."""
    with _IDLE_LOCK:
        _forget_inherited()
        while _IDLE:
            server = _IDLE.pop()
            if server.poll() is None:
                return server
    return _start_server()


def prestart() -> None:
    """Start a fork server now unless this process has an idle one, without waiting for it.

    Its start-up (an interpreter and the PyMuPDF import, about a second of CPU) then runs
    while the caller does its own start-up work, instead of inside the first parse: a command
    that will parse a PDF calls this first. The server sees the environment of this moment.
    """
    with _IDLE_LOCK:
        _forget_inherited()
        if any(server.poll() is None for server in _IDLE):
            return
    _give_back(_start_server())


def _forget_inherited() -> None:
    """In a forked copy of the caller, drop the idle servers: those pipes are its parent's
    (call with ``_IDLE_LOCK`` held)."""
    global _IDLE_PID
    if _IDLE_PID != os.getpid():
        _IDLE.clear()
        _IDLE_PID = os.getpid()


def _give_back(server: subprocess.Popen[bytes]) -> None:
    with _IDLE_LOCK:
        _IDLE.append(server)


def _discard(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.kill()
    server.wait()


def _write_frame(stream: Any, payload: bytes) -> None:
    stream.write(struct.pack(">Q", len(payload)))
    stream.write(payload)
    stream.flush()


def _read_exactly(fd: int, size: int, deadline: float) -> bytes:
    """``size`` bytes from ``fd`` before ``deadline`` (monotonic); short when it closes."""
    chunks: list[bytes] = []
    while size > 0:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise TimeoutError
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int, deadline: float) -> bytes | None:
    head = _read_exactly(fd, 8, deadline)
    if len(head) < 8:
        return None
    (size,) = struct.unpack(">Q", head)
    body = _read_exactly(fd, size, deadline)
    return body if len(body) == size else None


def _address_space() -> int:
    """This process's current address-space size in bytes (0 when unknown)."""
    try:
        for line in open("/proc/self/status", encoding="ascii"):  # noqa: SIM115
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def apply_limits(limits: Limits) -> None:
    """Limit this (worker) process: address space and CPU time, enforced by the kernel.

    The address-space limit is what the worker already maps (the interpreter and PyMuPDF,
    which vary with the machine) plus the budget, so the budget is what a parse may add.
    """
    ceiling = _address_space() + limits.memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    soft_cpu = used + limits.cpu_seconds
    resource.setrlimit(resource.RLIMIT_CPU, (soft_cpu, soft_cpu + 5))
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)


def run_limited(func: Callable[..., T], *args: Any, limits: Limits | None = None,
                code_on_error: str = "E_PDF_CORRUPT") -> T:
    """Run ``func(*args)`` in a limited worker process and return its (pickled) result.

    The worker is forked for this one task by a fork server (a child of this process that has
    imported PyMuPDF once and never parses anything itself), so a task costs a fork, not an
    interpreter start, and nothing one PDF did outlives its task.

    Args:
        func: a module-level function (it is pickled by name).
        *args: its arguments (pickled; PDF bytes up to the ingest limit are fine).
        limits: the budget (default: :meth:`Limits.from_env`).
        code_on_error: the code of an uncoded exception in the worker (a parse failure).

    Raises:
        PaperIngestError: the worker's coded error, ``E_PDF_TOO_COMPLEX`` when it ran out of
            memory, CPU or time, ``code_on_error`` for another exception in the worker.
    """
    limits = limits or Limits.from_env()
    task = pickle.dumps((limits, func, args), protocol=pickle.HIGHEST_PROTOCOL)
    with _slots():
        server = _take_server()
        try:
            assert server.stdin is not None and server.stdout is not None
            _write_frame(server.stdin, task)
            frame = _read_frame(server.stdout.fileno(),
                                time.monotonic() + limits.wall_seconds + _SERVER_GRACE_S)
        except (OSError, TimeoutError):
            frame = None
        if frame is None:
            _discard(server)  # a server that does not answer is not reused
            raise PaperIngestError(TOO_COMPLEX, _death_message(None, limits))
        _give_back(server)
    returncode, timed_out, out = pickle.loads(frame)
    if timed_out:
        raise PaperIngestError(
            TOO_COMPLEX, f"parsing the PDF took longer than {limits.wall_seconds:g} s "
            "(REPRO_PDF_WALL_S)")
    try:
        message = pickle.loads(out) if out else None
    except Exception:  # a worker killed mid-answer
        message = None
    if message is None:
        raise PaperIngestError(TOO_COMPLEX, _death_message(returncode, limits))
    kind = message[0]
    if kind == "ok":
        return message[1]  # type: ignore[no-any-return]
    if kind == "coded":
        raise PaperIngestError(message[1], message[2])
    log.warning("PDF worker failed: %s", message[3])
    raise PaperIngestError(code_on_error, f"{message[1]}: {message[2]}")


def _answer(limits: Limits, func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Run the task in this worker; the answer to send back."""
    try:
        return ("ok", func(*args))
    except PaperIngestError as exc:
        if exc.code == "E_PDF_CORRUPT" and _looks_like_memory(exc.message):
            return ("coded", TOO_COMPLEX, _memory_message(limits))
        return ("coded", exc.code, exc.message)
    except MemoryError:
        return ("coded", TOO_COMPLEX, _memory_message(limits))
    except Exception as exc:  # everything must reach the parent, coded
        if _looks_like_memory(str(exc)):
            return ("coded", TOO_COMPLEX, _memory_message(limits))
        return ("error", type(exc).__name__, str(exc)[:2000],
                "".join(traceback.format_exception(exc))[-4000:])


def _memory_message(limits: Limits) -> str:
    return (f"parsing the PDF needs more than the {limits.memory_bytes // _MB} MB memory budget "
            "(REPRO_PDF_MEMORY_MB)")


def _looks_like_memory(message: str) -> bool:
    """Whether an error message is an allocation failure (MuPDF: ``realloc (n bytes) failed``)."""
    return _ALLOC_FAILED.search(message) is not None


def _death_message(exitcode: int | None, limits: Limits) -> str:
    if exitcode is not None and exitcode < 0:
        sig = -exitcode
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            return (f"parsing the PDF used more than the {limits.cpu_seconds} s CPU budget "
                    "(or was killed)")
        return (f"the PDF parser died with signal {sig} (memory budget "
                f"{limits.memory_bytes // _MB} MB)")
    return (f"the PDF parser exited ({exitcode}) without an answer (memory budget "
            f"{limits.memory_bytes // _MB} MB)")


def current_limits() -> tuple[int, int]:
    """This process's ``(RLIMIT_AS, RLIMIT_CPU)`` soft limits (what a worker runs under)."""
    return (resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_CPU)[0])


def _run_child(task: bytes, out_fd: int) -> None:
    """In the forked worker: limit this process, run the task, write the answer, exit."""
    try:
        limits, func, args = pickle.loads(task)
        apply_limits(limits)
        answer = _answer(limits, func, args)
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            payload = pickle.dumps(("coded", TOO_COMPLEX, _memory_message(limits)))
        view = memoryview(payload)
        while view:
            view = view[os.write(out_fd, view):]
    finally:
        os._exit(0)


def _serve_one(task: bytes, wall_seconds: float) -> tuple[int | None, bool, bytes]:
    """Fork a worker for one task; its exit status, whether it ran out of time, its answer."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(read_fd)
        _run_child(task, write_fd)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + wall_seconds
    timed_out = False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([read_fd], [], [], remaining)[0]:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), timed_out, b"".join(chunks)


def main() -> None:
    """Fork server: import PyMuPDF once, then fork one limited worker per task read on stdin."""
    for name in PRELOAD:  # the slow imports, once per server (by name: no import edge up)
        importlib.import_module(name)

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            head = stdin.read(8)
            if len(head) < 8:
                break  # the parent went away
            task = stdin.read(struct.unpack(">Q", head)[0])
            limits = pickle.loads(task)[0]
        except (EOFError, OSError, pickle.UnpicklingError, struct.error):
            break
        answer = _serve_one(task, limits.wall_seconds)
        try:
            _write_frame(stdout, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            break
    os._exit(0)


if __name__ == "__main__":
    main()
