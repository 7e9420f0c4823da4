"""Helpers for in-process Dagster runs: a quieter log config and what a run result says.

Shared by the CLI, the API's job runner and the demo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dagster as dg


def quiet_run_config(run_config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``run_config`` with the console logger at INFO (Dagster's default is DEBUG)."""
    config = dict(run_config or {})
    config.setdefault("loggers", {"console": {"config": {"log_level": "INFO"}}})
    return config


def materialized_count(result: dg.ExecuteInProcessResult) -> int:
    """Number of asset materializations in a run result."""
    return len(result.get_asset_materialization_events())


def failure_message(result: dg.ExecuteInProcessResult) -> str:
    """The first step failure's description, for the summary."""
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data:
            error = event.step_failure_data.error
            user = event.step_failure_data.user_failure_data
            if user and user.description:
                return user.description
            if error:
                return error.message.strip().splitlines()[-1] if error.message else str(error)
    return "failed"
