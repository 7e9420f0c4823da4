"""The ONNX backends (``onnx``, ``onnx-int8``): a model's export, found or written by name.

:class:`OnnxEmbedder` asks :func:`repro_assets.embeddings.export.ensure_exported` for the
model's export folder (written once to the model cache) and runs it with
:class:`repro_assets.embeddings.onnx_folder.OnnxFolderEmbedder`; nothing here imports torch.
The folder's layout lives in :mod:`repro_assets.embeddings.onnx_folder`, which the exporter and
the quantizer import too, so no import runs back up to this module.
"""

from __future__ import annotations

from pathlib import Path

from repro_assets.embeddings.base import ONNX
from repro_assets.embeddings.export import ensure_exported
from repro_assets.embeddings.onnx_folder import (
    META_FILE,
    MODEL_FILE,
    TOKENIZER_FILE,
    OnnxFolderEmbedder,
    read_meta,
)

__all__ = ["META_FILE", "MODEL_FILE", "TOKENIZER_FILE", "OnnxEmbedder", "read_meta"]


class OnnxEmbedder(OnnxFolderEmbedder):
    """A model's ONNX export (``folder``, else the cached export, written on first use)."""

    def __init__(self, model_name: str, backend: str = ONNX, batch_size: int = 16,
                 folder: Path | None = None) -> None:
        super().__init__(model_name, backend, batch_size,
                         folder if folder is not None else ensure_exported(model_name, backend))
