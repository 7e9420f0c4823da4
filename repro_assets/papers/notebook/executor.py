"""Stage 6, execute: papermill runs the notebook on the local ``python3`` kernel, CPU only.

The whole execution has one deadline, ``policy.budget_minutes``: a watchdog interrupts the
kernel when it passes (SIGINT, then SIGKILL after a grace period) and the run fails with
``E_BUDGET_EXCEEDED``. A cell that raises fails the run with ``E_NOTEBOOK_CELL_FAILED`` and
the cell's error. The notebook writes ``metrics.json`` and its PNG plots into the output
folder; :func:`execute_notebook` returns them with the executed notebook.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import papermill
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbformat import NotebookNode
from papermill.exceptions import PapermillExecutionError
from papermill.iorw import load_notebook_node
from papermill.parameterize import parameterize_notebook
from pydantic import BaseModel, ConfigDict, Field

from repro_assets import settings
from repro_assets.papers.notebook.errors import (
    E_BUDGET_EXCEEDED,
    E_KERNEL_FAILED,
    E_METRICS_MISSING,
    E_NOTEBOOK_CELL_FAILED,
    NotebookError,
)
from repro_assets.papers.notebook.generator import json_safe, verify_injected_parameters

log = logging.getLogger(__name__)

METRICS_FILE = "metrics.json"
EXECUTED_FILE = "executed.ipynb"
SOURCE_FILE = "notebook.ipynb"
PARAMETERIZED_FILE = "parameterized.ipynb"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def default_datasets_dir() -> Path:
    """Where local copies of public datasets live: ``REPRO_DATASETS_DIR``, else
    ``<data dir>/datasets``. A copy is ``<dir>/<registry name>/train.parquet`` (and
    ``test.parquet``) with the dataset's Hugging Face columns (e.g. ``sentence``, ``label``)."""
    configured = settings.current().paths.datasets_dir
    return Path(configured) if configured else settings.data_dir() / "datasets"


class RunOptions(BaseModel):
    """Per-run settings that are not part of the plan.

    ``allow_download`` None means: allowed unless ``HF_HUB_OFFLINE``/``HF_DATASETS_OFFLINE`` is
    set (and Hugging Face ``datasets`` must be installed in any case). ``datasets_dir`` None
    means :func:`default_datasets_dir`.
    """

    model_config = ConfigDict(extra="forbid")

    kernel_name: str = Field(default="python3", description="Jupyter kernel to run on.")
    timeout_seconds: float | None = Field(
        default=None, gt=0, description="Overrides policy.budget_minutes * 60 when set."
    )
    grace_seconds: float = Field(
        default=5.0, ge=0, description="Wait after the interrupt before killing the kernel."
    )
    startup_timeout: int = Field(default=90, ge=5, description="Kernel start timeout (s).")
    max_train_samples: int | None = Field(
        default=None, ge=10, description="Cap on training rows (tests, quick runs)."
    )
    max_test_samples: int | None = Field(default=None, ge=10, description="Cap on test rows.")
    synthetic_samples: int = Field(default=2000, ge=50, description="Rows of synthetic data.")
    allow_download: bool | None = Field(
        default=None, description="Let the notebook download Hugging Face datasets."
    )
    num_threads: int = Field(default=1, ge=1, description="CPU threads for BLAS/torch.")
    datasets_dir: Path | None = Field(
        default=None, description="Folder of local dataset copies (<name>/train.parquet).")


@dataclass
class ExecutionResult:
    """A finished execution.

    Attributes:
        output_dir: the run's folder (metrics, plots, executed notebook).
        executed_path: the executed notebook.
        metrics: the parsed ``metrics.json``.
        plots: plot name -> PNG path.
        seconds: wall-clock seconds of the papermill call (kernel start included).
        parameters: the parameters the notebook ran with.
    """

    output_dir: Path
    executed_path: Path
    metrics: dict[str, Any]
    plots: dict[str, Path]
    seconds: float
    parameters: dict[str, Any] = field(default_factory=dict)


