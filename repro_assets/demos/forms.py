"""Forms demo: every sample bundle of ``data/samples/forms`` runs as a form run (a bundle
that did not change reuses its run)."""

from __future__ import annotations

import fsspec

from repro_assets import settings
from repro_assets.demos.base import DemoContext, DemoRow
from repro_assets.forms import pipeline
from repro_assets.forms.bundles import READY_MARKER, read_bundle
from repro_assets.forms.models import FinalResult, ReviewReport
from repro_assets.forms.samples import write_samples
from repro_assets.forms.views import field_details, sample_run_id
from repro_assets.partitions import form_runs_partitions
from repro_assets.runs import failure_message, materialized_count
from repro_assets.storage.blobstore import BlobStore


def demo(ctx: DemoContext) -> list[DemoRow]:
    """Run every sample bundle in ``data/samples/forms`` as a form run (reused when unchanged)."""
    root = settings.samples_dir() / "forms"
    if not root.exists() or not any(root.iterdir()):
        write_samples(root)
    store = BlobStore(settings.blob_root())
    fs = fsspec.filesystem("file")
    rows: list[DemoRow] = []
    for path in sorted(p for p in root.iterdir() if p.is_dir()):
        if not (path / READY_MARKER).exists():
            continue
        bundle = read_bundle(fs, str(path))
        digest = bundle.digest()
        run_id = sample_run_id(store, path.name, digest)
        folder = pipeline.ingest(store, bundle.input_docs, target_docs=bundle.target_docs,
                                 user_schema=bundle.user_schema, options=bundle.options,
                                 source=f"sample:{path.name}:{digest[:16]}", run_id=run_id)
        ctx.add_partitions(form_runs_partitions, [folder.run_id])
        result = ctx.run_job("forms_job", folder.run_id)
        where = folder.ref("artifacts/final.json")  # relative to the blob store root
        if not result.success:
            rows.append(DemoRow("forms", folder.run_id, materialized_count(result), False,
                                failure_message(result), where))
            continue
        final: FinalResult = folder.read_artifact("final")
        statuses = [f.status for f in final.fields.values()]
        figures = (f"{path.name}: {statuses.count('filled')} filled, "
                   f"{statuses.count('needs_review')} review, {statuses.count('missing')} missing")
        if folder.has_artifact("review"):
            review: ReviewReport = folder.read_artifact("review")
            figures += f"; filled.pdf: {len(review.written)} widgets"
        rows.append(DemoRow("forms", folder.run_id, materialized_count(result), True, figures,
                            where, details=field_details(path.name, final)))
    return rows
