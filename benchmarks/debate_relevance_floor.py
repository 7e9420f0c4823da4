"""Calibrate the debate's relevance floor on questions the sample corpus can and cannot answer.

For each labelled question the script embeds the whole sentences of every sample abstract
(:func:`repro_assets.debate.relevance.whole_sentences`) and takes the best question-sentence
cosine similarity. It prints the per-question scores and, for a sweep of floors, how many
answerable questions pass (recall) and how many unanswerable ones wrongly pass (false passes).
Precision first: the chosen floor is the midpoint between the highest unanswerable score and
the lowest answerable score above it, and never lets an unanswerable question through.

    .venv/bin/python benchmarks/debate_relevance_floor.py [--model all-MiniLM-L6-v2]

Set ``DEBATE_RELEVANCE_FLOOR`` to the printed floor for a model that has no calibrated one.
"""

from __future__ import annotations

import argparse

import numpy as np

from repro_assets.debate.relevance import whole_sentences
from repro_assets.scholarly.samples import SAMPLE_QUESTION, load_sample_records
from repro_assets.storage.embedder import configured_model, get_embedder

ANSWERABLE = [
    SAMPLE_QUESTION,
    "Do ecology journals enforce their public data archiving policies?",
    "How can managers decide when to stop surveying a threatened species under imperfect "
    "detection?",
    "What are the limits of forecasting critical transitions in ecosystems with deep learning?",
    "How should REST APIs be tested automatically?",
    "Can deep reinforcement learning help conservation decisions?",
    "When should managers accept a marine invasive species instead of removing it?",
    "Can accurate ecological forecasts still lead to poor management decisions?",
    "How is fuzzing used to test industrial control systems?",
    "Did fish consumption change over time in coastal communities?",
]
UNANSWERABLE = [
    "How many salmon will return to the Columbia River in 2030?",
    "Will salmon returns in 2030 recover, according to neural network forecasts?",
    "What is the boiling point of liquid helium on Mars?",
    "Which treatment lowers blood sugar best in type 2 diabetes?",
    "How does inflation affect the price of housing in Germany?",
    "What is the best learning rate for training GPT-2 on Wikipedia text?",
    "Can neural networks forecast stock market crashes?",
    "Which vaccine schedule is recommended for infants in Brazil?",
    "How do transformers compare with LSTMs for machine translation of German?",
    "What caused the 2008 financial crisis?",
]


def best_scores(model: str, questions: list[str]) -> list[float]:
    """Best whole-sentence similarity over the sample abstracts, per question."""
    embedder = get_embedder(model)
    sentences = [s for records in load_sample_records().values() for r in records
                 for s in whole_sentences(r.abstract)]
    passages = embedder.encode(sentences, kind="passage")
    queries = embedder.encode(questions, kind="query")
    return [float(x) for x in (passages @ queries.T).max(axis=0)]


def main() -> None:
    """Print per-question scores, the sweep and the chosen floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=configured_model())
    args = parser.parse_args()
    yes = best_scores(args.model, ANSWERABLE)
    no = best_scores(args.model, UNANSWERABLE)
    print(f"model: {args.model}")
    for label, questions, scores in (("answerable", ANSWERABLE, yes),
                                     ("unanswerable", UNANSWERABLE, no)):
        for question, score in sorted(zip(questions, scores, strict=True), key=lambda x: x[1]):
            print(f"  {label:<12} {score:.3f}  {question[:80]}")
    print("floor  recall  false_passes")
    for floor in np.arange(0.40, 0.76, 0.02):
        recall = sum(s >= floor for s in yes) / len(yes)
        false = sum(s >= floor for s in no)
        print(f"{floor:.2f}   {recall:.2f}    {false}")
    ceiling = max(no)
    above = [s for s in yes if s > ceiling]
    floor = (ceiling + min(above)) / 2 if above else ceiling + 0.01
    print(f"chosen floor: {floor:.3f} (highest unanswerable {ceiling:.3f}, recall "
          f"{sum(s >= floor for s in yes)}/{len(yes)})")


if __name__ == "__main__":
    main()
