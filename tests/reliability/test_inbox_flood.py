"""120 files dropped at once into the papers inbox: 100 good PDFs, 20 broken ones (issue #17).

Injected: 100 generated PDFs and 20 files of five broken kinds (garbage behind a ``%PDF-``
header, password-protected, text named ``.pdf``, empty, a ``.docx``) written into the inbox
before one sensor tick. Verified: the tick (and every later one) succeeds; 100 partitions are
added; the run requests have distinct run keys and are each executed once; each of the 100
papers is materialized exactly once per ingest asset; the database holds 100 papers with no
duplicate rows; the 20 broken files sit in ``rejected/`` with an ``.error.json`` each.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import dagster as dg
import pytest

from repro_assets.partitions import papers_partitions
from repro_assets.sensors.papers import burst_files
from tests.reliability.inbox import (
    INGEST,
    apply_partitions,
    broken_files,
    duplicate_rows,
    materializations,
    paper,
    row_counts,
    run_request,
    tick,
)

pytestmark = [pytest.mark.slow, pytest.mark.reliability]

GOOD, BROKEN = 100, 20
CODES = {"E_PDF_CORRUPT", "E_PDF_ENCRYPTED", "E_UNSUPPORTED_MEDIA_TYPE"}


def test_a_flood_of_pdfs_and_broken_files(fresh_database: str) -> None:
    inbox = Path(os.environ["REPRO_INBOX_ROOT"]) / "papers"
    inbox.mkdir(parents=True, exist_ok=True)
    for number in range(GOOD):
        (inbox / f"paper{number:03d}.pdf").write_bytes(paper(number))
    broken = broken_files(BROKEN)
    for name, data in broken.items():
        (inbox / name).write_bytes(data)
    instance = dg.DagsterInstance.ephemeral()

    first = tick(instance)
    apply_partitions(instance, first)
    keys = instance.get_dynamic_partitions(papers_partitions.name)
    assert len(keys) == GOOD
    requests = first.run_requests
    assert len({request.run_key for request in requests}) == len(requests)
    covered = [key for request in requests for key in burst_files(request)]
    assert sorted(covered) == sorted(keys)  # each paper in exactly one run request

    # nothing new on the next ticks, before and after the runs
    second = tick(instance, cursor=first.cursor)
    assert second.run_requests == [] and second.dynamic_partitions_requests == []
    results = [run_request(instance, request) for request in requests]
    assert all(result.success for result in results)
    assert len(instance.get_runs()) == len(requests)
    third = tick(instance, cursor=second.cursor)
    assert third.run_requests == [] and third.dynamic_partitions_requests == []

    counts = materializations(results)
    for asset in INGEST:
        assert {key for (name, key) in counts if name == asset} == set(keys), asset
    assert set(counts.values()) == {1}  # every (asset, paper) materialized once
    rows = row_counts(fresh_database)
    assert rows["papers"] == rows["documents"] == GOOD
    assert rows["chunks"] >= GOOD
    assert set(duplicate_rows(fresh_database).values()) == {0}

    rejected = inbox / "rejected"
    assert sorted(p.name for p in rejected.iterdir() if not p.name.endswith(".error.json")) == (
        sorted(broken)
    )
    for name in broken:
        error = json.loads((rejected / f"{name}.error.json").read_text())
        assert error["code"] in CODES and error["message"] and error["file"] == name
    left = sorted(p.name for p in inbox.iterdir() if p.is_file())
    assert len(left) == GOOD and not set(left) & set(broken)
