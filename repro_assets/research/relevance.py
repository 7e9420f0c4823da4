"""Relevance of results and statements to the research question: the relevance floor.

Relevance is the cosine similarity between the question and a text in the project's embedding
space (all-MiniLM-L6-v2 by default): for a local-corpus chunk the vector store's own distance,
for any other result its title and full text (a fetched page) or snippet. It decides what may
be used, never how sure a fact is (confidence comes from independent sources,
:mod:`repro_assets.research.analysis`).

The floors were calibrated on the sample corpus (``benchmarks/research_relevance.py`` prints
the table): for 7 questions it can answer the best document scored 0.48-0.78 and the best
sentence 0.49-0.83; for 7 it cannot (diabetes treatment, salmon returns in 2030, inflation,
vaccines, batteries, football, knee surgery) the best document scored 0.07-0.34 and the best
sentence 0.11-0.44. A result below :data:`RESULT_FLOOR` is not read at all; a fact below
:data:`FACT_FLOOR` is never a key point. Another embedding model needs its own calibration
(``AgentOptions.relevance_floor`` / ``fact_relevance_floor``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from repro_assets.research.extraction import Encoder
from repro_assets.research.models import SourceResult

RESULT_FLOOR = 0.40
FACT_FLOOR = 0.30
MAX_CHARS = 1200


def similarities(encoder: Encoder, question: str, texts: Sequence[str]) -> list[float]:
    """Cosine similarity of each text to the question."""
    if not texts:
        return []
    query = encoder.encode([question], kind="query")[0]
    vectors = encoder.encode([t[:MAX_CHARS] for t in texts], kind="passage")
    return [round(float(v), 4) for v in np.asarray(vectors) @ query]


def score_results(encoder: Encoder, question: str, results: Sequence[SourceResult]) -> None:
    """Set ``relevance`` on every result that has none (in place)."""
    todo = [r for r in results if r.relevance is None]
    texts = [f"{r.title}. {(r.full_content or r.snippet or '')[:MAX_CHARS]}".strip(". ")
             for r in todo]
    for result, score in zip(todo, similarities(encoder, question, texts), strict=True):
        result.relevance = score
