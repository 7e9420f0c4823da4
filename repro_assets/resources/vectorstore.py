"""The vector store resource: a thin wrapper of :mod:`repro_assets.storage.vectorstore`."""

from __future__ import annotations

import dagster as dg

from repro_assets.resources.database import DatabaseResource
from repro_assets.resources.embedder import EmbedderResource
from repro_assets.storage.vectorstore import VectorStore, open_store


class VectorStoreResource(dg.ConfigurableResource):
    """The shared pgvector store (database + embedding model)."""

    database: DatabaseResource
    embedder: EmbedderResource

    def get_store(self) -> VectorStore:
        """Return a :class:`VectorStore` (embedding backend as in :func:`open_store`)."""
        return open_store(
            self.database.get_db(), self.embedder.resolved_model(),
            self.embedder.explicit_backend(),
        )

