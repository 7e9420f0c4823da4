"""Structural guards of the answer check (#26): the asked model, split, attribute and
comparison must stand where the number stands.

Each rule has an answered case and an unanswerable look-alike (another model's number, a split
the question rules out, a number counting something else, a change's starting value). Every
name, sentence and number here is made up by the test.
"""

from __future__ import annotations

import datetime as dt

import pytest

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer, comparison_sides
from repro_assets.research.corpus_answer import CorpusLexicon, check_corpus
from repro_assets.research.question_terms import question_terms
from tests.research.lexicon_docs import document, install_corpus

TODAY = dt.date(2026, 6, 1)


def _check(question: str, *windows: str, title: str = "Sorting pebbles by weight",
           identity: str = "") -> str | None:
    source = SourceText(key="corpus://pdf/a", title=title, windows=windows,
                        identity=identity or title)
    check = check_answer(question, [source], TODAY)
    return check.answer.value if check.answer else None




def test_a_name_typed_in_lower_case_is_still_the_asked_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    own = document(1, "Stacking pebbles deeper",
                    "We call our stacker PebbLeNet. PebbLeNet sorts stones in one pass.",
                    "Table 3: Sorting by one stacker.\nEntrant\nmAP\nRockTeam\n31.5%\n"
                    "PebbLeNet\n36.2%")
    other = document(2, "Residual shell sorting",
                      "The sorter we built rests on ShellNet-50 plus a handful of sorting tricks.",
                      "Built on ShellNet-50, the sorter scores 81.3% mAP on ShoreVOC with "
                      "one stacker.")
    install_corpus(monkeypatch, own, other)
    lexicon = CorpusLexicon.load(None)
    # written only with an inner capital in the corpus: a name, even typed in lower case
    assert lexicon.written_names("pebblenet sorting mAP with one stacker?") == \
        frozenset({"pebblenet"})
    assert lexicon.written_names("sorting mAP of stones?") == frozenset()  # plain words
    check, _ = check_corpus("pebblenet sorting mAP with one stacker?", None,
                            today=TODAY)
    assert check.answer is not None and check.answer.value == "36.2"
    # the look-alike: the corpus reports the other model only; its sentence is no answer
    install_corpus(monkeypatch, other, document(3, "Stacking pebbles deeper",
                                          "We call our stacker PebbLeNet. PebbLeNet sorts "
                                          "stones in one pass, unlike ShellNet-50."))
    check, _ = check_corpus("pebblenet sorting mAP with one stacker?", None,
                            today=TODAY)
    assert not check.answered


def test_a_year_cell_is_no_metric_value() -> None:
    question = "PebbLeNet sorting mAP?"
    # the rank cell ("1st") cuts each row after its year: the year is the row's only number
    cut = ("Entrants, best first.\nEntrant\nSeason\nRank\nmAP\nextra stones\n"
           "RockTeam\n2011\n2nd\n20.5%\nnone\nPebbLeNet\n2012\n1st\n41.7%\nStoneset 2k\n"
           "Table 6: Sorting entrants\n")
    source = SourceText(key="corpus://pdf/a", title="Sorting pebbles", windows=(cut,),
                        full_text=cut)
    assert check_answer(question, [source], TODAY).answer is None
    whole = "Table 7: Sorting mAP of one stacker\nEntrant\nmAP\nRockTeam\n30.2%\nPebbLeNet\n38.4%"
    assert _check(question, whole) == "38.4"


def test_a_split_the_question_rules_out_is_not_reported_for_it() -> None:
    question = ("Which top-5 error is reported for one PebbLeNet-90 on the Stoneset test split, "
                "not validation?")
    assert question_terms(question, TODAY).split == "test"
    header = "model\ntop-1 err.\ntop-5 err.\n"
    validation = ("Table 2. Errors (%) of 4-view testing, Stoneset validation images. "
                  "PebbLeNet-30 comes from our own test.\n" + header + "PebbLeNet-90\n21.4\n5.8")
    assert _check(question, validation) is None
    test = "Table 2. Errors (%) on the Stoneset test split.\n" + header + \
        "PebbLeNet-90\n21.0\n5.5"
    assert _check(question, test) == "5.5"


def test_the_asked_attribute_after_a_leading_phrase() -> None:
    question = "In the tag-sorting study on Stoneset9M, what is PebbLeNet's lexicon size?"
    assert question_terms(question, TODAY).head == ("pebblenet", "lexicon", "size")
    hidden = ("Figure 5: Stoneset9M tags sorted by PebbLeNet, a sorter of 200 hidden units "
              "reading pairs of words.")
    assert _check(question, hidden) is None  # 200 counts hidden units, not the lexicon
    stated = "On Stoneset9M, the lexicon size of PebbLeNet is 41,207 and it sorts 90 tags."
    assert _check(question, stated) == "41,207"


