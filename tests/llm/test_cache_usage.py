"""Postgres response cache, usage rows, and the resource inside a Dagster run."""

from __future__ import annotations

import dagster as dg
import psycopg
import pytest

from repro_assets.llm import LLMInvalidOutput, Role
from repro_assets.resources.llm import LLMResource
from tests.fakes.llm_wire import AnthropicWireFake, OpenAIWireFake
from tests.llm.helpers import GOOD, ExtractorOutput, search_tool


def _ask(client, **kw):
    defaults = {"role": Role.EXTRACTOR, "system": "Extract claims.", "user": "Paper text",
                "schema": ExtractorOutput}
    return client.structured(**{**defaults, **kw})


def test_second_identical_call_is_a_cache_hit(fresh_database: str) -> None:
    queries: list[str] = []
    with OpenAIWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "q"})
        fake.reply_json(GOOD, usage=(100, 10))
        fake.reply_json(GOOD)
        client = fake.make_client(cache_enabled=True)
        first = _ask(client, tools=[search_tool(queries)])
        second = _ask(client, tools=[search_tool(queries)])
        assert len(fake.requests) == 2
        third = _ask(client, tools=[search_tool(queries)], temperature=0.0)  # other key
    assert len(fake.requests) == 3
    assert queries == ["q"]  # tools are not re-run on a hit
    assert second.value == first.value
    assert [r.name for r in second.tool_calls] == ["search_paper"]
    assert second.usage[0].cache_hit and second.usage[0].cost_usd == 0.0
    assert not third.usage[0].cache_hit
    summary = client.usage_summary()
    assert summary["cache_hits"] == 1 and summary["calls"] == 4
    with psycopg.connect(fresh_database) as conn:
        hits = conn.execute("SELECT sum(hits), count(*) FROM llm_response_cache").fetchone()
    assert hits == (1, 2)


def test_cache_is_shared_across_clients_and_can_be_disabled(fresh_database: str) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_text("explained")
        _ = fake.make_client(cache_enabled=True).text(role="explainer", system="s", user="u")
        cached = fake.make_client(cache_enabled=True).text(role="explainer", system="s",
                                                           user="u")
        assert cached.raw_text == "explained" and cached.usage[0].cache_hit
        fake.reply_text("fresh")
        bypass = fake.make_client(cache_enabled=True).text(role="explainer", system="s",
                                                           user="u", use_cache=False)
        fake.reply_text("fresh again")
        disabled = fake.make_client(cache_enabled=False).text(role="explainer", system="s",
                                                              user="u")
    assert (bypass.raw_text, disabled.raw_text) == ("fresh", "fresh again")


def test_provider_is_part_of_the_key_and_failures_are_not_cached(fresh_database: str) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json(GOOD)
        assert not _ask(fake.make_client(cache_enabled=True)).usage[0].cache_hit
    with OpenAIWireFake() as fake:
        fake.reply_malformed("x").reply_malformed("y")
        with pytest.raises(LLMInvalidOutput):
            _ask(fake.make_client(cache_enabled=True))
        fake.reply_json(GOOD)
        assert not _ask(fake.make_client(cache_enabled=True)).usage[0].cache_hit


def test_usage_rows_are_recorded(fresh_database: str) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json(GOOD, usage=(50, 5))
        client = fake.make_client(record_usage=True)
        _ask(client)
    with psycopg.connect(fresh_database) as conn:
        row = conn.execute("SELECT provider, model, role, input_tokens, output_tokens, kind,"
                           " cache_hit FROM llm_usage").fetchall()
    assert row == [("openai", "gpt-4o", "extractor", 50, 5, "structured", False)]


def test_unreachable_cache_degrades_to_uncached(caplog: pytest.LogCaptureFixture) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_text("a").reply_text("b")
        client = fake.make_client(cache_enabled=True, record_usage=True,
                                  database_url="postgresql://nobody@/nodb?host=/nonexistent")
        assert client.text(role="explainer", system="s", user="u").raw_text == "a"
        assert client.text(role="explainer", system="s", user="u").raw_text == "b"
    assert "database error" in caplog.text


def test_resource_in_a_dagster_run_with_per_run_config(fresh_database: str) -> None:
    @dg.asset
    def explained(llm: LLMResource) -> dg.MaterializeResult:
        client = llm.get_client()
        text = client.text(role="explainer", system="s", user="u").raw_text
        return dg.MaterializeResult(metadata={"text": text, **client.usage_summary()})

    # bound like definitions.py binds it; run config replaces the resource's config per run
    with OpenAIWireFake() as fake, pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "sk-from-env")
        fake.reply_text("first")
        fake.reply_text("second")
        results = []
        for cache in (True, True, False):
            config = {"cache_enabled": cache, "sdk_max_retries": 0, "retry_wait_max_s": 0.01}
            results.append(dg.materialize(
                [explained], resources={"llm": LLMResource()},
                run_config={"resources": {"llm": {"config": config}}}))
    metas = [r.asset_materializations_for_node("explained")[0].metadata for r in results]
    assert [m["text"].value for m in metas] == ["first", "first", "second"]
    assert [m["cache_hits"].value for m in metas] == [0, 1, 0]
    assert fake.requests[0].headers["authorization"] == "Bearer sk-from-env"
    with psycopg.connect(fresh_database) as conn:
        run_ids = {r[0] for r in conn.execute("SELECT run_id FROM llm_usage").fetchall()}
    assert run_ids == {r.run_id for r in results}
