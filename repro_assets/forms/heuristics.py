"""Step extract_candidates, attempt A: one heuristic scan per field over its routed documents.

Every candidate is page-local: its evidence quote is the exact line (or consecutive lines) of
the page text the value was read from, with the union of the lines' boxes when known.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import phonenumbers

from repro_assets.forms.models import Evidence, LayoutDoc, LayoutPageText
from repro_assets.forms.normalize import collapse_ws, find_dates

# a following "Label:" on the same line ends the current value
_NEXT_LABEL = re.compile(
    r"(?:\s{2,}|\s*[|;]\s*|\s+(?=[A-Z]))[A-Za-z][A-Za-z.#/]*(?: [A-Za-z.#/]+){0,3}:(?!\d)"
)
_LINE_START = r"(?:^|(?<=\s\s)|(?<=\|\s))\s*(?:[-*\u2022]\s*)?"


def _label_re(labels: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted((re.escape(lab) for lab in labels), key=len, reverse=True))
    return re.compile(rf"{_LINE_START}(?:{alternatives})\s*(?:[:#]|\s-\s)\s*", re.IGNORECASE)


NAME_LABEL = _label_re(["patient name", "full name", "name of patient", "member name",
                        "insured name", "subscriber name", "patient", "member", "name"])
NAME_PROSE = re.compile(
    r"\bpatient,?\s+((?:Mr\.?|Mrs\.?|Ms\.?|Miss)\s+)?"
    r"([A-Z][a-z'\-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][a-z'\-]+){1,2})"
)
DOB_KEY = re.compile(r"\b(?:d\.?o\.?b\.?|date\s+of\s+birth|birth\s*date|born(?:\s+on)?)\s*[:#]?",
                     re.IGNORECASE)
PHONE_KEY = re.compile(
    r"\b(?:phone|telephone|tel|mobile|cell|ph)\b\.?(?:\s*(?:number|no\.?|#))?\s*[:#]?",
    re.IGNORECASE,
)
MEMBER_KEY = re.compile(
    r"(?:\b(?:member|subscriber|insurance)\s*(?:id|no\.?|number|#)|\bpolicy(?:\s*(?:id|no\.?|"
    r"number|#))?|(?:^|\s\s)id)\b\.?\s*(?:[:#]|\bis\b)?",
    re.IGNORECASE,
)
PHONE_LIKE = re.compile(r"^(?:\d{1,3}-)?\d{3}-\d{3}-\d{4}$")
MEMBER_TOKEN = re.compile(r"\b(?=[A-Z0-9\-]*\d)[A-Z0-9][A-Z0-9\-]{3,31}\b")
ADDRESS_LABEL = _label_re(["home address", "street address", "mailing address", "address",
                           "addr"])
CITY_LINE = re.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\b\d{5}(?:-\d{4})?\s*$")
LIST_LABELS = {
    "allergies": ["known allergies", "drug allergies", "allergies", "allergy"],
    "medications": ["current medications", "medication list", "medications", "medication",
                    "meds", "medicines"],
}
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")


@dataclass(frozen=True)
class HeuristicHit:
    """A value found by the scan, before normalization and scoring."""

    raw_value: str
    evidence: Evidence


def _lines(page: LayoutPageText) -> list[str]:
    return page.full_text.split("\n")


def _bbox(page: LayoutPageText, lines: list[str]) -> list[float] | None:
    wanted = {collapse_ws(line) for line in lines if line.strip()}
    boxes = [s.bbox for s in page.spans if s.bbox and collapse_ws(s.text) in wanted]
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


def _evidence(doc_id: str, page: LayoutPageText, lines: list[str]) -> Evidence:
    return Evidence(doc_id=doc_id, page=page.page, quoted_text="\n".join(lines),
                    bbox=_bbox(page, lines))


def _segment(line: str, start: int) -> str:
    """Text after a label up to the next ``Label:`` on the same line."""
    rest = line[start:]
    stop = _NEXT_LABEL.search(rest)
    return (rest[: stop.start()] if stop else rest).strip()


def _is_label_line(line: str) -> bool:
    return bool(re.match(r"^\s*[A-Za-z][A-Za-z .#/()]{0,30}:", line))


_NAME_WORD = re.compile(r"^[A-Z][A-Za-z'\-.]*,?$")
_NAME_PARTICLES = {"de", "da", "del", "della", "van", "von", "der", "la", "le", "bin", "al"}


def looks_like_name(value: str) -> bool:
    """1 to 5 capitalized words (particles allowed): 'Patient: reports pain' is no name."""
    words = value.split()
    return 1 <= len(words) <= 5 and all(
        _NAME_WORD.match(w) or w.lower() in _NAME_PARTICLES for w in words
    ) and any(_NAME_WORD.match(w) for w in words)


def _names(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
    for line in _lines(page):
        for match in NAME_LABEL.finditer(line):
            value = _segment(line, match.end()).strip(" ,.")
            if value and looks_like_name(value):
                yield HeuristicHit(value, _evidence(doc_id, page, [line]))
        for match in NAME_PROSE.finditer(line):
            yield HeuristicHit(match.group(2), _evidence(doc_id, page, [line]))


def _dobs(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
    for line in _lines(page):
        for match in DOB_KEY.finditer(line):
            window = line[match.end(): match.end() + 40]
            dates = find_dates(window)
            if dates:
                yield HeuristicHit(dates[0][0], _evidence(doc_id, page, [line]))


def _phones(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
    for line in _lines(page):
        for match in PHONE_KEY.finditer(line):
            segment = _segment(line, match.end())
            found = next(iter(phonenumbers.PhoneNumberMatcher(segment, "US")), None)
            if found is not None:
                yield HeuristicHit(found.raw_string, _evidence(doc_id, page, [line]))


def _member_ids(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
    for line in _lines(page):
        for match in MEMBER_KEY.finditer(line):
            segment = _segment(line, match.end())
            token = MEMBER_TOKEN.search(segment)
            if token and token.start() <= 12 and not PHONE_LIKE.match(token.group(0)):
                yield HeuristicHit(token.group(0), _evidence(doc_id, page, [line]))


def _addresses(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
    lines = _lines(page)
    for i, line in enumerate(lines):
        match = ADDRESS_LABEL.search(line)
        if not match:
            continue
        parts, used = [], [line]
        first = _segment(line, match.end())
        if first:
            parts.append(first)
        for follow in lines[i + 1: i + 3]:
            if not follow.strip() or _is_label_line(follow):
                break
            if parts and not CITY_LINE.search(follow):
                break
            parts.append(follow.strip())
            used.append(follow)
            if CITY_LINE.search(follow):
                break
        if parts:
            yield HeuristicHit("\n".join(parts), _evidence(doc_id, page, used))


def _list_field(field: str):
    label = re.compile(
        rf"^\s*(?:{'|'.join(re.escape(x) for x in LIST_LABELS[field])})\b\s*(:?)\s*",
        re.IGNORECASE,
    )

    def scan(doc_id: str, page: LayoutPageText) -> Iterator[HeuristicHit]:
        lines = _lines(page)
        for i, line in enumerate(lines):
            match = label.match(line)
            if not match:
                continue
            rest = _segment(line, match.end())
            if rest:
                if match.group(1):  # "Label: value" on one line
                    yield HeuristicHit(rest, _evidence(doc_id, page, [line]))
                continue
            items: list[str] = []
            bulleted = False
            for follow in lines[i + 1:]:
                if not follow.strip() or (_is_label_line(follow) and not _BULLET.match(follow)):
                    break
                if items and bulleted and not _BULLET.match(follow):
                    break
                bulleted = bulleted or bool(_BULLET.match(follow))
                items.append(follow)
                if len(items) >= 25:
                    break
            if items:
                yield HeuristicHit("\n".join(items), _evidence(doc_id, page, [line, *items]))

    return scan


SCANNERS = {
    "full_name": _names,
    "dob": _dobs,
    "phone": _phones,
    "insurance_member_id": _member_ids,
    "address": _addresses,
    "allergies": _list_field("allergies"),
    "medications": _list_field("medications"),
}


def scan_field(field: str, docs: list[LayoutDoc]) -> list[HeuristicHit]:
    """The one heuristic pass for ``field`` over its routed documents (in routing order).

    Duplicate hits (same value, same document and page) are kept once.
    """
    scanner = SCANNERS.get(field)
    if scanner is None:
        return []
    hits: list[HeuristicHit] = []
    seen: set[tuple[str, str, int]] = set()
    for doc in docs:
        for page in doc.pages:
            for hit in scanner(doc.doc_id, page):
                key = (collapse_ws(hit.raw_value).casefold(), doc.doc_id, page.page)
                if key not in seen:
                    seen.add(key)
                    hits.append(hit)
    return hits
