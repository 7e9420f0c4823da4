"""The resources every asset shares, built from the environment."""

from __future__ import annotations

from typing import Any

from repro_assets.resources.blobstore import BlobStoreResource
from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.dropfolder import DropFolderResource
from repro_assets.resources.embedder import EmbedderResource
from repro_assets.resources.llm import LLMResource
from repro_assets.resources.vectorstore import VectorStoreResource


def default_resources() -> dict[str, Any]:
    """Return the resource dict bound in ``definitions.py`` (and used by tests)."""
    database = DatabaseResource()
    embedder = EmbedderResource()
    return {
        "database": database,
        "blob_store": BlobStoreResource(),
        "inbox": DropFolderResource(),
        "embedder": embedder,
        "vector_store": VectorStoreResource(database=database, embedder=embedder),
        "llm": LLMResource(),
    }
