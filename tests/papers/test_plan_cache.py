"""The response cache keeps only answers that made a valid plan (issue #13 item 6).

A plan that failed its guardrail used to be replayed from the Postgres cache for ever; now the
planner's answers are cached only when the whole plan passed, and answers a failing plan
replayed are evicted.
"""

from __future__ import annotations

from typing import Any

import pytest

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.plan_models import PlanError
from repro_assets.papers.planner import make_plan
from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.tools import planner_tools
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_llm import page_search
from tests.papers.test_claims_samples import sample_pages
from tests.papers.test_plan_llm import _stage1, fixer_output

OVER_BUDGET = {"policy": {"budget_minutes": 60, "license": "MIT", "cpu_only": True}}


@pytest.fixture(scope="module")
def paper() -> tuple[Any, list[Any]]:
    pages, data = sample_pages(SAMPLE_PAPERS[1])
    return pages, extract_claims(pages, data).claims


def _plan(fake: OpenAIWireFake, paper: tuple[Any, list[Any]], database_url: str):
    pages, claims = paper
    client = fake.make_client(cache_enabled=True, database_url=database_url)
    return make_plan(pages, claims, client, planner_tools(page_search(pages)))


def test_a_plan_that_failed_its_guardrail_is_not_replayed(paper, fresh_database) -> None:
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output(**OVER_BUDGET))
        with pytest.raises(PlanError) as info:
            _plan(fake, paper, fresh_database)
    assert info.value.code == "E_PLAN_GUARDRAIL_FAILED"

    # the next run asks the model again (nothing of the failed plan was cached) ...
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())
        result, _ = _plan(fake, paper, fresh_database)
    assert result.plan.policy.budget_minutes == 10 and len(fake.requests) == 5

    # ... and the good plan is served from the cache afterwards
    with OpenAIWireFake() as fake:
        again, _ = _plan(fake, paper, fresh_database)
    assert fake.requests == [] and again.plan_id == result.plan_id


def test_answers_a_failing_plan_replayed_are_evicted(paper, fresh_database,
                                                    monkeypatch) -> None:
    """Answers cached by a version without today's guardrail make today's plan fail: they are
    evicted, so the run after the failure asks the model afresh."""
    import repro_assets.papers.planner as planner

    with monkeypatch.context() as patch:
        patch.setattr(planner, "enforce_plan_guardrails", lambda plan: None)  # older version
        with OpenAIWireFake() as fake:
            _stage1(fake)
            fake.reply_json(fixer_output(**OVER_BUDGET))
            _plan(fake, paper, fresh_database)
    with OpenAIWireFake() as fake:  # replayed from the cache, fails, evicted
        with pytest.raises(PlanError) as info:
            _plan(fake, paper, fresh_database)
    assert info.value.code == "E_PLAN_GUARDRAIL_FAILED" and fake.requests == []
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())
        result, _ = _plan(fake, paper, fresh_database)
    assert result.plan.policy.budget_minutes == 10 and len(fake.requests) == 5


def test_no_cache_asks_the_model_again_for_one_run(paper, fresh_database, monkeypatch,
                                                   tmp_path) -> None:
    """`repro-assets materialize ... --no-cache` (and `ingest --full --no-cache`) bypass the
    cache for their run: they set REPRO_LLM_CACHE=0, which every client honours."""
    import os

    from repro_assets.cli import main

    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())
        cached, _ = _plan(fake, paper, fresh_database)
    monkeypatch.setenv("REPRO_LLM_CACHE", "1")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    with pytest.raises(SystemExit, match="unknown asset or group"):
        main(["materialize", "no_such_asset", "--no-cache"])
    assert os.environ["REPRO_LLM_CACHE"] == "0"
    with OpenAIWireFake() as fake:
        _stage1(fake)
        fake.reply_json(fixer_output())
        fresh, _ = _plan(fake, paper, fresh_database)
    assert len(fake.requests) == 5 and fresh.plan_id == cached.plan_id
