"""Training settings and metrics stated in running text (issue #26, research pass 6).

Each family is one general reading rule, checked on passages the test invents (names,
numbers and wording are made up), each with an unanswerable look-alike:

* a sentence naming "X-11" (a variant) does not state a fact of "X";
* "what dropout rate" asks for a setting, not a metric: a results row (an F1) never answers;
* "Dropout with p = 0.2": the asked attribute's own symbol carries its value;
* a size setting takes any whole number (a size of 2048 for the batches);
* "64.0% exact match and 73.5% F1": the number labelled with another metric is not the asked;
* the name a paper gives its method in its introduction ("We develop X, ...") stands for the
  paper: its setting sentences answer for X.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer

TODAY = dt.date(2026, 6, 1)

VARIANT_PROSE = """5 Toy speech study
For this study, we compare a Pebblenet and a Krall-9 encoder, each made of two layers.
We train each model for 24 epochs with minibatches of 50 clips, using plain SGD."""

KRALL_SETUP = """3 Training
Training of the Krall networks used mini-batch descent with momentum of 0.85, and it was
stopped after 210K iterations (61 epochs)."""

TAGGER_RESULTS = """Table 2: Tagger results on the Vardic test set.
Model
F1
Bristle tagger
84.12
We set the dropout rate of the tagger to 0.4 and found higher rates hurt."""

TAGGER_RESULTS_NO_SETTING = """Table 2: Tagger results on the Vardic test set.
Model
F1
Bristle tagger
84.12"""

SYMBOL_PROSE = """4 Implementation
We use Adamax for optimization. Dropout with p = 0.2 is applied to word embeddings and all
the hidden units of the recurrent layers."""

SIZE_PROSE = """D.1 Settings
Batch is the number of windows per step. Each batch has size 2048 in our runs. We saw faster
training with larger batches."""

METRIC_PROSE = """1 Introduction
Our reader (single model) can achieve 64.0% exact match and 73.5% F1 on the Quibble
dataset, and it remains fast on long inputs."""

OPENING = ("We answer open questions from an encyclopedia. We develop Tessel, a system built "
           "of two modules.")


def _source(text: str, title: str, identity: str = "") -> SourceText:
    return SourceText(key="corpus://paper/st", title=title, windows=(text,), full_text=text,
                      identity=identity or title)


def _answer(question: str, source: SourceText) -> str | None:
    check = check_answer(question, [source], today=TODAY)
    return check.answer.value if check.answered and check.answer else None


def test_a_sentence_about_a_variant_does_not_answer_for_the_family() -> None:
    doc = _source(VARIANT_PROSE, "Blendup: Mixing Examples for Regularisation")
    assert _answer("After how many epochs was Krall training stopped?", doc) is None
    # the variant itself is named by the sentence before: "each model" includes it
    assert _answer("For how many epochs was Krall-9 trained?", doc) == "24"


def test_a_sentence_naming_the_family_itself_answers() -> None:
    doc = _source(KRALL_SETUP, "Very Deep Stacks for Image Labelling")
    assert _answer("What momentum was used when training the Krall networks?", doc) == "0.85"


def test_a_dropout_rate_question_is_not_answered_by_a_results_row() -> None:
    doc = _source(TAGGER_RESULTS_NO_SETTING, "Bristle: Neural Taggers")
    assert _answer("What dropout rate did the Bristle tagger use?", doc) is None


def test_a_dropout_rate_is_read_from_its_sentence() -> None:
    doc = _source(TAGGER_RESULTS, "Bristle: Neural Taggers")
    assert _answer("What dropout rate did the Bristle tagger use?", doc) == "0.4"


def test_the_attributes_own_symbol_carries_its_value() -> None:
    doc = _source(SYMBOL_PROSE, "Reading Ledgers to Answer Questions", identity=OPENING)
    assert _answer("What dropout probability does Tessel apply to word embeddings?",
                   doc) == "0.2"


def test_another_symbol_of_the_sentence_is_not_the_attribute() -> None:
    doc = _source(SYMBOL_PROSE, "Reading Ledgers to Answer Questions", identity=OPENING)
    assert _answer("What weight decay does Tessel use?", doc) is None


def test_a_size_setting_takes_a_large_whole_number() -> None:
    doc = _source(SIZE_PROSE, "Tessel: Basis Expansion for Forecasting")
    assert _answer("What batch size did Tessel use?", doc) == "2048"
    assert _answer("What learning rate did Tessel use?", doc) is None


def test_a_number_labelled_with_another_metric_is_not_the_asked() -> None:
    doc = _source(METRIC_PROSE, "Reading Ledgers to Answer Questions", identity=OPENING)
    assert _answer("How high is the exact-match score of Tessel on Quibble?", doc) == "64.0"
    assert _answer("Which exact-match score is reported for Tessel on Quibble?", doc) == "64.0"
    assert _answer("What F1 does Tessel get on Quibble?", doc) == "73.5"
    assert _answer("What BLEU does Tessel get on Quibble?", doc) is None


CONDITION_PROSE = """5 Results
Our reader (single model) can achieve 64.0% exact match on the Quibble dataset.
Given the correct ledger (but not the page) we can achieve 41.7 exact match, so many
errors come from pages on the same topic."""


def test_an_if_clause_needs_a_sentence_on_that_condition() -> None:
    doc = _source(CONDITION_PROSE, "Reading Ledgers to Answer Questions", identity=OPENING)
    assert _answer("If Tessel is given the correct ledger, what exact match does it get on "
                   "Quibble?", doc) == "41.7"
    # the usual setting's 64.0 does not answer for a condition no sentence states
    assert _answer("If Tessel is handed a shuffled ledger, what exact match does it get on "
                   "Quibble?", doc) is None


COUNT_PROSE = """4 Reader setup
We keep most of the pre-trained word vectors fixed and only fine-tune the 800 most frequent
question words. The puzzle set contains 12,377 such questions, split into two subsets."""


def test_a_count_is_of_the_last_noun_of_its_phrase() -> None:
    doc = _source(COUNT_PROSE, "Wovec: Global Vectors for Words")
    # "800 most frequent question words" counts words; the grouped "12,377" counts questions
    assert _answer("How many questions are in the puzzle set used by Wovec?", doc) == "12,377"
    assert _answer("How many question words does Wovec fine-tune?", doc) == "800"
    assert _answer("How many answers are in the puzzle set used by Wovec?", doc) is None


INTRO = """1 Introduction
We answer open questions from an encyclopedia. We develop Tessel, a system built of two
modules: a ledger finder and a reader."""

SETUP_CHUNK = """3.2 Implementation
We use Adamax for optimization. Dropout with p = 0.2 is applied to word embeddings and all
the hidden units of the recurrent layers."""


def test_a_setting_window_not_naming_the_papers_own_method_answers_for_it() -> None:
    # the window read holds only the setting; the method's name stands in the introduction
    doc = SourceText(key="corpus://paper/st", title="Reading Ledgers to Answer Questions",
                     windows=(SETUP_CHUNK,), full_text=INTRO + "\n" + SETUP_CHUNK,
                     identity="Reading Ledgers to Answer Questions")
    assert _answer("What dropout probability does Tessel apply to word embeddings?",
                   doc) == "0.2"
    assert _answer("What dropout probability does Quarrel apply to word embeddings?",
                   doc) is None
