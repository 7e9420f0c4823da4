"""Where a run's steps execute: the default executor, chosen by ``REPRO_EXECUTOR``.

- unset or ``multiprocess``: Dagster's default, one subprocess per step on the run's machine.
- ``in_process``: every step in the run's own process.
- ``k8s``: ``dagster_k8s.k8s_job_executor``, one Kubernetes Job (pod) per step, so the steps of
  one run spread across the cluster's nodes (``deploy/helm/values.yaml``); needs the ``[k8s]``
  extra (``pip install 'repro-assets[k8s]'``, the deployment image installs it).

Jobs that name their own executor keep it: the papers jobs run in one process per run on
purpose (``repro_assets/jobs.py``), so on Kubernetes each paper's run is one pod.
"""

from __future__ import annotations

import dagster as dg

from repro_assets import settings

EXECUTOR_ENV = "REPRO_EXECUTOR"
EXECUTORS = ("multiprocess", "in_process", "k8s")


class ExecutorSettingError(ValueError):
    """``REPRO_EXECUTOR`` names an unknown executor or one whose package is missing."""


def default_executor() -> dg.ExecutorDefinition | None:
    """The executor ``REPRO_EXECUTOR`` selects; None keeps Dagster's default (multiprocess).

    Raises:
        ExecutorSettingError: an unknown name, or ``k8s`` without the ``dagster-k8s`` package.
    """
    name = settings.current().runs.executor.strip().lower()
    if name in ("", "multiprocess"):
        return None
    if name == "in_process":
        return dg.in_process_executor
    if name == "k8s":
        try:
            from dagster_k8s import k8s_job_executor
        except ImportError as exc:
            raise ExecutorSettingError(
                f"{EXECUTOR_ENV}=k8s needs dagster-k8s: pip install 'repro-assets[k8s]'"
            ) from exc
        return k8s_job_executor
    raise ExecutorSettingError(
        f"{EXECUTOR_ENV} must be one of {', '.join(EXECUTORS)}; got {name!r}"
    )
