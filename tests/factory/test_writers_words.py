"""A refusal quotes the writer's own words, whatever line pass rewrote them (#24).

Every line pass (a chat's pictures removed, a key's names made ids, a record, a copy, a
topic, a sheet, a heading over steps, fractions and foreign units, fillers) keeps where its
lines came from; an error about a rewritten sentence quotes what the writer wrote (a verbatim
part of the text), the rewritten form after it as ``read as``, with the code and the ids whose
coverage is lost.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ExtractionError
from repro_assets.factory.reading.provenance import TracedLines, rebuild

# (text, the writer's words the error must quote, ids that lost coverage)
CASES = {
    "chat": ("Rosa  8:15 AM\nJ7: M4 2h \U0001f525 then M5 1h \u2753\nTed  8:20 AM\n"
             "J8: M5 1h\n", "J7: M4 2h \U0001f525 then M5 1h \u2753", {"J7", "M4", "M5"}),
    "key": ("Key: A = M4, B = M5\nJ7: A 2h, B 1h\nJ8 maybe goes through B later.\n",
            "J8 maybe goes through B later", {"J8", "M5"}),
    "record": ("[J7] Gear blanks | Route: M4 (1h) -> M5 (2h) or so | Due: 15:00\n"
               "[J8] Lid | Route: M4 (1h)\n",
               "[J7] Gear blanks | Route: M4 (1h) -> M5 (2h) or so | Due: 15:00",
               {"J7", "M4", "M5"}),
    "copy": ("J7 runs M4 2h then M5 1h.\nJ8 is like J7, plus 2h on M6 somewhere.\n",
             "J8 is like J7, plus 2h on M6 somewhere", {"J8", "J7", "M6"}),
    "topic": ("J6: M5 3h. For J7 we run M4 2h, then M5 1h or so.\n",
              "For J7 we run M4 2h, then M5 1h or so", {"J7", "M4", "M5"}),
    "heading over steps": ("J7: M6 1h\n\nPart J7 (hinge)\n  OP10  M4  run 1.0 h\n"
                           "  OP20  M5  run 2.0 h\n",
                           "Part J7 (hinge)\n  OP10  M4  run 1.0 h\n  OP20  M5  run 2.0 h",
                           {"J7", "M4", "M5"}),
    "sheet": ("J7: M6 1h\n\nCard\nOrder: J7   Due: 12:00\nOp  Station  Hrs\n10  M4  2\n"
              "20  M5  1\n", "Card\nOrder: J7   Due: 12:00\nOp  Station  Hrs\n10  M4  2\n20  M5  1",
              {"J7", "M4", "M5"}),
    "table under a job's heading": ("Job J7  (due 16:00)\nOp  Machine  Hours\n10  M4  2\n"
                                    "20  M5  soon\n", "20  M5  soon", {"J7", "M5"}),
    "fraction": ("J7: M4 1\u00bdh then M5 soonish\nJ8: M5 1h\n",
                 "J7: M4 1\u00bdh then M5 soonish", {"J7", "M4", "M5"}),
    "foreign unit": ("J7: M5 2 Std. maybe\nJ8: M5 1h\n", "J7: M5 2 Std. maybe", {"J7", "M5"}),
}


def _error(text: str) -> ExtractionError:
    with pytest.raises(ExtractionError) as raised:
        OnboardingAgent().run_detailed(text)
    return raised.value


@pytest.mark.parametrize("family", sorted(CASES))
def test_a_refused_rewritten_line_is_quoted_in_the_writers_words(family: str) -> None:
    text, words, ids = CASES[family]
    assert words in text  # the quote is a verbatim part of what was written
    error = _error(text)
    assert error.code.value == "INVALID_STRUCTURE"
    assert f"could not read '{words}'" in str(error)
    assert "read as: '" in str(error)
    unread = [u for u in error.details["unread"] if u["sentence"] == words]
    assert unread and unread[0]["read_as"] and unread[0]["read_as"] != words
    assert ids <= set(error.details["unread_ids"])


def test_a_reason_that_quotes_a_rewritten_sentence_quotes_the_writer() -> None:
    error = _error("J7: M6 1h\n[J7] Gear blanks | Route: M4 (1h) | Due: 15:00\n")
    assert "('J7: M6 1h'; '[J7] Gear blanks | Route: M4 (1h) | Due: 15:00')" in str(error)


def test_a_sentence_as_written_is_quoted_as_before() -> None:
    error = _error("J7: M4 2h then M5 sometime\nJ8: M5 1h\n")
    assert "could not read 'J7: M4 2h then M5 sometime': " in str(error)
    assert "read as" not in str(error)
    assert error.details["unread"][0]["read_as"] is None


def test_traced_lines_keep_the_writers_lines_through_edits() -> None:
    written = ["a", "b", "c", "d"]
    lines = TracedLines(written, [frozenset({i}) for i in range(4)], written)
    lines[0] = "A"  # one line rewritten: its own origin
    lines[1:3] = ["bc"]  # two lines made one: both origins
    lines.insert(0, "before a")  # an inserted line: the line it stands before
    del lines[-1]
    assert list(lines) == ["before a", "A", "bc"]
    assert lines.origins == [frozenset({0}), frozenset({0}), frozenset({1, 2})]
    rebuild(lines, [("x", (2,)), ("y", (0, 1))])
    assert lines.origins == [frozenset({1, 2}), frozenset({0})]
    assert lines.writers_text(lines.origins[0]) == "b\nc"
    plain = ["p", "q"]
    rebuild(plain, [("r", (0, 1))])
    assert plain == ["r"]
