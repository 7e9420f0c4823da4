"""Guards of the answer check that any question over unseen papers needs (#26).

Each rule has an answered case and an unanswerable look-alike: a paper named by a title of
generic words, a chunk's carried-over opening read twice, and a comparison whose shared
dataset stands before its two alternatives. Every name, sentence and number here is made up.
"""

from __future__ import annotations

import datetime as dt

import pytest

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer, comparison_sides
from repro_assets.research.corpus_answer import (
    CorpusLexicon,
    check_corpus,
    join_chunks,
)
from repro_assets.research.question_terms import question_terms
from tests.research.lexicon_docs import document, install_corpus

TODAY = dt.date(2026, 6, 1)




# -- a paper named by a title of generic words ---------------------------------------------

GENERIC_TITLE = "Model of Models"
QUESTION_NAMED = ("How many pebbles does the ShoreSet collection hold in total, according to "
                  "the Model of Models paper?")
OTHER_PAPER = document(2, "Broad Shell Stacks",
                        "Setup. ShoreSet is a collection of beach photographs and holds about "
                        "500,000 pebbles, a tougher sorting task.")


def test_a_title_of_generic_words_with_a_lower_case_link_names_its_paper() -> None:
    lexicon = CorpusLexicon({1: document(1, GENERIC_TITLE), 2: OTHER_PAPER})
    assert lexicon.title_names(QUESTION_NAMED) == frozenset({"model of models"})
    # a run of capitalised words that is no document's title names nothing
    assert lexicon.title_names("according to the Model of Shells paper?") == frozenset()


def test_the_named_paper_answers_and_another_papers_number_never_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    own = document(1, GENERIC_TITLE,
                    "We sort pebbles with stacked sorters.",
                    "The ShoreSet collection [4] is composed of 412,300 pebbles, divided "
                    "into a sorting part and a held-out part.")
    install_corpus(monkeypatch, own, OTHER_PAPER)
    check, _ = check_corpus(QUESTION_NAMED, None, today=TODAY)
    assert check.answer is not None and check.answer.value == "412,300"
    assert check.answer.source == "corpus://pdf/1"
    # the look-alike: the named paper uses the collection but never counts it; the other
    # paper's count is not what the named paper states
    silent = document(1, GENERIC_TITLE, "We sort pebbles with stacked sorters.",
                       "We train on the ShoreSet collection [4] for 40 rounds.")
    install_corpus(monkeypatch, silent, OTHER_PAPER)
    check, _ = check_corpus(QUESTION_NAMED, None, today=TODAY)
    assert not check.answered


# -- a chunk's carried-over opening ---------------------------------------------------------

FIRST_CHUNK = ("Table 4. Test error of the best sorters on the ShoreSet-100 collection.\n"
               "Method\nTest error\nRock pooling (Lee\n& Tam, 2011)\n43.10%\n"
               "Conv. stacker + drop\n38.20%\n4.2. ShoreSet-100")
SECOND_CHUNK = ("43.10%\nConv. stacker + drop\n38.20%\n4.2. ShoreSet-100\n"
                "The ShoreSet-100 collection has the size of ShoreSet-10 but 100 kinds.")


def test_a_chunks_carried_over_opening_is_read_once() -> None:
    joined = join_chunks([FIRST_CHUNK, SECOND_CHUNK])
    assert joined.count("38.20%") == 1 and joined.count("4.2. ShoreSet-100") == 1
    assert joined.endswith("but 100 kinds.")
    # chunks that share no opening are joined as they are; one short repeated line is kept
    assert join_chunks(["a b\n0.1", "0.1\nc d"]) == "a b\n0.1\n0.1\nc d"


def test_a_heading_after_a_carried_over_table_makes_no_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    question = "What ShoreSet-100 test error does the Stacker Nets paper report?"
    doc = document(1, "Stacker Nets", "We propose the stacker, a sorter of pebbles.",
                    FIRST_CHUNK, SECOND_CHUNK)
    install_corpus(monkeypatch, doc)
    check, _ = check_corpus(question, None, today=TODAY)
    # read twice, the heading "4.2. ShoreSet-100" stood before the first row's 43.10%: a row
    # naming the asked collection in its label, which no page holds (the table's three rows
    # answer for three sorters: the question names none of them)
    assert not check.answered


# -- the alternatives of "which ..., X or Y" -------------------------------------------------

def test_names_before_the_alternatives_clause_are_shared_not_a_side() -> None:
    question = ("Which has the lower ShoreSet-9 test error, QuokkaNet or WombatNet, and by "
                "how much?")
    sides = comparison_sides(question, question_terms(question, TODAY))
    assert sides is not None
    assert [[a.text for a in side.anchors] for side in sides] == [
        ["QuokkaNet", "ShoreSet-9"], ["WombatNet", "ShoreSet-9"]]
    # an alternative written in plain words holds no name: the sides cannot be told apart,
    # and the collection before the clause is no side of its own
    plain = ("Which has the lower ShoreSet-9 test error, stacked quokkas or WombatNet, and "
             "by how much?")
    assert comparison_sides(plain, question_terms(plain, TODAY)) is None


