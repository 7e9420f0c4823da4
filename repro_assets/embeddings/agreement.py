"""How far a backend's retrieval agrees with the reference (torch): top-k neighbour overlap.

For each query, the k nearest passages under the reference embeddings and under the candidate
embeddings are compared; the agreement is the mean fraction they share (1.0: identical
neighbour sets). Cosine similarity on L2-normalized vectors, exact search.
"""

from __future__ import annotations

import numpy as np


def top_k(queries: np.ndarray, passages: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` most similar passages for each query (unordered within the k)."""
    k = min(k, passages.shape[0])
    scores = queries @ passages.T
    return np.argpartition(-scores, k - 1, axis=1)[:, :k]


def topk_agreement(
    reference_queries: np.ndarray,
    reference_passages: np.ndarray,
    queries: np.ndarray,
    passages: np.ndarray,
    k: int = 10,
) -> float:
    """Mean overlap of the top-``k`` neighbour sets (reference vs candidate), in [0, 1]."""
    expected = top_k(reference_queries, reference_passages, k)
    got = top_k(queries, passages, k)
    width = expected.shape[1]
    shared = [len(set(a.tolist()) & set(b.tolist())) / width for a, b in zip(expected, got,
                                                                              strict=True)]
    return float(np.mean(shared)) if shared else 1.0
