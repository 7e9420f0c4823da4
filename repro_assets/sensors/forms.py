"""The forms drop-folder sensor: a bundle folder with a READY marker becomes a form run."""

from __future__ import annotations

import json

import dagster as dg

from repro_assets.forms.bundles import READY_MARKER, BundleError, is_ready
from repro_assets.forms.intake import INBOX_SUB, ingest_bundle
from repro_assets.forms.runfolder import FormsError
from repro_assets.jobs import forms_job
from repro_assets.partitions import form_runs_partitions
from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.dropfolder import DropFolderResource


@dg.sensor(job=forms_job, minimum_interval_seconds=30,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Bundle folders in the inbox's forms/ with a READY marker become runs.")
def forms_dropfolder_sensor(context: dg.SensorEvaluationContext, inbox: DropFolderResource,
                            blob_store: BlobStoreResource) -> dg.SensorResult:
    """Turn every new ready bundle into a ``form_runs`` partition and a run request.

    The cursor maps bundle name -> mtime of its READY marker; a bundle whose marker changes
    becomes a new run. A bad bundle is moved to ``forms/rejected/`` with an ``.error.json``.
    """
    drop = inbox.get_folder()
    drop.ensure(INBOX_SUB)
    seen: dict[str, float] = json.loads(context.cursor) if context.cursor else {}
    store = blob_store.get_store()
    requests, keys, now_seen = [], [], {}
    for entry in drop.list(INBOX_SUB, dirs=True):
        if not is_ready(drop.fs, entry.path):
            continue
        marker = drop.fs.info(f"{entry.path}/{READY_MARKER}")
        raw_stamp = marker.get("mtime") or marker.get("LastModified") or marker.get("created")
        if hasattr(raw_stamp, "timestamp"):
            raw_stamp = raw_stamp.timestamp()
        stamp = float(raw_stamp or entry.mtime or 0)
        now_seen[entry.name] = stamp
        if seen.get(entry.name) == stamp:
            continue
        try:
            folder = ingest_bundle(store, entry.path, drop.fs, f"dropfolder:{entry.name}")
        except (BundleError, FormsError) as exc:
            drop.reject(INBOX_SUB, entry, exc.code, str(exc))
            now_seen.pop(entry.name, None)
            context.log.warning("rejected bundle %s: %s", entry.name, exc)
            continue
        keys.append(folder.run_id)
        requests.append(dg.RunRequest(partition_key=folder.run_id, run_key=folder.run_id,
                                      tags={"forms/bundle": entry.name}))
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[form_runs_partitions.build_add_request(keys)] if keys else [],
        cursor=json.dumps(now_seen, sort_keys=True),
    )


defs = dg.Definitions(sensors=[forms_dropfolder_sensor])
