"""Recall families of the answer check, each with unanswerable look-alikes (issue #26).

Every paper, method, dataset, author and number here is invented by the test. The layouts
follow PyMuPDF's page text: a table cell per line (or a row on one line), captions above or
below the rows, the authors under the title in the document's opening text.

Families (answerable): an author given as "X et al." while the paper names its method; a
table with Dev / Test columns; a row named in words ("Ours", "Proposed method") for the
method the title or abstract names; a combined label ("A+B"); the method named only in the
title while the number is in a table; a question asking for a name. Look-alikes (never
answered): another dataset, another metric, another variant, another year, a future year,
another paper's "Ours".
"""

from __future__ import annotations

import datetime as dt

import pytest

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer

TODAY = dt.date(2026, 6, 1)

# -- documents ----------------------------------------------------------------------------------

TAGGER_IDENTITY = """Span-Gated Recurrent Taggers for Low-Resource Entity Recognition
Ilse Vandermeer\u2660 Tomas Okafor\u2663
\u2660Institute of Invented Studies
Abstract
We present recurrent taggers that gate character spans."""

TAGGER_TABLE = """Model
F1
Brightwater et al. (2011)
76.40
BiGRU-CRF \u2013 no char
80.12
BiGRU-CRF
82.47
Table 2: Entity recognition results on the Heron test set. Rows with a
star were trained with extra annotated sentences from other sources.
Model
F1
Brightwater et al. (2011)
70.02
BiGRU-CRF
74.90
Table 3: Entity recognition results on the Wagtail test set.
Both tables show that the span gates help on every language we tried.
"""

SPLIT_TABLE = """Table 3: F1 of the taggers on the Ptarmigan NER benchmark.
Model
Dev
Test
Plainfeat
88.2
84.1
Quillnet
91.4
88.7
Kestrel
90.2
87.9
The taggers are ranked by their Test score."""

OURS_IDENTITY = """Lorikeet: Sparse Routing for Long Document Classification
Mara Ellison
Abstract
We propose Lorikeet, a sparse router for long documents."""

OURS_TABLE = """Table 2: Accuracy (%) on the Mallee and Spinifex test sets.
Method
Mallee
Spinifex
TF-IDF SVM
71.2
64.0
Hier-GRU
75.9
68.3
Ours
78.4
70.6"""

OURS_COLUMN_TABLE = """Table 3: Accuracy (%) per collection, baseline against ours.
Collection
Hier-GRU
Ours
Mallee
75.9
78.4
Spinifex
68.3
70.6"""

PROPOSED_IDENTITY = """Routing Long Documents Sparsely
Devi Ramaswamy
Abstract
We introduce Bramblenet, a routing network for long document classification."""

PROPOSED_TABLE = """Table 4: Accuracy (%) on the Mallee test set.
Method
Accuracy
Hier-GRU
75.9
Proposed method
77.3"""

OTHER_OURS_IDENTITY = """Thornbill: Dense Routing for Short Texts
Abstract
We propose Thornbill and compare it with Lorikeet and Hier-GRU."""

COMBINED_TABLE = """Table 1: sMAPE on the Kiwi benchmark, lower is better.
Model
Yearly
Average
Ternbasis-S
13.1
12.02
Ternbasis-T
13.4
12.10
Ternbasis-S+T
12.9
11.87"""

TITLE_ONLY_IDENTITY = """Pangolin: Efficient Retrieval for Legal Search
Abstract
We describe Pangolin, a retriever for statutes and case law."""

TITLE_ONLY_TABLE = """Table 4: Recall@10 of our model on two collections.
Collection
Recall@10
Casebook
0.612
Statute-X
0.548"""

ONE_LINE_HEADER_TABLE = """Deeper stacks are better, as the comparison below shows for all.
Table 5: Comparison on the Wombat benchmark. Our method is denoted as Quillnet here and
in the rest of the paper, with the number of networks averaged given in brackets.
Method
top-1 dev. error (%) top-1 test error (%)
Quillnet (2 nets, dense)
20.1
19.8
Quillnet (1 net, dense)
21.3
20.9
Okapi (Larsen et al., 2013)
24.0
23.5"""

OPTIMIZER_PROSE = """4 Training
We train Lorikeet with the Adagrad optimizer and a learning rate of 0.01 for 30 epochs.
The Hier-GRU baseline is trained with the Adamax optimizer as in its original paper."""


DATASET_PROSE = """5 Experiments
We evaluate Pangolin on the Casebook dataset, a set of appeals with hand-marked citations.
Queries are written by two annotators with legal training."""

TWO_DATASETS_PROSE = """5 Experiments
We evaluate Pangolin on the Casebook dataset and on the Statute-X dataset in every run."""

OWN_VOICE_PROSE = """4 Setup
All our networks are optimised with the Adagrad optimizer for forty epochs in total.
The baselines keep the settings of their authors."""


