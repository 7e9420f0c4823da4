"""The papers drop-folder sensor (the backfill schedule: sensors/backfill.py)."""

from __future__ import annotations

import json

import dagster as dg

from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, validate_pdf
from repro_assets.partitions import papers_partitions
from repro_assets.resources.dropfolder import DropFolderResource

INBOX = "papers"


def _signature(size: int, mtime: float) -> str:
    return f"{size}:{mtime:.6f}"


@dg.sensor(
    job_name="papers_job",
    minimum_interval_seconds=15,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Each new PDF in the papers drop folder becomes a partition and a run.",
)
def paper_inbox_sensor(
    context: dg.SensorEvaluationContext, inbox: DropFolderResource
) -> dg.SensorResult:
    """Scan ``<inbox>/papers/``: new PDFs -> partitions + runs; bad files -> ``rejected/``.

    The cursor maps file names to ``size:mtime`` so unchanged files are not read again. The run
    key is the PDF's sha256, so the same bytes never run twice, whatever their file name.
    """
    folder = inbox.get_folder()
    folder.ensure(INBOX)
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    entries = folder.list(INBOX, "*")
    present = {entry.name for entry in entries}
    cursor = {name: sig for name, sig in seen.items() if name in present}
    existing = set(context.instance.get_dynamic_partitions(papers_partitions.name))
    requests: list[dg.RunRequest] = []
    new_keys: list[str] = []
    for entry in entries:
        signature = _signature(entry.size, entry.mtime)
        if cursor.get(entry.name) == signature:
            continue
        try:
            if not entry.name.lower().endswith(".pdf"):
                raise PaperIngestError(
                    "E_UNSUPPORTED_MEDIA_TYPE", f"{entry.name} is not a .pdf file"
                )
            if entry.size > MAX_PDF_BYTES:
                raise PaperIngestError(
                    "E_FILE_TOO_LARGE",
                    f"{entry.name} is {entry.size:,} bytes; the limit is {MAX_PDF_BYTES:,}",
                )
            info = validate_pdf(folder.read_bytes(entry.path))
        except PaperIngestError as exc:
            target = folder.reject(INBOX, entry, exc.code, exc.message)
            context.log.warning("rejected %s (%s): %s -> %s", entry.name, exc.code, exc.message,
                                target)
            continue
        except OSError as exc:  # vanished or unreadable mid-tick: try again next tick
            context.log.warning("could not read %s yet: %s", entry.name, exc)
            continue
        cursor[entry.name] = signature
        if info.paper_id in existing or info.paper_id in new_keys:
            context.log.info("%s is paper %s (already known)", entry.name, info.paper_id)
        else:
            new_keys.append(info.paper_id)
        requests.append(
            dg.RunRequest(
                partition_key=info.paper_id,
                run_key=f"paper-{info.sha256}",
                run_config={
                    "ops": {"paper_pdf": {"config": {"source": folder.url(entry), "title": ""}}}
                },
                tags={"repro/inbox_file": entry.name},
            )
        )
    unique = {request.run_key: request for request in requests}
    return dg.SensorResult(
        run_requests=list(unique.values()),
        dynamic_partitions_requests=(
            [papers_partitions.build_add_request(new_keys)] if new_keys else []
        ),
        cursor=json.dumps(cursor, sort_keys=True),
    )
