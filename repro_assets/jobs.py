"""The papers jobs, in a module of their own so the sensors can target them without a cycle.

Both jobs run their steps in the run's own process (``in_process_executor``): the papers chain
is sequential per paper, so one subprocess per step only paid the imports and the embedding
model load again for every step. Ingest assets take several partitions per run
(``BackfillPolicy.single_run``), which is how the inbox sensor ingests a burst of PDFs.
"""

import warnings

import dagster as dg

from repro_assets.partitions import papers_partitions

# papers_job mixes the ingest assets' single-run policy with the later stages' default (one
# partition per run); Dagster then uses one partition per run, which is what papers_job wants.
warnings.filterwarnings("ignore", message="Asset job papers_job materializes assets with varying")
# BackfillPolicy is marked beta; the ingest assets rely on it on purpose (one note per process
# on every CLI call and code server start otherwise).
warnings.filterwarnings("ignore", message="Parameter `backfill_policy` of function `asset`",
                        category=dg.BetaWarning)

GROUP = "papers"
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
