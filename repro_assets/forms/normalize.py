"""Deterministic, pure normalization of field values and of text used for matching.

Dates use ``dateutil`` (US month/day order for numeric dates), phones use ``phonenumbers``
(E.164; numbers written without a country code are read as US numbers and flagged
``default_country_assumed``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

import phonenumbers
from dateutil import parser as date_parser

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
DATE_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b"),
    re.compile(rf"\b\d{{4}}[-/ ]{_MONTHS}\.?[-/ ]\d{{1,2}}\b", re.IGNORECASE),
    re.compile(rf"\b\d{{1,2}}[-/ ]{_MONTHS}\.?[-/ ]\d{{4}}\b", re.IGNORECASE),
    re.compile(r"\b\d{1,2}[/.\-]\d{1,2}[/.\-](?:\d{4}|\d{2})\b"),
    re.compile(rf"\b{_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.IGNORECASE),
    re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}\.?,?\s+\d{{4}}\b", re.IGNORECASE),
)
LIST_SEPARATOR = "; "


class NormalizationError(ValueError):
    """A raw value cannot be normalized for its field type."""

    code = "normalization_failed"


def collapse_ws(text: str) -> str:
    """Collapse runs of whitespace to one space and strip."""
    return " ".join(text.split())


def norm_text(text: str) -> str:
    """Matching form of text: casefolded, punctuation to spaces, whitespace collapsed."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


def digits(text: str) -> str:
    """Only the digits of ``text``."""
    return re.sub(r"\D", "", text)


def find_dates(text: str) -> list[tuple[str, str]]:
    """Return ``(raw, YYYY-MM-DD)`` for every date-like substring that parses, in text order."""
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for pattern in DATE_PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and end > t_start for t_start, t_end in taken):
                continue
            try:
                iso = normalize_date(match.group(0))
            except NormalizationError:
                continue
            taken.append((start, end))
            found.append((start, match.group(0), iso))
    return [(raw, iso) for _, raw, iso in sorted(found)]


_NUMERIC_DATE = re.compile(r"^\s*(\d{1,2})[/.\-](\d{1,2})[/.\-](?:\d{4}|\d{2})\s*$")


def numeric_date_order(raw: str) -> str | None:
    """How a numeric ``a/b/yyyy`` date must be read: ``"day_first"`` (a > 12),
    ``"month_first"`` (b > 12), ``"ambiguous"`` (both <= 12 and different), or None (not a
    numeric day/month date, or both parts equal)."""
    match = _NUMERIC_DATE.match(raw)
    if not match:
        return None
    first, second = int(match.group(1)), int(match.group(2))
    if first > 12 >= second:
        return "day_first"
    if second > 12 >= first:
        return "month_first"
    if first == second or first > 12:
        return None
    return "ambiguous"


def normalize_date(raw: str, dayfirst: bool = False) -> str:
    """Normalize a date to ``YYYY-MM-DD`` (numeric dates read month first unless ``dayfirst``).

    Raises:
        NormalizationError: when ``raw`` is not a date.
    """
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", collapse_ws(raw), flags=re.IGNORECASE)
    if not re.search(r"\d", cleaned):
        raise NormalizationError(f"not a date: {raw!r}")
    try:
        parsed = date_parser.parse(
            cleaned, dayfirst=dayfirst, yearfirst=False, default=datetime(2000, 1, 1)
        )
    except (ValueError, OverflowError) as exc:
        raise NormalizationError(f"not a date: {raw!r}") from exc
    return parsed.date().isoformat()


@dataclass(frozen=True)
class PhoneValue:
    """A normalized phone number."""

    e164: str
    national_digits: str
    default_country_assumed: bool
    possible: bool


def normalize_phone(raw: str) -> PhoneValue:
    """Normalize a phone number to E.164.

    Numbers with an explicit country code (``+`` or ``00``) keep it; others are parsed as US
    numbers and flagged ``default_country_assumed`` (the seed's +1 default).

    Raises:
        NormalizationError: when ``raw`` is not a phone number.
    """
    text = collapse_ws(raw)
    explicit = text.startswith("+") or text.startswith("00")
    if text.startswith("00"):
        text = "+" + text[2:]
    try:
        number = phonenumbers.parse(text, None if explicit else "US")
    except phonenumbers.NumberParseException as exc:
        raise NormalizationError(f"not a phone number: {raw!r}") from exc
    e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return PhoneValue(
        e164=e164,
        national_digits=str(number.national_number),
        default_country_assumed=not explicit,
        possible=phonenumbers.is_possible_number(number),
    )


def split_list(raw: str) -> list[str]:
    """Split a list value on commas, semicolons and line breaks; strip bullets; dedupe."""
    items: list[str] = []
    for part in re.split(r"[,;\n]", raw):
        item = collapse_ws(re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", part)).strip(" .")
        if item and item.casefold() not in {i.casefold() for i in items}:
            items.append(item)
    return items


def normalize_value(field_type: str, raw: str) -> tuple[str, list[str]]:
    """Normalize ``raw`` for ``field_type``; return the value and flags (validator names).

    Raises:
        NormalizationError: when the value cannot be normalized.
    """
    if field_type == "date":
        return normalize_date(raw), []
    if field_type == "phone":
        phone = normalize_phone(raw)
        return phone.e164, (["default_country_assumed"] if phone.default_country_assumed else [])
    if field_type == "string_or_list":
        return LIST_SEPARATOR.join(split_list(raw)), []
    joined = re.sub(r"\s*,?\s*\n\s*", ", ", raw.strip())
    return collapse_ws(joined).strip(" ,;:"), []


def age_in_years(born: date, today: date) -> int:
    """Whole years between ``born`` and ``today``."""
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))
