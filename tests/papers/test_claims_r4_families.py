"""Confident wrong claims of a second real set opened for precision (issue #23).

Each family is a structural reason a cell was read under the wrong dataset or metric at a
confidence the planner trusts (>= 0.7); the tests draw small PDFs with PyMuPDF, in two variants
each, with invented names and numbers:

* a table whose caption says its columns are kinds of a model ('four types of RNQs') and
  whose headers print that model's name was read with a column header as the dataset, while
  the rows name the data;
* headers numbering a series of settings ('r0 | r1 | R2') were read as a metric when one member
  spells one ('R2', the coefficient of determination; 'F1');
* a dataset label wrapped over two lines beside its block of rows ('ZORBA' over 'LONG') gave
  the rows near the second line its last word alone as their dataset, at 0.9.
"""

from __future__ import annotations

import pytest

from tests.papers.layouts import grid, prose_down
from tests.papers.test_claims_r3_families import CONFIDENT, claims_of_lines, confident

# --- columns the caption calls kinds of a model ---------------------------------------------


@pytest.mark.parametrize(("caption", "heads"), [
    ("Table 2: Four types of RNQs compared for chorale prediction, mean negative "
     "log-likelihood per step (lower is better). Wide-RNQ was trained with dropout.",
     ["RNQ", "Deep-RNQ", "Wide-RNQ", "sRNQ"]),
    ("Table 2: Three variants of Zelnet for melody modelling tasks; mean negative "
     "log-likelihood per step.", ["Zelnet", "Zelnet-D", "qZelnet", "Base"]),
])
def test_columns_the_caption_calls_kinds_of_a_model_are_no_datasets(
        caption: str, heads: list[str]) -> None:
    lines = [(72, 60, "Deeper Recurrent Units for Chorales")]
    lines += prose_down("We model the Velmora chorales and the Quist songs with deeper units. "
                    "Table 2 lists the results of the models.", 72, 90)
    lines += grid([72, 180, 240, 300, 360], 140, [["", *heads],
                                                   ["Velmora", "3.21", "3.19", "3.17", "3.25"],
                                                   ["Quist songs", "8.31", "8.27", "8.22",
                                                    "8.36"]])
    lines += prose_down(caption, 72, 190)
    claims = claims_of_lines(lines, "kinds-columns")
    wrong = [c for c in claims if c.dataset_name and any(
        h.lower() in c.dataset_name.lower() for h in heads[:3]) and c.confidence >= CONFIDENT]
    assert not wrong, confident(claims)


# --- headers numbering a series of settings -------------------------------------------------


@pytest.mark.parametrize("heads", [["r0", "r1", "R2"], ["F0", "F1", "F2"]])
def test_headers_numbering_a_series_name_no_metric(heads: list[str]) -> None:
    lines = [(72, 60, "Retrieval Steps for Reading Questions")]
    lines += prose_down("We answer questions over the Quopra dataset. The retrieval step is run "
                    "at three depths, see Table 5.", 72, 90)
    lines += [(72, 140, "Table 5: Accuracy on the Quopra dataset for three retrieval "
                        "depths.")]
    lines += grid([72, 220, 280, 340], 160, [["Model", *heads],
                                              ["Plain reader", "71.2", "74.0", "75.3"],
                                              ["Vocab reader", "79.4", "83.4", "85.1"]])
    claims = claims_of_lines(lines, "series-codes")
    wrong = [c for c in claims if c.printed_value in {"75.3", "85.1", "74.0", "83.4"}
             and c.metric_name in {"r2", "f1"} and c.confidence >= CONFIDENT]
    assert not wrong, confident(claims)
    assert any(c.printed_value == "85.1" and c.metric_name == "accuracy" for c in claims), (
        confident(claims))


# --- a dataset label wrapped over two lines beside its block --------------------------------


@pytest.mark.parametrize(("words", "sentence"), [
    (("ZORBA", "LONG"), "We evaluate on the Zorba Long benchmark, the long half of Zorba, "
                        "and on Mirelle Short."),
    (("KELP", "NOTES"), "We evaluate on the Kelp Notes dataset and on Mirelle Short, two "
                        "collections of questions."),
])
def test_a_dataset_label_wrapped_over_two_lines_is_one_name(
        words: tuple[str, str], sentence: str) -> None:
    lines = [(72, 60, "Coarse Readers for Long Questions")]
    lines += prose_down(sentence + " Table 3 gives the answer accuracy of each reader.", 72, 90)
    lines += [(72, 140, "Table 3: Answer accuracy on the test split.")]
    lines += grid([72, 160, 300], 160, [["Dataset", "Reader", "Accuracy"],
                                         ["", "FIRST", "26.7"],
                                         [words[0], "PIPELINE", "36.8"],
                                         [words[1], "SOFTREAD", "38.3"],
                                         ["", "HARDREAD (K=2)", "42.2"]])
    claims = claims_of_lines(lines, "wrapped-label")
    wrong = [c for c in claims if c.dataset_name and c.dataset_name.upper() == words[1]
             and c.confidence >= CONFIDENT]
    assert not wrong, confident(claims)
    joined = f"{words[0]} {words[1]}".lower()
    assert any(c.printed_value == "42.2" and (c.dataset_name or "").lower() == joined
               for c in claims), confident(claims)
