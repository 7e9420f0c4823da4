"""Targeted table reading (issue #26, research pass 6): the asked column of the asked row.

Each family is one general reading rule, checked on documents the test invents (names,
numbers and wording are made up), each with an unanswerable look-alike that must never get
a number (another metric, another column, another source, an entity no table has):

* a cell with a magnitude ("4.1M" parameters, "0.31B" FLOPS) is a cell: the row's cells
  stay aligned with the header's columns; a cell the reader cannot parse ("2.5Gb") leaves
  the row unaligned (no column is guessed);
* two header levels ("Dev" / "Test" over "EM" / "F1") name the columns "Dev EM" ...;
* a question's spelled-out metric ("exact match") names the header that abbreviates it
  ("EM"), and an abbreviated header ("#Params") the question word ("parameters");
* "according to the X paper" names the document, not the row or column: the answer is read
  in X's own document, and X in a header ("Ratio-to-X") picks no column;
* a header that is the question's own word ("Listener") is not overruled by a source name.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer

TODAY = dt.date(2026, 6, 1)

SCALING_TABLE = """Table 2. Brindle results on Pellucid-1k. Models with similar top-1 accuracy are
grouped together for an efficiency comparison against earlier networks.
Model
Top-1 Acc.
Top-5 Acc.
#Params
Ratio-to-Brindle
#FLOPS
Ratio-to-Brindle
Brindle-A0
71.4%
90.2%
4.1M
1x
0.31B
1x
Sablenet-50 (Orrin et al., 2016)
70.9%
89.6%
22M
5.4x
3.2B
10x
Brindle-A1
74.8%
92.1%
6.6M
1x
0.62B
1x
Larchnet-121 (Pim et al., 2017)
73.3%
91.4%
11M
1.7x
2.6B
4.2x
Deeper Brindle models reach higher accuracy with far fewer parameters."""

UNPARSED_TABLE = """Table 3. Memory of the Brindle models on Pellucid-1k.
Model
Top-1 Acc.
Memory
Top-5 Acc.
Brindle-B0
72.2%
2.5Gb
90.8%
Brindle-B1
75.0%
3.1Gb
92.4%
Memory is measured at batch size 32."""

BRINDLE = "Brindle: Rethinking Width for Convolutional Networks"

READER_TABLE = """We compare with the best published single models on Vellum QA.
Method
Dev
Test
EM
F1
EM
F1
Lattice Flow (Orrin et al., 2016)
63.1 72.9
63.8 73.0
Quarrel Reader (ours)
65.2 74.4
66.0 75.1
Table 4: Results on the Vellum QA dataset (single model only)."""

QUARREL = "Reading Ledgers to Answer Trivia Questions"
QUARREL_OPENING = ("In this paper we build a system for open questions. We develop Quarrel, a "
                   "reader composed of two modules.")

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

SONAR = "Sonar-2: Speech Recognition at Scale"


def _source(text: str, title: str, key: str = "corpus://paper/tg", identity: str = ""
            ) -> SourceText:
    return SourceText(key=key, title=title, windows=(text,), full_text=text,
                      identity=identity or title)


def _answer(question: str, *sources: SourceText) -> str | None:
    check = check_answer(question, list(sources), today=TODAY)
    return check.answer.value if check.answered and check.answer else None


# -- magnitude cells keep a row aligned ----------------------------------------------------------
def test_a_parameter_count_with_a_magnitude_is_its_column() -> None:
    assert _answer("How many parameters does Brindle-A0 have?",
                   _source(SCALING_TABLE, BRINDLE)) == "4.1"


def test_cells_after_a_magnitude_cell_stay_in_their_columns() -> None:
    assert _answer("How many FLOPS does Brindle-A1 need?",
                   _source(SCALING_TABLE, BRINDLE)) == "0.62"
    assert _answer("Brindle-A1: its top-1 accuracy on Pellucid-1k?",
                   _source(SCALING_TABLE, BRINDLE)) == "74.8"


def test_a_column_the_table_lacks_gets_no_number() -> None:
    assert _answer("How much GPU memory does Brindle-A0 need?",
                   _source(SCALING_TABLE, BRINDLE)) is None
    assert _answer("How many parameters does Brindle-A7 have?",
                   _source(SCALING_TABLE, BRINDLE)) is None


def test_a_cell_the_reader_cannot_parse_leaves_the_row_unaligned() -> None:
    # the unparsed "2.5Gb" ends the row's cells early: its top-5 cell would be read
    # under another header (a wrong number), so no column is read at all
    assert _answer("What top-5 accuracy does Brindle-B0 reach on Pellucid-1k?",
                   _source(UNPARSED_TABLE, BRINDLE)) is None


# -- two header levels -----------------------------------------------------------------------------
def test_a_split_over_metric_header_names_each_column() -> None:
    reader = _source(READER_TABLE, QUARREL, identity=QUARREL_OPENING)
    assert _answer("What test-set exact match does Lattice Flow get on Vellum QA?",
                   reader) == "63.8"
    assert _answer("What development-set F1 does the Quarrel Reader reach on Vellum QA?",
                   reader) == "74.4"


def test_a_metric_the_two_level_header_lacks_gets_no_number() -> None:
    reader = _source(READER_TABLE, QUARREL, identity=QUARREL_OPENING)
    assert _answer("What test-set BLEU does Lattice Flow get on Vellum QA?", reader) is None
    assert _answer("What test-set exact match does Lattice Flow get on Parchment QA?",
                   reader) is None


# -- the document a question names -----------------------------------------------------------------
def test_according_to_a_paper_names_the_document_not_a_column() -> None:
    assert _answer("Which top-1 accuracy has Sablenet-50 according to the Brindle paper?",
                   _source(SCALING_TABLE, BRINDLE)) == "70.9"
    assert _answer("What Pellucid-1k top-5 accuracy does Larchnet-121 have in the Brindle "
                   "paper's comparison?", _source(SCALING_TABLE, BRINDLE)) == "91.4"


def test_a_paper_named_by_its_introduction_is_that_document() -> None:
    reader = _source(READER_TABLE, QUARREL, identity=QUARREL_OPENING)
    assert _answer("What test-set exact match does Lattice Flow get on Vellum QA in the "
                   "Quarrel paper's comparison table?", reader) == "63.8"


def test_a_named_paper_no_source_is_gets_no_number_from_another() -> None:
    # the table is in the Brindle document; a question for the Corvex paper's figure
    # is not answered by it
    assert _answer("Which top-1 accuracy has Sablenet-50 according to the Corvex paper?",
                   _source(SCALING_TABLE, BRINDLE)) is None


def test_a_header_of_the_question_words_beats_the_papers_own_column() -> None:
    assert _answer("For a human listener on the quiet Quarry recordings, how high is the "
                   "word error rate in the Sonar-2 paper?", _source(NOISY_TABLE, SONAR)) == "3.90"


def test_a_listener_column_is_not_the_systems_without_the_source_phrase() -> None:
    # "Sonar-2" names a column and "listener" names another: no guess between them
    assert _answer("For a human listener on the quiet Quarry recordings, how high is "
                   "Sonar-2's word error rate?", _source(NOISY_TABLE, SONAR)) is None


TWO_TABLES = """Plain text of the paper that runs on for a while before the first table here.
Set
Items
Alder
120
Birch
340
Table 1: Sizes of the two collections we use in all experiments below.
We now compare the speed and the quality of four boosting systems on both collections.
Table 2: Mean time of one training round, in seconds, for each system.
xgbo
ltree
Alder
4.10
0.33
Birch
7.80
0.61
Table 3: Quality on the held-out data.
Use AUC for the two collections.
xgbo
ltree
Alder
0.7120
0.7344
Birch
0.6611
0.6702
Both systems reach similar quality while ltree is much faster."""


def test_a_row_whose_caption_cannot_be_told_takes_no_metric_from_around() -> None:
    # the time table's rows stand right above the quality table's caption ("Use AUC"): with
    # captions both below (Table 1) and above (Tables 2, 3) the rows' own cannot be told
    # (the window read ends before the quality table's rows; the caption style is read
    # from the whole text)
    window = TWO_TABLES[:TWO_TABLES.index("Use AUC") + 30]
    doc = SourceText(key="corpus://paper/tt", title="Ltree: Fast Boosted Trees",
                     windows=(window,), full_text="")
    assert _answer("What AUC does ltree reach on Birch?", doc) is None
    # its own seconds are still read
    assert _answer("For one ltree training round on Birch, how many seconds are needed?",
                   doc) == "0.61"
