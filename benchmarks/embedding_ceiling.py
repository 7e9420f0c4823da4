"""What any embedding backend can reach on this machine, and how exact it must be (issue #19).

Two figures bound every backend before one is tried:

- **fp32 ceiling.** The model's multiply-adds for the chunks (from its config and each chunk's
  token count: projections and feed-forward per token, attention per token pair) divided by the
  machine's own fp32 matrix-multiply rate (onnxruntime MatMul on the model's feed-forward shape
  and on a large square product, the faster of the two). No fp32 runtime embeds faster than that;
  the largest speed-up any fp32 backend can have over torch is the ceiling over torch's measured
  rate. Printed next to torch and the ONNX backends measured in the same run.
- **Agreement tolerance.** Retrieval agreement (top-10 neighbour overlap, as
  ``benchmarks/peer_ingest.py`` measures it) after perturbing the reference vectors with random
  noise of known size: how close to the reference an embedding must stay to keep 0.99 of the
  neighbours, next to each backend's own cosine and agreement.

Usage::

    python benchmarks/embedding_ceiling.py                        # generated PDFs
    python benchmarks/embedding_ceiling.py ~/papers --limit 10    # your own PDFs
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_ingest import _queries, generated_pdfs  # noqa: E402

NOISE_LEVELS = (0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01)
AGREEMENT_BAR = 0.99


def chunk_texts(pdfs: list[Path]) -> list[str]:
    """Our chunks of the PDFs (the ingest's extraction and chunking, no database)."""
    from repro_assets.papers.chunking import chunk_pages
    from repro_assets.papers.pages import extract_pages
    from repro_assets.papers.pdf import validate_pdf

    texts: list[str] = []
    for pdf in pdfs:
        data = pdf.read_bytes()
        pages = extract_pages(data, validate_pdf(data).paper_id)
        texts += [chunk.text for chunk in chunk_pages(pages)]
    return texts


def multiply_adds(texts: list[str], model_name: str) -> tuple[float, dict]:
    """The encoder's multiply-adds for ``texts`` (embedding lookups and norms not counted)."""
    from tokenizers import Tokenizer

    from repro_assets.embeddings.export import ensure_exported, resolve_model_folder
    from repro_assets.embeddings.onnx_backend import TOKENIZER_FILE, read_meta

    config = json.loads((resolve_model_folder(model_name) / "config.json").read_text())
    folder = ensure_exported(model_name)
    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
    tokenizer.no_padding()
    tokenizer.enable_truncation(int(read_meta(folder)["max_seq_length"]))
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    total = 0.0
    for encoding in tokenizer.encode_batch(texts):
        length = len(encoding.ids)
        total += length * (4 * hidden * hidden + 2 * hidden * inner) + 2 * length * length * hidden
    return total * config["num_hidden_layers"], config


def matmul_rate(rows: int, inner: int, cols: int, repeats: int = 5) -> float:
    """fp32 multiply-adds per second of one onnxruntime MatMul (default threads)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    weight = np.random.default_rng(0).standard_normal((inner, cols)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "matmul",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, inner])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, cols])],
        [numpy_helper.from_array(weight, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = {"x": np.ones((rows, inner), dtype=np.float32)}
    session.run(None, feed)
    started = time.perf_counter()
    for _ in range(repeats):
        session.run(None, feed)
    return rows * inner * cols * repeats / (time.perf_counter() - started)


def embed(backend: str, model_name: str, texts: list[str], queries: list[str]) -> dict:
    """Chunks/s of one backend, and its passage and query vectors."""
    from repro_assets.storage.embedder import get_embedder

    embedder = get_embedder(model_name, backend)
    embedder.encode(["warm up"])
    started = time.perf_counter()
    passages = embedder.encode(texts)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "passages": passages,
            "queries": embedder.encode(queries, kind="query")}


def noisy(vectors: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """``vectors`` plus Gaussian noise of standard deviation ``sigma``, re-normalized."""
    moved = vectors + rng.normal(0.0, sigma, vectors.shape).astype(np.float32)
    return moved / np.linalg.norm(moved, axis=1, keepdims=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="PDFs (default: generated ones)")
    parser.add_argument("--limit", type=int, default=10, help="PDFs from the folder")
    args = parser.parse_args()
    from repro_assets.embeddings.agreement import topk_agreement
    from repro_assets.storage.embedder import DEFAULT_MODEL

    if args.folder:
        pdfs = sorted(Path(args.folder).expanduser().glob("*.pdf"))[:args.limit]
    else:
        pdfs = generated_pdfs(Path(tempfile.mkdtemp(prefix="ceiling-")), args.limit)
    texts = chunk_texts(pdfs)
    queries = _queries(texts)
    macs, config = multiply_adds(texts, DEFAULT_MODEL)
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    rate = max(matmul_rate(4096, hidden, inner), matmul_rate(2048, 2048, 2048, repeats=3))
    ceiling = len(texts) / (macs / rate)
    print(f"{len(pdfs)} PDFs, {len(texts)} chunks, {len(queries)} queries; "
          f"{2 * macs / len(texts) / 1e9:.2f} GFLOP per chunk")
    print(f"machine fp32 matrix multiply: {2 * rate / 1e9:.0f} GFLOP/s -> fp32 ceiling "
          f"{ceiling:.1f} chunks/s (every multiply-add at that rate, nothing else)")

    runs = {name: embed(name, DEFAULT_MODEL, texts, queries)
            for name in ("torch", "onnx", "onnx-int8")}
    reference = runs["torch"]
    torch_rate = len(texts) / reference["seconds"]
    print(f"largest speed-up any fp32 backend can have over torch here: "
          f"{ceiling / torch_rate:.2f}x\n")
    print(f"{'backend':<10} {'chunks/s':>9} {'GFLOP/s':>8} {'of ceiling':>10} {'x torch':>8} "
          f"{'cos min':>8} {'agreement':>9}")
    for name, run in runs.items():
        speed = len(texts) / run["seconds"]
        cosines = np.sum(reference["passages"] * run["passages"], axis=1)
        agreed = topk_agreement(reference["queries"], reference["passages"],
                                run["queries"], run["passages"])
        print(f"{name:<10} {speed:>9.1f} {2 * macs / run['seconds'] / 1e9:>8.0f} "
              f"{speed / ceiling:>10.0%} {speed / torch_rate:>8.2f} {cosines.min():>8.5f} "
              f"{agreed:>9.3f}")

    print("\nagreement after random noise on the torch vectors (what the 0.99 bar tolerates):")
    rng = np.random.default_rng(0)
    for sigma in NOISE_LEVELS:
        passages = noisy(reference["passages"], sigma, rng)
        moved = noisy(reference["queries"], sigma, rng)
        cosines = np.sum(reference["passages"] * passages, axis=1)
        agreed = topk_agreement(reference["queries"], reference["passages"], moved, passages)
        mark = "meets" if agreed >= AGREEMENT_BAR else "below"
        print(f"  cosine mean {cosines.mean():.5f} (min {cosines.min():.5f}): agreement "
              f"{agreed:.3f} ({mark} {AGREEMENT_BAR})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
