"""Numbers a passage states: candidates for the asked quantity, and checks that a text gives
a checked number (a citation mark, year or section number is no finding).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from repro_assets.research.question_terms import TIME_UNITS, YEAR_RE


@dataclass(frozen=True)
class NumberToken:
    """A number in a passage: its text, position (in words) and unit cue."""

    text: str
    position: int
    unit: str


def numbers_in(text: str) -> list[NumberToken]:
    """Numbers of a passage that can be answers (not years, references, names or labels)."""
    out: list[NumberToken] = []
    words = text.split()
    for position, word in enumerate(words):
        bare = word.strip(",;:.)(")
        if word.startswith(("[", "(")) and word.rstrip(",;:.").endswith(("]", ")")):
            continue  # citations and equation numbers
        # thousands may be grouped by commas ("19,544 questions")
        m = re.fullmatch(r"([-\u2212]?\d{1,3}(?:,\d{3})+|[-\u2212]?\d+(?:\.\d+)?)(%|x|\u00d7)?",
                         bare)
        if not m:
            continue
        value = m.group(1)
        if YEAR_RE.fullmatch(value) and not _after_a_size(words, position):
            continue
        prev = words[position - 1].lower().strip(".,") if position else ""
        if prev in ("table", "tab", "figure", "fig", "section", "sec", "eq", "equation",
                    "appendix", "chapter", "step", "layer"):
            continue
        after = words[position + 1] if position + 1 < len(words) else ""
        if position == 0 and after[:1].isupper() and "." not in value:
            continue  # a section number before a heading ("4 Experiments")
        following = after.lower()
        unit = m.group(2) or ""
        if not unit and following.startswith("times"):
            unit = "x"
        if not unit and any(following.startswith(u) for u in TIME_UNITS):
            unit = "time"
        second = words[position + 2].lower() if position + 2 < len(words) else ""
        if not unit and (after.isupper() or following in _TIME_OF) and \
                any(second.startswith(u) for u in TIME_UNITS):
            unit = "time"  # "250,000 GPU hours", "30 wall-clock days": time of a device
        if not unit and following.startswith("%"):
            unit = "%"
        if not unit and re.match(r"(million|billion|thousand|[mbk]\b)", following):
            unit = "size"  # "350 million parameters": a model's size, not a score
        out.append(NumberToken(text=value.replace("\u2212", "-"), position=position,
                               unit=unit))
    return out


#: Words between a number and its time unit that say whose time it is ("GPU hours").
_TIME_OF = frozenset({"wall-clock", "compute", "machine", "core", "device", "accelerator"})


def _after_a_size(words: list[str], position: int) -> bool:
    """The number follows a size word ("size of 2048", "dimension 2000"): a size, not
    a year."""
    before = [w.lower().strip(".,;:()") for w in words[max(0, position - 2): position]]
    return any(w in ("size", "sizes", "dimension", "dimensions") for w in before)


def kind_fits(token: NumberToken, kind: str) -> bool:
    """The number is of the asked ``kind`` (a ratio, duration, count or value)."""
    if kind == "ratio":
        return token.unit in ("x", "\u00d7")
    if kind == "duration":
        return token.unit == "time"
    if kind == "count":
        return "." not in token.text and token.unit not in ("x", "\u00d7", "%")
    if kind == "value":
        return token.unit not in ("x", "\u00d7", "time", "size") and (
            "." in token.text or token.unit == "%"
            or 10 <= abs(float(token.text.replace(",", ""))) < 1000)
    return False


def number_in_quotes(number: str, quotes: Sequence[str]) -> bool:
    """True when ``number`` occurs as a whole number token in one of ``quotes``.

    ``85.3`` is in "85.30%", ``30`` is not in "300".
    """
    try:
        target = float(number.replace(",", ""))
    except ValueError:
        return False
    for quote in quotes:
        for match in re.finditer(r"(?<![\d.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])", quote):
            try:
                if float(match.group(0).replace(",", "")) == target:
                    return True
            except ValueError:
                continue
    return False


def answer_given(value: str, text: str) -> bool:
    """``text`` gives the checked answer ``value``: the same number (85.3 ~ "85.30"), or for
    a name ("Adagrad") the name as a whole word."""
    if re.fullmatch(r"[-\u2212]?\d[\d,]*(?:\.\d+)?%?", value.strip()):
        return number_in_quotes(value.rstrip("%"), [text])
    return re.search(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", text,
                     re.IGNORECASE) is not None


def numbers_stated(text: str) -> list[str]:
    """Numbers a text presents as findings (not citation marks, years or list labels)."""
    cleaned = re.sub(r"\[[\d,;\s\-\u2013]+\]", " ", text)
    return [n.text for n in numbers_in(cleaned)]