def test_which_of_two_and_by_how_much_is_a_comparison() -> None:
    question = ("Does ShellMix or RockDrop leave PebbLeNet-90 with less Stoneset error, "
                "and by how much?")
    terms = question_terms(question, TODAY)
    assert terms.compare
    sides = comparison_sides(question, terms)
    assert sides is not None
    assert [a.text for a in sides[0].anchors][:1] == ["ShellMix"]
    assert [a.text for a in sides[1].anchors][:1] == ["RockDrop"]
    one_side = ("In our runs on Stoneset, ShellMix brings the error rate of PebbLeNet-90 "
                "from 6.1 to 5.2.")
    assert _check(question, one_side) is None  # one side's number is no comparison
    both = (one_side + " On Stoneset, RockDrop brings the error rate of PebbLeNet-90 down to "
            "an error rate of 5.0 percent.")
    assert _check(question, both) == "0.2"  # 5.2 (where the change ends) against 5.0
    # ShellMix's own number is not stated: the next sentence's RockDrop number is not its own
    shell_only = "On Stoneset, RockDrop brings the error rate of PebbLeNet-90 down to 5.0 percent."
    assert _check("What error rate does ShellMix give PebbLeNet-90 on Stoneset?",
                  "ShellMix is a simple way to mix pebble shells. " + shell_only) is None


def test_a_changes_starting_value_is_not_the_asked_one() -> None:
    question = "What error rate does ShellMix give PebbLeNet-90 on Stoneset?"
    sentence = ("On Stoneset, ShellMix reduces the error rate of PebbLeNet-90 from 6.1 "
                "to 5.2 in our runs.")
    assert _check(question, sentence) == "5.2"
    # asked for the state before the change, the starting value is the answer's side
    assert _check("What baseline error rate does PebbLeNet-90 get on Stoneset?",
                  "On Stoneset, the baseline error rate of PebbLeNet-90 is 6.1 percent.") \
        == "6.1"


def test_a_row_of_the_plain_name_is_the_sibling_of_the_asked_variant() -> None:
    question = ("In the Quarrel paper's sorting trial, what BLEU does Quarrel-2 get on "
                "pebbletest2019?")
    table = ("Table 8: BLEU of a 6 layer sorter on Stoneset.\nModel\npebbletest2018\n"
             "pebbletest2019\nQuarrel\n22.5\n31.3\nQuarrel-2\n22.1\n32.0\nRamp\n21.0\n30.4")
    assert _check(question, table, title="Picking sorter units") == "32.0"
    # only the plain name's row: the asked variant's number is not stated
    plain = ("Table 8: BLEU of a 6 layer sorter on Stoneset.\nModel\npebbletest2018\n"
             "pebbletest2019\nQuarrel\n22.5\n31.3\nRamp\n21.0\n30.4")
    assert _check(question, plain, title="Picking sorter units") is None


def test_a_row_negating_the_asked_word_is_not_the_asked_row() -> None:
    question = "What test BLEU does the dropout-regularized GRU reach on Stoneset?"
    table = ("Table 3: Results on Stoneset sorting.\nModel\nTest perplexity\nTest BLEU score\n"
             "Non-regularized GRU\n6.1\n24.2\nRegularized GRU\n5.2\n27.4")
    assert _check(question, table) == "27.4"
    only_plain = ("Table 3: Results on Stoneset sorting.\nModel\nTest perplexity\n"
                  "Test BLEU score\nNon-regularized GRU\n6.1\n24.2\nShellMix GRU\n5.2\n27.4")
    assert _check(question, only_plain) is None
    # asked for the unregularized one, its row answers
    assert _check("What test BLEU does the non-regularized GRU reach on Stoneset?", table) \
        == "24.2"


def test_a_row_label_naming_the_asked_dataset_by_its_short_year_is_no_other_model() -> None:
    question = "Time in seconds of one PebbLeNet sorting pass on the Stone Cup 2012 data?"
    table = ("Table 2: Time (seconds) per sorting pass.\nData\nrock_exact\nPebbLeNet\n"
             "Stone12\n180.50\n11.42")
    assert _check(question, table) == "11.42"
    other = ("Table 2: Time (seconds) per sorting pass.\nData\nrock_exact\nPebbLeNet\n"
             "Shell12\n180.50\n11.42")
    assert _check(question, other) is None


def test_a_group_label_under_the_header_names_no_column_and_an_ensemble_row_no_single() -> None:
    question = "Test perplexity of the medium stacked GRU (single model) on Stonebank?"
    table = ("Table 2: Word-level perplexity on Stonebank.\nModel\nValidation set\nTest set\n"
             "A single model\nSmall stacked GRU\n121.4\n117.9\nMedium stacked GRU\n88.1\n84.3\n"
             "An ensemble of models\n3 medium stacked GRUs\n81.2\n78.5")
    # "A single model" heads the rows below it: 84.3 is the test column, 88.1 validation
    assert _check(question, table) == "84.3"
    ensembles = ("Table 2: Word-level perplexity on Stonebank.\nModel\nValidation set\n"
                 "Test set\nAn ensemble of models\n3 medium stacked GRUs\n81.2\n78.5\n"
                 "5 medium stacked GRUs\n79.0\n76.1")
    assert _check(question, ensembles) is None  # only ensembles: no single model is stated
