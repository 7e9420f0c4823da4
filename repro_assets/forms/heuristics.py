"""Step extract_candidates, attempt A: one heuristic scan per field over its routed documents.

Every candidate is page-local: its evidence quote is the exact line (or consecutive lines) of
the page text the value was read from. Boxes are looked up later, only for cited quotes.

Precision first. A value is taken only when

* it follows a label of the field (``Patient Name:``, ``DOB``, ``Phone:``, ``Member ID:`` ...)
  or a prose cue the seed names ("my patient, Daniel Chen", "born on ...");
* the label belongs to the subject: not to another party named in the label ("Emergency
  contact phone"), earlier on the line ("Employer: Acme  Phone: ..."), in the section heading
  above ("EMERGENCY CONTACT") or in the letterhead ("Riverside Clinic / Phone: ...");
* what follows the label was written by someone: fill-in lines, hints ("Last, First, MI"),
  instructions ("Please list ALL current medications"), checkbox option lists and headings
  are not values (see :mod:`repro_assets.forms.text_cues`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import phonenumbers

from repro_assets.forms.models import Evidence, LayoutDoc, LayoutPageText
from repro_assets.forms.normalize import collapse_ws, find_dates
from repro_assets.forms.parties import (
    NOT_MEMBER_ID_OWNERS,
    ORGANIZATION,
    PARTY_WORDS,
    SUBJECT,
    is_subject,
    mentions,
    party_of,
    strip_parentheticals,
)
from repro_assets.forms.text_cues import (
    clean_value,
    has_checkboxes,
    is_heading,
    is_instruction,
    is_placeholder,
    marked_options,
)

# a following "Label:" on the same line ends the current value
_NEXT_LABEL = re.compile(
    r"(?:\s{2,}|\s*[|;]\s*|\s+(?=[A-Z]))[A-Za-z][A-Za-z.#/'’]*(?: [A-Za-z.#/'’]+){0,3}:(?!\d)"
)
_NUMBERED = r"(?:\d{1,2}[a-z]?[.)]?\s+)?"
_LINE_START = rf"(?:^|(?<=\s\s)|(?<=\|\s))\s*(?:[-*\u2022]\s*)?{_NUMBERED}"
_HINT = r"(?:\s*\([^)]{0,60}\))?"

#: "<party words> Name (hint):", "Name of <party>:", "Patient:" / "Employee:" alone.
NAME_LABEL = re.compile(
    rf"{_LINE_START}(?P<label>(?:[A-Za-z'’.]+\s+){{0,3}}?(?:full\s+)?name(?:\s+of\s+"
    rf"[A-Za-z'’]+(?:\s+[A-Za-z'’]+)?)?{_HINT}|(?:injured\s+)?(?:patient|employee|claimant|"
    rf"member|client|applicant)(?:'s|’s)?{_HINT})\s*(?:[:#]|\s-\s)\s*",
    re.IGNORECASE,
)
#: Label words that make a "... name" label about something other than a person's full name.
NOT_FULL_NAME = re.compile(
    r"\b(?:first|last|middle|maiden|nick|preferred|given|family|sur|user|file|group|plan|"
    r"company|business|employer|pharmacy|medication|medicine|drug|brand|product|street|"
    r"facility|clinic|hospital|network|carrier|insurance|practice|school|program|account|"
    r"contact|relative)\b",
    re.IGNORECASE,
)
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
ADDRESS_LABEL = re.compile(
    rf"{_LINE_START}(?P<label>(?:[A-Za-z'’.]+\s+){{0,3}}?(?:home\s+|street\s+|mailing\s+)?"
    rf"(?:address|addr\.?){_HINT})\s*(?:[:#]|\s-\s)\s*",
    re.IGNORECASE,
)
NOT_POSTAL = re.compile(r"\b(?:e-?mail|web|ip|url|internet)\b", re.IGNORECASE)
CITY_LINE = re.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\b\d{5}(?:-\d{4})?\s*$")
LIST_LABELS = {
    "allergies": ["known allergies", "drug allergies", "medication allergies", "allergies",
                  "allergy"],
    "medications": ["current medications", "medication list", "medications", "medication",
                    "meds", "medicines"],
}
#: Column headings and hint words of medication/allergy tables (not entries).
LIST_HINTS = frozenset({
    "dose", "dosage", "frequency", "how", "often", "strength", "reason", "medication",
    "medications", "medicine", "medicines", "drug", "drugs", "reaction", "reactions", "allergy",
    "allergies", "allergen", "prescribing", "prescriber", "physician", "doctor", "of", "the",
    "for", "times", "per", "taken", "route", "start", "stop", "started", "comments", "severity",
    "type", "quantity", "qty", "refills", "instructions", "purpose", "condition", "vitamins",
    "supplements", "otc", "herbal", "current", "list", "known", "your", "any",
})
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_PAREN = re.compile(r"\(([^)]*)\)")
_COLUMNS = re.compile(r"\S\s{3,}\S")
_LABEL_LINE = re.compile(r"^\s*[A-Za-z][A-Za-z .#/()'’]{0,40}:")
_NAME_AFTER_TITLE = re.compile(r"^\s*[A-Z][a-z]")
#: Field words that make "<subject word> <field word>:" a label of the subject's own data.
_SUBJECT_FIELD = re.compile(r"\b(?:name|dob|birth|phone|address|id|number|ssn)\b",
                            re.IGNORECASE)
LETTERHEAD_LINES = 8
ISSUER = "issuer"  # whoever issued the document (its letterhead's contact data)
_CONTACT_LABEL = re.compile(r"\b(?:phone|tel|telephone|fax|mobile|cell|e-?mail|web|website|"
                            r"address|addr)\b", re.IGNORECASE)
_ISSUER_MARK = re.compile(r"\bfax\b|\bwww\.|https?://|\S@\S|\.(?:com|org|net|gov)\b",
                          re.IGNORECASE)
LABEL_WORDS = 4  # party words of a label sit right before its key word
_LAST_WORDS = re.compile(rf"(?:\S+\s+){{0,{LABEL_WORDS}}}$")

#: Cheap page filter per field: a page without any of these words cannot yield a hit.
PAGE_FILTER: dict[str, re.Pattern[str]] = {
    "full_name": re.compile(r"name|patient|employee|claimant|member|client|applicant",
                            re.IGNORECASE),
    "dob": re.compile(r"d\.?o\.?b|birth|born", re.IGNORECASE),
    "phone": re.compile(r"phone|\btel|mobile|cell|\bph\b", re.IGNORECASE),
    "address": re.compile(r"addr", re.IGNORECASE),
    "insurance_member_id": re.compile(r"member|subscriber|insurance|policy|\bid\b",
                                      re.IGNORECASE),
    "allergies": re.compile(r"allerg", re.IGNORECASE),
    "medications": re.compile(r"medic|\bmeds\b", re.IGNORECASE),
}


@dataclass(frozen=True)
class HeuristicHit:
    """A value found by the scan, before normalization and scoring."""

    raw_value: str
    evidence: Evidence


# ----------------------------------------------------------------------------- context
def _is_subject_label_line(line: str) -> bool:
    """``Patient Name: ...`` / ``Employee's phone: ...``: a line about the subject's own data."""
    label = line.split(":", 1)[0] if ":" in line else ""
    if not label or len(label) > 60:
        return False
    return party_of(label) == SUBJECT and bool(_SUBJECT_FIELD.search(label))


def _is_letterhead_end(number: int, line: str) -> bool:
    """The body starts: a subject cue, a name/DOB label, a heading below the first line, or a
    label that is not contact data (phone, fax, address, e-mail, web)."""
    if mentions(line, [SUBJECT]) or NAME_LABEL.search(line) or DOB_KEY.search(line):
        return True
    if number > 0 and is_heading(line):
        return True
    label = _LABEL_LINE.match(line)
    return bool(label) and not _CONTACT_LABEL.search(label.group(0))


def _issuer_evidence(lines: list[str]) -> bool:
    """Contact data of whoever issued the document: a fax number, a web or e-mail address, or
    a street address written without a label."""
    for number, line in enumerate(lines):
        if _ISSUER_MARK.search(line):
            return True
        after_label = number > 0 and ADDRESS_LABEL.search(lines[number - 1])
        if ":" not in line and CITY_LINE.search(line) and not after_label:
            return True
    return False


def _letterhead(lines: list[str]) -> tuple[int, str | None]:
    """(number of letterhead lines, their party) at the top of a document's first page.

    The letterhead is the block above the body; its contact data belong to the issuer (the
    clinic, the practice, the insurer) unless a label names the subject.
    """
    end = next((i for i, line in enumerate(lines[:LETTERHEAD_LINES])
                if _is_letterhead_end(i, line)), min(len(lines), LETTERHEAD_LINES))
    for line in lines[:end]:
        others = [m for m in mentions(line) if m.party != SUBJECT]
        if others:
            return end, others[0].party
    return end, (ISSUER if _issuer_evidence(lines[:end]) else None)


def line_parties(doc: LayoutDoc) -> dict[int, list[str | None]]:
    """The party context of every line of every page: letterhead, then section headings.

    Sections carry over page breaks; a heading naming no party, or a line labelling the
    subject's own data, returns to the subject.
    """
    out: dict[int, list[str | None]] = {}
    section: str | None = None
    for index, page in enumerate(doc.pages):
        lines = page.full_text.split("\n")
        head_end, head_party = _letterhead(lines) if index == 0 else (0, None)
        parties: list[str | None] = []
        for number, line in enumerate(lines):
            if number < head_end:  # a person's section may open the page; a name does not
                heading = party_of(line) if is_heading(line) else None
                if heading not in (None, SUBJECT, ORGANIZATION):
                    section = heading
                parties.append(head_party)
                continue
            if is_heading(line):
                section = party_of(line)
            elif _is_subject_label_line(line):
                section = SUBJECT
            parties.append(section)
        out[page.page] = parties
    return out


def label_party(line: str, key_start: int, key_end: int, context: str | None,
                ignore: frozenset[str] = frozenset()) -> str | None:
    """The party of the value labelled by ``line[key_start:key_end]``.

    Party words in the label itself win, then the nearest party word earlier on the line
    (``Dr.`` counts only before a name: "Oak Dr., Springfield" is a street), then the line's
    context (section heading or letterhead).
    """
    before = line[:key_start]
    cut = max(before.rfind(":"), before.rfind("|"), before.rfind(";"), before.rfind(","),
              before.rfind("  "))
    if len(before[cut + 1:].split()) > LABEL_WORDS:  # prose: only the words next to the key
        cut = _LAST_WORDS.search(before).start() - 1
    own = party_of(line[cut + 1:key_end], ignore=ignore)
    if own is not None:
        return own
    prefix = line[: cut + 1]
    earlier = [m for m in mentions(prefix) if m.party not in ignore
               and (m.word.lower() != "dr." or _NAME_AFTER_TITLE.match(prefix[m.end:]))]
    if earlier:
        return earlier[-1].party
    return context if context not in ignore else None


# ----------------------------------------------------------------------------- helpers
def _evidence(doc_id: str, page: LayoutPageText, lines: list[str]) -> Evidence:
    return Evidence(doc_id=doc_id, page=page.page, quoted_text="\n".join(lines))


def _segment(line: str, start: int) -> str:
    """Text after a label up to the next ``Label:`` on the same line."""
    rest = line[start:]
    stop = _NEXT_LABEL.search(rest)
    return clean_value((rest[: stop.start()] if stop else rest).strip())


def _written(value: str, hints: frozenset[str] = frozenset()) -> bool:
    """False for fill-in lines, hints, instructions, option lists (nothing written)."""
    if not value or is_instruction(value) or has_checkboxes(value):
        return False
    if is_placeholder(value):
        return False
    if hints:
        words = [w.lower().strip(".,;:()'’") for w in value.split()]
        if all(w in hints or not w or is_placeholder(w) for w in words):
            return False
    return True


_NAME_WORD = re.compile(r"^[A-Z][A-Za-z'\-.]*,?$")
_NAME_PARTICLES = {"de", "da", "del", "della", "van", "von", "der", "la", "le", "bin", "al"}


def looks_like_name(value: str) -> bool:
    """1 to 5 capitalized words (particles allowed): 'Patient: reports pain' is no name."""
    words = value.split()
    return 1 <= len(words) <= 5 and all(
        _NAME_WORD.match(w) or w.lower() in _NAME_PARTICLES for w in words
    ) and any(_NAME_WORD.match(w) for w in words)


@dataclass
class _Page:
    doc_id: str
    page: LayoutPageText
    lines: list[str]
    parties: list[str | None]


Scanner = Callable[[_Page], Iterator[HeuristicHit]]


# ----------------------------------------------------------------------------- scanners
def _names(p: _Page) -> Iterator[HeuristicHit]:
    for line, context in zip(p.lines, p.parties, strict=False):
        for match in NAME_LABEL.finditer(line):
            label = match.group("label")
            if NOT_FULL_NAME.search(strip_parentheticals(label)):
                continue
            if not is_subject(label_party(line, match.start("label"), match.end("label"),
                                          context)):
                continue
            value = _segment(line, match.end()).strip(" ,.")
            if _written(value) and looks_like_name(value):
                yield HeuristicHit(value, _evidence(p.doc_id, p.page, [line]))
        for match in NAME_PROSE.finditer(line):
            yield HeuristicHit(match.group(2), _evidence(p.doc_id, p.page, [line]))


def _dobs(p: _Page) -> Iterator[HeuristicHit]:
    for line, context in zip(p.lines, p.parties, strict=False):
        for match in DOB_KEY.finditer(line):
            if not is_subject(label_party(line, match.start(), match.end(), context)):
                continue
            dates = find_dates(line[match.end(): match.end() + 40])
            if dates:
                yield HeuristicHit(dates[0][0], _evidence(p.doc_id, p.page, [line]))


def _phones(p: _Page) -> Iterator[HeuristicHit]:
    for line, context in zip(p.lines, p.parties, strict=False):
        for match in PHONE_KEY.finditer(line):
            if not is_subject(label_party(line, match.start(), match.end(), context)):
                continue
            segment = _segment(line, match.end())
            found = next(iter(phonenumbers.PhoneNumberMatcher(segment, "US")), None)
            if found is not None:
                yield HeuristicHit(found.raw_string, _evidence(p.doc_id, p.page, [line]))


def _member_ids(p: _Page) -> Iterator[HeuristicHit]:
    ignore = frozenset(PARTY_WORDS) - NOT_MEMBER_ID_OWNERS - {SUBJECT}
    for line, context in zip(p.lines, p.parties, strict=False):
        for match in MEMBER_KEY.finditer(line):
            if not is_subject(label_party(line, match.start(), match.end(), context, ignore)):
                continue
            segment = _segment(line, match.end())
            token = MEMBER_TOKEN.search(segment)
            if token and token.start() <= 12 and not PHONE_LIKE.match(token.group(0)):
                yield HeuristicHit(token.group(0), _evidence(p.doc_id, p.page, [line]))


def _addresses(p: _Page) -> Iterator[HeuristicHit]:
    lines = p.lines
    for i, (line, context) in enumerate(zip(lines, p.parties, strict=False)):
        match = ADDRESS_LABEL.search(line)
        if not match or NOT_POSTAL.search(match.group("label")):
            continue
        if not is_subject(label_party(line, match.start("label"), match.end("label"), context)):
            continue
        parts, used = [], [line]
        first = _segment(line, match.end())
        if first and not _written(first):
            continue
        if first:
            parts.append(first)
        for follow in lines[i + 1: i + 3]:
            if not follow.strip() or _LABEL_LINE.match(follow) or is_heading(follow):
                break
            if parts and not CITY_LINE.search(follow):
                break
            if not _written(follow.strip()):
                break
            parts.append(follow.strip())
            used.append(follow)
            if CITY_LINE.search(follow):
                break
        if parts:
            yield HeuristicHit("\n".join(parts), _evidence(p.doc_id, p.page, used))


def _list_items(lines: list[str], start: int) -> tuple[list[str], int]:
    """Entries written under a list label: (items, index of the last line used)."""
    items: list[str] = []
    last = start
    bulleted = False
    for index in range(start + 1, min(len(lines), start + 40)):
        follow = lines[index]
        if _COLUMNS.search(follow) and not _written(follow.strip(), LIST_HINTS):
            continue  # a table's column headings ("Medication   Dose   How often")
        if not follow.strip() or is_heading(follow):
            break
        is_bullet = bool(_BULLET.match(follow))
        if _LABEL_LINE.match(follow) and not is_bullet:
            break
        if items and bulleted and not is_bullet:
            break
        body = _BULLET.sub("", follow).strip()
        if has_checkboxes(body):
            marked = marked_options(body)
            items += marked
            last = index if marked else last
            continue
        if is_instruction(body):
            if items:
                break
            continue
        if not _written(body, LIST_HINTS):
            continue
        bulleted = bulleted or is_bullet
        items.append(follow.strip())  # as written (bullets too): the value stays literal
        last = index
        if len(items) >= 25:
            break
    return items, last


def _list_field(field: str) -> Scanner:
    label = re.compile(
        rf"^\s*{_NUMBERED}(?:{'|'.join(re.escape(x) for x in LIST_LABELS[field])})\b"
        rf"{_HINT}\s*(:?)\s*",
        re.IGNORECASE,
    )

    def scan(p: _Page) -> Iterator[HeuristicHit]:
        lines = p.lines
        for i, (line, context) in enumerate(zip(lines, p.parties, strict=False)):
            match = label.match(line)
            if not match or not is_subject(context):
                continue
            rest = _segment(line, match.end())
            hint = _PAREN.search(match.group(0))
            choose = bool(hint and is_instruction(hint.group(1)))  # "(check all that apply)"
            if rest:
                if not match.group(1):  # "Medications reviewed today": prose, not a label
                    continue
                if has_checkboxes(rest) or choose:  # options: only marked ones are values
                    marked = marked_options(rest)
                    if marked:
                        yield HeuristicHit("; ".join(marked),
                                           _evidence(p.doc_id, p.page, [line]))
                elif _written(rest, LIST_HINTS):
                    yield HeuristicHit(rest, _evidence(p.doc_id, p.page, [line]))
                continue
            items, last = _list_items(lines, i)
            if items:
                yield HeuristicHit("\n".join(items),
                                   _evidence(p.doc_id, p.page, lines[i: last + 1]))

    return scan


SCANNERS: dict[str, Scanner] = {
    "full_name": _names,
    "dob": _dobs,
    "phone": _phones,
    "insurance_member_id": _member_ids,
    "address": _addresses,
    "allergies": _list_field("allergies"),
    "medications": _list_field("medications"),
}


def scan_field(field: str, docs: list[LayoutDoc],
               contexts: dict[str, dict[int, list[str | None]]] | None = None
               ) -> list[HeuristicHit]:
    """The one heuristic pass for ``field`` over its routed documents (in routing order).

    Args:
        field: the field key.
        docs: the routed documents.
        contexts: a cache of :func:`line_parties` per doc id, shared across fields.

    Duplicate hits (same value, same document and page) are kept once.
    """
    scanner = SCANNERS.get(field)
    if scanner is None:
        return []
    wanted = PAGE_FILTER.get(field)
    cache = contexts if contexts is not None else {}
    hits: list[HeuristicHit] = []
    seen: set[tuple[str, str, int]] = set()
    for doc in docs:
        for page in doc.pages:
            if wanted is not None and not wanted.search(page.full_text):
                continue
            if doc.doc_id not in cache:
                cache[doc.doc_id] = line_parties(doc)
            lines = page.full_text.split("\n")
            parties = cache[doc.doc_id].get(page.page, [])
            for hit in scanner(_Page(doc.doc_id, page, lines, parties)):
                key = (collapse_ws(hit.raw_value).casefold(), doc.doc_id, page.page)
                if key not in seen:
                    seen.add(key)
                    hits.append(hit)
    return hits
