"""The answer check ties the question's qualifiers to the evidence of the number (issue #26).

A size the question fixes ("with 30 layers"), the split it asks for (validation or test) must
be stated where the number stands: the sentence, or the table row with its header and caption.
Every document here is made up by the test: names, numbers and phrasings are invented.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.question_terms import question_terms

TODAY = dt.date(2026, 6, 1)

DEPTH_TABLE = """Table 2: Error rates (%) of Quillnet on the Wombat test set.
Depth
Params
Error
Quillnet
12
1.1M
7.4
Quillnet
24
2.3M
6.1
The deeper network is better on Wombat."""

SIZES_PROSE = """4 Results
Our 350 million parameter Kestrel model reaches 61.2% accuracy on the Lynx benchmark,
and the 1.5 billion parameter Kestrel model reaches 68.4% accuracy on Lynx."""

SPLITS_PROSE = """5 Evaluation
Quillnet reaches an F1 of 88.1 on the Wombat test set after ten epochs of training.
Tuning was done on held-back data that we do not report."""

DEV_PROSE = """5 Evaluation
On the Wombat development set Quillnet reaches an F1 of 90.3 with the tuned schedule."""


def _source(text: str, title: str = "Quillnet and Kestrel: invented networks") -> SourceText:
    return SourceText(key="corpus://paper/q", title=title, windows=(text,))


def test_question_numbers_and_splits_are_read_as_qualifiers() -> None:
    terms = question_terms("What accuracy does the 3 billion parameter Kestrel reach on Lynx?",
                           today=TODAY)
    assert terms.qualifiers == ("3",)
    named = question_terms("What F1 does Quillnet get on Wombat 2.0?", today=TODAY)
    assert named.qualifiers == ()  # a version inside a name is no qualifier
    assert question_terms("What dev-set F1 does Quillnet get?", today=TODAY).split == \
        "validation"
    assert question_terms("What test F1 does Quillnet get?", today=TODAY).split == "test"


def test_a_size_never_trained_gets_no_number_from_another_size() -> None:
    check = check_answer("What accuracy does the 3 billion parameter Kestrel model reach on "
                         "Lynx?", [_source(SIZES_PROSE)], today=TODAY)
    assert not check.answered


def test_a_size_that_is_stated_gets_its_own_number() -> None:
    check = check_answer("What accuracy does the 1.5 billion parameter Kestrel model reach on "
                         "Lynx?", [_source(SIZES_PROSE)], today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "68.4"


def test_a_depth_no_table_row_has_is_not_answered() -> None:
    check = check_answer("What error rate does Quillnet with 48 layers reach on Wombat?",
                         [_source(DEPTH_TABLE)], today=TODAY)
    assert not check.answered


def test_a_validation_question_is_not_answered_by_a_test_number() -> None:
    check = check_answer("What validation F1 does Quillnet reach on Wombat?",
                         [_source(SPLITS_PROSE)], today=TODAY)
    assert not check.answered


def test_a_test_question_is_not_answered_by_a_development_number() -> None:
    check = check_answer("What test-set F1 does Quillnet reach on Wombat?",
                         [_source(DEV_PROSE)], today=TODAY)
    assert not check.answered
    dev = check_answer("What development-set F1 does Quillnet reach on Wombat?",
                       [_source(DEV_PROSE)], today=TODAY)
    assert dev.answered and dev.answer is not None and dev.answer.value == "90.3"


NEAR_TOPIC = """2 Related work
Quillnet was first tested on the Wombat benchmark and on Lynx. Recently, Pelican further pushes
the top-1 accuracy on Lynx to 84.3% with a much larger network."""


def test_a_sentence_about_another_model_does_not_answer_for_the_asked_one() -> None:
    check = check_answer("What top-1 accuracy does Quillnet reach on Wombat?",
                         [_source(NEAR_TOPIC, "Pelican: a large invented network")],
                         today=TODAY)
    assert not check.answered


def test_a_number_given_to_another_name_is_not_the_answer() -> None:
    text = ("The Wombat score of Quillnet is normalized such that a naive baseline obtains "
            "RSK = 1.0 on every series.")
    check = check_answer("What Wombat score does Quillnet get?", [_source(text)], today=TODAY)
    assert not check.answered


def test_a_running_head_or_a_footnote_mark_is_no_table_row() -> None:
    text = ("QUILLNET\n2\nThe best score we know of from a model trained on raw input on "
            "Wombat.\n4\nA batch of inputs is drawn at random.")
    check = check_answer("What batch size was Quillnet trained with?", [_source(text)],
                         today=TODAY)
    assert not check.answered


def test_the_plain_row_of_the_asked_entity_beats_its_variant_row() -> None:
    table = """Table 2: Classification accuracy (%) of invented models.
Method
Wombat
Lynx
Quillnet (shuffled folds)
67.9
80.1
Quillnet
70.3
81.5"""
    check = check_answer("What accuracy does Quillnet reach on Lynx?", [_source(table)],
                         today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "81.5"


def test_a_cell_with_a_run_time_note_is_one_cell() -> None:
    table = """Table 2: Classification accuracy (%) of invented models (run time).
Method
Wombat
Lynx
Quillnet (shuffled folds)
67.9
80.1
Quillnet
70.3 (7s)
81.5 (4s)"""
    check = check_answer("What accuracy does Quillnet reach on Lynx?", [_source(table)],
                         today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "81.5" and check.answer.column == "Lynx"
