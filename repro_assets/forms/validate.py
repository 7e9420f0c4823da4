"""Validators, the deterministic hallucination check and anchor matching (seed, locked parts).

Validators never change a value: they return outcomes (``pass``/``warn``/``fail``) scored
1.0 / 0.6 / 0.0 (locked). A ``fail`` rejects the candidate with ``validator_failed:<name>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

import phonenumbers

from repro_assets.forms.models import Evidence
from repro_assets.forms.normalize import (
    LIST_SEPARATOR,
    NormalizationError,
    age_in_years,
    collapse_ws,
    digits,
    find_dates,
    norm_text,
    normalize_date,
    normalize_phone,
    numeric_date_order,
)

Outcome = Literal["pass", "warn", "fail"]
OUTCOME_SCORE: dict[str, float] = {"pass": 1.0, "warn": 0.6, "fail": 0.0}
UNSUPPORTED = "unsupported_by_evidence"
_IDD_00 = re.compile(r"(?<![\d+])00(?=[1-9])")
_PHONE_RUN = re.compile(r"\+?\(?\d[\d\s().\-]{5,}\d")


@dataclass(frozen=True)
class ValidatorResult:
    """One validator outcome."""

    name: str
    outcome: Outcome

    def label(self) -> str:
        """``name:outcome`` as stored in ``Candidate.validators``."""
        return f"{self.name}:{self.outcome}"


def _check(name: str, ok: bool, failing: Outcome = "fail") -> ValidatorResult:
    return ValidatorResult(name, "pass" if ok else failing)


def run_validators(
    field: str, field_type: str, normalized: str, raw: str, today: date | None = None
) -> list[ValidatorResult]:
    """Run the seed's required validators for ``field`` on a normalized value."""
    today = today or date.today()
    value = normalized.strip()
    results = [_check("not_empty", bool(value))]
    if field_type == "date":
        try:
            born = date.fromisoformat(value)
        except ValueError:
            return results + [ValidatorResult("valid_date", "fail")]
        results.append(ValidatorResult("valid_date", "pass"))
        results.append(_check("not_in_future", born <= today))
        results.append(_check("age_under_120", age_in_years(born, today) < 120))
    elif field_type == "phone":
        try:
            phone = normalize_phone(raw)
        except NormalizationError:
            return results + [ValidatorResult("phone_parses", "fail")]
        results.append(_check("min_10_digits", len(digits(phone.e164)) >= 10))
        results.append(_check("possible_number", phone.possible, "warn"))
        results.append(_check("explicit_country", not phone.default_country_assumed, "warn"))
    elif field == "full_name":
        alnum = [c for c in value if c.isalnum()]
        n_digits = sum(c.isdigit() for c in alnum)
        results.append(_check("has_letters", any(c.isalpha() for c in value)))
        results.append(_check("not_mostly_digits", not alnum or n_digits * 2 < len(alnum)))
    elif field == "insurance_member_id":
        compact = re.sub(r"\s", "", value)
        results.append(_check("length_4_32", 4 <= len(compact) <= 32))
    return results


def validator_score(results: list[ValidatorResult]) -> float:
    """The weakest outcome's score (pass 1.0, warn 0.6, fail 0.0)."""
    return min((OUTCOME_SCORE[r.outcome] for r in results), default=0.0)


def evidence_supports(field_type: str, normalized: str, evidence: list[Evidence]) -> bool:
    """The locked field-specific matcher over the evidence quotes."""
    quotes = [e.quoted_text for e in evidence if e.quoted_text and e.quoted_text.strip()]
    if not quotes or not normalized.strip():
        return False
    joined = "\n".join(quotes)
    if field_type == "date":
        if any(iso == normalized for _, iso in find_dates(joined)):
            return True
        return any(normalize_date(raw, dayfirst=True) == normalized
                   for raw, _ in find_dates(joined) if numeric_date_order(raw))
    if field_type == "phone":
        try:
            wanted = normalize_phone(normalized).e164
        except NormalizationError:
            return False
        return any(wanted in phones_in(q) for q in quotes)
    if field_type == "string_or_list":
        items = [i for i in normalized.split(LIST_SEPARATOR.strip()) if i.strip()]
        haystack = norm_text(joined)
        return bool(items) and all(norm_text(i) in haystack for i in items)
    return norm_text(normalized) in norm_text(joined) and bool(norm_text(normalized))


def phones_in(text: str) -> set[str]:
    """E.164 form of every phone number written in ``text``.

    A number written with its country code (``+44 ...`` or ``0044 ...``) keeps it; one
    without is read as a US number (the seed's +1 default), so ``+44 20 7946 0958`` never
    supports ``+12079460958`` and ``(207) 946-0958`` never supports ``+442079460958``.
    """
    text = _IDD_00.sub("+", text)
    found = {
        phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.E164)
        for m in phonenumbers.PhoneNumberMatcher(text, "US",
                                                 leniency=phonenumbers.Leniency.POSSIBLE)
    }
    for run in _PHONE_RUN.finditer(text):
        try:
            found.add(normalize_phone(run.group(0)).e164)
        except NormalizationError:
            continue
    return found


def anchor_match(field_type: str, raw: str, normalized: str, evidence: list[Evidence]) -> float:
    """1.0 if the raw value literally occurs in a quote (regex-equivalent for dob/phone)."""
    raw_c = collapse_ws(raw)
    if raw_c and any(raw_c in collapse_ws(e.quoted_text) for e in evidence):
        return 1.0
    if field_type in ("date", "phone", "string_or_list") and evidence_supports(
            field_type, normalized, evidence):  # a list: every item literally in a quote
        return 1.0
    return 0.0


def quote_on_page(quote: str, page_text: str) -> bool:
    """True when ``quote`` occurs on the page (whitespace-insensitive)."""
    q = collapse_ws(quote)
    return bool(q) and q in collapse_ws(page_text)
