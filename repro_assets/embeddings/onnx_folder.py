"""An ONNX export folder on plain onnxruntime: its layout, and the embedder that runs it.

The same tokenizer (``tokenizers``, from the export folder), truncation at the model's
``max_seq_length`` word pieces (special tokens included), the model's pooling (mean or CLS
over the attention mask) and L2 normalization, as sentence-transformers does. Nothing here
imports torch: the export folder is written once by :mod:`repro_assets.embeddings.export`,
which checks it with :class:`OnnxFolderEmbedder`; :mod:`repro_assets.embeddings.onnx_backend`
finds (or writes) the folder of a model by name. This module imports neither.
Texts are batched by token length, so a batch pads to its own longest text only.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from repro_assets.embeddings.base import Embedder, EmbeddingError

META_FILE = "meta.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"


def read_meta(folder: Path) -> dict:
    """The export's ``meta.json`` (model, pooling, dimension, ``max_seq_length`` ...)."""
    return json.loads((folder / META_FILE).read_text(encoding="utf-8"))


class OnnxFolderEmbedder(Embedder):
    """The export in ``folder`` on onnxruntime's CPU provider (loads in a fraction of a second)."""

    def __init__(self, model_name: str, backend: str, batch_size: int, folder: Path) -> None:
        super().__init__(model_name, backend, batch_size)
        self.folder = folder
        self._load(folder)

    def _load(self, folder: Path) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        meta = read_meta(folder)
        if meta["pooling"] not in ("mean", "cls"):
            raise EmbeddingError(f"unsupported pooling {meta['pooling']!r}", "E_EMBEDDING_BACKEND")
        self.dimension = int(meta["dimension"])
        self.max_seq_length = int(meta["max_seq_length"])
        self._pooling = meta["pooling"]
        self._pad_id = int(meta["pad_id"])
        self._tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(self.max_seq_length)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # Idle intra-op threads sleep instead of spinning: the same vectors for less CPU (on a
        # shared machine a spinning thread burns the time another process waits for).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(
            str(folder / MODEL_FILE), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {item.name for item in self._session.get_inputs()}
        self._output = self._session.get_outputs()[0].name

    def _encode(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        order = np.argsort(-lengths, kind="stable")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            rows = order[start:start + self.batch_size]
            width = int(lengths[rows].max())
            ids = np.full((len(rows), width), self._pad_id, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for row, index in enumerate(rows):
                token_ids = encodings[index].ids
                ids[row, :len(token_ids)] = token_ids
                mask[row, :len(token_ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run([self._output], feed)[0]
            out[rows] = self._pool(hidden, mask)
        return out

    def _pool(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self._pooling == "cls":
            pooled = hidden[:, 0, :]
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)
