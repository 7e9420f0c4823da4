"""Families of speech any writer may use (#24): times of day in words, hesitations, a duration
taken back in more than one word, a transcript in quotes, a statement opened before its job.

Each family is read by structure; its look-alikes, where the text does not say enough, fail
with a code that quotes the sentence.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

PLANT = "Machines: M4, M5.\n"


@pytest.mark.parametrize(("said", "hour"), [
    ("two in the afternoon", 14),
    ("nine in the morning", 9),
    ("7 in the evening", 19),
    ("four o'clock in the afternoon", 16),
    ("quarter past two in the afternoon", 14),  # 14.25, floored with a repair
    ("half past 3 pm", 15),
    ("quarter to five p.m.", 16),  # 16.75, floored
])
def test_a_time_of_day_said_in_words_is_a_due(said: str, hour: int) -> None:
    text = f"{PLANT}J7: M4 2h, then M5 1h, due {said}.\n"
    assert jobs_of(text) == {"J7": (["M4", "M5"], [2, 1], hour)}


@pytest.mark.parametrize(("said", "reason"), [
    ("half past two", "could be morning or afternoon"),
    ("quarter past 2", "could be morning or afternoon"),
    ("four o'clock", "could be morning or afternoon"),
    ("12 in the afternoon", "is not a time of day"),
    ("3 in the evening", "is not a time of day"),
    ("half past noon", "is not a time of day"),
])
def test_a_time_in_words_that_does_not_say_the_hour_of_the_day_fails(said: str,
                                                                     reason: str) -> None:
    message = fails(f"{PLANT}J7: M4 2h, due {said}.\n")
    assert f"due {said}" in message and reason in message


def test_a_start_time_in_words_is_no_due() -> None:
    assert "starts at two in the afternoon" in fails(
        f"{PLANT}J7 starts at two in the afternoon: M4 2h\n")


def test_hesitations_of_speech_say_nothing() -> None:
    text = (f"{PLANT}J7 goes on M4 for uh three hours, and then M5 for, um, an hour and a half."
            " Needs to ship by, uh, four p.m.\nJ8: M4 2h, uh, M5 1h\n")
    assert jobs_of(text) == {"J7": (["M4", "M5"], [3, 2], 16), "J8": (["M4", "M5"], [2, 1], None)}


def test_a_word_that_only_starts_like_a_hesitation_stays() -> None:
    assert "umpteen" in fails(f"{PLANT}J7: M4 umpteen hours\n")


@pytest.mark.parametrize("taken_back", ["- no, sorry, two hours -", ", no, sorry, two hours,"])
def test_a_duration_taken_back_in_several_words(taken_back: str) -> None:
    text = f"{PLANT}J7 is M5 for three hours {taken_back} and then M4 for one hour.\n"
    assert jobs_of(text) == {"J7": (["M5", "M4"], [2, 1], None)}


def test_a_duration_taken_back_for_another_machine_fails() -> None:
    assert "no, sorry, M4 two hours" in fails(
        f"{PLANT}J7 is M5 for three hours, no, sorry, M4 two hours.\n")


def test_a_transcript_in_quotes_with_openers_before_its_jobs() -> None:
    text = (f"{PLANT}\"Right, uh, J7. It starts on M4, forty-five minutes, then M5 for two "
            "hours. Needs to ship by four p.m. And J8 is M5, one hour.\"\n")
    assert jobs_of(text) == {"J7": (["M4", "M5"], [1, 2], 16), "J8": (["M5"], [1], None)}


def test_quotes_around_a_word_are_no_transcript() -> None:
    assert "\"rush\"" in fails(f"{PLANT}\"J7: M4 2h\" and \"rush\"\n")
