"""The embedding model resource: a thin wrapper of :mod:`repro_assets.storage.embedder`."""

from __future__ import annotations

import dagster as dg

from repro_assets.embeddings.base import Embedder, check_backend
from repro_assets.storage.embedder import configured_backend, configured_model, get_embedder


class EmbedderResource(dg.ConfigurableResource):
    """Embedding model and backend.

    Attributes:
        model_name: empty means ``REPRO_EMBEDDING_MODEL`` or all-MiniLM-L6-v2.
        backend: empty means ``REPRO_EMBEDDING_BACKEND`` or automatic.
    """

    model_name: str = ""
    backend: str = ""

    def resolved_model(self) -> str:
        """The model name this resource embeds with."""
        return self.model_name or configured_model()

    def explicit_backend(self) -> str | None:
        """The backend set on the resource or in the environment, else ``None``."""
        return check_backend(self.backend) if self.backend else configured_backend()

    def get_embedder(self, backend: str | None = None) -> Embedder:
        """Return the loaded model (``backend`` wins over the configured one)."""
        return get_embedder(self.resolved_model(), backend or self.explicit_backend())


