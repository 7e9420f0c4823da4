"""The torch backend: the sentence-transformers model itself (the reference the others match).

``EMBEDDING_DEVICE`` picks the torch device (``cpu`` by default, e.g. ``cuda`` or ``cuda:1``).
"""

from __future__ import annotations

import numpy as np

from repro_assets import settings
from repro_assets.embeddings.base import TORCH, Embedder, EmbeddingError, model_location


def embedding_device() -> str:
    """The torch device for embeddings: ``EMBEDDING_DEVICE`` or ``cpu``."""
    return settings.current().embedding.device or "cpu"


def is_cpu(device: str) -> bool:
    """Whether ``device`` names the CPU (``cpu``, ``cpu:0`` ...)."""
    return device.split(":", 1)[0].strip().lower() == "cpu"


def check_device(device: str) -> str:
    """Return ``device`` if torch can place the model there.

    Raises:
        EmbeddingError: ``E_EMBEDDING_DEVICE`` for a name torch does not know, or an
            accelerator this machine does not have.
    """
    import torch

    try:
        parsed = torch.device(device)
    except (RuntimeError, ValueError) as exc:
        raise EmbeddingError(f"EMBEDDING_DEVICE={device!r} is not a torch device ({exc}); "
                             "use cpu, cuda, cuda:N or mps", "E_EMBEDDING_DEVICE") from exc
    if parsed.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count <= (parsed.index or 0):
            raise EmbeddingError(f"EMBEDDING_DEVICE={device!r}: this machine has {count} CUDA "
                                 "device(s) visible to torch", "E_EMBEDDING_DEVICE")
    elif parsed.type == "mps" and not torch.backends.mps.is_available():
        raise EmbeddingError(f"EMBEDDING_DEVICE={device!r}: MPS is not available here",
                             "E_EMBEDDING_DEVICE")
    elif parsed.type not in ("cpu", "cuda", "mps"):
        raise EmbeddingError(f"EMBEDDING_DEVICE={device!r}: only cpu, cuda and mps are "
                             "supported", "E_EMBEDDING_DEVICE")
    return device


class TorchEmbedder(Embedder):
    """sentence-transformers on torch (imports torch and transformers: seconds per process)."""

    def __init__(self, model_name: str, batch_size: int = 64, device: str | None = None) -> None:
        super().__init__(model_name, TORCH, batch_size)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        self.device = check_device(device or embedding_device())
        self.model = SentenceTransformer(model_location(model_name), device=self.device)
        # a sentence-transformers model has a fixed dimension (the stubs allow None)
        self.dimension = int(self.model.get_embedding_dimension())  # type: ignore[arg-type]

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