def downloads_allowed(options: RunOptions) -> bool:
    """Whether the notebook may download data (see :class:`RunOptions`)."""
    if options.allow_download is not None:
        return options.allow_download
    third_party = settings.current().third_party
    offline = any(v in ("1", "true", "True")
                  for v in (third_party.hf_hub_offline, third_party.hf_datasets_offline))
    return not offline


def runtime_parameters(output_dir: Path, options: RunOptions) -> dict[str, Any]:
    """The per-run parameters the executor adds to the plan's."""
    return {
        "output_dir": str(output_dir.resolve()),
        "max_train_samples": options.max_train_samples,
        "max_test_samples": options.max_test_samples,
        "synthetic_samples": options.synthetic_samples,
        "allow_download": downloads_allowed(options),
        "datasets_dir": str((options.datasets_dir or default_datasets_dir()).resolve()),
        "num_threads": options.num_threads,
    }


class _Watchdog:
    """Interrupts, then kills, the kernel once the budget is spent."""

    def __init__(self, km: AsyncKernelManager, timeout: float, grace: float) -> None:
        self.km = km
        self.timeout = timeout
        self.grace = grace
        self.expired = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="notebook-budget", daemon=True)

    def __enter__(self) -> _Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(timeout=5)

    def _pid(self) -> int | None:
        provisioner = getattr(self.km, "provisioner", None)
        return getattr(provisioner, "pid", None) if provisioner is not None else None

    def _signal(self, sig: signal.Signals) -> None:
        pid = self._pid()
        if pid is None:
            return
        try:
            os.killpg(os.getpgid(pid), sig)  # the kernel runs in its own session
        except (ProcessLookupError, PermissionError, OSError):
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, OSError):
                pass

    def _run(self) -> None:
        if self._done.wait(self.timeout):
            return
        self.expired = True
        log.warning("notebook budget of %.1fs spent; interrupting the kernel", self.timeout)
        while self._pid() is None and not self._done.wait(0.5):
            pass
        self._signal(signal.SIGINT)
        if self._done.wait(self.grace):
            return
        log.warning("kernel ignored the interrupt; killing it")
        self._signal(signal.SIGKILL)


def _clean(lines: list[str] | str | None) -> list[str]:
    if not lines:
        return []
    if isinstance(lines, str):
        lines = lines.splitlines()
    return [_ANSI.sub("", line) for line in lines]


def _cell_error(exc: PapermillExecutionError) -> NotebookError:
    first_line = (exc.source or "").strip().splitlines()[:1]
    where = f"cell {exc.cell_index}" + (f" ({first_line[0][:60]})" if first_line else "")
    return NotebookError(
        E_NOTEBOOK_CELL_FAILED,
        f"{where} raised {exc.ename}: {exc.evalue}",
        cell_index=exc.cell_index,
        ename=exc.ename,
        evalue=exc.evalue,
        traceback=_clean(exc.traceback),
    )


def read_metrics(output_dir: Path) -> dict[str, Any]:
    """Parse the ``metrics.json`` a notebook wrote.

    Raises:
        NotebookError: ``E_METRICS_MISSING`` when the file is absent or not valid.
    """
    path = output_dir / METRICS_FILE
    if not path.is_file():
        raise NotebookError(E_METRICS_MISSING, f"the notebook did not write {METRICS_FILE}")
    try:
        metrics = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise NotebookError(E_METRICS_MISSING, f"{METRICS_FILE} is not JSON: {exc}") from exc
    required = {"primary_metric", "primary_value", "metrics", "history", "dataset"}
    if not isinstance(metrics, dict) or not required <= metrics.keys():
        raise NotebookError(E_METRICS_MISSING, f"{METRICS_FILE} lacks {sorted(required)}")
    return metrics


