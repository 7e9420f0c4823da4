"""Questions that ask for a number without a wh-word's usual cue (#26, Q4 precision).

A keyword fragment with a typed-off metric word ("acuracy"), a metric at a cut-off
("prec@1"), a parameter named by its symbol ("smoothing beta?") and "which is higher and by
how much" all ask for a number: they must be checked as a number (and abstain when no passage
states it), never answered with descriptive text. A question asking for a description stays
one. Every name, sentence and number here is made up by the test.
"""

from __future__ import annotations

import datetime as dt

import pytest

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.claim_answer import ClaimSource, claim_answer
from repro_assets.research.question_terms import question_terms
from tests.research.fake_claims import FakeClaim

TODAY = dt.date(2026, 6, 1)

PASSAGE = ("Table 2: Sorting results on PebbleSet. PebbLeNet with two sieve layers reaches "
           "an accuracy of 71.4 on PebbleSet. We set the smoothing beta = 0.35 throughout.")


@pytest.mark.parametrize("question", [
    "pebblenet two sieve layers, acuracy on pebbleset?",
    "hits@1 of PebbLeNet on PebbleSet?",
    "pebblenet smoothing beta?",
    "On PebbleSet, which is higher and by how much: PebbLeNet or ShellNet?",
])
def test_a_number_asked_without_the_usual_cue_is_a_number(question: str) -> None:
    assert question_terms(question, TODAY).kind == "value"


@pytest.mark.parametrize("question", [
    "describe the pebblenet smoothing schedule",
    "pebblenet sieve layers and how they are stacked?",
])
def test_a_description_asked_stays_a_description(question: str) -> None:
    assert question_terms(question, TODAY).kind == "none"


def _check(question: str, *windows: str) -> object:
    source = SourceText(key="corpus://pdf/a", title="Sorting pebbles by weight",
                        windows=windows, identity="Sorting pebbles by weight")
    return check_answer(question, [source], TODAY)


def test_a_typed_off_metric_is_read_as_the_metric_and_its_number_answered() -> None:
    check = _check("pebblenet two sieve layers, acuracy on pebbleset?", PASSAGE)
    assert check.answer is not None and check.answer.value == "71.4"


def test_a_typed_off_metric_no_passage_states_is_no_text_answer() -> None:
    # the look-alike: the passages describe the model but state no accuracy for it
    check = _check("pebblenet two sieve layers, acuracy on pebbleset?",
                   "PebbLeNet stacks two sieve layers; stacking more brings no gain on "
                   "PebbleSet, so deeper stacks are not tested.")
    assert check.answer is None
    assert check.terms.kind == "value"


def test_how_often_is_not_how_many_in_all() -> None:
    question = "For how many epochs in total was PebbLeNet trained?"
    check = _check(question, "PebbLeNet was trained with plain momentum, halving the step "
                   "size every 6 epochs.")
    assert check.answer is None  # the look-alike: only a period is stated
    check = _check(question, "PebbLeNet was trained for 42 epochs in total, halving the "
                   "step size every 6 epochs.")
    assert check.answer is not None and check.answer.value == "42"


def test_a_period_asked_is_answered_by_the_period() -> None:
    check = _check("Every how many epochs is the PebbLeNet step size halved?",
                   "PebbLeNet was trained with plain momentum, halving the step size every "
                   "6 epochs.")
    assert check.answer is not None and check.answer.value == "6"


def test_another_rank_cut_of_the_metric_is_not_the_asked_one() -> None:
    question = "What top-1 error did PebbLeNet get on PebbleSet?"
    only_top5 = ("Table 4: Error rates (%) of single sorters on PebbleSet.\nmethod\n"
                 "top-5 err. (test)\nRockTeam\n7.12\nPebbLeNet\n6.31")
    check = _check(question, only_top5)
    assert check.answer is None  # the look-alike: the table reports another cut only
    both = ("Table 4: Error rates (%) of single sorters on PebbleSet.\nmethod\n"
            "top-1 err.\ntop-5 err.\nRockTeam\n24.1\n7.12\nPebbLeNet\n22.3\n6.31")
    check = _check(question, both)
    assert check.answer is not None and check.answer.value == "22.3"



def test_a_claim_of_error_alone_is_not_the_asked_rank_cut() -> None:
    def answer(question: str, metric: str, quote: str) -> str | None:
        source = ClaimSource(key="corpus://pdf/a", title="Sorting pebbles", paper=frozenset(),
                             claims=((FakeClaim("Pebbleset", metric, "6.31", "PebbLeNet"),
                                      quote),))
        found = claim_answer(question_terms(question, TODAY), [source])
        return found.value if found else None

    question = "What top-1 error has PebbLeNet on Pebbleset?"
    # the look-alike: the claim records only "error"; the row's cut is not stated
    assert answer(question, "error_rate", "PebbLeNet [9] (PSC'14) - 6.31") is None
    assert answer(question, "top1_error", "PebbLeNet [9] (PSC'14) 6.31") == "6.31"
    assert answer("What error does PebbLeNet get on Pebbleset?", "error_rate",
                  "PebbLeNet [9] (PSC'14) - 6.31") == "6.31"
