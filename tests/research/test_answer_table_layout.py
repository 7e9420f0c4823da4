"""Table layouts of PDF text the answer check must read (#26, Q4 misses).

A caption whose label stands on a line of its own ("Table 3:", perhaps drawn twice) with its
text on the next line; a row whose first text cell is on the line before its label (a
citation cell, then a training-regime cell, then the value); a sub-row under a group label
("Quill-3 one-pass" then "two-pass"). Each has an answered case and a look-alike that stays
unanswered. Every name, sentence and number here is made up.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText, answer_check_dict
from repro_assets.research.answering import check_answer
from repro_assets.research.passages import passages

TODAY = dt.date(2026, 6, 1)


def _answer(question: str, text: str, title: str = "Sorting pebbles quickly") -> str | None:
    source = SourceText(key="corpus://pdf/a", title=title, windows=(text,), identity=title,
                        full_text=text)
    check = check_answer(question, [source], TODAY)
    return check.answer.value if check.answer else None


# -- a caption label on a line of its own --------------------------------------------------

def _bare_caption_table(label_lines: str, dataset: str) -> str:
    return ("Results. We compare the sorters below on the held-out shelf of pebbles.\n"
            "Model\nhit@1\nRun time\nTrain\nTest\n"
            "Rocksort, k = 10\n22.4\n2h5\n4h\n"
            "Quillsort, k = 10\n31.7\n1m40\n9s\n"
            f"{label_lines}\n"
            f"Hit@1 on the held-out shelf for pebble sorting on\n{dataset}. We also report the "
            "time each sorter needs to train.\n"
            "The sorters that use more pebbles per round gain the most from the longer runs.")


def test_a_caption_label_alone_on_its_line_reads_the_text_after_it() -> None:
    question = "How well does Quillsort do on PEBBLE9K pebble sorting (hit@1)?"
    for label_lines in ("Table 3:", "Table 3:\nTable 3:", "Table 3."):
        text = _bare_caption_table(label_lines, "PEBBLE9K")
        rows = [p for p in passages(text) if p.table]
        assert rows and all("PEBBLE9K" in (p.caption or "") for p in rows), label_lines
        assert _answer(question, text) == "31.7", label_lines
    # the look-alike: the caption names another collection, so nothing answers for PEBBLE9K
    assert _answer(question, _bare_caption_table("Table 3:\nTable 3:", "STONE4K")) is None


# -- a row's first text cell on the line before its label ----------------------------------

def _two_cell_table(last_value: str) -> str:
    return ("Table 2: The sorter carries over to shell sorting (scores on Shelf 7 of SHL)\n"
            "Sorter\nRegime\nSHL 7 F1\n"
            "Pike & Moss et al. (2011) [4]\nshelf only, greedy\n81.5\n"
            "Dunmore et al. (2013) [9]\nshelf only, greedy\n83.2\n"
            "Quillsort (3 stages)\nshelf only, greedy\n84.0\n"
            "Dunmore et al. (2013) [9]\nself-taught\n84.4\n"
            f"Quillsort (3 stages)\nself-taught\n{last_value}\n"
            "Pike & Moss et al. (2011) [4]\nmulti-shelf\n86.1\n"
            "In rows (B) we see that fewer stages hurt the sorter; the shell task follows.")


def test_a_row_whose_first_cell_is_on_the_line_before_keeps_both_cells() -> None:
    text = _two_cell_table("85.6")
    rows = {p.label: p for p in passages(text) if p.table}
    assert "Quillsort (3 stages) self-taught" in rows
    assert "Dunmore et al. (2013) [9] self-taught" in rows
    assert rows["Quillsort (3 stages) self-taught"].headers[-1] == "SHL 7 F1"
    assert _answer("SHL 7 F1 of Quillsort self-taught, shell sorting", text) == "85.6"
    assert _answer("SHL 7 F1 of Quillsort shelf only, shell sorting", text) == "84.0"
    # the look-alike: a sorter the table does not list; the regime's other rows are no answer
    assert _answer("SHL 7 F1 of Rocksort self-taught, shell sorting", text) is None


# -- a sub-row under a group label ---------------------------------------------------------

GROUPED = ("Sorter\nacc\nF1\n"
           "Rocksort\n70.1 80.2\n"
           "Quill-1 one-pass\n75.5 82.5\n"
           "two-pass\n75.9 82.6\n"
           "Quill-3 one-pass\n77.8 83.8\n"
           "two-pass\n{value} 83.9\n"
           "Table 4: Results for pebble sorting on PBL\n"
           "Rocksort is the sorter of the earlier work, a strong baseline for this shelf.")


def test_a_sub_row_carries_its_group_label() -> None:
    text = GROUPED.format(value="78.4")
    labels = [p.label for p in passages(text) if p.table]
    assert "Quill-3 two-pass" in labels and "Quill-1 two-pass" in labels
    assert _answer("quill3 with two passes, acuracy on pbl pebble sorting?", text) == "78.4"
    assert _answer("quill1 with two passes, acuracy on pbl pebble sorting?", text) == "75.9"
    # the look-alike: a group the table does not hold answers nothing
    assert _answer("quill2 with two passes, acuracy on pbl pebble sorting?", text) is None


# -- a keyword fragment ending in a quantity's name ----------------------------------------

SETTINGS = ("We train QuillNet for 12 rounds with Adam. The word vectors have 100 dimensions, "
            "and we set the batch size to 24, the epoch size to 30k and the learning rate "
            "to 0.002. "
            "QuillNet reaches 81.2 F1 on ShelfSet.")
NO_SETTINGS = ("We train QuillNet for 12 rounds with Adam. The word vectors have 100 "
               "dimensions and the step size is 0.002. QuillNet reaches 81.2 F1 on ShelfSet.")


def _setting(question: str, text: str) -> str | None:
    title = "Hierarchical quills for shelves"
    source = SourceText(key="corpus://pdf/a", title=title, windows=(text,),
                        identity=f"{title} QuillNet", full_text=text)
    check = check_answer(question, [source], TODAY, names=frozenset({"quillnet"}))
    return check.answer.value if check.answer else None


def test_a_fragment_naming_a_setting_asks_for_its_value() -> None:
    assert _setting("quillnet batch size?", SETTINGS) == "24"
    assert _setting("quillnet learning rate?", SETTINGS) == "0.002"
    # the look-alike: the paper states neither; the rounds or the step size are no answer
    assert _setting("quillnet batch size?", NO_SETTINGS) is None
    assert _setting("quillnet learning rate?", NO_SETTINGS) is None
    # a fragment naming nobody would take any paper's number: it asks for none
    assert _setting("batch size?", SETTINGS) is None


MEMORY = ("We train QuillNet on shelf sorting for 12 rounds. QuillNet keeps a pebble memory "
          "(memory size 5,000) of the most recent pebbles and samples from it at random. "
          "QuillNet reaches 81.2 F1 on ShelfSet.")
NO_MEMORY = ("We train QuillNet on shelf sorting for 12 rounds. In practice QuillNet only keeps "
             "the last pebbles in its pebble memory and samples from it at random. QuillNet "
             "reaches 81.2 F1 on ShelfSet.")


def _memory_check(question: str, text: str) -> dict:
    title = "Hierarchical quills for shelves"
    source = SourceText(key="corpus://pdf/a", title=title, windows=(text,),
                        identity=f"{title} QuillNet", full_text=text)
    return answer_check_dict(check_answer(question, [source], TODAY,
                                          names=frozenset({"quillnet"})))


def test_a_keyword_query_without_its_mark_ending_in_a_quantity_asks_a_number() -> None:
    # a keyword query as typed in a search box, no question mark: still the value of X's size
    answered = _memory_check("quillnet pebble memory size", MEMORY)
    assert answered["answer"] and answered["answer"]["value"] == "5,000"
    # the look-alike: the paper names the memory but states no size: a number question
    # unanswered (abstains), not a summary of the sentences about the memory
    for question in ("quillnet pebble memory size", "shelf sorting pebble memory size"):
        check = _memory_check(question, NO_MEMORY)
        assert check["answer"] is None and check["asks_number"], question
    # naming nobody it belongs to, even a stated size is no answer (any paper's would do)
    unnamed = _memory_check("shelf sorting pebble memory size", MEMORY)
    assert unnamed["answer"] is None and unnamed["asks_number"]
    # a keyword query asking no quantity stays a descriptive question
    assert not _memory_check("quillnet shelf sorting approach", MEMORY)["asks_number"]


# -- a parameter asked by its Greek letter's name ------------------------------------------

def _symbols(stated: str) -> str:
    return ("We use binarized features throughout. For QNB and QSVM, the binarized form is "
            "slightly better (by 1%) than the raw counts. All results reported use "
            f"\u03b1 = 1, C = 1, {stated}for QSVM, and C = 0.1 for SVM.")


def test_a_greek_letter_named_in_words_is_its_symbol() -> None:
    assert _setting("qsvm interpolation beta?", _symbols("\u03b2 = 0.35 ")) == "0.35"
    assert _setting("qsvm smoothing lambda?", _symbols("\u03bb = 0.6 ")) == "0.6"
    # the look-alikes: the letter is not stated, or another letter is: the other numbers of
    # the sentence ("by 1%", "C = 1", "\u03b1 = 1") are no answer
    assert _setting("qsvm interpolation beta?", _symbols("")) is None
    assert _setting("qsvm smoothing gamma?", _symbols("\u03b2 = 0.35 ")) is None

