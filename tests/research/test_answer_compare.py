"""Comparison questions (issue #26): split into two sub-asks, each checked in full.

Every document here is made up by the test: names, numbers and phrasings are invented.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText, answer_check_dict
from repro_assets.research.answering import check_answer, comparison_sides
from repro_assets.research.question_terms import question_terms

TODAY = dt.date(2026, 6, 1)

FIRST = """5 Results
Table 2: Top-1 accuracy (%) on the Quokka test set.
Model
Top-1
Flarenet-24
81.35
Baseline
77.0
Flarenet-24 is the best model in this table."""

SECOND = """4 Experiments
On the Quokka test set, Brindlenet reaches a top-1 accuracy of 78.20% with a single crop,
the best result we obtained with this architecture."""

SECOND_OTHER_METRIC = """4 Experiments
On the Quokka test set, Brindlenet reaches a perplexity of 78.20 with a single crop,
the best result we obtained with this architecture."""

QUESTION = ("How much higher is the top-1 accuracy of Flarenet-24 than of Brindlenet on the "
            "Quokka test set?")


def _sources(*texts: tuple[str, str, str]) -> list[SourceText]:
    return [SourceText(key=key, title=title, windows=(text,)) for key, title, text in texts]


def test_a_comparison_is_split_into_its_two_named_sides() -> None:
    terms = question_terms(QUESTION, TODAY)
    sides = comparison_sides(QUESTION, terms)
    assert sides is not None
    names = [{a.text for a in side.anchors} for side in sides]
    assert "Flarenet-24" in names[0] and "Brindlenet" not in names[0]
    assert "Brindlenet" in names[1] and "Flarenet-24" not in names[1]
    assert "Quokka" in names[0] and "Quokka" in names[1]


def test_both_sides_stated_give_the_difference_with_both_sources() -> None:
    check = check_answer(QUESTION, _sources(
        ("corpus://paper/a", "Flarenet: deep stacks", FIRST),
        ("corpus://paper/b", "Brindlenet: wide stacks", SECOND)), today=TODAY)
    assert check.answered, check.reason
    assert check.answer is not None
    assert check.answer.value == "3.15"  # 81.35 - 78.20 at two places
    assert [p.value.rstrip("%") for p in check.answer.parts] == ["81.35", "78.20"]
    assert [p.source for p in check.answer.parts] == ["corpus://paper/a", "corpus://paper/b"]
    stored = answer_check_dict(check)["answer"]
    assert {p["source"] for p in stored["parts"]} == {"corpus://paper/a", "corpus://paper/b"}


def test_one_side_missing_abstains() -> None:
    check = check_answer(QUESTION, _sources(
        ("corpus://paper/a", "Flarenet: deep stacks", FIRST)), today=TODAY)
    assert not check.answered
    assert "Brindlenet" in check.reason


def test_numbers_of_different_metrics_abstain() -> None:
    check = check_answer(QUESTION, _sources(
        ("corpus://paper/a", "Flarenet: deep stacks", FIRST),
        ("corpus://paper/b", "Brindlenet: wide stacks", SECOND_OTHER_METRIC)), today=TODAY)
    assert not check.answered


def test_a_number_of_another_metric_is_not_a_side_even_without_a_metric_name() -> None:
    question = ("How much higher is the accuracy of Flarenet-24 than of Brindlenet on the "
                "Quokka test set?")
    both = check_answer(question, _sources(
        ("corpus://paper/a", "Flarenet: deep stacks", FIRST),
        ("corpus://paper/b", "Brindlenet: wide stacks", SECOND)), today=TODAY)
    assert both.answered, both.reason
    other = check_answer(question, _sources(
        ("corpus://paper/a", "Flarenet: deep stacks", FIRST),
        ("corpus://paper/b", "Brindlenet: wide stacks", SECOND_OTHER_METRIC)), today=TODAY)
    assert not other.answered
