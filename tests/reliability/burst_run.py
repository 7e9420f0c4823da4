"""A burst ingest run in its own process, for the kill -9 tests.

``python -m tests.reliability.burst_run PDF...`` does what the papers sensor and its run worker
do for a burst: add the papers' partitions to the project's (Postgres) Dagster instance and
execute ``paper_ingest_job`` over their partition range, reading each PDF from its path (the
papers module's definitions only, as ``repro-assets ingest`` loads them).
Exit status 0 when the run succeeded, 1 otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from repro_assets.assets import papers
from repro_assets.instance import get_instance
from repro_assets.jobs import paper_ingest_job
from repro_assets.papers.pdf import validate_pdf
from repro_assets.partitions import papers_partitions
from repro_assets.resources.registry import default_resources


def main(paths: list[str]) -> int:
    """Ingest ``paths`` in one run; return the exit status."""
    sources = {validate_pdf(Path(path).read_bytes()).paper_id: path for path in paths}
    instance = get_instance()
    known = set(instance.get_dynamic_partitions(papers_partitions.name))
    instance.add_dynamic_partitions(papers_partitions.name, [k for k in sources if k not in known])
    keys = list(sources)
    defs = dg.Definitions.merge(papers.defs, dg.Definitions(resources=default_resources()))
    result = defs.resolve_job_def(paper_ingest_job.name).execute_in_process(
        instance=instance,
        run_config={"ops": {"paper_pdf": {"config": {"sources": sources}}}},
        tags={ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]},
        raise_on_error=False,
    )
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
