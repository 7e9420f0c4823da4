"""The papers sensors: the drop folder, the stages after a burst, the leaderboard's automation
(the backfill schedule: sensors/backfill.py).

A tick that finds one new PDF launches ``papers_job`` for it. A tick that finds several (a
burst) launches one ``paper_ingest_job`` run over all of their partitions (a partition range;
the ingest assets take many partitions per run), so the burst pays one run start and one model
load; when that run succeeds, ``paper_stages_after_burst_sensor`` launches the later stages of
each paper, one run per paper, as a single drop would have had.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import PurePosixPath

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from repro_assets import settings
from repro_assets.jobs import INGEST_ASSET_NAMES, paper_ingest_job, papers_job
from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, PdfInfo, validate_pdf
from repro_assets.partitions import PAPERS, papers_partitions
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.sensors.backfill import papers_backfill_schedule
from repro_assets.sensors.status_cache import papers_status_cache_sensor
from repro_assets.storage.dropfolder import DropEntry

INBOX = "papers"
BURST_TAG = "repro/ingest_burst"
#: Papers per burst run at most (``REPRO_INGEST_BURST_MAX``); a larger burst gets several runs.
DEFAULT_BURST_MAX = 50
#: PDFs read and validated per tick at most (``REPRO_INBOX_TICK_MAX_FILES``). Validation runs
#: each PDF in a limited worker process (0.3-2 s each on 2 busy cores), so 10k waiting files
#: would hold one tick for hours and no tick would ever finish; the others wait (outside the
#: cursor) for the next ticks. Lower it where the daemon's sensor timeout is short.
DEFAULT_TICK_MAX_FILES = 200


def _signature(size: int, mtime: float) -> str:
    return f"{size}:{mtime:.6f}"


def burst_files(request: dg.RunRequest) -> dict[str, str]:
    """``{paper id: inbox file name}`` of a burst run request (empty for a one-paper request)."""
    if not request.tags.get(BURST_TAG):
        return {}
    sources = request.run_config["ops"]["paper_pdf"]["config"]["sources"]
    return {key: PurePosixPath(url).name for key, url in sources.items()}


def _burst_requests(new: list[tuple[PdfInfo, str]]) -> list[dg.RunRequest]:
    """One ``paper_ingest_job`` run per ``REPRO_INGEST_BURST_MAX`` new papers, each over the
    partition range of papers added together (so exactly these papers)."""
    size = max(1, settings.env_int("REPRO_INGEST_BURST_MAX", DEFAULT_BURST_MAX))
    requests = []
    for start in range(0, len(new), size):
        part = new[start:start + size]
        digest = hashlib.sha256("".join(info.sha256 for info, _ in part).encode()).hexdigest()
        requests.append(
            dg.RunRequest(
                job_name=paper_ingest_job.name,
                run_key=f"papers-burst-{digest[:32]}",
                run_config={"ops": {"paper_pdf": {"config": {
                    "sources": {info.paper_id: url for info, url in part}}}}},
                tags={
                    ASSET_PARTITION_RANGE_START_TAG: part[0][0].paper_id,
                    ASSET_PARTITION_RANGE_END_TAG: part[-1][0].paper_id,
                    BURST_TAG: str(len(part)),
                },
            )
        )
    return requests


@dg.sensor(
    jobs=[papers_job, paper_ingest_job],
    minimum_interval_seconds=5,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Each new PDF in the papers drop folder becomes a partition; one new PDF runs "
    "papers_job, a burst is ingested in one run (then each paper's later stages run).",
)
def paper_inbox_sensor(
    context: dg.SensorEvaluationContext, inbox: DropFolderResource
) -> dg.SensorResult:
    """Scan ``<inbox>/papers/``: new PDFs -> partitions + runs; bad files -> ``rejected/``.

    The cursor maps file names to ``size:mtime`` so unchanged files are not read again. The run
    key is the PDF's sha256 (a burst's: the digest of its PDFs' sha256s), so the same bytes
    never run twice, whatever their file name.
    """
    folder = inbox.get_folder()
    folder.ensure(INBOX)
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    entries = folder.list(INBOX, "*")
    present = {entry.name for entry in entries}
    cursor = {name: sig for name, sig in seen.items() if name in present}
    changed = [entry for entry in entries
               if cursor.get(entry.name) != _signature(entry.size, entry.mtime)]
    if not changed:  # the usual tick: no partition or run is read
        return dg.SensorResult(cursor=json.dumps(cursor, sort_keys=True))
    valid: list[tuple[PdfInfo, DropEntry]] = []
    budget = max(1, settings.env_int("REPRO_INBOX_TICK_MAX_FILES", DEFAULT_TICK_MAX_FILES))
    reads = 0
    for entry in changed:
        is_candidate = entry.name.lower().endswith(".pdf") and entry.size <= MAX_PDF_BYTES
        if is_candidate and reads >= budget:
            continue  # next tick: the file stays out of the cursor
        reads += is_candidate
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
        cursor[entry.name] = _signature(entry.size, entry.mtime)
        valid.append((info, entry))
    ids = {info.paper_id for info, _ in valid}
    existing = _known_partitions(context.instance, ids)
    done = processed_papers(context.instance, existing)
    requests: list[dg.RunRequest] = []
    new: list[tuple[PdfInfo, str, str]] = []  # info, source URL, file name
    seen_ids: set[str] = set()
    for info, entry in valid:
        if info.paper_id in seen_ids:
            context.log.info("%s is paper %s (a copy in this tick)", entry.name, info.paper_id)
        elif info.paper_id in done:
            # e.g. `make demo` ran it, or the API/CLI: the same bytes never run twice
            context.log.info("%s is paper %s (already processed: no new run)", entry.name,
                             info.paper_id)
        elif info.paper_id in existing:
            context.log.info("%s is paper %s (already known)", entry.name, info.paper_id)
            requests.append(_one_paper_request(info, folder.url(entry), entry.name))
        else:
            new.append((info, folder.url(entry), entry.name))
        seen_ids.add(info.paper_id)
    if len(new) == 1:
        requests.append(_one_paper_request(*new[0]))
    elif new:
        context.log.info("burst of %d new papers: one ingest run per %s", len(new),
                         settings.env_int("REPRO_INGEST_BURST_MAX", DEFAULT_BURST_MAX))
        requests += _burst_requests([(info, url) for info, url, _ in new])
    unique = {request.run_key: request for request in requests}
    new_keys = [info.paper_id for info, _, _ in new]
    return dg.SensorResult(
        run_requests=list(unique.values()),
        dynamic_partitions_requests=(
            [papers_partitions.build_add_request(new_keys)] if new_keys else []
        ),
        cursor=json.dumps(cursor, sort_keys=True),
    )


#: Run statuses that mean a paper was (or is being) processed: a drop of it needs no run.
_PROCESSED = [dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.STARTED,
              dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.QUEUED,
              dg.DagsterRunStatus.NOT_STARTED]


#: Papers per bulk query (a list of tag values or partition keys is one ``IN``).
QUERY_BATCH = 500


def _known_partitions(instance: dg.DagsterInstance, paper_ids: set[str]) -> set[str]:
    """Which of ``paper_ids`` are papers partitions already.

    A few ids are looked up one by one (``has_dynamic_partition``); more load the partition
    list once. Either way a tick costs nothing per partition the instance holds unless files
    changed.
    """
    if len(paper_ids) <= 20:
        return {key for key in paper_ids
                if instance.has_dynamic_partition(PAPERS, key)}
    return paper_ids & set(instance.get_dynamic_partitions(PAPERS))


def processed_papers(instance: dg.DagsterInstance, paper_ids: set[str]) -> set[str]:
    """The papers of ``paper_ids`` whose ``papers_job`` run succeeded or is under way on
    ``instance`` (by any door: this sensor, ``make demo``, the API, the CLI).

    One run query per :data:`QUERY_BATCH` papers, not one per paper.
    """
    ids = sorted(paper_ids)
    found: set[str] = set()
    for start in range(0, len(ids), QUERY_BATCH):
        batch = ids[start:start + QUERY_BATCH]
        for record in instance.get_run_records(dg.RunsFilter(
                job_name=papers_job.name, tags={"dagster/partition": batch},
                statuses=_PROCESSED)):
            found.add(record.dagster_run.tags.get("dagster/partition", ""))
    return found & paper_ids


def _one_paper_request(info: PdfInfo, url: str, name: str) -> dg.RunRequest:
    return dg.RunRequest(
        job_name=papers_job.name,
        partition_key=info.paper_id,
        run_key=f"paper-{info.sha256}",
        run_config={"ops": {"paper_pdf": {"config": {"source": url, "title": ""}}}},
        tags={"repro/inbox_file": name},
    )


def burst_partitions(instance: dg.DagsterInstance, tags: dict[str, str]) -> list[str]:
    """The papers of a burst run: the partition range in its tags."""
    keys = list(instance.get_dynamic_partitions(PAPERS))
    start = keys.index(tags[ASSET_PARTITION_RANGE_START_TAG])
    end = keys.index(tags[ASSET_PARTITION_RANGE_END_TAG])
    return keys[start:end + 1]


@dg.run_status_sensor(
    run_status=dg.DagsterRunStatus.SUCCESS,
    monitored_jobs=[paper_ingest_job],
    request_job=papers_job,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="After a burst's ingest run: each paper's later stages, one run per paper.",
)
def paper_stages_after_burst_sensor(
    context: dg.RunStatusSensorContext,
) -> list[dg.RunRequest] | dg.SkipReason:
    """Launch ``papers_job`` without its ingest assets for every paper of a burst run."""
    run = context.dagster_run
    if not run.tags.get(BURST_TAG):
        return dg.SkipReason(f"run {run.run_id} is not a burst ingest")
    if context.repository_def is None:
        return dg.SkipReason("no code location to take the later stages from")
    job = context.repository_def.get_job(papers_job.name)
    ingest = {dg.AssetKey(name) for name in INGEST_ASSET_NAMES}
    stages = sorted(set(job.asset_layer.executable_asset_keys) - ingest,
                    key=lambda key: key.to_user_string())
    if not stages:
        return dg.SkipReason("papers_job has no stage after ingest")
    return [
        dg.RunRequest(
            run_key=f"stages-{run.run_id}-{key}",
            partition_key=key,
            asset_selection=stages,
            tags={"repro/ingest_run": run.run_id},
        )
        for key in burst_partitions(context.instance, dict(run.tags))
    ]


#: Evaluates the leaderboard's automation condition (on by default, so `make ui` refreshes it).
leaderboard_automation_sensor = dg.AutomationConditionSensorDefinition(
    "leaderboard_automation_sensor",
    target=dg.AssetSelection.assets("reproduction_leaderboard"),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
)

defs = dg.Definitions(
    sensors=[paper_inbox_sensor, paper_stages_after_burst_sensor, leaderboard_automation_sensor,
             papers_status_cache_sensor],
    schedules=[papers_backfill_schedule],
)
