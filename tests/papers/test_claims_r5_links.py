"""Whole papers the claims reader lost on a real set opened after a blind session (issue #23):
tables read but not tied to their data.

The tests draw small PDFs with PyMuPDF, in two variants each, with invented names and numbers:

* a CamelCase word the title says the work is at ('... at QuizBank 2B') was taken for the
  paper's own method, and 'the test batches of X' did not present X: the table's cells had no
  dataset (they now take the name from the sentence citing the table, below the plan threshold);
* a corner header '<Name> Dataset' over a column of methods was taken for a column of
  datasets ('Test set'), 'acc.@K' was no metric, and once it is one the 'K' of its name is no
  value of a sentence.
"""

from __future__ import annotations

import pytest

from tests.papers.layouts import grid, prose_down
from tests.papers.test_claims_r3_families import CONFIDENT, claims_of_lines, confident

# --- the title's challenge and the test batches of a named dataset --------------------------


@pytest.mark.parametrize(("title", "reference"), [
    ("Neural Question Answering at QuizBank 2B",
     "We report the results on QuizBank 2 in Table 1."),
    ("Fast Readers at the MedQuery Challenge", "Table 1 gives the results on MedQuery."),
])
def test_a_camelcase_name_the_title_is_at_is_no_method(title: str, reference: str) -> None:
    name = "QuizBank" if "QuizBank" in title else "MedQuery"
    lines = [(72, 60, title)]
    lines += prose_down(f"This paper describes our submission to the {name} challenge. "
                        f"{reference}", 72, 80)
    lines += [(72, 120, "Table 1: MRR of the single and ensemble readers.")]
    lines += grid([72, 200, 300], 140, [["Reader", "MRR"], ["Single", "40.5%"],
                                        ["Ensemble", "42.5%"]])
    claims = claims_of_lines(lines, "title-challenge")
    found = [c for c in claims if c.printed_value == "42.5" and name in (c.dataset_name or "")]
    assert found and all(c.confidence < CONFIDENT for c in found), confident(claims)


@pytest.mark.parametrize("phrase", ["the five test batches of Orvex 3",
                                    "the held-out sets of Orvex 3"])
def test_the_test_batches_of_a_name_present_it(phrase: str) -> None:
    lines = [(72, 60, "A Neural Reader for Short Factoid Questions")]
    lines += prose_down(f"We report the results for {phrase} in Table 1.", 72, 80)
    lines += [(72, 120, "Table 1: MRR of the single and ensemble readers.")]
    lines += grid([72, 200, 300], 140, [["Reader", "MRR"], ["Single", "40.5%"],
                                        ["Ensemble", "42.5%"]])
    claims = claims_of_lines(lines, "split-of")
    found = [c for c in claims if c.printed_value == "42.5" and "Orvex" in (c.dataset_name or "")]
    assert found and all(c.confidence < CONFIDENT for c in found), confident(claims)


# --- a corner '<Name> Dataset' over methods, acc.@K -----------------------------------------


@pytest.mark.parametrize("blocks", [
    [("Boot Dataset", [["Edge votes", "17.40%", "67.80%"], ["Our model", "39.10%", "87.80%"]])],
    [("Chalet Dataset", [["Edge votes", "28.90%", "67.00%"], ["Our model", "69.10%", "97.90%"]]),
     ("Lamp Dataset", [["Edge votes", "21.30%", "61.20%"], ["Our model", "44.70%", "90.10%"]])],
])
def test_a_corner_naming_a_dataset_heads_a_block_of_methods(
        blocks: list[tuple[str, list[list[str]]]]) -> None:
    lines = [(72, 60, "Fine-Grained Sketch Retrieval of Household Goods")]
    lines += prose_down("We match sketches to photos of household goods and compare with the "
                        "edge votes baseline in Table 1.", 72, 80)
    lines += [(72, 110, "Table 1. Comparative results against baselines.")]
    top = 130.0
    for corner, rows in blocks:
        lines += grid([72, 220, 300], top, [[corner, "acc.@1", "acc.@10"], *rows])
        top += 13 * (len(rows) + 1) + 10
    claims = claims_of_lines(lines, "corner-dataset")
    for corner, rows in blocks:
        name = corner.split()[0]
        ours = rows[-1]
        assert any(c.printed_value == ours[1].rstrip("%") and c.dataset_name == name
                   and c.metric_name == "top1_accuracy" and c.confidence >= CONFIDENT
                   for c in claims), confident(claims)
        assert any(c.printed_value == ours[2].rstrip("%") and c.dataset_name == name
                   and c.metric_name == "top10_accuracy" for c in claims), confident(claims)
    assert not [c for c in claims if c.dataset_name in {"Edge votes", "Our model"}], (
        confident(claims))
    values = {c.printed_value for c in claims}
    assert "1" not in values and "10" not in values  # the cut-offs of 'acc.@1', 'acc.@10'
