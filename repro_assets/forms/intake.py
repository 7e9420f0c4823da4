"""A bundle folder (input documents, target forms, schema, options) becomes a form run."""

from __future__ import annotations

from typing import Any

from repro_assets.forms import pipeline
from repro_assets.forms.bundles import read_bundle
from repro_assets.forms.runfolder import RunFolder
from repro_assets.storage.blobstore import BlobStore

#: The drop folder's sub-folder of form bundles.
INBOX_SUB = "forms"


def ingest_bundle(store: BlobStore, bundle_path: str, fs: Any, source: str,
                  run_id: str | None = None) -> RunFolder:
    """Read a bundle folder and ingest it as a run (new run id unless given)."""
    bundle = read_bundle(fs, bundle_path)
    return pipeline.ingest(store, bundle.input_docs, target_docs=bundle.target_docs,
                           user_schema=bundle.user_schema, options=bundle.options,
                           source=source, run_id=run_id)