def test_a_side_read_without_the_shared_collection_is_no_answer() -> None:
    question = ("Which has the lower ShoreSet-9 test error, stacked quokkas or WombatNet, and "
                "by how much?")
    own = SourceText(key="corpus://pdf/1", title="Stacked quokkas", windows=(
        "On ShoreSet-9 our stacked quokkas reach a test error of 35.60%.",))
    other = SourceText(key="corpus://pdf/2", title="WombatNet sorters", windows=(
        "Table 2. Test error on the PebbleDigits collection.\nMethod\nTest error\n"
        "WombatNet\n0.45%",))
    check = check_answer(question, [own, other], TODAY)
    # the look-alike: WombatNet's only number is on another collection
    assert not check.answered


# -- a caption between two tables; mark cells in a row ---------------------------------------

TWO_TABLES = ("Team\nRecall\nmAP\nRockTeam\n40.1\n23.4%\nPebbleCrew\n44.0\n27.3%\n"
              "Table 4: Sorter ensembles\n"
              "Team\nmAP\nRecall\nShellers\n30.9%\n52.0\nStoneNet\n38.5%\n61.0\n"
              "Table 5: Results of one sorter alone\n"
              "Running text after the tables goes on here with a full sentence of prose.")


def test_a_caption_closes_its_table_and_the_next_header_names_the_next_rows() -> None:
    source = SourceText(key="corpus://pdf/1", title="Sorting shore pebbles",
                        windows=(TWO_TABLES,))
    check = check_answer("StoneNet mAP with one sorter alone?", [source], TODAY)
    # a short caption ("Table 4: Sorter ensembles") read as one more header line left the
    # second table's rows under the first table's header: their recall (61.0) under "mAP"
    assert check.answer is not None and check.answer.value == "38.5"
    recall = check_answer("StoneNet recall with one sorter alone?", [source], TODAY)
    assert recall.answer is None or recall.answer.value == "61.0"


MARKS = ("Table 5: Results of one sorter alone\nTeam\nmAP\nContext\nBox fitting\n"
         "Shellers\n30.9%\nno\n?\nStoneNet\n{value}\nno\nyes\nDriftNet\n41.7%\nyes\nyes\n"
         "Running text after the table goes on here with a full sentence of prose.")


def test_a_rows_cells_go_on_past_its_mark_cells() -> None:
    source = SourceText(key="corpus://pdf/1", title="Sorting shore pebbles",
                        windows=(MARKS.format(value="38.5%"),))
    check = check_answer("StoneNet mAP with one sorter alone?", [source], TODAY)
    assert check.answer is not None and check.answer.value == "38.5"
    # the look-alike: the asked row's mAP cell is a mark; its neighbour's number is not it
    unknown = SourceText(key="corpus://pdf/1", title="Sorting shore pebbles",
                         windows=(MARKS.format(value="?"),))
    assert not check_answer("StoneNet mAP with one sorter alone?", [unknown], TODAY).answered


def test_a_title_with_a_ligature_typed_in_plain_letters_names_its_paper() -> None:
    # PDF titles keep ligatures ("\ufb01" for "fi"): a user types the letters
    lexicon = CorpusLexicon({1: document(1, "Swift Pebble Classi\ufb01cation: a sorter"),
                             2: OTHER_PAPER})
    assert lexicon.title_names("swift pebble classification accuracy on ShoreSet?") == \
        frozenset({"swift pebble classification"})
    # the look-alike: part of the title names no paper
    assert lexicon.title_names("pebble classification accuracy on ShoreSet?") == frozenset()


# -- "how much lower is X's Z error than Y" -------------------------------------------------

POSSESSIVE = ("Without extra pebbles, how much lower is QuokkaNet's ShoreSet-10 test error than "
              "WombatNet's, and by how much?")


def test_what_the_first_side_owns_is_asked_of_both_sides() -> None:
    sides = comparison_sides(POSSESSIVE, question_terms(POSSESSIVE, TODAY))
    assert sides is not None
    assert [[a.text for a in side.anchors] for side in sides] == [
        ["QuokkaNet", "ShoreSet-10"], ["WombatNet", "ShoreSet-10"]]


def test_the_second_side_read_on_another_collection_is_no_answer() -> None:
    own = SourceText(key="corpus://pdf/1", title="Quokka sorters", windows=(
        "On ShoreSet-10 the QuokkaNet sorter reaches a test error of 9.40%.",))
    other = SourceText(key="corpus://pdf/2", title="Wombat sorters", windows=(
        "Table 2. Test error on the PebbleDigits collection.\nMethod\nTest error\n"
        "WombatNet\n0.45%",))
    # the look-alike: WombatNet's only number is on another collection
    assert not check_answer(POSSESSIVE, [own, other], TODAY).answered
    both = SourceText(key="corpus://pdf/2", title="Wombat sorters", windows=(
        "Table 3. Test error on the ShoreSet-10 collection.\nMethod\nTest error\n"
        "WombatNet\n11.20%",))
    check = check_answer(POSSESSIVE, [own, both], TODAY)
    assert check.answer is not None and check.answer.value == "1.80"
