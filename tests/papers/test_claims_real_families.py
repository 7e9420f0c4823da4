"""Claims rules from the families of real unseen papers (issue #23, development set R1), each
reproduced with small PDFs the tests draw (invented names), in at least two variants.

* a result on the training split ('Train Acc', 'Training set' columns) is no claim;
* a language code alone ('DE') or a family name the paper reports in several versions ('Zeta'
  beside 'Zeta-10' and 'Zeta-100') names no one dataset: below the plan threshold;
* a number another team reports ('the second-best submission', 'the runner-up') is a baseline,
  never the paper's headline;
* metric names: 'negative log-probabilities' are the NLL, 'RG-1' / 'RG-L' are ROUGE.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.context import PaperContext
from repro_assets.papers.claims.metrics import find_metric_mentions
from repro_assets.papers.claims.roles import role_of
from repro_assets.papers.claims.underspecified import underspecified
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render

CONFIDENT = 0.7


def claims_of(pages: list[Page]) -> list[Claim]:
    pdf = render(pages)
    return heuristic_claims(extract_pages(pdf, "real_families"), pdf)


def by_value(claims: list[Claim]) -> dict[str, Claim]:
    return {c.printed_value or "": c for c in claims}


# --- training-split columns -----------------------------------------------------------------


@pytest.mark.parametrize(("train", "test"), [("Train Acc", "Test Acc"),
                                             ("Training set", "Test set")])
def test_a_training_split_column_is_no_claim(train: str, test: str) -> None:
    table = Table("Table 2: Accuracy (%) on the Brackenfold dataset.",
                  [["Method", train, test]],
                  [["Sparse tagger [3]", "97.6", "81.2"], ["Ours", "93.4", "84.7"]],
                  [72.0, 260.0, 340.0], 560)
    body = prose("We propose a tagger and test it on the Brackenfold dataset.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    assert "97.6" not in claims and "93.4" not in claims
    assert claims["84.7"].dataset_name == "Brackenfold"
    assert claims["84.7"].split == "test"


# --- under-specified dataset names ----------------------------------------------------------


@pytest.mark.parametrize(("name", "names", "vague"), [
    ("DE", ["DE", "Harlow-9"], True),
    ("fr", [], True),
    ("Zeta", ["Zeta-10", "Zeta-100"], True),
    ("Quorn", ["Quorn'14", "Quorn'16", "Quorn"], True),
    ("Zeta", ["Zeta-10"], False),         # one version only: the name is that dataset's family
    ("Zeta-10", ["Zeta-10", "Zeta-100"], False),
    ("MR", ["MR"], False),                # two capitals that are no language code
])
def test_underspecified_names(name: str, names: list[str], vague: bool) -> None:
    assert (underspecified(name, names) is not None) is vague


@pytest.mark.parametrize(("header", "rows"), [
    (["Model", "DE", "FR"], [["Char LM [2]", "208", "187"], ["Ours", "193", "171"]]),
    (["Model", "CS", "RU"], [["Char LM [2]", "301", "276"], ["Ours", "288", "259"]]),
])
def test_a_language_code_column_is_no_confident_dataset(header: list[str],
                                                        rows: list[list[str]]) -> None:
    table = Table("Table 5: Test perplexity of the language models on the datasets.",
                  [header], rows, [72.0, 260.0, 330.0], 560)
    body = prose("We propose a language model with subword units.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    for value in (rows[1][1], rows[1][2]):
        claim = claims[value]
        assert claim.confidence < CONFIDENT
        assert claim.dataset_source == "name_underspecified"


@pytest.mark.parametrize("family", ["Zeta", "Morrow"])
def test_a_bare_family_name_in_a_sentence_is_no_confident_dataset(family: str) -> None:
    body = prose(f"We evaluate on the {family}-10 and {family}-100 datasets. We show results on "
                 f"{family}. Our deep network reaches a test error of 5.37% on {family}.", 72, 690)
    claims = by_value(claims_of([Page(lines=body)]))
    assert claims["5.37"].dataset_name == family
    assert claims["5.37"].confidence < CONFIDENT


# --- another team's number ------------------------------------------------------------------


def _context() -> PaperContext:
    return PaperContext(title="Deep nets", abstract="", own_names=["QNet"],
                        dataset_counts={}, dataset_names={})  # type: ignore[arg-type]


@pytest.mark.parametrize("subject", ["The second-best submission of the shared task",
                                     "The runner-up of the challenge",
                                     "Entries of other teams"])
def test_another_teams_result_is_a_baseline(subject: str) -> None:
    assert role_of(subject, "", _context()) == "baseline"


def test_our_own_entry_stays_unknown_or_own() -> None:
    assert role_of("Our best entry", "", _context()) == "own"


# --- metric names ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "metric"), [
    ("mean negative log-probabilities per frame", "nll"),
    ("the negative log-probability of the test notes", "nll"),
    ("RG-1 (R)", "rouge_1"),
    ("RG-L (F)", "rouge_l"),
])
def test_metric_names_of_real_papers(text: str, metric: str) -> None:
    assert find_metric_mentions(text)[0][0] == metric
