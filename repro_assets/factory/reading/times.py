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
  day);
* spoken times: ``two in the afternoon`` (= 14), ``9 in the morning``, ``seven in the evening``,
  ``quarter past two in the afternoon``, ``half past 3 pm``, ``quarter to four p.m.`` (the part
  of the day or the meridiem must be said: ``half past two`` alone could be morning or
  afternoon and is refused, like ``5 o'clock``).

Everything else is refused with a reason (``tomorrow``, ``end of shift``, ``5 o'clock``, which
could be 5 or 17, ``12am``, which could be the start or the end of the day, ``13pm``): the
clause reader then reports the sentence as unread instead of guessing. A general date parser
(dateutil) was not used on purpose: it fills missing parts with defaults and accepts far more
than a deadline, which is the opposite of what the certainty rule needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.factory.reading.lexicon import NUMBER_WORDS, Clock, Kind, Token

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


#: The parts of the day a spoken time may name, with the hours (1-12) each allows and what it
#: adds to them: "two in the afternoon" is 14, "seven in the evening" 19, "nine in the morning" 9.
_DAY_PARTS: dict[str, tuple[range, int]] = {
    "morning": (range(1, 12), 0), "afternoon": (range(1, 12), 12), "evening": (range(4, 12), 12),
}
_QUARTERS = {("quarter", "past"): 0.25, ("half", "past"): 0.5, ("quarter", "to"): -0.25}


def _spoken_hour(token: Token) -> int | None:
    """The hour (1-12) of a token that says one in digits or words (not "a"/"an")."""
    if token.kind is Kind.NUMBER and token.text.isdigit():
        value = int(token.text)
    elif token.kind is Kind.WORD and token.value in NUMBER_WORDS and token.value not in (
            "a", "an"):
        value = int(NUMBER_WORDS[token.value])
    else:
        return None
    return value if 1 <= value <= 12 else None


def _day_part(tokens: list[Token], index: int) -> str | None:
    """The part of the day of ``in the afternoon`` starting at ``tokens[index]``, or None."""
    words = [t.value if t.kind is Kind.WORD else None for t in tokens[index:index + 3]]
    if len(words) == 3 and words[0] == "in" and words[1] == "the" and words[2] in _DAY_PARTS:
        return words[2]
    return None


def _spoken_time(tokens: list[Token], index: int) -> TimeReading | None:
    """A time of day as it is said (``two in the afternoon``, ``quarter past two p.m.``), or
    None when the tokens at ``index`` do not start one."""
    offset, position = 0.0, index
    pair = tuple(t.value if t.kind is Kind.WORD else "" for t in tokens[index:index + 2])
    if pair in _QUARTERS:
        offset, position = _QUARTERS[pair], index + 2  # "quarter past", "half past", ...
    if position >= len(tokens):
        return TimeReading(None, 0, "no hour follows") if offset else None
    token = tokens[position]
    said = " ".join(t.text for t in tokens[index:position + 1])
    if offset and token.kind is Kind.CLOCK and token.value.minute == 0 and (
            token.value.meridiem is not None):  # "quarter past two p.m.", "half past 3pm"
        hour, problem = _clock_hour(token.value)
        if hour is None:
            return TimeReading(None, 0, problem)
        return TimeReading(hour + offset, position - index + 1)
    hour_said = _spoken_hour(token)
    if hour_said is None:
        return TimeReading(None, 0, f"'{said}' is not a time of day") if offset else None
    after = position + 1
    if after < len(tokens) and tokens[after].is_word("o'clock", "oclock"):
        after += 1  # "four o'clock in the afternoon"
    said = " ".join(t.text for t in tokens[index:after])
    part = _day_part(tokens, after)
    if part is None:
        if offset or after > position + 1:
            return TimeReading(None, 0, f"'{said}' could be morning or afternoon")
        return None
    hours, added = _DAY_PARTS[part]
    if hour_said not in hours:
        return TimeReading(None, 0, f"'{said} in the {part}' is not a time of day")
    return TimeReading(hour_said + added + offset, after + 3 - index)


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
    spoken = _spoken_time(tokens, index)
    if spoken is not None:
        return spoken
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
