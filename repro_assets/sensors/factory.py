"""The factory drop-folder sensor: every new ``factories/*.txt`` becomes a partition and a run.

A file that is empty, too large or not UTF-8 is moved to ``factories/rejected/`` with an
``.error.json``; a file that cannot be read this tick is tried again on the next one.
"""

from __future__ import annotations

import json

import dagster as dg

from repro_assets.factory.intake import INBOX, INBOX_PATTERN, MAX_TEXT_BYTES
from repro_assets.factory.store import partition_key_for
from repro_assets.jobs import factory_job
from repro_assets.partitions import factories_partitions
from repro_assets.resources.dropfolder import DropFolderResource

CURSOR_KEEP = 2000


def _load_cursor(cursor: str | None) -> list[str]:
    if not cursor:
        return []
    try:
        value = json.loads(cursor)
    except json.JSONDecodeError:
        return []
    return [str(item) for item in value.get("seen", [])] if isinstance(value, dict) else []


@dg.sensor(
    job=factory_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,  # like the other drop folders (README)
    description="Onboards every new `factories/*.txt` in the drop folder (one partition each).",
)
def factory_drop_sensor(
    context: dg.SensorEvaluationContext, inbox: DropFolderResource
) -> dg.SensorResult:
    folder = inbox.get_folder()
    folder.ensure(INBOX)
    seen = _load_cursor(context.cursor)
    known = set(seen)
    requests: list[dg.RunRequest] = []
    new_keys: list[str] = []
    for entry in folder.list(INBOX, INBOX_PATTERN):
        try:
            data = folder.read_bytes(entry.path)
            if not data.strip():
                raise ValueError("E_EMPTY_FILE", "the file is empty")
            if len(data) > MAX_TEXT_BYTES:
                raise ValueError("E_FILE_TOO_LARGE", f"{len(data)} bytes (max {MAX_TEXT_BYTES})")
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError("E_NOT_UTF8", f"not UTF-8 text: {exc}") from exc
        except ValueError as exc:
            code, message = exc.args if len(exc.args) == 2 else ("E_BAD_FILE", str(exc))
            context.log.warning("rejecting %s: %s %s", entry.name, code, message)
            folder.reject(INBOX, entry, code, message)
            continue
        except OSError as exc:  # vanished or unreadable: report, try again next tick
            context.log.warning("could not read %s: %s", entry.name, exc)
            continue
        key = partition_key_for(entry.name, data)
        if key in known:
            continue
        known.add(key)
        seen.append(key)
        new_keys.append(key)
        requests.append(
            dg.RunRequest(
                partition_key=key,
                run_key=key,
                run_config={"ops": {"factory_text": {"config": {"inbox_path": entry.path}}}},
            )
        )
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=(
            [factories_partitions.build_add_request(new_keys)] if new_keys else []
        ),
        cursor=json.dumps({"seen": seen[-CURSOR_KEEP:]}),
    )



defs = dg.Definitions(sensors=[factory_drop_sensor])
