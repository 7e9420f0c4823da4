"""Calibrate the research agent's relevance floors on questions the sample corpus can and cannot
answer (the figures quoted in :mod:`repro_assets.research.relevance`).

For each labelled question the script embeds every sample record (title + abstract, about one
stored chunk) and every whole abstract sentence, and prints the best document and the best
sentence similarity. A floor is safe when every unanswerable question scores below it and every
answerable one above it; it also prints the same-finding similarity of the fact-merging
calibration pairs (restatements vs different findings on one subject).

    .venv/bin/python benchmarks/research_relevance.py
"""

from __future__ import annotations

import numpy as np

from repro_assets.research.extraction import MERGE_SIMILARITY
from repro_assets.research.relevance import FACT_FLOOR, RESULT_FLOOR
from repro_assets.research.text import split_sentences
from repro_assets.scholarly.samples import SAMPLE_QUESTION, load_sample_records
from repro_assets.storage.embedder import configured_model, get_embedder

ANSWERABLE = [
    SAMPLE_QUESTION,
    "How are REST APIs tested automatically?",
    "How are deep learning models tested?",
    "What are early warning signals of critical transitions in ecosystems?",
    "How can fuzzing secure cyber-physical systems?",
    "How is test case generation done for graphical user interfaces?",
    "How should fisheries be managed under uncertainty?",
]
UNANSWERABLE = [
    "latest treatments for type 2 diabetes",
    "Will salmon returns increase in 2030?",
    "What causes inflation in emerging economies?",
    "How effective are covid-19 vaccines in older adults?",
    "What is the energy density of lithium-ion batteries?",
    "Who won the football world cup in 2018?",
    "Does physiotherapy help after knee surgery?",
]
SAME = [
    ("Metformin lowers blood glucose in patients with type 2 diabetes.",
     "In people with type 2 diabetes, metformin reduces blood sugar levels."),
    ("Early warning signals can precede critical transitions in ecosystems.",
     "Critical transitions in ecosystems may be preceded by early warning signals."),
    ("Existing automated testing techniques for REST APIs achieve low code coverage.",
     "REST API testing tools still reach only limited code coverage."),
]
DIFFERENT = [
    ("Metformin lowers blood glucose in patients with type 2 diabetes.",
     "Insulin therapy lowers blood glucose in patients with type 1 diabetes."),
    ("Existing automated testing techniques for REST APIs achieve low code coverage.",
     "Search-based testing techniques for REST APIs are the most efficient."),
    ("Early warning signals can precede critical transitions in ecosystems.",
     "Early warning signals often fail to detect transitions in noisy systems."),
]


def main() -> None:
    """Print the calibration tables."""
    embedder = get_embedder(configured_model())
    records = [r for items in load_sample_records().values() for r in items]
    documents = embedder.encode([f"{r.title}. {r.abstract}" for r in records])
    sentences = [s for r in records for s in split_sentences(r.abstract) if len(s) >= 40]
    sentence_vectors = embedder.encode(sentences)
    print(f"model {embedder.model_name}; {len(records)} records, {len(sentences)} sentences")
    print(f"floors: results {RESULT_FLOOR}, facts {FACT_FLOOR}")
    print(f"{'label':12} {'best doc':>8} {'best sent':>9}  question")
    worst = {"answerable": 1.0, "unanswerable": 0.0}
    for label, questions in (("answerable", ANSWERABLE), ("unanswerable", UNANSWERABLE)):
        vectors = embedder.encode(questions, kind="query")
        for question, vector in zip(questions, vectors, strict=True):
            doc = float(np.max(documents @ vector))
            sent = float(np.max(sentence_vectors @ vector))
            pick = min if label == "answerable" else max
            worst[label] = pick(worst[label], doc)
            print(f"{label:12} {doc:8.3f} {sent:9.3f}  {question[:70]}")
    print(f"lowest answerable document {worst['answerable']:.3f}, highest unanswerable "
          f"{worst['unanswerable']:.3f}; result floor {RESULT_FLOOR} separates them: "
          f"{worst['unanswerable'] < RESULT_FLOOR <= worst['answerable']}")
    print(f"fact merging (same finding at >= {MERGE_SIMILARITY}):")
    for label, pairs in (("same", SAME), ("different", DIFFERENT)):
        for a, b in pairs:
            va, vb = embedder.encode([a, b])
            print(f"  {label:9} {float(va @ vb):.3f}  {a[:45]} | {b[:45]}")


if __name__ == "__main__":
    main()
