"""Export a sentence-transformers model to ONNX once, into the model cache (atomic).

``ensure_exported(model, backend)`` returns a folder holding ``model.onnx``, the model's
``tokenizer.json`` and ``meta.json`` (pooling, dimension, ``max_seq_length``, where it came
from). The first call exports (``torch.onnx.export`` of the Hugging Face model: torch is
imported here and only here), checks the export against sentence-transformers on reference
sentences, and publishes the folder with a rename; concurrent processes wait on a file lock.
Later calls, and the runtime path, only read the folder. ``onnx-int8`` is quantized from the
fp32 export (:mod:`repro_assets.embeddings.quantize`).

The cache is ``REPRO_MODEL_CACHE`` or ``<data dir>/models``; ``make setup`` fills it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
import warnings
from pathlib import Path

from repro_assets import settings
from repro_assets.embeddings.base import (
    ONNX,
    ONNX_INT8,
    EmbeddingError,
    check_backend,
    model_location,
)
from repro_assets.embeddings.onnx_folder import (
    META_FILE,
    MODEL_FILE,
    TOKENIZER_FILE,
    OnnxFolderEmbedder,
    read_meta,
)

log = logging.getLogger(__name__)

#: Bump when the export's layout or method changes: older exports are then rebuilt.
EXPORT_VERSION = 1
OPSET = 17
#: Export check: every reference sentence's cosine to sentence-transformers' vector.
MIN_EXPORT_COSINE = 0.9999
REFERENCE_SENTENCES = [
    "The model reaches 94.1% top-1 accuracy on the held-out test split.",
    "We train with Adam (learning rate 3e-4, batch size 64) for 20 epochs on one GPU.",
    "Retrieval quality is measured as recall@10 against exact nearest neighbours.",
    "short",
    " ".join(["Long inputs are truncated at the model's maximum sequence length."] * 40),
]
_INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
_FUSABLE = {"bert"}  # BERT-family encoders (MiniLM, e5, bge ...): the fusions we check


def cache_root() -> Path:
    """The model cache: ``REPRO_MODEL_CACHE`` or ``<data dir>/models``."""
    raw = settings.current().paths.model_cache
    return Path(raw).resolve() if raw else settings.data_dir() / "models"


def export_dir(model_name: str, backend: str) -> Path:
    """The cache folder of ``model_name``'s export for ``backend`` (onnx or onnx-int8)."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "--", model_name).strip("-.") or "model"
    variant = {ONNX: "fp32", ONNX_INT8: "int8"}[check_backend(backend)]
    return cache_root() / "onnx" / slug / variant


def resolve_model_folder(model_name: str) -> Path:
    """The local folder of a sentence-transformers model (packaged, a path, or the hub cache)."""
    location = model_location(model_name)
    if Path(location).is_dir():
        return Path(location)
    from huggingface_hub import snapshot_download

    offline = settings.current().third_party.hf_hub_offline not in ("", "0", "false")
    try:
        return Path(snapshot_download(location, local_files_only=offline))
    except Exception as exc:  # hub errors come in many types
        raise EmbeddingError(
            f"cannot find model {model_name!r} locally ({exc}); download it once with network "
            "access or use REPRO_EMBEDDING_BACKEND=torch", "E_EMBEDDING_MODEL_UNAVAILABLE",
        ) from exc


def source_fingerprint(folder: Path) -> str:
    """A digest of the model's configuration files and the sizes of its weights."""
    digest = hashlib.sha256(f"export-v{EXPORT_VERSION}".encode())
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        digest.update(str(path.relative_to(folder)).encode())
        if path.suffix == ".json":
            digest.update(path.read_bytes())
        else:
            digest.update(str(path.stat().st_size).encode())
    return digest.hexdigest()[:16]


def is_current(folder: Path, fingerprint: str) -> bool:
    """Whether ``folder`` holds a complete export of this model version."""
    try:
        meta = read_meta(folder)
    except (OSError, ValueError):
        return False
    return (
        meta.get("fingerprint") == fingerprint
        and (folder / MODEL_FILE).is_file()
        and (folder / TOKENIZER_FILE).is_file()
    )