def _plots(output_dir: Path, metrics: dict[str, Any]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for name, filename in (metrics.get("plots") or {}).items():
        path = (output_dir / Path(str(filename)).name).resolve()
        if path.parent == output_dir.resolve() and path.suffix == ".png" and path.is_file():
            found[str(name)] = path
    return found


def execute_notebook(
    notebook: NotebookNode,
    parameters: dict[str, Any],
    output_dir: Path,
    *,
    budget_minutes: float,
    options: RunOptions | None = None,
) -> ExecutionResult:
    """Execute ``notebook`` with ``parameters`` on a local kernel within the budget.

    Args:
        notebook: the generated notebook (neutral defaults in its ``parameters`` cell).
        parameters: the plan's parameters (:func:`generator.plan_parameters`).
        output_dir: folder for ``metrics.json``, plots and ``executed.ipynb`` (created).
        budget_minutes: ``policy.budget_minutes``; the deadline for the whole execution.
        options: per-run settings.

    Returns:
        The executed notebook's path, metrics and plots.

    Raises:
        NotebookError: ``E_BUDGET_EXCEEDED``, ``E_NOTEBOOK_CELL_FAILED``, ``E_KERNEL_FAILED``,
            ``E_METRICS_MISSING``, ``E_PARAMETER_INVALID`` or ``E_PARAMETER_INJECTION``.
    """
    options = options or RunOptions()
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    params = json_safe({**parameters, **runtime_parameters(output_dir, options)})
    source_path = output_dir / SOURCE_FILE
    source_path.write_text(nbformat.writes(notebook), encoding="utf-8")
    parameterized = parameterize_notebook(
        load_notebook_node(str(source_path)), params,
        kernel_name=options.kernel_name, language="python",
    )
    verify_injected_parameters(parameterized, params)
    input_path = output_dir / PARAMETERIZED_FILE
    nbformat.write(parameterized, str(input_path))
    executed_path = output_dir / EXECUTED_FILE
    timeout = options.timeout_seconds or budget_minutes * 60.0
    # IPC (unix sockets, private folder) instead of TCP ports on localhost; a short path keeps
    # the socket names under the 107-byte unix limit.
    socket_dir = Path(tempfile.mkdtemp(prefix="rk-"))
    km = AsyncKernelManager(kernel_name=options.kernel_name, transport="ipc",
                            ip=str(socket_dir / "k"))
    started = time.perf_counter()
    watchdog = _Watchdog(km, timeout, options.grace_seconds)
    try:
        with watchdog:
            papermill.execute_notebook(
                str(input_path),
                str(executed_path),
                kernel_name=options.kernel_name,
                language="python",
                progress_bar=False,
                log_output=False,
                request_save_on_cell_execute=False,
                execution_timeout=int(math.ceil(timeout + options.grace_seconds)),
                start_timeout=options.startup_timeout,
                km=km,
            )
    except PapermillExecutionError as exc:
        if watchdog.expired or exc.ename in ("KeyboardInterrupt", "CellTimeoutError"):
            raise _budget_error(timeout, exc) from exc
        raise _cell_error(exc) from exc
    except Exception as exc:  # dead kernel, start failure, nbclient timeout
        if watchdog.expired or "timed out" in str(exc).lower():
            raise _budget_error(timeout, exc) from exc
        raise NotebookError(
            E_KERNEL_FAILED, f"the kernel failed: {type(exc).__name__}: {exc}"
        ) from exc
    finally:
        _shutdown(km)
        shutil.rmtree(socket_dir, ignore_errors=True)
    if watchdog.expired:
        raise _budget_error(timeout, None)
    seconds = time.perf_counter() - started
    metrics = read_metrics(output_dir)
    return ExecutionResult(
        output_dir=output_dir,
        executed_path=executed_path,
        metrics=metrics,
        plots=_plots(output_dir, metrics),
        seconds=seconds,
        parameters=params,
    )


def _budget_error(timeout: float, exc: BaseException | None) -> NotebookError:
    detail = f" ({type(exc).__name__})" if exc is not None else ""
    return NotebookError(
        E_BUDGET_EXCEEDED,
        f"the notebook exceeded its budget of {timeout:.0f} s (policy.budget_minutes){detail}",
        ename=getattr(exc, "ename", None),
        evalue=getattr(exc, "evalue", None),
    )


def _shutdown(km: AsyncKernelManager) -> None:
    try:
        if km.has_kernel:
            run_sync(km.shutdown_kernel)(now=True)
    except Exception:  # the kernel may already be gone (killed by the watchdog)
        log.debug("kernel shutdown after execution failed", exc_info=True)
