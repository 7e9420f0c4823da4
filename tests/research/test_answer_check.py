"""The answer check (issue #26): a source must *state* the asked fact, in the question's terms.

Every document here is made up by the test: names, numbers and phrasings are invented.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.folds import in_fold, parse_fold
from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.evaluation import (
    SystemAnswer,
    contains_accepted,
    score_case,
    select_cases,
)
from repro_assets.research.question_terms import question_terms
from repro_assets.research.stated_numbers import number_in_quotes, numbers_stated

TODAY = dt.date(2026, 6, 1)

TABLE = """4.2
Results
Table 3: Error rates (%) on the Quokka and Wombat test sets, with short / long decoding.
Model
Quokka
Wombat
Flarenet-12
11.5 / 10.9
9.8 / 9.1
Flarenet-24
10.2 / 9.7
8.1 / 7.6
Our experiments show that depth helps on both sets."""

PROSE = """3 Training details
We train every model with Adam for 40 epochs on four accelerators. The dropout keep rate was
set to 0.7 on Gamma and to 0.9 on Delta, chosen on the validation split. Training Flarenet-24
takes about 3.5 days on this hardware, which is 2.1x slower than Flarenet-12.
"""

FORECAST = """Deep recurrent networks forecast seasonal river fish counts from water temperature
and flow records. An LSTM reached a mean absolute error of 12.4 on the 2015 hold-out season,
better than the persistence baseline. Such forecasts inform harvest decisions each spring."""


def _source(text: str, title: str = "Flarenet: deep stacks for rare tasks") -> SourceText:
    return SourceText(key="corpus://paper/abc", title=title, windows=(text,))


def test_a_future_year_is_a_forecast_no_source_can_state() -> None:
    check = check_answer("Which deep learning architecture best predicts river fish counts in "
                         "2031?", [_source(FORECAST, "Forecasting fish")], today=TODAY)
    assert not check.answered
    assert check.terms.future_years == (2031,)
    assert "future" in check.reason


def test_a_table_row_gives_the_column_the_question_names() -> None:
    check = check_answer("What long-decoding error rate does Flarenet-24 get on Wombat?",
                         [_source(TABLE)], today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "7.6"  # Wombat column, the "long" side of "short / long"
    assert check.answer.column == "Wombat"
    assert "Flarenet-24" in check.answer.quote


def test_a_variant_no_source_names_gets_no_number() -> None:
    check = check_answer("What error rate does Flarenet-48 get on Wombat?",
                         [_source(TABLE)], today=TODAY)
    assert not check.answered
    assert "Flarenet-48" in check.missing_anchors or "names" in check.reason


def test_a_sentence_gives_the_number_next_to_the_asked_entity() -> None:
    check = check_answer("What dropout keep rate was used on Delta?", [_source(PROSE)],
                         today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "0.9"


def test_the_asked_kind_of_number_is_chosen() -> None:
    slower = check_answer("How many times slower than Flarenet-12 is Flarenet-24 to train?",
                          [_source(PROSE)], today=TODAY)
    assert slower.answered and slower.answer is not None and slower.answer.value == "2.1"
    took = check_answer("How long does training Flarenet-24 take?", [_source(PROSE)],
                        today=TODAY)
    assert took.answered and took.answer is not None and took.answer.value == "3.5"


def test_a_metric_the_sentence_does_not_name_is_not_answered() -> None:
    text = "Flarenet-24 reaches 31.2 on the Wombat benchmark after fine-tuning on it."
    check = check_answer("What BLEU score does Flarenet-24 get on Wombat?", [_source(text)],
                         today=TODAY)
    assert not check.answered


def test_question_terms_read_names_years_and_versions() -> None:
    terms = question_terms("What F1 does the Zeta Reader get on QuokkaQA 2.0 at the Lynx Cup "
                           "2019?", today=TODAY)
    keys = {a.key for a in terms.anchors}
    assert {"f1", "zetareader", "quokkaqa20", "lynxcup2019"} <= keys
    cup = next(a for a in terms.anchors if a.key == "lynxcup2019")
    assert "lynx19" in cup.variants
    assert terms.kind == "value" and not terms.future_years


def test_number_in_quotes_matches_by_value_not_by_digits() -> None:
    assert number_in_quotes("85.3", ["reached 85.30% on the set"])
    assert not number_in_quotes("30", ["a batch of 300 samples"])
    assert numbers_stated("Answer: 12.5 [3] on the 2019 split") == ["12.5"]


def test_eval_scoring_needs_an_accepted_value_and_a_listed_source() -> None:
    case = {"name": "c1", "answerable": True, "answer": {"accept": [85.3]},
            "sources": ["a.pdf"]}
    right = SystemAnswer(answered=True, text="85.30 on test", cited_files=["a.pdf"])
    wrong_source = SystemAnswer(answered=True, text="85.3", cited_files=["b.pdf"])
    assert score_case(case, right) == "answered_right"
    assert score_case(case, wrong_source) == "answered_wrong"
    assert score_case(case, SystemAnswer(False, "", [])) == "abstained_wrong"
    unanswerable = {"name": "u1", "answerable": False, "answer": {"accept": []}, "sources": []}
    assert score_case(unanswerable, right) == "answered_wrong"
    assert score_case(unanswerable, SystemAnswer(False, "", [])) == "abstained_right"
    assert not contains_accepted("300 samples", [30]) and contains_accepted("x 30 y", [30])


def test_folds_split_cases_by_name_hash() -> None:
    cases = [{"name": f"case-{i}"} for i in range(30)]
    fold = parse_fold("0/3")
    inside = select_cases(cases, fold, None)
    outside = select_cases(cases, None, fold)
    assert len(inside) + len(outside) == 30 and inside and outside
    assert all(in_fold(c["name"], fold) for c in inside)
    assert not any(in_fold(c["name"], fold) for c in outside)


GROUPED = """Table 4: Accuracy on four review sets.
Methods
Heron
Egret
Stork
Ibis
Okafor et al., 2016
Bagnet
-
61.0
62.5
-
Our models
Bagnet-attn
70.1
71.3
72.0
68.4"""


def test_group_labels_between_rows_do_not_shift_the_columns() -> None:
    check = check_answer("How accurate is Bagnet-attn on Stork?", [_source(GROUPED)],
                         today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "72.0" and check.answer.column == "Stork"


def test_a_neighbour_sentence_names_the_entity_and_headings_give_no_number() -> None:
    text = ("3 Experiments\nThe data come from the Lynx tracking challenge held every winter. "
            "The training data is a set of 45 annotated clips from trail cameras.\n"
            "4 Results\nFlarenet tracks well.")
    check = check_answer("How many training clips does the Lynx challenge data contain?",
                         [_source(text)], today=TODAY)
    assert check.answered and check.answer is not None and check.answer.value == "45"


def test_a_question_for_a_name_is_not_answered_from_near_topic_text() -> None:
    check = check_answer("Which optimizer did Flarenet-24 use for pre-training?",
                         [_source(PROSE)], today=TODAY)
    assert check.terms.kind == "entity" and not check.answered
