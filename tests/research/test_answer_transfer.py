"""Answer-check paths that must hold for questions phrased in a new user's words (issue #26).

Each family is one general reading rule, checked on documents the test invents (names,
numbers and wording are made up), each with an unanswerable look-alike that must never get
a number: another metric, another split, a difference instead of a value.

* "single-view testing" names an evaluation protocol, not the test split;
* a question without a question word that names a metric ("Corvex-90 top-1 error?") asks
  for a number;
* "which <quantity> ..." ("which dropout proportion") asks for a number, not a name;
* a metric abbreviation (``MOS``) is stated by its words ("mean opinion scores");
* a table whose caption names no metric takes the metric of the text just around it;
* a number that a sentence gives as a gap or improvement is not the asked value.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.question_terms import question_terms

TODAY = dt.date(2026, 6, 1)

PROTOCOL_TABLE = """Table 4: The top-1 and top-5 error rates on the Plinthos validation set, with
single-view / 5-view testing.
Model
top-1
top-5
Corvex-50
27.31 / 25.90
8.84 / 7.95
Corvex-90
24.06 / 22.71
7.12 / 6.40
Deeper Corvex models reach lower error at every view count."""

SPOKEN_TABLE = """Table 2: Subjective 5-point mean opinion scores of synthesized utterances in
Basque and Welsh, with 95% confidence intervals.
Utterances
Basque
Welsh
Formant baseline
3.12 \u00b1 0.090
3.30 \u00b1 0.081
Tinkerwave
4.02 \u00b1 0.071
3.94 \u00b1 0.077
Recorded speech
4.51 \u00b1 0.060
4.47 \u00b1 0.062"""

NOISY_TABLE = """We next report the word error rate of both systems on recordings made in loud
cafeterias. Lower is better throughout.
Noisy audio
Condition
Sonar-1
Sonar-2
Listener
Quarry eval quiet
7.20
4.15
3.90
Quarry eval loud
58.31
19.44
12.07
Table 6: Sonar-1 against Sonar-2 on noisy audio. The quiet condition is a clean baseline.
Both systems were trained on the same hours of speech."""

GAP_PROSE = """4 Listening study
The gap in BLEU between Tinkerwave and the human reference shrank from 3.4 to 1.2 on the
Ostrander benchmark once the longer context was used. Listeners preferred the longer
context in most pairs."""

VALUE_PROSE = """4 Results
Tinkerwave reaches 31.6 BLEU on the Ostrander benchmark, an improvement of 1.4 over the
strongest earlier system. The gain holds on every sentence length we tried."""

MASK_PROSE = """3 Setup
We tune the dropout proportion on held-out users, which gives a proportion of 0.35 for
Fennick and 0.15 for Marlow. Every other setting follows the base recipe."""


def _source(text: str, title: str) -> SourceText:
    return SourceText(key="corpus://paper/tr", title=title, windows=(text,), full_text=text)


CORVEX = "Corvex: Residual Stacks for Image Labelling"
WAVE = "Tinkerwave: A Generative Model for Raw Audio"
SONAR = "Sonar-2: Speech Recognition at Scale"
FENNICK = "Maskrec: Masked Sequences for Recommendation"


def _answer(question: str, text: str, title: str) -> str | None:
    check = check_answer(question, [_source(text, title)], today=TODAY)
    return check.answer.value if check.answered and check.answer else None


# -- "testing" is a protocol, not a split --------------------------------------------------------

def test_single_view_testing_is_a_protocol_not_the_test_split() -> None:
    question = "What is the top-1 error of Corvex-90 on Plinthos with single-view testing?"
    assert question_terms(question, TODAY).split is None
    assert _answer(question, PROTOCOL_TABLE, CORVEX) == "24.06"


def test_the_test_split_is_not_answered_by_a_validation_table() -> None:
    question = "Which top-1 error is reported for Corvex-90 on the Plinthos test set?"
    assert question_terms(question, TODAY).split == "test"
    assert _answer(question, PROTOCOL_TABLE, CORVEX) is None


# -- a fragment naming a metric asks for a number ---------------------------------------------

def test_a_fragment_naming_a_metric_asks_for_its_value() -> None:
    question = "Corvex-90 Plinthos top-1 error, single-view?"
    assert question_terms(question, TODAY).kind == "value"
    assert _answer(question, PROTOCOL_TABLE, CORVEX) == "24.06"


def test_a_fragment_for_a_dataset_the_table_lacks_gets_no_number() -> None:
    question = "Corvex-90 Brackwater top-1 error, single-view?"
    assert question_terms(question, TODAY).kind == "value"
    assert _answer(question, PROTOCOL_TABLE, CORVEX) is None


# -- "which <quantity>" asks for a number -------------------------------------------------------

def test_which_proportion_asks_for_a_number() -> None:
    question = "Which dropout proportion was chosen for Marlow in Maskrec?"
    assert question_terms(question, TODAY).kind == "value"
    assert _answer(question, MASK_PROSE, FENNICK) == "0.15"


def test_which_name_questions_stay_name_questions() -> None:
    assert question_terms("Which dataset has the largest number of users?", TODAY).kind \
        == "entity"
    assert question_terms("Which optimizer did Maskrec use?", TODAY).kind == "entity"


def test_which_proportion_for_an_unlisted_dataset_gets_no_number() -> None:
    question = "Which dropout proportion was chosen for Pellham in Maskrec?"
    assert _answer(question, MASK_PROSE, FENNICK) is None


# -- a metric abbreviation is stated by its words -----------------------------------------------

def test_an_abbreviated_metric_matches_its_spelled_out_caption() -> None:
    assert _answer("What MOS does Tinkerwave get for Basque?", SPOKEN_TABLE, WAVE) == "4.02"


def test_another_abbreviated_metric_is_not_the_spelled_out_one() -> None:
    assert _answer("What WER does Tinkerwave get for Basque?", SPOKEN_TABLE, WAVE) is None


# -- a table naming no metric takes the metric of the text around it ----------------------------

def test_a_table_without_a_metric_takes_the_sentence_before_it() -> None:
    assert _answer("What is Sonar-2's WER on Quarry eval loud?", NOISY_TABLE, SONAR) == "19.44"
    assert _answer("On Quarry eval loud, what is the word error rate of Sonar-2?", NOISY_TABLE,
                   SONAR) == "19.44"


def test_a_metric_the_tables_surroundings_do_not_name_gets_no_number() -> None:
    assert _answer("On Quarry eval loud, what is the character error rate of Sonar-2?",
                   NOISY_TABLE, SONAR) is None
    assert _answer("What BLEU does Sonar-2 have on Quarry eval loud?", NOISY_TABLE,
                   SONAR) is None


# -- a gap is not a value ---------------------------------------------------------------------

def test_a_gap_is_not_the_asked_value() -> None:
    assert _answer("What BLEU does Tinkerwave reach on Ostrander?", GAP_PROSE, WAVE) is None


def test_a_value_followed_by_its_improvement_is_the_value() -> None:
    assert _answer("What BLEU does Tinkerwave reach on Ostrander?", VALUE_PROSE,
                   WAVE) == "31.6"
