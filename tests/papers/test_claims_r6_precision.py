"""A confident claim the claims reader got wrong on a real set opened after a blind session
(issue #23, precision): a dataset named after a sibling value.

In 'N1 error for A, and N2 for B' the reader took B, named after the second number, for the
first number's dataset when it did not know A as a dataset (an acronym the paper presents in a
wrapped list with a citation): the claim 'B: N1' stood at 0.85. A name printed after the
number belongs to it only when no sibling value (a number printed alike, set apart by words
with a name) stands between them; a pair, a setting or a difference between them keeps the
name. The tests draw one-page PDFs with PyMuPDF, in two variants, with invented names and
numbers.
"""

from __future__ import annotations

import pytest

from tests.papers.layouts import prose_down
from tests.papers.test_claims_r3_families import CONFIDENT, claims_of_lines, confident


@pytest.mark.parametrize(("first", "second", "values"), [
    ("QRVX", "Lumen-Glyphs", ("0.87", "4.21")),
    ("TDKZ", "Pavo-Marks", ("1.46", "6.03")),
])
def test_a_name_after_a_sibling_value_is_not_the_first_values(
        first: str, second: str, values: tuple[str, str]) -> None:
    lines = [(72, 60, "Flat Minima Training for Small Image Classifiers")]
    lines += prose_down(
        f"Apart from the two standard sets, we have also run the trainer on the {first} "
        f"(Orland et al., 2013) and {second} datasets (Bek et al., 2019). Once more, the trainer "
        f"lets a plain ConvNet reach accuracy on par with the best prior work on these "
        f"sets: {values[0]}% error for {first}, and {values[1]}% for {second}. The settings "
        f"are given in the appendix.", 72, 90)
    claims = claims_of_lines(lines, "sibling-value")
    wrong = [c for c in claims if c.printed_value == values[0] and c.dataset_name == second
             and c.confidence >= CONFIDENT]
    assert not wrong, confident(claims)


@pytest.mark.parametrize(("sentence", "dataset", "value"), [
    ("Our model reaches top-1/top-5 errors of 19.2%/4.1% on Norvale-1k.", "Norvale-1k", "19.2"),
    ("With the new loss, the tagger reaches an error rate of 2.35% on Kestrel-POS, and "
     "3.10% on Wren-NER.", "Kestrel-POS", "2.35"),
    ("The deep tagger had a 4.62% error on held-out notes and beat the shallow taggers by 2.8% "
     "(a relative figure, as all recent systems are close) on Wren-NER.", "Wren-NER", "4.62"),
    ("The wide and the deep taggers had 5.90% and 4.62% error on held-out notes and beat the "
     "plain, the tuned and the large taggers by 8.1%, 2.4% and 1.3%, respectively on Wren-NER.",
     "Wren-NER", "4.62"),
    ("With longer training the detector reaches 71.3% mAP for 256x256 input and 74.0% mAP for "
     "448x448 input on Norvale-1k.", "Norvale-1k", "71.3"),
])
def test_a_name_right_after_its_value_or_pair_is_kept(
        sentence: str, dataset: str, value: str) -> None:
    lines = [(72, 60, "Notes on Tagging and Recognition")]
    lines += prose_down("We use three public datasets: the Norvale-1k dataset, the Kestrel-POS "
                        f"dataset and the Wren-NER dataset. {sentence}", 72, 90)
    claims = claims_of_lines(lines, "kept-name")
    assert [c for c in claims if c.printed_value == value and c.dataset_name == dataset
            and c.confidence >= CONFIDENT], confident(claims)
