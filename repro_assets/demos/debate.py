"""Debate demo: seed the sample corpus, then one debate on the sample question."""

from __future__ import annotations

from typing import Any

from repro_assets.demos.base import DemoContext, DemoRow
from repro_assets.jobs import DEBATE_RUN_TAGS
from repro_assets.partitions import debates_partitions
from repro_assets.runs import failure_message, materialized_count
from repro_assets.scholarly.samples import SAMPLE_QUESTION

DEMO_PARTITION = "sample"


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Seed the sample corpus and run one debate on the sample question; report its end."""
    corpus = ctx.run_job("scholarly_corpus_job")
    if not corpus.success:
        return [DemoRow("debate", "-", 0, False, failure_message(corpus), "-")]
    ctx.add_partitions(debates_partitions, [DEMO_PARTITION])
    run = ctx.run_job(
        "debate_job", DEMO_PARTITION,
        {"ops": {"debate_transcript": {"config": {"question": SAMPLE_QUESTION,
                                                  "max_turns": 4}}}},
        tags=DEBATE_RUN_TAGS,
    )
    where = f"repro-assets show debate_transcript --partition {DEMO_PARTITION}"
    if not run.success:
        return [DemoRow("debate", DEMO_PARTITION, materialized_count(run), False,
                        failure_message(run), where)]
    meta = run.get_asset_materialization_events()[0].materialization.metadata

    def value(key: str) -> Any:
        return getattr(meta.get(key), "value", meta.get(key))

    figures = f"{value('terminal_state')} after {value('turns')} turns, {value('mode')}"
    details = [f"terminal state: {value('terminal_state')}; conclusion: {value('conclusion')}",
               f"transcript: {value('transcript_md')}"]
    assets = materialized_count(run) + materialized_count(corpus)
    return [DemoRow("debate", DEMO_PARTITION, assets, True, figures, where, details=details)]
