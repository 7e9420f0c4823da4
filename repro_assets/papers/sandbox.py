"""Run PDF parsing in a child process under kernel-enforced limits.

A PDF can be small and still explode when parsed: a FlateDecode content stream of 200 KB can
inflate to hundreds of MB of text operators, which MuPDF then interprets for minutes while
holding gigabytes. Nothing inside the interpreter can bound that (MuPDF runs in C), so every
parse of untrusted bytes runs in a worker process (``python -m repro_assets.papers.sandbox``)
that:

* sets ``RLIMIT_AS`` (address space: what it maps after importing PyMuPDF plus
  ``REPRO_PDF_MEMORY_MB``, default 768) and ``RLIMIT_CPU``
  (``REPRO_PDF_CPU_S``, default 30 s on top of its start-up; the kernel sends SIGXCPU, then
  SIGKILL) on itself after reading the task and before parsing a byte of the PDF;
* is killed by the parent after a wall-clock budget (``REPRO_PDF_WALL_S``, default 45 s),
  whatever it is doing (a child blocked on I/O uses no CPU);
* serves exactly one task and exits, so nothing one PDF did outlives it.

A worker that runs out of memory, CPU or time becomes the coded error ``E_PDF_TOO_COMPLEX``; a
coded :class:`~repro_assets.papers.pdf.PaperIngestError` raised in the worker reaches the caller
unchanged. Importing PyMuPDF takes over a second, so one spare worker is started ahead (it
imports and waits on its stdin); at most ``REPRO_PDF_WORKERS`` (default 2) parse at once.
"""

from __future__ import annotations

import logging
import os
import pickle
import re
import resource
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from repro_assets import settings
from repro_assets.papers.pdf import PaperIngestError

log = logging.getLogger(__name__)

T = TypeVar("T")

TOO_COMPLEX = "E_PDF_TOO_COMPLEX"
_MB = 1024 * 1024
_ALLOC_FAILED = re.compile(r"\b(?:m|re|c)alloc\b[^\n]*\bfailed|out of memory|cannot allocate",
                           re.IGNORECASE)
_SPARE_LOCK = threading.Lock()
_SPARE: subprocess.Popen[bytes] | None = None
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


def _start_worker() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "repro_assets.papers.sandbox"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        close_fds=True, start_new_session=True, env={**os.environ, **_WORKER_ENV},
    )


def _take_worker() -> subprocess.Popen[bytes]:
    """The spare worker (or a new one), and a new spare started for the next call."""
    global _SPARE
    with _SPARE_LOCK:
        worker = _SPARE if _SPARE is not None and _SPARE.poll() is None else None
        _SPARE = None
        if worker is None:
            worker = _start_worker()
        try:
            _SPARE = _start_worker()
        except OSError as exc:  # no spare is no failure
            log.debug("no spare PDF worker: %s", exc)
        return worker


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
        worker = _take_worker()
        try:
            out, _ = worker.communicate(task, timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            raise PaperIngestError(
                TOO_COMPLEX, f"parsing the PDF took longer than {limits.wall_seconds:g} s "
                "(REPRO_PDF_WALL_S)") from None
        finally:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
    try:
        message = pickle.loads(out) if out else None
    except Exception:  # a worker killed mid-answer
        message = None
    if message is None:
        raise PaperIngestError(TOO_COMPLEX, _death_message(worker.returncode, limits))
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


def main() -> None:
    """Worker entry point: import PyMuPDF, read one task from stdin, limit, run, answer."""
    import repro_assets.papers.pages  # noqa: F401 - the slow import, before the task arrives

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    try:
        limits, func, args = pickle.load(stdin)
    except (EOFError, pickle.UnpicklingError):
        os._exit(0)  # the parent went away (a spare that was never used)
    apply_limits(limits)
    answer = _answer(limits, func, args)
    try:
        payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        payload = pickle.dumps(("coded", TOO_COMPLEX, _memory_message(limits)))
    stdout.write(payload)
    stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
