"""Every job of the code location, defined once: the asset modules and the sensors import them.

Jobs select assets by name or group, so this module imports neither ``assets/`` nor
``sensors/`` and no arrow runs back up.

The papers jobs run their steps in the run's own process (``in_process_executor``): the papers chain
is sequential per paper, so one subprocess per step only paid the imports and the embedding
model load again for every step. Ingest assets take several partitions per run
(``BackfillPolicy.single_run``), which is how the inbox sensor ingests a burst of PDFs.
"""

import warnings

import dagster as dg

from repro_assets.partitions import (
    debates_partitions,
    factories_partitions,
    form_runs_partitions,
    papers_partitions,
    research_sessions_partitions,
)

# papers_job mixes the ingest assets' single-run policy with the later stages' default (one
# partition per run); Dagster then uses one partition per run, which is what papers_job wants.
warnings.filterwarnings("ignore", message="Asset job papers_job materializes assets with varying")
# BackfillPolicy is marked beta; the ingest assets rely on it on purpose (one note per process
# on every CLI call and code server start otherwise).
warnings.filterwarnings("ignore", message="Parameter `backfill_policy` of function `asset`",
                        category=dg.BetaWarning)

GROUP = "papers"
FACTORY_GROUP = "factory"
FORMS_GROUP = "forms"
DEBATE_GROUP = "debate"
RESEARCH_GROUP = "research"
#: Tags of every debate run (one debate at a time: the run queue limits this tag).
DEBATE_RUN_TAGS = {"repro/workflow": "debate"}
INGEST_ASSET_NAMES = ("paper_pdf", "paper_pages", "paper_chunks", "paper_embeddings")

paper_ingest_job = dg.define_asset_job(
    "paper_ingest_job",
    selection=dg.AssetSelection.assets(*INGEST_ASSET_NAMES),
    partitions_def=papers_partitions,
    executor_def=dg.in_process_executor,
    description="Stage 1 only: store, extract, chunk and embed papers (one or many per run).",
)

# The main job: every partitioned asset of the papers group (later stages join the group).
papers_job = dg.define_asset_job(
    "papers_job",
    selection=(
        dg.AssetSelection.groups(GROUP) - dg.AssetSelection.assets("reproduction_leaderboard")
    ),
    partitions_def=papers_partitions,
    executor_def=dg.in_process_executor,
    description="Ingest a paper and take it as far as the pipeline goes.",
)

paper_analysis_job = dg.define_asset_job(
    "paper_analysis_job",
    selection=dg.AssetSelection.assets("reproducibility_verdict", "paper_claims",
                                       "reproduction_plan"),
    partitions_def=papers_partitions,
    description="Stages 2-4 only (verify, extract, plan) for an ingested paper.",
)

reproduction_leaderboard_job = dg.define_asset_job(
    "reproduction_leaderboard_job",
    selection=dg.AssetSelection.assets("reproduction_leaderboard"),
    description="Rebuild the reproduction leaderboard from the latest report of every paper.",
)

factory_job = dg.define_asset_job(
    "factory_job",
    selection=dg.AssetSelection.groups(FACTORY_GROUP),
    partitions_def=factories_partitions,
    description="Onboard one factory text: text → config (100% coverage) → schedule.",
)

forms_job = dg.define_asset_job(
    "forms_job", selection=dg.AssetSelection.groups(FORMS_GROUP),
    partitions_def=form_runs_partitions,
    description="Run the form-filling pipeline on one form_runs partition.",
)

scholarly_corpus_job = dg.define_asset_job(
    "scholarly_corpus_job",
    selection=dg.AssetSelection.assets("scholarly_corpus"),
    description="Seed the vector store with the sample scholarly corpus.",
)

debate_job = dg.define_asset_job(
    "debate_job",
    selection=dg.AssetSelection.assets("debate_transcript"),
    partitions_def=debates_partitions,
    tags=DEBATE_RUN_TAGS,
    description="Run one two-scientist debate (one at a time: tag repro/workflow=debate).",
)

research_job = dg.define_asset_job(
    "research_job",
    selection=dg.AssetSelection.assets("research_report"),
    partitions_def=research_sessions_partitions,
)

ALL_JOBS = [
    paper_ingest_job, papers_job, paper_analysis_job, reproduction_leaderboard_job, factory_job,
    forms_job, scholarly_corpus_job, debate_job, research_job,
]
