"""JobRunner: runs on the project instance without reconfiguring logging (no deadlock)."""

from __future__ import annotations

import logging.config
import threading

import pytest

from repro_assets.api.runner import JobRunner


def test_runs_never_call_dictconfig(instance, monkeypatch: pytest.MonkeyPatch):
    """dictConfig closes every handler under the module lock: two concurrent runs deadlock."""
    calls: list[threading.Thread] = []
    monkeypatch.setattr(logging.config, "dictConfig",
                        lambda *_a, **_k: calls.append(threading.current_thread()))
    runner = JobRunner(instance)
    runner.ensure_partition("research_sessions", "r-runner-bad")
    outcome = runner.run("research_job", "r-runner-bad", run_config={"ops": {"research_report": {
        "config": {"query": "x", "privacy_mode": "nope", "max_cycles": 1}}}})
    assert not outcome.success and outcome.code == "E_UNKNOWN_PRIVACY_MODE"
    assert outcome.run_id and instance.get_run_by_id(outcome.run_id).tags["repro/source"] == "api"
    assert calls == []


def test_background_runs_report_their_outcome(instance):
    runner = JobRunner(instance)
    runner.ensure_partition("research_sessions", "r-runner-bg")
    assert not runner.ensure_partition("research_sessions", "r-runner-bg")
    handle = runner.start("research_job", "r-runner-bg", run_config={"ops": {"research_report": {
        "config": {"query": "  ", "privacy_mode": "local_only", "max_cycles": 1}}}})
    assert handle.done.wait(300)  # a hang guard: the run fails at once
    assert handle.outcome.run_id == handle.run_id and handle.outcome.code == "E_EMPTY_QUERY"
    entries, cursor = runner.records(handle.run_id)
    assert cursor == len(entries) > 0
    assert runner.records(handle.run_id, cursor) == ([], cursor)
