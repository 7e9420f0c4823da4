"""A command that runs a job in-process holds its storage connections (issue #19: per-run tax).

Dagster's Postgres storages open a new connection for every query unless told otherwise; a
shell loop of ``repro-assets ingest`` paid ~150 connects per paper.
"""

from __future__ import annotations

import dagster as dg
import psycopg2
import pytest

from repro_assets.instance import get_instance


@dg.asset
def first() -> int:
    return 1


@dg.asset
def second(first: int) -> int:
    return first + 1


@dg.asset
def third(second: int) -> int:
    return second + 1


def _connects_for_one_run(hold: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    instance = get_instance(hold_connections=hold)
    job = dg.Definitions(assets=[first, second, third],
                         jobs=[dg.define_asset_job("three")]).resolve_job_def("three")
    job.execute_in_process(instance=instance)  # tables and caches warm before counting
    calls = []
    real_connect = psycopg2.connect

    def counting_connect(*args, **kwargs):
        calls.append(1)
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(psycopg2, "connect", counting_connect)
    try:
        assert job.execute_in_process(instance=instance).success
    finally:
        monkeypatch.setattr(psycopg2, "connect", real_connect)
        instance.dispose()
    return len(calls)


def test_held_connections_do_not_reconnect_per_query(fresh_database: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    default = _connects_for_one_run(False, monkeypatch)
    held = _connects_for_one_run(True, monkeypatch)
    assert default >= 20, default  # Dagster's default: a connection per storage query
    assert held <= 3, held  # at most the pool's overflow, opened once
