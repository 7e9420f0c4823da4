"""The torch backend: the sentence-transformers model itself (the reference the others match).

``EMBEDDING_DEVICE`` picks the torch device (``cpu`` by default, e.g. ``cuda`` or ``cuda:1``).
"""

from __future__ import annotations

import os

import numpy as np

from repro_assets.embeddings.base import TORCH, Embedder, model_location


def embedding_device() -> str:
    """The torch device for embeddings: ``EMBEDDING_DEVICE`` or ``cpu``."""
    return os.environ.get("EMBEDDING_DEVICE", "").strip() or "cpu"


class TorchEmbedder(Embedder):
    """sentence-transformers on torch (imports torch and transformers: seconds per process)."""

    def __init__(self, model_name: str, batch_size: int = 64, device: str | None = None) -> None:
        super().__init__(model_name, TORCH, batch_size)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        self.device = device or embedding_device()
        self.model = SentenceTransformer(model_location(model_name), device=self.device)
        self.dimension = int(self.model.get_embedding_dimension())

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
