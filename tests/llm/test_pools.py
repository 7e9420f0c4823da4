"""LLM concurrency pools on the project's real (Postgres-backed) Dagster instance."""

from __future__ import annotations

import pytest

from repro_assets.instance import LLM_POOLS, get_instance
from repro_assets.llm import pool_name


def test_every_provider_pool_gets_its_limit(fresh_database: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_LLM_POOL_LIMIT", "3")
    monkeypatch.delenv("REPRO_LLM_LOCAL_POOL_LIMIT", raising=False)
    instance = get_instance()
    try:
        storage = instance.event_log_storage
        limits = {p: storage.get_concurrency_info(p).slot_count for p in LLM_POOLS}
    finally:
        instance.dispose()
    assert pool_name("transformers") == "llm_transformers"
    assert limits == {"llm_openai": 3, "llm_anthropic": 3, "llm_openai_compatible": 3,
                      "llm_transformers": 1}
