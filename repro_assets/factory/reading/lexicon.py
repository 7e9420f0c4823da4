"""Tokens of a factory description: ids, id ranges, durations, clock times, words.

One regular-expression scanner turns a clause into :class:`Token`s. What it recognizes is
deliberately small and explicit, so that anything else stays a plain word (or an ``OTHER``
symbol) that the clause reader must account for:

* machine and job ids with the stage-0 patterns (``M1``, ``M_CNC``, ``J12``, ``J_A``) and
  ascending id ranges (``M1-M3``, ``J1 through J3``; not ``from M1 to M3``, which is a route);
* durations: ``2h``, ``2 hrs``, ``1.5 hours``, ``120 minutes``, ``180 min``, ``15 s``, ``one hour``,
  ``an hour``, ``half an hour``, ``an hour and a half``, ``1h 30min``, ``1h30``, ``2-hour``;
* clock times: ``14:00``, ``16.30``, ``4pm``, ``11 am``, ``3 p.m.``; bare numbers stay numbers
  (the due-time grammar in :mod:`repro_assets.factory.reading.times` decides what they mean);
* route arrows (``->``, ``→``, ``=>`` ...), commas, colons, parentheses, ``&``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from repro_assets.factory.ids import ID_EDGE_AFTER, ID_EDGE_BEFORE, MAX_RANGE, id_pattern

#: The unit words of a printed duration, as one alternation for the line passes' patterns
#: ("2h", "3 hrs", "1.5 hours", "45 min", "90 minutes"); the scanner below reads more forms.
DURATION_UNIT = r"h|hrs?|hours?|min|mins|minutes?"

NUMBER_WORDS: dict[str, float] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
}
#: Tens and teens as a transcript writes minutes ("ninety minutes", "forty-five minutes").
MINUTE_WORDS: dict[str, float] = {
    "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "forty-five": 45, "forty five": 45,
    "twenty-five": 25, "twenty five": 25, "thirty-five": 35, "thirty five": 35,
}


class Kind(StrEnum):
    """Token kinds."""

    MACHINE = "MACHINE"
    JOB = "JOB"
    MACHINE_RANGE = "MACHINE_RANGE"
    JOB_RANGE = "JOB_RANGE"
    DURATION = "DURATION"
    CLOCK = "CLOCK"
    NUMBER = "NUMBER"
    WORD = "WORD"
    ARROW = "ARROW"
    COMMA = "COMMA"
    COLON = "COLON"
    LPAREN = "LPAREN"
    RPAREN = "RPAREN"
    AMP = "AMP"
    POSSESSIVE = "POSSESSIVE"
    OTHER = "OTHER"


@dataclass(frozen=True)
class Clock:
    """A clock time as written: hour, minute and an optional ``am``/``pm``."""

    hour: int
    minute: int
    meridiem: str | None


@dataclass(frozen=True)
class Token:
    """One token of a clause.

    Attributes:
        kind: the token kind.
        text: the text as written.
        start: offset of the first character in the clause.
        end: offset after the last character.
        value: ids tuple for ids and ranges, hours (float) for durations, :class:`Clock` for
            clock times, float for numbers, the lower-cased word for words.
    """

    kind: Kind
    text: str
    start: int
    end: int
    value: Any = None

    def is_word(self, *words: str) -> bool:
        """True when this is a word token equal to one of ``words`` (lower case)."""
        return self.kind is Kind.WORD and self.value in words


_NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_HOUR_UNIT = r"(?:hours?|hrs?|h)"
_MINUTE_UNIT = r"(?:minutes?|mins?)"
_SECOND_UNIT = r"(?:seconds?|secs?|s)"
_AMOUNT = rf"(?:\d+(?:\.\d+)?|{_NUMBER_WORD}|an?)"
_MINUTE_WORD = (r"(?:(?:twenty|thirty|forty)[\s-](?:five)|fifteen|twenty|thirty|forty|fifty|"
                r"sixty|seventy|eighty|ninety)")

_PATTERNS = [
    ("RANGE", rf"{ID_EDGE_BEFORE}(?P<rk>[MJ])(?P<ra>\d+)"
              rf"(?:\s*(?:-|–|—|\.\.)\s*|\s+(?:to|through|thru)\s+)"
              rf"(?P=rk)(?P<rb>\d+){ID_EDGE_AFTER}"),
    ("HALF_HOUR", r"(?i:\b(?:half\s+an?\s+hour|a\s+half[\s-]hour|half[\s-]hour)\b)"),
    ("ONE_MORE_HOUR", r"(?i:\b(?:another|one\s+more)\s+hour\b)"),
    ("HOUR_AND_HALF", rf"(?i:\b(?P<hh>{_AMOUNT})\s+hours?\s+and\s+a\s+half\b)"),
    ("HOURS_MINUTES", rf"(?i:\b(?P<hm_h>\d+)\s*{_HOUR_UNIT}\s*(?:and\s+)?(?P<hm_m>\d+)\s*"
                      rf"(?:{_MINUTE_UNIT}|m)\b"
                      rf"|\b(?P<hc_h>\d+)h(?P<hc_m>\d{{2}})\b"
                      # "1:30 h": hours and minutes with the unit of hours after them
                      rf"|\b(?P<hk_h>\d{{1,2}}):(?P<hk_m>[0-5]\d)\s*{_HOUR_UNIT}\b"
                      # "2 h 30,": spaced, and only where no unit or word follows
                      rf"|\b(?P<hs_h>\d+)(?:\s+h\s*|\s*h\s+)(?P<hs_m>\d{{2}})\b"
                      rf"(?![:.]\d|\s*[A-Za-z]))"),
    ("WORD_MINUTES", rf"(?i:\b(?P<wm>{_MINUTE_WORD})\s+{_MINUTE_UNIT}\b)"),
    ("SECONDS", rf"(?i:\b(?P<seconds>\d+(?:\.\d+)?)\s*{_SECOND_UNIT}\b)"),
    # "1,5 h": a decimal comma (one or two digits after it, then the unit)
    ("DURATION", rf"(?i:\b(?P<amount>\d+,\d{{1,2}}(?=\s*(?:{_HOUR_UNIT}|{_MINUTE_UNIT})\b)"
                 rf"|{_AMOUNT})\s*-?\s*(?P<unit>{_HOUR_UNIT}|{_MINUTE_UNIT})\b)"),
    # "three pm": an hour in words with its meridiem, as a transcript writes it
    ("WORD_CLOCK", rf"(?i:\b(?P<wch>{_NUMBER_WORD})\s+(?P<wmer>a\.m\.?|p\.m\.?|am\b|pm\b))"),
    ("CLOCK", r"(?i:\b(?P<ch>\d{1,2})(?:[:.](?P<cm>\d{2}))?\s*"
              r"(?P<mer>a\.m\.?|p\.m\.?|am\b|pm\b)|\b(?P<ch2>\d{1,2})[:.](?P<cm2>\d{2})\b)"),
    # "1,200 caps": a count with thousands separators, before a noun that is no unit
    ("THOUSANDS", rf"\b\d{{1,3}}(?:,\d{{3}})+(?=\s+(?!(?:{_HOUR_UNIT}|{_MINUTE_UNIT}|"
                  rf"{_SECOND_UNIT})\b)[a-z]{{3,}}\b)"),
    ("NUMBER", r"\b\d+(?:\.\d+)?\b"),
    ("ID", id_pattern()),
    ("ARROW", r"-->|->|=>|—>|→|⟶|➔|➜|➡|⇒|>"),
    ("POSSESSIVE", r"'s\b"),
    ("WORD", r"[A-Za-z][A-Za-z0-9]*(?:['\-][A-Za-z0-9]+)*"),
    ("COMMA", r","),
    ("COLON", r":"),
    ("LPAREN", r"[(\[]"),
    ("RPAREN", r"[)\]]"),
    ("AMP", r"&|\+"),
    ("SPACE", r"\s+"),
    ("OTHER", r"."),
]
_SCANNER = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _PATTERNS))
_SCANNER_NO_RANGES = re.compile(
    "|".join(f"(?P<{name}>{pattern})" for name, pattern in _PATTERNS if name != "RANGE")
)


def _amount(text: str) -> float:
    lowered = text.lower()
    if lowered in NUMBER_WORDS:
        return float(NUMBER_WORDS[lowered])
    return float(lowered.replace(",", "."))


def _duration(match: re.Match[str]) -> float:
    unit = match.group("unit").lower()
    value = _amount(match.group("amount"))
    return value / 60 if unit.startswith("m") else value


def _range_members(match: re.Match[str]) -> tuple[str, ...] | None:
    start, end = match.group("ra"), match.group("rb")
    first, last = int(start), int(end)
    if last <= first or last - first >= MAX_RANGE:
        return None
    width = len(start) if start.startswith("0") else 0
    return tuple(f"{match.group('rk')}{str(n).zfill(width)}" for n in range(first, last + 1))


def _split_range(match: re.Match[str], text: str) -> list[Token]:
    """Tokens of a range-shaped match that is not a range (descending, or ``from M1 to M3``)."""
    return [
        Token(t.kind, t.text, t.start + match.start(), t.end + match.start(), t.value)
        for t in tokenize(text[match.start():match.end()], ranges=False)
    ]


def _range_tokens(match: re.Match[str], text: str, ranges: bool) -> list[Token]:
    """The token(s) of a range-shaped match: one range token, or its parts when it is not a
    range (descending, too long, ``from M1 to M3``, or ranges are off)."""
    ids = _range_members(match) if ranges else None
    preceded_by_from = re.search(r"(?i:\b(?:from|via)\s+)$", text[:match.start()]) is not None
    if ids is None or preceded_by_from:
        return _split_range(match, text)
    range_kind = Kind.MACHINE_RANGE if ids[0].startswith("M") else Kind.JOB_RANGE
    return [Token(range_kind, match.group(0), match.start(), match.end(), ids)]


_DURATION_KINDS = frozenset({"ONE_MORE_HOUR", "HALF_HOUR", "HOUR_AND_HALF", "HOURS_MINUTES",
                             "DURATION", "SECONDS", "WORD_MINUTES"})


def _duration_hours(kind: str, match: re.Match[str]) -> float:
    """The hours of a match of one of the ``_DURATION_KINDS`` patterns."""
    if kind == "ONE_MORE_HOUR":  # "M4 again for one more hour": that step's hour
        return 1.0
    if kind == "HALF_HOUR":
        return 0.5
    if kind == "HOUR_AND_HALF":
        return _amount(match.group("hh")) + 0.5
    if kind == "HOURS_MINUTES":
        hours = int(match.group("hm_h") or match.group("hc_h") or match.group("hs_h")
                    or match.group("hk_h"))
        return hours + int(match.group("hm_m") or match.group("hc_m") or match.group("hs_m")
                           or match.group("hk_m")) / 60
    if kind == "SECONDS":
        return float(match.group("seconds")) / 3600
    if kind == "WORD_MINUTES":
        return MINUTE_WORDS[re.sub(r"\s+", " ", match.group("wm").lower())] / 60
    return _duration(match)


def _clock(match: re.Match[str]) -> Clock:
    if match.group("wch"):
        return Clock(int(NUMBER_WORDS[match.group("wch").lower()]), 0,
                     match.group("wmer").lower().replace(".", ""))
    hour = match.group("ch") or match.group("ch2")
    minute = match.group("cm") or match.group("cm2") or "0"
    meridiem = (match.group("mer") or "").lower().replace(".", "") or None
    return Clock(int(hour), int(minute), meridiem)


def _token(kind: str, match: re.Match[str]) -> Token:
    """The token of a match of pattern ``kind`` (not a range, not whitespace)."""
    raw, start, end = match.group(0), match.start(), match.end()
    if kind in _DURATION_KINDS:
        return Token(Kind.DURATION, raw, start, end, _duration_hours(kind, match))
    if kind in ("CLOCK", "WORD_CLOCK"):
        return Token(Kind.CLOCK, raw, start, end, _clock(match))
    if kind == "NUMBER":
        return Token(Kind.NUMBER, raw, start, end, float(raw))
    if kind == "THOUSANDS":
        return Token(Kind.NUMBER, raw, start, end, float(raw.replace(",", "")))
    if kind == "ID":
        id_kind = Kind.MACHINE if raw.startswith("M") else Kind.JOB
        return Token(id_kind, raw, start, end, (raw,))
    if kind == "WORD":
        return Token(Kind.WORD, raw, start, end, raw.lower())
    return Token(Kind[kind], raw, start, end, raw)


def tokenize(text: str, *, ranges: bool = True) -> list[Token]:
    """Split ``text`` into tokens (whitespace dropped).

    Args:
        text: one clause (or any short text).
        ranges: read ``M1-M3`` style ranges (off when re-scanning a rejected range).

    Returns:
        The tokens in order.
    """
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = (_SCANNER if ranges else _SCANNER_NO_RANGES).match(text, position)
        assert match is not None  # the OTHER alternative matches any character
        groups = match.groupdict()  # once per token, not once per alternative tried
        kind = next(name for name, _ in _PATTERNS if groups.get(name) is not None)
        position = match.end()
        if kind == "SPACE":
            continue
        if kind == "RANGE":
            tokens += _range_tokens(match, text, ranges)
        else:
            tokens.append(_token(kind, match))
    return tokens
