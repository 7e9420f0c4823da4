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


# -- a row ruled out by the question, and abbreviated row labels --------------------------------

SYNTH_TABLE = """We report the word error rate of both systems on two kinds of noisy audio.
Noisy audio
Condition
Sonar-1
Sonar-2
Quarry eval syn
44.02
21.90
Quarry eval rec
61.75
30.12
Table 7: Sonar-1 against Sonar-2 on added and recorded noise."""


def test_an_abbreviated_row_label_is_the_asked_row() -> None:
    assert _answer("On the synthetic Quarry evaluation set, how high is Sonar-2's word error"
                   " rate?", SYNTH_TABLE, SONAR) == "21.90"


def test_a_row_the_question_rules_out_is_not_read() -> None:
    question = "Which word error rate is reported for Sonar-2 on loud (not quiet) Quarry audio?"
    assert question_terms(question, TODAY).negated == ("quiet",)
    assert _answer(question, NOISY_TABLE, SONAR) == "19.44"


def test_ruling_out_every_row_leaves_no_answer() -> None:
    question = "Which word error rate is reported for Sonar-2 on Quarry eval (not loud, not quiet)?"
    assert _answer(question, NOISY_TABLE, SONAR) is None


# -- a short name written with a symbol ("A+B") -------------------------------------------------

VARIANT_TABLE = """Table 3: Subjective 5-point mean opinion scores in Basque and Welsh.
Utterances
Basque
Welsh
Tinkerwave (P)
3.71 \u00b1 0.080
3.66 \u00b1 0.079
Tinkerwave (P+Q)
4.02 \u00b1 0.071
3.94 \u00b1 0.077"""


def test_a_symbol_joined_short_name_is_found_in_its_row() -> None:
    assert _answer("What MOS does Tinkerwave (P+Q) receive in Welsh?", VARIANT_TABLE,
                   WAVE) == "3.94"


def test_a_symbol_joined_name_no_row_has_gets_no_number() -> None:
    assert _answer("What MOS does Tinkerwave (P+R) receive in Welsh?", VARIANT_TABLE,
                   WAVE) is None


# -- which column: the header sharing most of the question's words ------------------------------

RANKING_TABLE = """Table 1. Ranking on the Ferrule membrane challenge, sorted by warping error.
Rank
Group name
Warping Error
Rand Error
Pixel Error
1.
Gristnet
0.000421
0.0415
0.0702
2.
Lattice team
0.000466
0.0503
0.0651"""

GRIST = "Gristnet: Contracting Paths for Membrane Segmentation"


def test_the_header_sharing_most_question_words_is_the_asked_column() -> None:
    assert _answer("What rand error does Gristnet reach on the Ferrule membrane challenge?",
                   RANKING_TABLE, GRIST) == "0.0415"


def test_a_column_no_header_names_gets_no_number() -> None:
    assert _answer("What border error does Gristnet reach on the Ferrule membrane challenge?",
                   RANKING_TABLE, GRIST) is None


# -- a label column's header is not a value column ----------------------------------------------

def test_more_cells_than_value_headers_is_no_aligned_row() -> None:
    table = """Table 5: Tagging F1 on the Osprey test set.
Model
F1
Quillnet
83.10
79.42"""
    assert _answer("What F1 does Quillnet reach on Osprey?", table,
                   "Quillnet: Span Taggers") is None


# -- quantity words ------------------------------------------------------------------------------

def test_an_average_length_question_asks_for_a_number() -> None:
    assert question_terms("What is the average session length of the Fennick dataset?",
                          TODAY).kind == "value"
    assert question_terms("What is the main idea of Maskrec?", TODAY).kind == "none"


def test_what_is_the_attribute_of_needs_a_sentence_naming_the_attribute() -> None:
    prose = """5 Analysis
We inspect the average attention weights of the last 12 positions on Fennick in Figure 3.
The sessions of Fennick hold 7.4 items on average, far fewer than those of Marlow."""
    assert question_terms("What is the average session length of Fennick in Maskrec?",
                          TODAY).head == ("average", "session", "length")
    assert _answer("What is the average session length of Fennick in Maskrec?", prose,
                   FENNICK) is None


# -- a caption word broken at a line end ---------------------------------------------------------

BROKEN_CAPTION_TABLE = """Table 4: Top-1 and top-5 error on Plinthos validation, single-view / 5-
view testing.
Model
top-1
top-5
Corvex-90
24.06 / 22.71
7.12 / 6.40"""