def _source(windows: tuple[str, ...], identity: str, key: str = "corpus://paper/inv"
            ) -> SourceText:
    title = identity.split("\n")[0]
    return SourceText(key=key, title=title, windows=windows, identity=identity)


TAGGER = _source((TAGGER_TABLE,), TAGGER_IDENTITY)
SPLIT = _source((SPLIT_TABLE,), "Fast Taggers\nAbstract\nWe compare taggers.")
OURS = _source((OURS_TABLE,), OURS_IDENTITY)
OURS_COLUMN = _source((OURS_COLUMN_TABLE,), OURS_IDENTITY)
PROPOSED = _source((PROPOSED_TABLE,), PROPOSED_IDENTITY)
OTHER_OURS = _source((OURS_TABLE,), OTHER_OURS_IDENTITY, key="corpus://paper/other")
COMBINED = _source((COMBINED_TABLE,), "Ternbasis: Basis Expansion for Series\nAbstract\nx.")
TITLE_ONLY = _source((TITLE_ONLY_TABLE,), TITLE_ONLY_IDENTITY)
ONE_LINE_HEADER = _source((ONE_LINE_HEADER_TABLE,), "Stacked Quillnets\nAbstract\nx.")
DATASET = _source((DATASET_PROSE,), TITLE_ONLY_IDENTITY)
TWO_DATASETS = _source((TWO_DATASETS_PROSE,), TITLE_ONLY_IDENTITY)
OWN_VOICE = _source((OWN_VOICE_PROSE,), OURS_IDENTITY)
OPTIMIZER = _source((OPTIMIZER_PROSE,), OURS_IDENTITY)

#: (family, question, sources, expected value or None for "must abstain")
CASES: list[tuple[str, str, list[SourceText], str | None]] = [
    # an author's name stands for the paper; the row names the method
    ("et_al", "Which F1 score did the BiGRU-CRF from Vandermeer et al. obtain on the Heron "
     "test set?", [TAGGER], "82.47"),
    ("et_al", "What F1 does Okafor et al.'s BiGRU-CRF get on Heron?", [TAGGER], "82.47"),
    ("et_al", "Which F1 score did the BiGRU-CRF from Vandermeer et al. obtain on Wagtail?",
     [TAGGER], "74.90"),
    ("et_al_lookalike", "Which F1 score did the BiGRU-CRF from Vandermeer et al. obtain on "
     "Egret?", [TAGGER], None),
    ("et_al_lookalike", "Which F1 score did the BiGRU-CRF from Pemberton et al. obtain on "
     "Heron?", [TAGGER], None),
    # Dev / Test columns are the split
    ("split", "What test F1 does Kestrel reach on Ptarmigan?", [SPLIT], "87.9"),
    ("split", "What F1 does Quillnet get on the Ptarmigan development set?", [SPLIT], "91.4"),
    ("split_lookalike", "What test accuracy does Kestrel reach on Ptarmigan?", [SPLIT], None),
    ("split_lookalike", "What F1 does Kestrel reach on Ptarmigan?", [SPLIT], None),
    # a row named in words is the paper's own method
    ("ours", "What accuracy does Lorikeet reach on Spinifex?", [OURS], "70.6"),
    ("ours", "How accurate is Bramblenet on the Mallee test set?", [PROPOSED], "77.3"),
    ("ours", "What accuracy does Lorikeet reach on Spinifex?", [OURS_COLUMN], "70.6"),
    ("ours_lookalike", "What accuracy does Lorikeet reach on Spinifex?", [OTHER_OURS], None),
    ("ours_lookalike", "What accuracy does Lorikeet reach on Wagtail?", [OURS_COLUMN], None),
    ("ours_lookalike", "What accuracy does Lorikeet-Large reach on Spinifex?", [OURS], None),
    ("ours_lookalike", "What accuracy does Lorikeet reach on Wagtail?", [OURS], None),
    # a combined label
    ("combined", "On Kiwi, what is the average sMAPE of the Ternbasis model that combines S "
     "and T?", [COMBINED], "11.87"),
    ("combined", "On Kiwi, what is the average sMAPE of Ternbasis-S+T?", [COMBINED], "11.87"),
    ("combined", "On Kiwi, what is the average sMAPE of the Ternbasis ensemble joining the "
     "seasonal and trend parts?", [COMBINED], "11.87"),
    ("combined_lookalike", "On Kiwi, what is the average MASE of Ternbasis-S+T?", [COMBINED],
     None),
    ("combined_lookalike", "On Kiwi, what is the average sMAPE of the Ternbasis model that "
     "combines S, T and H?", [COMBINED], None),
    # the method is named in the title only; the rows are datasets
    ("title_only", "What Recall@10 does Pangolin reach on Casebook?", [TITLE_ONLY], "0.612"),
    ("title_only_lookalike", "What Recall@10 did Pangolin reach on Casebook in 2031?",
     [TITLE_ONLY], None),
    ("title_only_lookalike", "What Recall@100 does Pangolin reach on Casebook?", [TITLE_ONLY],
     None),
    # one header line names the columns; "one network" picks the "(1 net)" row
    ("one_line_header", "For one Quillnet network, what top-1 test error on Wombat is "
     "reported?", [ONE_LINE_HEADER], "20.9"),
    ("one_line_header", "What top-1 dev error does Okapi get on Wombat?", [ONE_LINE_HEADER],
     "24.0"),
    ("one_line_header_lookalike", "What top-1 test error does Quillnet reach on Wombat?",
     [ONE_LINE_HEADER], None),
    ("one_line_header_lookalike", "For one Quillnet network, what top-5 test error on Wombat "
     "is reported?", [ONE_LINE_HEADER], None),
]

