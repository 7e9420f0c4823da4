"""Which embedding model and backend to use: the precedence, written once.

The backend is the explicit one (a caller's argument or the resource's config), else
``REPRO_EMBEDDING_BACKEND``, else the backend the vector store was built with (so an existing
store keeps working when the default changes), else the default for the device: ``torch`` on a
GPU (``EMBEDDING_DEVICE``), ``onnx`` on the CPU. Callers that open a store pass its stored
backend; callers that only compare their own vectors with each other (fact merging) pass none.
"""

from __future__ import annotations

from repro_assets import settings
from repro_assets.embeddings.base import ONNX, TORCH, check_backend

#: The automatic backend on the CPU.
DEFAULT_BACKEND = ONNX


def configured_model() -> str:
    """``REPRO_EMBEDDING_MODEL`` or all-MiniLM-L6-v2."""
    return settings.current().embedding.model


def configured_backend() -> str | None:
    """``REPRO_EMBEDDING_BACKEND`` if set (checked), else None (automatic)."""
    raw = settings.current().embedding.backend.strip().lower()
    return check_backend(raw) if raw else None


def device_is_cpu() -> bool:
    """Whether ``EMBEDDING_DEVICE`` (default ``cpu``) names the CPU."""
    device = settings.current().embedding.device or "cpu"
    return device.split(":", 1)[0].strip().lower() == "cpu"


def default_backend() -> str:
    """The automatic backend: torch on a GPU device, else :data:`DEFAULT_BACKEND`."""
    return DEFAULT_BACKEND if device_is_cpu() else TORCH


def resolve_backend(explicit: str | None = None, stored: str | None = None) -> str:
    """The backend to embed with (see the module docstring for the order).

    Args:
        explicit: a backend the caller or the resource's config names ("" or None: none).
        stored: the backend the vector store's embeddings were made with, if any.

    Raises:
        EmbeddingError: ``E_EMBEDDING_BACKEND`` for an unknown backend name.
    """
    return check_backend(explicit or configured_backend() or stored or default_backend())
