"""``paper_chunks`` records what it kept out of the embeddings (issue #29 item 1).

The reference list becomes structured citations (stored beside the chunks) and a running
header is embedded once; the asset's metadata counts both. The paper is generated here, with
invented wording.
"""

from __future__ import annotations

import json

import dagster as dg

from repro_assets.assets.papers import paper_chunks, paper_pages, paper_pdf
from repro_assets.papers.chunk_store import citations_key
from repro_assets.papers.pdf import validate_pdf
from repro_assets.resources.registry import default_resources
from tests.papers.test_chunking_structure import PROSE, Writer, numbered_entries

HEADER = "Proceedings of an Imagined Venue on Folded Grids (2031)"


def _paper(entries: list[str]) -> bytes:
    writer = Writer(header=HEADER, footer_numbers=True)
    writer.heading("1 Introduction")
    for n in range(60):
        writer.paragraph(f"Paragraph {n}. {PROSE}")
    writer.heading("References")
    for entry in entries:
        writer.paragraph(entry)
    return writer.pdf()


def test_chunks_metadata_counts_citations_and_boilerplate(fresh_database, tmp_path) -> None:
    entries = numbered_entries(12)
    pdf = tmp_path / "folded.pdf"
    pdf.write_bytes(_paper(entries))
    key = validate_pdf(pdf.read_bytes()).paper_id
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("papers", [key])
    result = dg.materialize(
        [paper_pdf, paper_pages, paper_chunks], instance=instance, partition_key=key,
        resources=default_resources(),
        run_config={"ops": {"paper_pdf": {"config": {"source": str(pdf), "title": ""}}}},
    )
    meta = {e.asset_key.to_user_string(): e.materialization.metadata
            for e in result.get_asset_materialization_events()}
    pages = meta["paper_pages"]["pages"].value
    chunks = meta["paper_chunks"]
    assert pages >= 3
    assert chunks["citations"].value == len(entries)
    assert chunks["reference_blocks_not_embedded"].value > 0
    assert chunks["boilerplate_embedded_once"].value == 1  # the running header, not the numbers
    assert chunks["boilerplate_copies_not_embedded"].value >= 2 * (pages - 1)

    stored = json.loads(default_resources()["blob_store"].get_store().read_text(citations_key(key)))
    assert [c["label"] for c in stored[:2]] == ["1", "2"]
    assert stored[0]["text"].startswith("A. Quillfeather") and stored[0]["year"] == 1990
