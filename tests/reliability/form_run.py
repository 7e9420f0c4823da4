"""A form run in its own process, for the kill -9 tests.

``python -m tests.reliability.form_run BUNDLE RUN_ID`` does what the forms drop-folder sensor and
its run worker do: ingest the bundle folder as run ``RUN_ID`` (kept when it already exists), add
the ``form_runs`` partition to the project's (Postgres) Dagster instance and execute
``forms_job`` on it. Exit status 0 when the run succeeded, 1 otherwise.
"""

from __future__ import annotations

import sys

import dagster as dg
from fsspec.implementations.local import LocalFileSystem

from repro_assets.assets import forms
from repro_assets.forms.intake import ingest_bundle
from repro_assets.instance import get_instance
from repro_assets.partitions import form_runs_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.registry import default_resources


def main(bundle: str, run_id: str) -> int:
    """Run the bundle as ``run_id``; return the exit status."""
    store = BlobStoreResource().get_store()
    ingest_bundle(store, bundle, LocalFileSystem(), f"dropfolder:{bundle}", run_id=run_id)
    instance = get_instance()
    if run_id not in instance.get_dynamic_partitions(form_runs_partitions.name):
        instance.add_dynamic_partitions(form_runs_partitions.name, [run_id])
    defs = dg.Definitions.merge(forms.defs, dg.Definitions(resources=default_resources()))
    result = defs.resolve_job_def(forms.forms_job.name).execute_in_process(
        instance=instance, partition_key=run_id, raise_on_error=False,
    )
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