#: A question asking for a name (answered by the entity in the asked role, with its quote).
NAME_CASES: list[tuple[str, str, list[SourceText], str | None]] = [
    ("name", "Which optimizer was Lorikeet trained with?", [OPTIMIZER], "Adagrad"),
    ("name_lookalike", "Which learning rate schedule was Lorikeet trained with?", [OPTIMIZER],
     None),
    ("name_lookalike", "Which optimizer was Thornbill trained with?", [OPTIMIZER], None),
    ("name", "Which dataset was Pangolin evaluated on?", [DATASET], "Casebook"),
    ("name", "Which optimizer was Lorikeet trained with?", [OWN_VOICE], "Adagrad"),
    ("name_lookalike", "Which dataset was Pangolin evaluated on?", [TWO_DATASETS], None),
    ("name_lookalike", "Which activation function does Pangolin use?", [DATASET], None),
    ("name_lookalike", "Which optimizer was Pangolin trained with?", [OWN_VOICE], None),
    ("name_lookalike", "Which optimizer was Lorikeet trained with?", [_source(
        ("We train the baselines with the Nadam optimizer as their authors did.",),
        OURS_IDENTITY)], None),
    ("name_lookalike", "Which optimizer was Lorikeet trained with?", [_source(
        ("We train Hier-GRU with the Nadam optimizer for a fair comparison.",),
        OURS_IDENTITY)], None),
    # several names listed in the role: no one of them is the answer
    ("name_lookalike", "Which dataset was Pangolin evaluated on?", [_source(
        ("We evaluate Pangolin on the Casebook and Statute-X datasets in every run.",),
        TITLE_ONLY_IDENTITY)], None),
    ("name_lookalike", "Which optimizer was Lorikeet trained with?", [_source(
        ("Lorikeet is trained with the Adagrad, Adamax or Nadam optimizers in turn.",),
        OURS_IDENTITY)], None),
    ("name_lookalike", "Which optimizer was Lorikeet trained with?", [_source(
        ("For Lorikeet the optimizer is Adagrad or Adamax, picked per seed.",),
        OURS_IDENTITY)], None),
    ("name", "Which loss is Kestrel trained with?", [_source(
        ("Kestrel is trained with the Hinge-Margin Loss on every split we built.",),
        "Fast Taggers\nAbstract\nx.")], "Hinge-Margin Loss"),
]


ALL_CASES = CASES + NAME_CASES


@pytest.mark.parametrize(("family", "question", "sources", "expected"), ALL_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(ALL_CASES)])
def test_family(family: str, question: str, sources: list[SourceText],
                expected: str | None) -> None:
    check = check_answer(question, sources, today=TODAY)
    if expected is None:
        assert not check.answered, (family, check.answer)
    else:
        assert check.answered and check.answer is not None, (family, check.reason)
        assert check.answer.value == expected
        assert check.answer.quote


def test_a_name_answer_is_given_as_a_whole_word_and_a_number_by_value() -> None:
    """The debate's consensus rule: the conclusion must give the checked answer (issue #26).

    Before, only numbers could be given, so a checked name could never reach a consensus.
    """
    from repro_assets.research.stated_numbers import answer_given

    assert answer_given("Adagrad", "Answer: Adagrad, stated in Lorikeet.")
    assert not answer_given("Adagrad", "Answer: Adagradient variants were used.")
    assert answer_given("85.3", "it reaches 85.30% on the set")
    assert not answer_given("30", "a batch of 300 samples")


def test_the_own_method_is_a_name_the_title_or_abstract_gives() -> None:
    """A lower-case phrase after "we present" or a title's phrase head names no method."""
    from repro_assets.research.row_names import own_method_keys

    assert own_method_keys("Lorikeet: Sparse Routing", "") == {"lorikeet"}
    assert own_method_keys("Towards Better Routing: a study", "") == frozenset()
    keys = own_method_keys("Routing Long Documents", "We present recurrent taggers. This paper "
                           "introduces a router called Bramblenet.")
    assert keys == {"bramblenet"}


def test_which_metric_asks_for_a_value_and_which_loss_for_a_name() -> None:
    from repro_assets.research.question_terms import question_terms

    assert question_terms("Which F1 score did Quillnet get on Heron?", today=TODAY).kind == \
        "value"
    assert question_terms("Which loss does Quillnet use?", today=TODAY).kind == "entity"
