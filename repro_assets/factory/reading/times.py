"""Due times: a small explicit grammar over tokens (hour of the day, 0-24).

Accepted, after a due keyword (``due``, ``deadline``, ``ship by`` ...):

* ``16``, ``9`` (a bare whole number is an hour of a 24-hour clock);
* ``16:00``, ``16.30``, ``1630``, ``1630 hrs``, ``16h30``, ``16h``, ``16:00 h`` (minutes make a
  fractional hour; normalization floors it and records the repair; a glued hour without
  minutes up to 12, ``due 2h``, is refused: two o'clock, or in two hours?);
* ``4pm``, ``11 am``, ``3 p.m.``, ``12pm`` (= 12);
* ``14.00 Uhr``, ``16 Uhr`` (the German word after a 24-hour clock; ``5 Uhr`` is refused, like
  ``5 o'clock``);
* ``noon``, ``midday``, ``12 noon`` (= 12); ``midnight``, ``12 midnight`` (= 24, the end of the
  day).

Everything else is refused with a reason (``tomorrow``, ``end of shift``, ``5 o'clock``, which
could be 5 or 17, ``12am``, which could be the start or the end of the day, ``13pm``): the
clause reader then reports the sentence as unread instead of guessing. A general date parser
(dateutil) was not used on purpose: it fills missing parts with defaults and accepts far more
than a deadline, which is the opposite of what the certainty rule needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.factory.reading.lexicon import Clock, Kind, Token

NOON_WORDS = frozenset({"noon", "midday"})
MIDNIGHT_WORDS = frozenset({"midnight"})


@dataclass(frozen=True)
class TimeReading:
    """A due time read from tokens: the hour (or None) and how many tokens it used."""

    hour: float | None
    used: int
    problem: str | None = None


def _clock_hour(clock: Clock) -> tuple[float | None, str | None]:
    if clock.minute >= 60:
        return None, f"{clock.hour}:{clock.minute:02d} is not a time"
    fraction = clock.minute / 60
    if clock.meridiem is None:
        return clock.hour + fraction, None
    if not 1 <= clock.hour <= 12:
        return None, f"{clock.hour}{clock.meridiem} is not a time"
    if clock.hour == 12:
        if clock.meridiem == "am":
            return None, "12am could be the start or the end of the day"
        return 12 + fraction, None
    return clock.hour + (12 if clock.meridiem == "pm" else 0) + fraction, None


def _hour_minute(hour: int, minute: int, text: str, used: int) -> TimeReading:
    """A 24-hour clock read as hour and minute (``24:00`` at most), using ``used`` tokens."""
    if minute >= 60 or hour > 24 or (hour == 24 and minute):
        return TimeReading(None, 0, f"{text} is not a time")
    return TimeReading(hour + minute / 60, used)


def _duration_clock(token: Token) -> TimeReading | None:
    """A duration-shaped token that is a 24-hour clock (``1530 hrs``, ``14h``, ``14h30``);
    None when the token is not one."""
    if token.kind is not Kind.DURATION:
        return None
    military = re.fullmatch(r"(\d{2})(\d{2})\s*(?:hrs|hours|h)", token.text, re.IGNORECASE)
    if military:  # "1530 hrs": a 24-hour clock
        return _hour_minute(int(military.group(1)), int(military.group(2)), token.text, 1)
    colon = re.fullmatch(r"(\d{1,2}):(\d{2})\s*(?:hours?|hrs?|h)", token.text, re.IGNORECASE)
    if colon:  # "due 16:00 h": a clock written with the unit of hours
        return _hour_minute(int(colon.group(1)), int(colon.group(2)), token.text, 1)
    glued = re.fullmatch(r"(\d{1,2})h(\d{2})?", token.text, re.IGNORECASE)
    if glued and glued.group(2) is None and int(glued.group(1)) <= 12:
        # "due 2h", "delivery 2h": two o'clock, or two hours of delivery?
        return TimeReading(None, 0, f"'{token.text}' could be an hour of the day or a span")
    if glued:  # "due 14h", "due 14h30": French-style clock
        return _hour_minute(int(glued.group(1)), int(glued.group(2) or 0), token.text, 1)
    return None


def _number_time(token: Token, following: Token | None) -> TimeReading:
    """A time that starts with a bare number (``16``, ``1500``, ``12 noon``)."""
    value = token.value
    if following is not None and following.is_word("o'clock", "oclock"):
        return TimeReading(None, 0, f"'{token.text} o'clock' could be morning or afternoon")
    if value == 12 and following is not None and following.is_word(*NOON_WORDS):
        return TimeReading(12.0, 2)
    if value == 12 and following is not None and following.is_word(*MIDNIGHT_WORDS):
        return TimeReading(24.0, 2)
    if value != int(value):
        return TimeReading(None, 0, f"{token.text} is not an hour of the day")
    if len(token.text) == 4 and token.text.isdigit():  # "1500": 24-hour clock as HHMM
        hour, minute = divmod(int(token.text), 100)
        hours_word = following is not None and following.is_word("hrs", "hours", "h")
        return _hour_minute(hour, minute, token.text, 2 if hours_word else 1)
    return TimeReading(float(value), 1)


def read_time(tokens: list[Token], index: int) -> TimeReading:
    """Read a due time starting at ``tokens[index]``.

    Args:
        tokens: the clause tokens.
        index: where the time should start (right after the due keyword and prepositions).

    Returns:
        The hour and the number of tokens used, or ``hour=None`` with the problem.
    """
    if index >= len(tokens):
        return TimeReading(None, 0, "no time follows")
    token = tokens[index]
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    clock = _duration_clock(token)
    if clock is not None:
        return clock
    if token.kind is Kind.CLOCK:
        hour, problem = _clock_hour(token.value)
        if hour is not None and token.value.meridiem is None and following is not None and (
                following.is_word("uhr")):
            return TimeReading(hour, 2)  # "14.00 Uhr": the German word after a 24-hour clock
        return TimeReading(hour, 1 if hour is not None else 0, problem)
    if token.kind is Kind.NUMBER:
        if following is not None and following.is_word("uhr"):
            if token.text.isdigit() and 13 <= int(token.text) <= 24:
                return TimeReading(float(token.text), 2)  # "16 Uhr"
            return TimeReading(None, 0, f"'{token.text} Uhr' could be morning or afternoon")
        return _number_time(token, following)
    if token.is_word(*NOON_WORDS):
        return TimeReading(12.0, 1)
    if token.is_word(*MIDNIGHT_WORDS):
        return TimeReading(24.0, 1)
    return TimeReading(None, 0, f"'{token.text}' is not a time of day")
