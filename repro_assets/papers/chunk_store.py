"""Where a paper's chunk list is stored (the ``paper_chunks`` asset's value, a blob)."""

from __future__ import annotations

import json

from repro_assets.papers.models import Chunk
from repro_assets.settings import env_name
from repro_assets.storage.blobstore import BlobStore


def chunks_key(paper_id: str) -> str:
    """Blob key of a paper's chunk list (the ``paper_chunks`` asset's stored value)."""
    return f"papers/{env_name()}/chunks/{paper_id}.json"


def citations_key(paper_id: str) -> str:
    """Blob key of a paper's reference list as structured citations (label, text, year, page)
    (kept out of the chunks; the ``paper_chunks`` asset stores it beside them)."""
    return f"papers/{env_name()}/citations/{paper_id}.json"


def load_chunks(blobs: BlobStore, paper_id: str) -> list[Chunk]:
    """Read the stored chunk list of a paper."""
    return [Chunk(**item) for item in json.loads(blobs.read_text(chunks_key(paper_id)))]
