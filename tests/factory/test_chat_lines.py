"""A chat thread pasted as it shows (#24): message headers (a name and the time it was sent),
emoji and ``:shortcodes:`` in the text, lines of reaction counts. They say nothing about the
plan and go; a mark of work done or of doubt stays for the reader, and a name with a time
that the text uses elsewhere (a machine's name) is no header.
"""

from __future__ import annotations

import pytest

from repro_assets.factory.reading.chat import chat_lines
from tests.factory.phrasing_sets import fails, jobs_of

THREAD = ("#line-2\n"
          "Mara  5:58 AM\n"
          ":coffee: hi all, today's list :arrow_down:\n"
          "- J7: M4 1h, then M5 2h \U0001f525 needed by 2pm\n"
          "- J8: M5 1h\n"
          "   :+1: 2   \U0001f440 1\n"
          "Olek  6:03 AM\n"
          "ok \U0001f44c M4 is warm already\n")


def test_a_threads_pictures_reactions_and_headers_say_nothing() -> None:
    assert jobs_of(THREAD) == {"J7": (["M4", "M5"], [1, 2], 14), "J8": (["M5"], [1], None)}


def test_the_lines_left_keep_their_indent_and_single_spaces() -> None:
    lines = THREAD.split("\n")
    chat_lines(lines)
    assert lines[:4] == ["#line-2", "hi all, today's list", "- J7: M4 1h, then M5 2h needed by 2pm",
                         "- J8: M5 1h"]


@pytest.mark.parametrize("message", [
    "J8 \u2705 done",  # a mark of work done
    ":white_check_mark: J8",
    "J8 on M4 too? \U0001f914",  # a question with a picture of doubt
])
def test_a_mark_of_status_or_doubt_stays_and_fails_with_a_code(message: str) -> None:
    assert "INVALID_STRUCTURE" in fails(f"{THREAD}Mara  6:09 AM\n{message}\n")


def test_a_machines_name_and_a_time_is_no_header() -> None:
    lines = ["Machines: M4 (Shear), M5 (Laser)", "Shear 7:00", "J7: M4 1h", "Laser 9:30",
             "J8: M5 1h"]
    kept = list(lines)
    chat_lines(lines)
    assert lines == kept


def test_a_coloured_dot_of_state_stays_for_the_reader() -> None:
    # a probe: a red dot after a card was removed as a picture and the job planned
    assert "INVALID_STRUCTURE" in fails("Ana  7:02 AM\n- J7: M4 2h \U0001f534\n- J8: M4 1h\n"
                                        "Ben  7:30 AM\nok\n")