def ensure_exported(model_name: str, backend: str = ONNX) -> Path:
    """Return the export folder of ``model_name`` for ``backend``, exporting it if needed.

    Raises:
        EmbeddingError: the model cannot be found, has an unsupported pooling, or its export
            does not reproduce sentence-transformers' vectors.
    """
    source = resolve_model_folder(model_name)
    fingerprint = source_fingerprint(source)
    target = export_dir(model_name, backend)
    if is_current(target, fingerprint):
        return target
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock", timeout=1800):
        if is_current(target, fingerprint):  # another process finished it meanwhile
            return target
        started = time.perf_counter()
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
        try:
            if backend == ONNX:
                _export_fp32(model_name, source, work, fingerprint)
            else:
                from repro_assets.embeddings.quantize import quantize_int8

                quantize_int8(ensure_exported(model_name, ONNX), work)
            _publish(work, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        log.info("exported %s (%s) to %s in %.1fs", model_name, backend, target,
                 time.perf_counter() - started)
    return target


def _publish(work: Path, target: Path) -> None:
    """Replace ``target`` by ``work`` with renames (readers never see a partial folder)."""
    if target.exists():
        stale = target.with_name(f".{target.name}-stale-{os.getpid()}")
        target.rename(stale)
        work.rename(target)
        shutil.rmtree(stale, ignore_errors=True)
    else:
        work.rename(target)


def pooling_mode(folder: Path) -> str:
    """The pooling of a sentence-transformers folder: ``mean`` or ``cls``.

    Raises:
        EmbeddingError: another pooling (max, weighted ...), which the ONNX path does not run.
    """
    modules = json.loads((folder / "modules.json").read_text()) if (
        folder / "modules.json").exists() else []
    for module in modules:
        if module.get("type", "").endswith("Pooling"):
            config = json.loads((folder / module["path"] / "config.json").read_text())
            mode = config.get("pooling_mode")
            if isinstance(mode, str):
                mode = {"mean_tokens": "mean", "cls_token": "cls"}.get(mode, mode)
            elif config.get("pooling_mode_mean_tokens"):
                mode = "mean"
            elif config.get("pooling_mode_cls_token"):
                mode = "cls"
            if mode in ("mean", "cls"):
                return mode
            raise EmbeddingError(f"pooling {mode or config!r} has no ONNX path; use "
                                 "REPRO_EMBEDDING_BACKEND=torch", "E_EMBEDDING_BACKEND")
    return "mean"


def _export_fp32(model_name: str, source: Path, out: Path, fingerprint: str) -> None:
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(source))
    if not tokenizer.is_fast:
        raise EmbeddingError(f"{model_name} has no fast tokenizer (tokenizer.json)",
                             "E_EMBEDDING_BACKEND")
    tokenizer.backend_tokenizer.save(str(out / TOKENIZER_FILE))
    # eager attention exports the classic attention graph, which onnxruntime fuses
    model = AutoModel.from_pretrained(str(source), attn_implementation="eager").eval()
    names = [name for name in _INPUT_NAMES if name in tokenizer.model_input_names]
    sample = tokenizer(["an example sentence", "two"], padding=True, return_tensors="pt")

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(names, inputs, strict=True))).last_hidden_state

    raw = out / "raw.onnx"
    axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "last_hidden_state"]}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer notes about shapes fixed at export time
        torch.onnx.export(
            LastHiddenState(model), tuple(sample[name] for name in names), str(raw),
            dynamo=False, input_names=names, output_names=["last_hidden_state"],
            dynamic_axes=axes, opset_version=OPSET, do_constant_folding=True,
        )
    fused = _fuse(raw, out / MODEL_FILE, model.config)
    raw.unlink()
    reference = SentenceTransformer(str(source), device="cpu")
    meta = {
        "model_name": model_name,
        "backend": ONNX,
        "fingerprint": fingerprint,
        "dimension": int(reference.get_embedding_dimension()),  # type: ignore[arg-type]
        "max_seq_length": int(reference.max_seq_length),  # type: ignore[arg-type]
        "pooling": pooling_mode(source),
        "pad_id": int(tokenizer.pad_token_id or 0),
        "opset": OPSET,
        "fused": fused,
        "torch": torch.__version__,
    }
    (out / META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    expected = reference.encode(REFERENCE_SENTENCES, normalize_embeddings=True)
    got = OnnxFolderEmbedder(model_name, ONNX, 16, out).encode(REFERENCE_SENTENCES)
    worst = float(np.min(np.sum(expected * got, axis=1)))
    if worst < MIN_EXPORT_COSINE:
        raise EmbeddingError(
            f"the ONNX export of {model_name} differs from sentence-transformers (cosine "
            f"{worst:.5f} < {MIN_EXPORT_COSINE}); use REPRO_EMBEDDING_BACKEND=torch",
            "E_ONNX_EXPORT_MISMATCH",
        )
    meta["export_check_min_cosine"] = round(worst, 6)
    (out / META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")


def _fuse(raw: Path, target: Path, config: object) -> bool:
    """Fuse attention, LayerNorm and GELU with onnxruntime's transformer optimizer (BERT-like
    encoders); any other architecture keeps the plain export. Returns whether it fused."""
    heads = getattr(config, "num_attention_heads", None)
    hidden = getattr(config, "hidden_size", None)
    if getattr(config, "model_type", "") in _FUSABLE and heads and hidden:
        from onnxruntime.transformers.optimizer import optimize_model

        try:
            optimized = optimize_model(str(raw), model_type="bert", num_heads=int(heads),
                                       hidden_size=int(hidden), opt_level=1)
            optimized.save_model_to_file(str(target))
            return True
        except Exception as exc:  # the optimizer raises many types; the plain export works
            log.warning("onnxruntime could not fuse %s (%s); using the plain export", raw, exc)
    shutil.copyfile(raw, target)
    return False