def test_a_caption_word_broken_at_the_line_end_picks_its_side_of_the_cell() -> None:
    assert _answer("What is the 5-view top-1 error of Corvex-90 on Plinthos?",
                   BROKEN_CAPTION_TABLE, CORVEX) == "22.71"
    assert _answer("What is the single-view top-1 error of Corvex-90 on Plinthos?",
                   BROKEN_CAPTION_TABLE, CORVEX) == "24.06"


def test_a_view_count_the_caption_does_not_name_gets_no_number() -> None:
    assert _answer("What is the 12-view top-1 error of Corvex-90 on Plinthos?",
                   BROKEN_CAPTION_TABLE, CORVEX) is None


# -- hyperparameter questions: the number must be of the asked attribute ------------------------

RESULTS_AND_SETUP = """Table 6: Retrieval accuracy on the Halyard benchmark.
Method
Accuracy
Corvex-50, image-only
81.4
Corvex-90, image-only
83.7
4 Training
In our experiments on Halyard, we use a Corvex structure with 5 residual stages on 160x160
crops. Corvex networks train for 75 epochs; their batch size is 128."""

CITED_ROW = """Table 2: Tagging F1 on the Osprey test set.
Model
F1
Brightwater et al. (2011)
76.40
Quillnet
83.10"""


def test_a_results_row_is_no_hyperparameter() -> None:
    assert _answer("Which batch size did the Corvex networks train with?",
                   RESULTS_AND_SETUP, CORVEX) == "128"


def test_a_results_row_alone_gives_no_hyperparameter() -> None:
    table_only = RESULTS_AND_SETUP.split("4 Training")[0]
    assert _answer("Which batch size did Corvex-90 train with?", table_only, CORVEX) is None


def test_a_cited_authors_result_row_is_no_clipping_value() -> None:
    assert _answer("What gradient clipping value did Brightwater et al. use?", CITED_ROW,
                   "Quillnet: Span Taggers") is None


def test_how_many_counts_the_asked_noun() -> None:
    assert _answer("For how many epochs were Corvex networks trained on Halyard?",
                   RESULTS_AND_SETUP, CORVEX) == "75"


def test_how_many_of_something_not_stated_gets_no_number() -> None:
    assert _answer("For how many warmup steps were Corvex networks trained on Halyard?",
                   RESULTS_AND_SETUP, CORVEX) is None


# -- a section heading's number is no table cell -------------------------------------------------

def test_a_section_number_under_a_footnote_is_not_a_row_value() -> None:
    text = """We keep every token as written in the Osprey corpus.
2Osprey (D=0.4), Heron and Wagtail (D=0.2)
6.1
Results
Table 2 compares the taggers on each corpus."""
    assert _answer("Which dropout value was used on Heron in Quillnet?", text,
                   "Quillnet: Span Taggers") is None


# -- the paper's own method named in brackets by its abstract ------------------------------------

HALYARD_IDENTITY = """Stacked Residual Labelling for Large Image Sets
Abstract
In this paper, we revisit deep stacks and introduce the Stacked Residual Labeller (Stralab),
which joins every stage to the next."""

HALYARD_SETUP = """4 Training
On Halyard, we train models for 48 epochs with 3 warm restarts.
On Tern, we train models for 20 epochs."""


def _with_identity(text: str, identity: str, title: str) -> SourceText:
    return SourceText(key="corpus://paper/st", title=title, windows=(text,), identity=identity,
                      full_text=text)


def test_a_bracketed_name_the_abstract_introduces_is_the_papers_method() -> None:
    check = check_answer("For how many epochs were Stralab models trained on Halyard?",
                         [_with_identity(HALYARD_SETUP, HALYARD_IDENTITY,
                                         "Stacked Residual Labelling for Large Image Sets")],
                         today=TODAY)
    assert check.answered and check.answer is not None and check.answer.value == "48"


def test_a_bracketed_name_of_another_paper_stands_for_nothing_here() -> None:
    identity = HALYARD_IDENTITY.replace("(Stralab)", "")
    check = check_answer("For how many epochs were Stralab models trained on Halyard?",
                         [_with_identity(HALYARD_SETUP, identity,
                                         "Stacked Residual Labelling for Large Image Sets")],
                         today=TODAY)
    assert not check.answered


def test_what_momentum_asks_for_a_number() -> None:
    assert question_terms("What momentum did Stralab training use?", TODAY).kind == "value"
