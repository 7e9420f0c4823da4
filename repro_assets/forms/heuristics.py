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
  instructions ("Please list ALL current medications"), questions, examples ("e.g."),
  checkbox option lists, headings and the form's own labels are not values (see
  :mod:`repro_assets.forms.text_cues`); such text, another party's value and the
  organisation's own numbers (toll-free, "call us") are returned as *rejected* hits with
  their reason, so candidates.json says why nothing was taken.

Real documents also print a label on one line and its value on the next
(:func:`join_label_lines`), a name as "LAST, FIRST M." under a patient heading, the subject's
name in a title ("Ana Lopez Medication List"), lists only in sentences ("known allergies to
sulfa and shellfish": offered for review) or as bullets on lines of their own, dates
whose day/month order only the document's other dates settle, and values that live in the
AcroForm fields of a filled input form (read with their printed labels, see
:mod:`repro_assets.forms.input_fields`). List items are kept as the drug name and strength
(dosing dropped) and as the allergen (reaction dropped).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import phonenumbers

from repro_assets.forms.cell_tables import read_cell_table
from repro_assets.forms.label_rows import is_label_line as _row_label
from repro_assets.forms.label_rows import row_pairs
from repro_assets.forms.models import Evidence, FilledField, LayoutDoc, LayoutPageText
from repro_assets.forms.normalize import (
    NormalizationError,
    collapse_ws,
    find_dates,
    normalize_phone,
    numeric_date_order,
)
from repro_assets.forms.ocr import span_box
from repro_assets.forms.parties import (
    NOT_MEMBER_ID_OWNERS,
    ORGANIZATION,
    PARTY_WORDS,
    SUBJECT,
    aside_names_subject,
    is_subject,
    mentions,
    party_of,
    strip_parentheticals,
)
from repro_assets.forms.text_cues import (
    blank_reason,
    clean_value,
    form_labels,
    has_checkboxes,
    is_heading,
    is_instruction,
    is_option_row,
    is_placeholder,
    is_printed_options,
    marked_options,
)

# a following "Label:" (or "Label :") on the same line ends the current value
_NEXT_LABEL = re.compile(
    r"(?:\s{2,}|\s*[|;]\s*|\s+(?=[A-Z]))[A-Za-z][A-Za-z.#/'’]*(?: [A-Za-z.#/'’]+){0,3} ?:(?!\d)"
)
_NUMBERED = r"(?:\d{1,2}[a-z]?[.)]?\s+)?"
#: After two spaces, only at the run's end (the label follows no space): '(?<=\s\s)\s*' let
#: every position of a long run of spaces start a match and scan the run (quadratic).
_LINE_START = rf"(?:^\s*|(?<=\s\s)(?!\s)|(?<=\|\s)\s*)(?:[-*\u2022]\s*)?{_NUMBERED}"
_HINT = r"(?:\s*\([^)]{0,60}\))?"

#: "<party words> Name (hint):", "Name of <party>:", "Patient:" / "Employee:" alone.
#: The subject's role words as a label of their own ("Patient:", "Employee:", "Infant:",
#: "Taxpayer:"): the party vocabulary, one alternation.
_SUBJECT_ROLES = "|".join(r"\s+".join(re.escape(w) for w in phrase.split())
                          for phrase in PARTY_WORDS[SUBJECT])
NAME_LABEL = re.compile(
    rf"{_LINE_START}(?P<label>(?:[A-Za-z'’.]+\s+){{0,3}}?(?:full\s+)?name(?:\s+of\s+"
    rf"[A-Za-z'’]+(?:\s+[A-Za-z'’]+)?)?{_HINT}|(?:injured\s+)?(?:{_SUBJECT_ROLES})"
    rf"(?:'s|’s)?{_HINT}|[A-Za-z'’]+(?:\s+[A-Za-z'’]+)?\s*\(\s*(?:the\s+)?"
    rf"(?:{_SUBJECT_ROLES})\s*\)|re|regarding)\s*(?:[:#]|\s-\s)\s*",
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
#: One word of a person's name: a hyphen joins two parts ("Lund-Marsh"), it never ends one.
NAME_WORD = r"[A-Z][a-z']+(?:-[A-Za-z][a-z']+)*"
#: A name ends where a word does: never inside a word or at a hyphen (a cut name is no name).
NAME_END = r"(?![\w'\-])"
NAME_PROSE = re.compile(
    r"\bpatient,?\s+((?:Mr\.?|Mrs\.?|Ms\.?|Miss)\s+)?"
    rf"({NAME_WORD}(?:\s+[A-Z]\.)?(?:\s+{NAME_WORD}){{1,2}}){NAME_END}"
)
DOB_KEY = re.compile(r"\b(?:d\.?o\.?b\.?|date\s+of\s+birth|birth\s*date|born(?:\s+on)?)\s*[:#]?",
                     re.IGNORECASE)
PHONE_KEY = re.compile(
    r"\b(?:(?:phone|telephone|tel|mobile|cell|ph)\b\.?(?:\s*(?:number|no\.?|#))?"
    r"|(?:home|cell|work|mobile|day|evening|contact)\s+(?:number|no\b\.?|#)|contact\b)"
    r"\s*[:#]?",
    re.IGNORECASE,
)
#: A phone number written with unusual grouping ("614-5557-210"): 10 to 13 digits.
PHONE_RUN = re.compile(r"(?<![\w+])\+?\(?\d[\d\s().\-]{8,18}\d(?![\w])")
#: The organisation's own line: "For questions: call ...", "Customer service ...".
ORG_CONTACT = re.compile(
    r"\b(?:call|calling|for\s+questions|questions\?|customer\s+service|member\s+services|"
    r"contact\s+us|toll[-\s]?free|hotline|help\s?line|help\s+desk)(?!\w)", re.IGNORECASE)
#: The organisation speaking of itself before a number: "Contact us at", "call us on".
ORG_VOICE = re.compile(r"\b(?:call|contact|reach|text|fax|e-?mail|write\s+to|visit)\s+us\b",
                       re.IGNORECASE)
#: North American toll-free area codes: never a person's own number.
TOLL_FREE = frozenset({"800", "833", "844", "855", "866", "877", "888"})
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
CITY_LINE = re.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\b\d{5}(?:-\d{4})?\s*$"
                       r"|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b")
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
    "full_name": re.compile(rf"name|{_SUBJECT_ROLES}|"  # "Taxpayer: <name>" names no "name"
                            r"^\s*re(?:garding)?\s*:|"
                            r"\b(?:list|record|history|profile|summary|chart)\b",
                            re.IGNORECASE | re.MULTILINE),
    "dob": re.compile(r"d\.?o\.?b|birth|born", re.IGNORECASE),
    "phone": re.compile(r"phone|\btel|mobile|cell|\bph\b|number|contact", re.IGNORECASE),
    "address": re.compile(r"addr", re.IGNORECASE),
    "insurance_member_id": re.compile(r"member|subscriber|insurance|policy|\bid\b",
                                      re.IGNORECASE),
    "allergies": re.compile(r"allerg", re.IGNORECASE),
    "medications": re.compile(r"medic|\bmeds\b|treated\s+with|taking|takes|prescribed|"
                              r"(?:started|continued|discharged|maintained)\s+on|\bcontinues?\s",
                              re.IGNORECASE),
}


@dataclass(frozen=True)
class HeuristicHit:
    """A value found by the scan, before normalization and scoring.

    ``flags`` tell scoring what the scan knows (``day_first_date``, review flags such as
    ``ambiguous_date_order`` or ``list_from_prose``); ``rejected`` says why text standing
    where a value would is not one (``blank_form:question``, ``other_party:doctor`` ...):
    such hits become rejected candidates in candidates.json.
    """

    raw_value: str
    evidence: Evidence
    flags: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()

    @property
    def accepted(self) -> bool:
        """True when the scan found no reason against the value."""
        return not self.rejected


# ----------------------------------------------------------------------------- context
def _is_subject_label_line(line: str) -> bool:
    """``Patient Name: ...`` / ``Employee's phone: ...``: a line about the subject's own data."""
    label = line.split(":", 1)[0] if ":" in line else ""
    if not label or len(label) > 60:
        return False
    return party_of(label) == SUBJECT and bool(_SUBJECT_FIELD.search(label))


#: A doctor's name on a line of its own ("Dr. Meera Joshi, MD", "Alan Roy, DO").
_DOCTOR_NAME_LINE = re.compile(
    r"^\s*(?:Dr\.?\s+[A-Z][\w.'\-]*(?:\s+[A-Z][\w.'\-]*){0,3}(?:,?\s+[A-Z]{2,4}\.?)?"
    r"|[A-Z][\w.'\-]+(?:\s+[A-Z][\w.'\-]*){1,3},?\s+(?:MD|M\.D\.|DO|DDS|DMD|NP|PA-C|RN|"
    r"FNP|MBBS))\s*$")


def _is_party_label_line(line: str) -> bool:
    """``Physician:`` / ``Emergency contact:`` alone on its line: a label naming another
    party whose values follow on the next lines (its name, phone, address): they are that
    party's until a heading or a label of the subject."""
    if not _LABEL_ONLY.match(line):  # "Physician: Dr. Brandt  Phone: ..." is one line's matter
        return False
    label = line.split(":", 1)[0]
    if len(label) > 40 or _SUBJECT_FIELD.search(label):  # a field of its own
        return False
    party = party_of(label)
    return party not in (None, SUBJECT, ORGANIZATION)


def _opens_with_party_label(line: str) -> bool:
    """A line whose first label names another person and gives that person's name
    ("Responsible party: Lucinda Farrowby   Phone: ..."): the contact lines right under it
    are that person's until a heading or a label of the subject."""
    if ":" not in line[:45]:
        return False
    label, rest = line.split(":", 1)
    if _SUBJECT_FIELD.search(label) or party_of(label) in (None, SUBJECT, ORGANIZATION):
        return False
    value = re.split(r"\s{2,}|\s+\S+:", rest.strip(), maxsplit=1)[0]
    value = strip_parentheticals(value).strip()  # "Caspar Ossory (father)": the name
    return _proper_name(re.sub(r"^(?:dr\.?|mr\.?|mrs\.?|ms\.?)\s+", "", value, flags=re.I))


def _is_letterhead_end(number: int, line: str) -> bool:
    """The body starts: a subject cue, a name/DOB label, a heading below the first line, or a
    label that is not contact data (phone, fax, address, e-mail, web, an office's place)."""
    if mentions(line, [SUBJECT]) or NAME_LABEL.search(line) or DOB_KEY.search(line):
        return True
    if number > 0 and is_heading(line):
        return True
    label = _LABEL_LINE.match(line)
    return label is not None and not _CONTACT_LABEL.search(label.group(0)) \
        and party_of(label.group(0)) != ORGANIZATION  # "Main Office: <street>" is contact data


def _issuer_evidence(lines: list[str]) -> bool:
    """Contact data of whoever issued the document: a fax number, a web or e-mail address, or
    a street address written without a label."""
    for number, line in enumerate(lines):
        if _ISSUER_MARK.search(line):
            return True
        after_label = number > 0 and ADDRESS_LABEL.search(lines[number - 1])
        unlabelled = re.split(r"\s\|\s|:", line)[0]  # "<street, city> | Ph: ..." too
        if CITY_LINE.search(unlabelled) and not after_label:
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


#: The context of lines under a heading announcing an example of a completed form: every
#: value there is the form's example (rejected as another "party's").
EXAMPLE = "example"
EXAMPLE_HEADING = re.compile(
    r"^\W*examples?\W*$|\b(?:sample|example)\s+(?:of\s+an?\s+)?(?:completed|filled)\b|"
    r"\b(?:completed|filled(?:[\s-]in)?)\s+(?:sample|example)\b|"
    r"\b(?:sample|example)\s+(?:form|entry|entries|row|answers?)\b", re.IGNORECASE)


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
                if is_heading(line) and EXAMPLE_HEADING.search(line):
                    heading = EXAMPLE
                if heading not in (None, SUBJECT, ORGANIZATION):
                    section = heading
                parties.append(head_party)
                continue
            if is_heading(line):
                named = party_of(line)
                if EXAMPLE_HEADING.search(line):  # "SAMPLE COMPLETED FORM": an example block
                    named = EXAMPLE
                elif named is None and ORG_VOICE.search(line):  # "CONTACT US": the issuer's
                    named = ORGANIZATION
                if named is not None or not _LABEL_ONLY.match(line):  # "Phone:" is no heading
                    section = named
            elif section != EXAMPLE:  # an example's "Patient Name:" stays an example
                section = _section_after(line, section)
            parties.append(section)
        out[page.page] = _contact_lines_under_party(lines, parties)
    return out


def _section_after(line: str, section: str | None) -> str | None:
    """The party context from a line that is no heading on: a line labelling the subject's
    data returns to the subject, a line opening with the subject's role ("Client: <name>"
    under a referral heading) to no one else's, a label or a line naming another party
    ("Physician:", "Dr. Meera Joshi, MD", "Pathologist") opens that party's block."""
    if _is_subject_label_line(line):
        return SUBJECT
    if _SUBJECT_OPEN.match(line) and not _names_other_party(line):
        return None
    if _is_party_label_line(line):  # "Physician:" - what follows is the doctor's
        return party_of(line.split(":", 1)[0])
    if _DOCTOR_NAME_LINE.match(line):  # a signature block: "Dr. Meera Joshi, MD"
        return "doctor"
    if ":" not in line and len(line.split()) <= 4 and party_of(line) not in (None, SUBJECT):
        return party_of(line)  # a role on its own line: "Pathologist", "Employer"
    return section


def _contact_lines_under_party(lines: list[str], parties: list[str | None]
                               ) -> list[str | None]:
    """``parties`` with the contact lines ("Address: ...", "Phone: ...") right under a line
    that opens with another person's label and name ("Responsible party: <name>  Phone: ...")
    given to that person; the first other line ends it (a party named with its value does
    not own the subject's "Allergies:" below)."""
    out = list(parties)
    for index, line in enumerate(lines):
        if not _opens_with_party_label(line):
            continue
        party = party_of(line.split(":", 1)[0])
        for below in range(index + 1, len(lines)):
            label = _LABEL_LINE.match(lines[below])
            if not label or not _CONTACT_LABEL.search(label.group(0)) or party_of(
                    label.group(0)) is not None:
                break
            out[below] = party
    return out


def _label_cut(before: str) -> int:
    """Where the label before a key word starts, less one: after the previous label's end
    (a colon, bar, semicolon, comma or wide gap) or, in prose, the few words next to the key."""
    cut = max(before.rfind(":"), before.rfind("|"), before.rfind(";"), before.rfind(","),
              before.rfind("  "))
    if len(before[cut + 1:].split()) > LABEL_WORDS:  # prose: only the words next to the key
        last = _LAST_WORDS.search(before)  # zero words at the end match: never None
        cut = (last.start() if last else len(before)) - 1
    return cut


def _labels_a_date(prefix: str, end: int) -> bool:
    """True when the party word ending at ``end`` stands in a label whose value is a date
    ("Date of Service: 01/14/2025"): a date label, not a party's segment."""
    rest = prefix[end:]
    colon = rest.find(":")
    if colon < 0 or colon > 25:
        return False
    value = re.split(r"\s{3,}", rest[colon + 1:].strip())[0]
    dates = find_dates(value)
    return bool(dates) and not re.search(r"[A-Za-z]{3,}", value.replace(dates[0][0], ""))


def label_party(line: str, key_start: int, key_end: int, context: str | None,
                ignore: frozenset[str] = frozenset(), *, dated: bool = False) -> str | None:
    """The party of the value labelled by ``line[key_start:key_end]``.

    Party words in the label itself win, then the nearest party word earlier on the line
    (``Dr.`` counts only before a name: "Oak Dr., Springfield" is a street; with ``dated``,
    not in a label whose value is a date: a birth date after "Date of Service: <date>" is no
    organisation's), then the line's context (section heading or letterhead).
    """
    cut = _label_cut(line[:key_start])
    own = party_of(line[cut + 1:key_end], ignore=ignore)
    if own is not None:
        return own
    prefix = line[: cut + 1]
    earlier = [m for m in mentions(prefix) if m.party not in ignore
               and (m.word.lower() != "dr." or _NAME_AFTER_TITLE.match(prefix[m.end:]))
               and not (dated and _labels_a_date(prefix, m.end))]
    if earlier:
        return earlier[-1].party
    return context if context not in ignore else None


#: Label words of a value the subject had before or by another name ("Previous Address",
#: "Former Name", "Old Phone", "Prior Member ID"): not the current value a form asks for.
_NOT_CURRENT = re.compile(r"\b(?:previous|former|prior|old|past|maiden|alias|aka)\b",
                          re.IGNORECASE)
#: Label words of a work address ("Work Address", "Business address"): not the subject's own.
_WORK_PLACE = re.compile(r"\b(?:work|business|office|employment|job|company)\b", re.IGNORECASE)


def label_words(line: str, key_start: int, key_end: int) -> str:
    """The label of the value labelled by ``line[key_start:key_end]``: the key and the few
    words right before it on its line (back to the previous label's end)."""
    return line[_label_cut(line[:key_start]) + 1:key_end]


def not_current(line: str, key_start: int, key_end: int) -> bool:
    """True when the label asks for a past value or another name ("Previous Address")."""
    return bool(_NOT_CURRENT.search(label_words(line, key_start, key_end)))


#: Review flag of a value whose label names no party and whose block is not the subject's.
UNBOUND = "party_unbound"
#: A label line about another person: "Relationship to patient: Brother".
_SUBJECT_OPEN = re.compile(
    rf"^\s*(?:(?:{_SUBJECT_ROLES})(?:'s|’s)?|[A-Za-z'’]+(?:\s+[A-Za-z'’]+)?\s*\(\s*"
    rf"(?:the\s+)?(?:{_SUBJECT_ROLES})\s*\))(?:\s+name)?\s*:", re.IGNORECASE)
_RELATION = re.compile(r"^\s*(?:relation(?:ship)?\b|(?:[A-Za-z]+\s+)?(?:signed|completed|"
                       r"prepared|reviewed|verified|authori[sz]ed|collected|reported|"
                       r"approved|performed|entered|ordered)\s+by\s*:)", re.IGNORECASE)


def _names_other_party(line: str) -> bool:
    """A label, heading or short line naming another party ("Preferred Pharmacy: ...",
    "Referring Physician: ...", "EMERGENCY CONTACT", "Spouse"); prose mentions do not count.
    A heading of the subject with an aside ("BENEFICIARY (husband)") names the subject's
    relation, no other party."""
    if ":" not in line[:60] and is_heading(line) and party_of(line) == SUBJECT:
        return False
    if _RELATION.match(line):
        return True
    head = line.split(":", 1)[0] if ":" in line[:60] else line
    if ":" not in line[:60] and not is_heading(line) and len(line.split()) > 4:
        return False
    if ":" in line[:60]:  # every label on the line (two columns: "Name: A    Physician: B")
        labels = re.findall(r"(?:^|\s{2,}|\|\s*)([A-Za-z][A-Za-z .#/()'’&\-]{0,40}):", line)
        return any(_names_party(label) for label in labels)
    return _names_party(head)


#: A coverage or account attribute named after an organisation ("Group Number", "Plan ID"):
#: a field of the subject's record, no block of another party.
_ORG_ATTRIBUTE = re.compile(r"\b(?:number|no\.?|id|#|code|type)\s*$", re.IGNORECASE)


def _names_party(label: str) -> bool:
    """True when ``label`` names a party other than the subject (not "Representative (payee)": its
    aside names the subject's role)."""
    if aside_names_subject(label):
        return False
    found = [m for m in mentions(label) if m.party != SUBJECT]
    if not found:
        return False
    return not all(m.party == ORGANIZATION for m in found) or not _ORG_ATTRIBUTE.search(label)


#: "Lab: Northgate Diagnostics", "Performed at: Oakvale Family Clinic": one label, then a value.
_ENTITY_LINE = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z .'’/&\-]{0,30}?)\s*:\s*(?P<value>[^:]+?)"
                          r"\s*$")
_NAME_JOINERS = frozenset({"of", "and", "&", "the", "for", "at", "de", "la", "von", "van"})
#: Two or more capitalized words in a row: a person's or an organisation's name.
_PROPER_NAME = re.compile(r"\b[A-Z][a-z'’\-]+(?:\s+(?:[A-Z]\.\s+)?[A-Z][a-z'’\-]+)+\b")


def _proper_name(value: str) -> bool:
    """``value`` is a name and nothing else: 2-6 words, capitalized or joiners, no digits."""
    if re.search(r"\d", value):
        return False
    words = value.replace(",", " ").split()
    capitalized = [w for w in words if w[0].isupper()]
    return 2 <= len(words) <= 6 and len(capitalized) >= 2 and all(
        w[0].isupper() or w.lower() in _NAME_JOINERS for w in words)


def _opens_other_block(line: str, following: str) -> bool:
    """A line that names someone or something other than the subject, right above a contact
    label ("Phone:", "Address:"): the contact lines are that one's, not the subject's.

    The naming line is a label that asks for none of the subject's fields answered by a name
    ("Lab: Northgate Diagnostics", "Performed at: ..."), or an unlabelled line with a name in
    it ("Follow up with Dr. Hanne Solberg in 2 weeks", "Northgate Diagnostics", "Mara Brandt
    (wife)"). A letter's "Subject: Result of ..." over prose opens nothing (no contact label
    follows), nor does a heading (sections are handled as such) or a line about the subject.
    """
    contact = _LABEL_LINE.match(following)
    if not contact or not _CONTACT_LABEL.search(contact.group(0)) or is_heading(line):
        return False
    if mentions(line, [SUBJECT]) or _is_subject_label_line(line):
        return False
    if ":" not in line:
        return bool(_PROPER_NAME.search(line) or mentions(line))
    match = _ENTITY_LINE.match(line)
    return match is not None and not _SUBJECT_FIELD.search(match.group("label")) and _proper_name(
        match.group("value"))


def subject_anchors(lines: list[str]) -> tuple[tuple[bool, ...], bool]:
    """(per line: inside a block opened by a subject label or heading with no other party
    named since, whether the page names another party anywhere).

    A value in an anchored line is bound to the subject even when its own label ("Phone:")
    names no one; on a page naming several parties, an unanchored value is only offered for
    review (:data:`UNBOUND`).
    """
    anchored: list[bool] = []
    state = False
    several = False
    for index, line in enumerate(lines):
        other = _names_other_party(line) or _opens_other_block(line, _next_line(lines, index))
        several = several or other or any(m.party != SUBJECT for m in mentions(line))
        if _SUBJECT_OPEN.match(line) or _is_subject_label_line(line) or (
                is_heading(line) and party_of(line) == SUBJECT):
            state = not other  # "Patient Name: A    Physician: B" opens no subject block
            anchored.append(True)
            continue
        if other or (is_heading(line) and party_of(line) is None and ":" not in line
                     and _SECTION_WORD.search(line)):  # "SPECIMEN INFORMATION", no "DOB:"
            state = False
        anchored.append(state)
    return tuple(anchored), several


# ----------------------------------------------------------------------------- helpers
def _evidence(doc_id: str, page: LayoutPageText, lines: list[str]) -> Evidence:
    return Evidence(doc_id=doc_id, page=page.page, quoted_text="\n".join(lines))


def _segment(line: str, start: int) -> str:
    """Text after a label up to the next ``Label:`` on the same line."""
    rest = line[start:]
    stop = _NEXT_LABEL.search(rest)
    return clean_value((rest[: stop.start()] if stop else rest).strip())


def _blank(value: str, labels: frozenset[str] = frozenset(),
           hints: frozenset[str] = frozenset()) -> str | None:
    """Why ``value`` is blank-form text (see :func:`text_cues.blank_reason`), or None."""
    reason = blank_reason(value, labels)
    if reason:
        return reason
    if hints and is_printed_options(value):  # a list's printed choices, no boxes
        return "option_list"
    if hints and _NO_ENTRIES.match(value):  # "None", "NKDA": an answer, not an entry
        return "no_entries"
    if hints and (_FIRST_PERSON.search(value) or any(
            m.party != SUBJECT for m in mentions(value))):  # "Your doctor may prescribe ..."
        return "prose"
    if hints:
        words = [w.lower().strip(".,;:()'’") for w in value.split()]
        if all(w in hints or not w or is_placeholder(w) for w in words):
            return "form_label"
    return None


def _written(value: str, hints: frozenset[str] = frozenset()) -> bool:
    """False for fill-in lines, hints, instructions, option lists (nothing written)."""
    if not value or is_instruction(value) or has_checkboxes(value):
        return False
    if is_placeholder(value):
        return False
    return _blank(value, hints=hints) is None


def _rejected(value: str, evidence: Evidence, reason: str) -> HeuristicHit:
    return HeuristicHit(value, evidence, rejected=(reason,))


_LABEL_ONLY = re.compile(r"^\s*[A-Za-z][A-Za-z0-9 .#/()'’&\-]{0,40}:\s*$")


def _values_below_labels(raw: list[str], joined: frozenset[int]) -> bool:
    """True when the page shows the label-above-value layout: some label-only line is
    followed by a date or a phone number (a blank form's label lines are followed by more
    labels, which could pass for a name: "Marital Status")."""
    for index in joined:
        follow = raw[index + 1] if index + 1 < len(raw) else ""
        if find_dates(follow) or len(re.sub(r"\D", "", follow)) >= 10:
            return True
    return False


def join_label_lines(lines: list[str]) -> list[str]:
    """Lines with a label-only line joined to the value on the next line.

    Reports print ``DOB:`` on one line and ``04/12/1957`` on the next (two-column layouts
    read line by line). The result has one entry per input line (so line contexts stay
    aligned): a label-only line becomes ``"DOB: 04/12/1957"`` when the next line is not a
    label or a heading itself; its quote is still on the page (whitespace-insensitive).
    """
    out = []
    for index, line in enumerate(lines):
        follow = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if (_LABEL_ONLY.match(line) and follow and not _LABEL_LINE.match(follow)
                and blank_reason(follow) != "heading"):
            out.append(f"{line.strip()} {follow}")
        else:
            out.append(line)
    return out


_HONORIFIC = re.compile(r"^(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+(?=[A-Z])")
#: A clinician's credential after a name ("Hanne Solberg, MD", "Tomas Reyes RN"): the name is
#: a clinician's, not the subject's.
_CREDENTIAL = re.compile(r"(?:,\s*(?:M\.?D|D\.?O|DDS|DMD|NP|PA-C|RN|FNP|MBBS|Ph\.?D|DPM|OD|"
                         r"PharmD|LPN|APRN|CNP)|\s+(?:M\.?D|DDS|DMD|PA-C|RN|FNP|MBBS|Ph\.?D|"
                         r"PharmD|APRN))\.?\s*$")
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
    labels: frozenset[str] = frozenset()
    date_order: str | None = None
    joined: frozenset[int] = frozenset()  # lines joined to the value on the next line
    anchored: tuple[bool, ...] = ()  # lines inside a block positively about the subject
    several_parties: bool = False  # the page names another party somewhere

    def bound(self, index: int, line: str, key_start: int, key_end: int) -> bool:
        """True when the value labelled by ``line[key_start:key_end]`` is positively the
        subject's: its label (or the words before it on its line) names the subject, it stands
        in a block a subject label or heading opened with no other party named since, or the
        page names no other party at all."""
        if label_party(line, key_start, key_end, None) == SUBJECT:
            return True
        if not self.several_parties:
            return True
        return index < len(self.anchored) and self.anchored[index]


Scanner = Callable[[_Page], Iterator[HeuristicHit]]


# ----------------------------------------------------------------------------- scanners
#: A name printed "LAST, FIRST M." on a line of its own (lab reports, claim headers).
LAST_FIRST = re.compile(
    r"^\s*([A-Z][A-Za-z'\-]+(?:\s+[A-Z][A-Za-z'\-]+)?,\s+[A-Z][A-Za-z'\-]+"
    r"(?:\s+[A-Z][A-Za-z'\-]*\.?)?)\s*$")
#: "First M. Last" alone on its line: two to four capitalized name words.
_FIRST_LAST = re.compile(
    r"^\s*([A-Z][a-z'\-]+(?:\s+(?:[A-Z]\.|[A-Z][a-z'\-]+)){1,3})\s*$")
#: "<Name> Medication List" / "<Name>'s medical record": a document titled by its subject.
TITLE_NAME = re.compile(
    rf"^\s*(?P<name>{NAME_WORD}(?:\s+[A-Z]\.)?(?:\s+{NAME_WORD}){{1,2}})(?:'s|’s)?\s+"
    r"(?i:medication|medicine|drug|allerg(?:y|ies)|health|medical|patient)\s+"
    r"(?i:list|record|history|profile|summary|chart)\b")


def _next_line(lines: list[str], index: int) -> str:
    return next((lines[i] for i in range(index + 1, len(lines)) if lines[i].strip()), "")


def _previous_line(lines: list[str], index: int) -> str:
    return next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")


_SECTION_WORD = re.compile(
    r"\b(?:information|info|contact|details|history|section|insurance|emergency|"
    r"demographics|medications?|allerg(?:y|ies)|coverage|list|record|form|signature|date|"
    r"address|phone|number|street|city|state|zip|sex|gender|ssn)\b", re.IGNORECASE)


#: The head noun an organisation's name ends with ("... Family Health", "... Labs",
#: "... Diagnostics Inc."): no person's name ends so.
_ORGANISATION_NAME = re.compile(
    r"\b(?:health|healthcare|clinic|clinics|hospital|labs?|laborator(?:y|ies)|diagnostics|"
    r"cent(?:er|re)|pharmacy|apothecary|associates|group|medical|care|practice|partners|"
    r"services|imaging|pathology|radiology|surgery|institute|foundation|dental|pediatrics|"
    r"orthopedics|inc|llc|ltd|corp|pllc|pc)\.?\s*$", re.IGNORECASE)


def _not_a_name(value: str, labels: frozenset[str]) -> str | None:
    """Why a name-shaped text is not a person's name: blank-form text, a role or section
    word ("Emergency Contact", "Current Patient"), or only hint words ("Last, First MI")."""
    reason = _blank(value, labels)
    if reason:
        return f"blank_form:{reason}"
    if mentions(value) or _SECTION_WORD.search(value):
        return "not_a_name:role_or_section_word"
    if re.search(r"\S\s{3,}\S", value):  # "New   Established": printed choices
        return "blank_form:option_list"
    if len(value.replace(",", " ").split()) < 2:  # "Self", "Same": a full name has two words
        return "not_a_name:one_word"
    if _ORGANISATION_NAME.search(value):  # "Client: Brookmere Family Health": a practice
        return "not_a_name:organisation"
    return None


def _labeled_name(p: _Page, number: int, line: str, context: str | None,
                  match: re.Match[str]) -> HeuristicHit | None:
    """The name after a name label on line ``number``, accepted or rejected with its reason;
    None when the label asks for no full name, nothing follows it, or another party's
    label is followed by something that is no name."""
    label = match.group("label")
    if NOT_FULL_NAME.search(strip_parentheticals(label)):
        return None
    value = _HONORIFIC.sub("", _segment(line, match.end()).strip(" ,."))
    if not value:
        return None
    evidence = _evidence(p.doc_id, p.page, [line])
    if _NOT_CURRENT.search(label):
        return _rejected(value, evidence, "not_current_value")
    party = label_party(line, match.start("label"), match.end("label"), context)
    if not is_subject(party):
        return _rejected(value, evidence, f"other_party:{party}") if looks_like_name(
            value) else None
    reason = _not_a_name(value, p.labels)
    if reason:
        return _rejected(value, evidence, reason)
    if _CREDENTIAL.search(value):
        return _rejected(value, evidence, "other_party:doctor")
    if number in p.joined and len(value.split()) < 2:
        # a label's next line: one word may be the next label ("Sex", "SSN")
        return _rejected(value, evidence, "not_a_name:one_word_on_the_next_line")
    if looks_like_name(value):
        bound = p.bound(number, line, match.start("label"), match.end("label"))
        return HeuristicHit(value, evidence, flags=() if bound else (UNBOUND,))
    return None


_PROSE_WORDS = frozenset({"are", "is", "you", "your", "the", "of", "and", "for", "to", "in",
                          "on", "with", "about", "information", "see", "if", "not", "all"})


def _capital_role(line: str) -> bool:
    """A heading in capitals naming the subject's role alone ("BENEFICIARY (husband)",
    "CHILD"): the unlabelled name right under it is the subject's."""
    text = strip_parentheticals(line).strip()
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text.split()) <= 3 and len(letters) >= 3 and all(
        c.isupper() for c in letters) and party_of(text) == SUBJECT


def _headed_names(p: _Page) -> Iterator[HeuristicHit]:
    """Names printed "LAST, FIRST" or "First M. Last" on a line of their own right under a
    heading of the subject ("BENEFICIARY" over the person's lines), and the name in a
    first-page title."""
    for index, line in enumerate(p.lines):
        above = _previous_line(p.lines, index)
        match = LAST_FIRST.match(line) or (_FIRST_LAST.match(line) if _capital_role(above)
                                           else None)
        if not match or _PROSE_WORDS & {w.lower() for w in match.group(1).split()}:
            continue
        if is_heading(above) and party_of(above) == SUBJECT and not _CREDENTIAL.search(
                line) and not _ORGANISATION_NAME.search(line):  # "PATIENT INFORMATION"
            evidence = _evidence(p.doc_id, p.page, [line])
            reason = _not_a_name(match.group(1), p.labels)
            yield _rejected(match.group(1), evidence, reason) if reason else \
                HeuristicHit(match.group(1), evidence)
    first = next((line for line in p.lines if line.strip()), "")
    title = TITLE_NAME.match(first) if p.page.page == 1 else None
    if title:
        evidence = _evidence(p.doc_id, p.page, [first])
        reason = _not_a_name(title.group("name"), p.labels)
        yield _rejected(title.group("name"), evidence, reason) if reason else \
            HeuristicHit(title.group("name"), evidence)


#: A name printed alone before a birth-date label on its line ("<name>    DOB: 1/9/1944").
_NAME_BEFORE_DOB = re.compile(
    r"^\s*(?P<name>[A-Z][A-Za-z'\-.]*(?:,?\s[A-Z][A-Za-z'\-.]*){1,3})\s{2,}"
    r"(?:d\.?o\.?b\.?|date\s+of\s+birth|birth\s*date)\s*:", re.IGNORECASE)


def _name_before_dob(p: _Page, number: int, line: str,
                     context: str | None) -> HeuristicHit | None:
    """The unlabelled name heading a "<name>    DOB: <date>" line, for review: whose birth
    date it gives is the subject's only by position."""
    match = _NAME_BEFORE_DOB.match(line)
    if not match or not is_subject(context):
        return None
    name = match.group("name")
    if not looks_like_name(name) or _not_a_name(name, p.labels) or _CREDENTIAL.search(name) \
            or _ORGANISATION_NAME.search(name):
        return None
    return HeuristicHit(name, _evidence(p.doc_id, p.page, [line]), flags=(UNBOUND,))


def _names(p: _Page) -> Iterator[HeuristicHit]:
    for number, (line, context) in enumerate(zip(p.lines, p.parties, strict=False)):
        leading = _name_before_dob(p, number, line, context)
        if leading is not None:
            yield leading
        both = ADDRESS_LABEL.search(line)
        if both and _ASKS_NAME.search(both.group("label")) and not NOT_FULL_NAME.search(
                both.group("label")):  # "Patient's Name and Address: <name>, <street> ..."
            start, end = both.start("label"), both.end("label")
            name = name_before_address(_segment(line, both.end()))[0]
            if name is not None and is_subject(label_party(line, start, end, context)):
                bound = p.bound(number, line, start, end)
                yield HeuristicHit(name, _evidence(p.doc_id, p.page, [line]),
                                   flags=() if bound else (UNBOUND,))
        for match in NAME_LABEL.finditer(line):
            hit = _labeled_name(p, number, line, context, match)
            if hit is not None:
                yield hit
        for match in NAME_PROSE.finditer(line):
            yield HeuristicHit(match.group(2), _evidence(p.doc_id, p.page, [line]))
    yield from _headed_names(p)



def _date_flags(raw: str, document_order: str | None) -> tuple[str, ...]:
    """How to read a numeric date: its own digits, else the document's other dates."""
    order = numeric_date_order(raw)
    if order == "day_first":
        return ("day_first_date",)
    if order != "ambiguous":
        return ()
    if document_order == "day_first":
        return ("day_first_date",)
    if document_order == "month_first":
        return ()
    return ("ambiguous_date_order",)


#: A US postal line ("Springfield, IL 62704"): the document follows US conventions.
US_POSTAL = re.compile(r",\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b")
_ORDER_HINT = re.compile(r"\b(mm|dd)\s*[/.\-]?\s*(dd|mm)\s*[/.\-]?\s*(?:yyyy|yy)\b",
                         re.IGNORECASE)


def date_hint_order(text: str) -> str | None:
    """The order a format hint asks for (``MM/DD/YYYY`` -> month_first), if exactly one."""
    seen = {"month_first" if m.group(1).lower() == "mm" else "day_first"
            for m in _ORDER_HINT.finditer(text) if m.group(1).lower() != m.group(2).lower()}
    return next(iter(seen)) if len(seen) == 1 else None


def document_date_order(doc: LayoutDoc) -> str | None:
    """``day_first`` / ``month_first`` when the document's unambiguous numeric dates and its
    format hints (``MM/DD/YYYY``) all read one way (``22/08/1975`` is day first), else None."""
    seen = {numeric_date_order(raw) for page in doc.pages
            for raw, _ in find_dates(page.full_text)} - {None, "ambiguous"}
    seen |= {date_hint_order(page.full_text) for page in doc.pages} - {None}
    if len(seen) == 1:
        return next(iter(seen))
    if not seen and any(US_POSTAL.search(page.full_text) for page in doc.pages):
        return "month_first"  # nothing else says: a US document writes month first
    return None


#: A cue that the value after it is the form's example, not an answer ("e.g. 01/31/1980").
_EXAMPLE_CUE = re.compile(r"(?:\be\.\s?g\b\.?|\bexamples?\b|\bex\.|\bsample\b|\bsuch\s+as\b|"
                          r"\bfor\s+instance\b)", re.IGNORECASE)


#: A cue that the rest of its line is an example ("For example: Name: ... DOB: ...").
_EXAMPLE_LEAD = re.compile(r"\be\.\s?g\b\.?|\bfor\s+(?:example|instance)\b|\bexample\s*:",
                           re.IGNORECASE)


def example_line(line: str, key_start: int) -> bool:
    """True when an example cue stands before a label on its line: every value after it is
    the form's example, not the subject's."""
    return bool(_EXAMPLE_LEAD.search(line[:key_start]))


def _after_example(text: str, value: str) -> bool:
    """True when an example cue stands between a label and its value in ``text``."""
    at = text.find(value)
    return at > 0 and bool(_EXAMPLE_CUE.search(text[:at]))


def _dobs(p: _Page) -> Iterator[HeuristicHit]:
    for number, (line, context) in enumerate(zip(p.lines, p.parties, strict=False)):
        for match in DOB_KEY.finditer(line):
            rest = line[match.end():]
            stop = _NEXT_LABEL.search(rest)  # "DOB: ____   Visit Date: ..." is no birth date
            dates = find_dates((rest[: stop.start()] if stop else rest)[:40])
            if not dates:
                continue
            evidence = _evidence(p.doc_id, p.page, [line])
            if blank_reason(_segment(line, match.end())) == "example" or _after_example(
                    line[match.end(): match.end() + 60], dates[0][0]) \
                    or example_line(line, match.start()):
                yield _rejected(dates[0][0], evidence, "blank_form:example")
                continue
            party = label_party(line, match.start(), match.end(), context, dated=True)
            # no organisation is born: a birth date under an organisation's heading ("HOSPITAL
            # COURSE") is a person's, whose is unsure (reviewed, never filled)
            org_block = party == ORGANIZATION
            if not is_subject(party) and not org_block:
                yield _rejected(dates[0][0], evidence, f"other_party:{party}")
                continue
            own = date_hint_order(line[: match.end() + 40])  # "Date of Birth (MM/DD/YYYY)"
            flags = _date_flags(dates[0][0], own or p.date_order)
            if org_block or not p.bound(number, line, match.start(), match.end()):
                flags = (*flags, UNBOUND)
            yield HeuristicHit(dates[0][0], evidence, flags=flags)
    for hit, _ in _row_hits(p, DOB_KEY, _first_date):
        if hit.accepted:
            hit = HeuristicHit(hit.raw_value, hit.evidence,
                               flags=(*_date_flags(hit.raw_value, p.date_order), *hit.flags))
        yield hit


def _row_hits(p: _Page, key: re.Pattern[str],
              read: Callable[[str], str | None]) -> Iterator[tuple[HeuristicHit, str]]:
    """(hit, label) for each label of a label row over a value row (:mod:`label_rows`)
    that ``key`` matches and whose value ``read`` finds: another party's label rejects it,
    and it is bound only when a label of its row names the subject and none another party."""
    for pair in row_pairs(p.lines):
        label = p.lines[pair.label].strip()
        if not key.search(label):
            continue
        raw = read(p.lines[pair.value])
        if raw is None:
            continue
        evidence = _evidence(p.doc_id, p.page, p.lines[pair.first: pair.last + 1])
        party = party_of(label)
        if not is_subject(party):
            yield _rejected(raw, evidence, f"other_party:{party}"), label
            continue
        row = [party_of(p.lines[i]) for i in range(pair.first, pair.last + 1)
               if _row_label(p.lines[i])]
        bound = SUBJECT in row and all(is_subject(r) for r in row)
        yield HeuristicHit(raw, evidence, flags=() if bound else (UNBOUND,)), label


def _first_date(text: str) -> str | None:
    dates = find_dates(text)
    return dates[0][0] if dates else None


def _phone_in(segment: str) -> str | None:
    """The first phone number of a label's value (unusual grouping too), as written."""
    found = next(iter(phonenumbers.PhoneNumberMatcher(segment, "US")), None)
    if found is not None:
        return found.raw_string
    run = PHONE_RUN.search(segment)
    if run and run.start() <= 12 and 10 <= len(re.sub(r"\D", "", run.group(0))) <= 13:
        return run.group(0).strip()
    return None


def _organisation_number(raw: str, before: str, above: str, lead: str = "") -> str | None:
    """Why a number is the organisation's own line: toll-free, a "call us" cue before its
    label (same line or the line above), or the organisation speaking of itself anywhere
    before the number on its line (``lead``: "Questions? Contact us at ...")."""
    try:
        phone = normalize_phone(raw)
    except NormalizationError:
        return None
    if phone.e164.startswith("+1") and phone.national_digits[:3] in TOLL_FREE:
        return "organisation_contact:toll_free"
    if ORG_CONTACT.search(before) or ORG_CONTACT.search(above) or ORG_VOICE.search(lead):
        return "organisation_contact:call_line"
    return None


FOOTER_LINES = 3


def _footer(lines: list[str]) -> set[int]:
    """Indexes of a page's footer: its last lines, when one of them carries the issuer's
    marks (a fax, a web or e-mail address)."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if len(filled) < 3 * FOOTER_LINES:  # a short note has no footer
        return set()
    tail = filled[-FOOTER_LINES:]
    return set(tail) if any(_ISSUER_MARK.search(lines[i]) for i in tail) else set()


_PHONE_WORD = re.compile(r"\b(?:phone|telephone|tel|mobile|cell|ph)\b", re.IGNORECASE)
_SUBJECT_LINE = re.compile(
    r"^\s*(?:patient|member|client|employee|claimant|applicant)(?:'s|’s)?(?:\s+name)?\s*:"
    r"|^\s*(?:full\s+)?name\s*:", re.IGNORECASE)
SUBJECT_BLOCK_LINES = 6


def _in_subject_block(lines: list[str], index: int) -> bool:
    """True when a line labelling the subject ("Patient: ...", "Name: ...") stands within
    the few lines above: a bare "Contact:" there is the subject's."""
    return any(_SUBJECT_LINE.match(line)
               for line in lines[max(0, index - SUBJECT_BLOCK_LINES): index + 1])


#: Review flag of a phone printed under a label it shares with a fax ("Phone/Fax:").
SHARED_LABEL = "shared_phone_fax_label"
_SHARED_FAX = re.compile(r"\bfax\s*/|/\s*fax\b", re.IGNORECASE)


_WORDS_BEFORE_NUMBER = 3  # "Phone: home (555) ...", "Tel: cell / day ..." at most


def _wrapped_from(lines: list[str], index: int) -> str:
    """The line above when ``lines[index]`` continues it (the line above ends with a comma
    and this one starts in lower case), else ''."""
    above = _previous_line(lines, index).rstrip()
    return above if above.endswith(",") and lines[index].lstrip()[:1].islower() else ""


def _address_strip(before: str) -> bool:
    """True when an unlabelled postal address stands before a phone label on its line
    ("<name>, 18 Canal St, Lowell, MA 01852, Tel ...", "<lab>, 14 MG Road, <city> 411001.
    Ph: ..."): a letterhead's or footer's strip of whoever it names; the subject's own
    address and phone are labelled."""
    text = before.rstrip(" ,;|-.")
    if ":" in text:
        return False
    if CITY_LINE.search(text):
        return True
    parts = [part for part in text.split(",") if part.strip()]  # "<lab>, 14 MG Road, <city>"
    return len(parts) >= 3 and bool(re.search(r"\d", text))


def _title_strip(before: str) -> bool:
    """True when a phone label follows a document's title or heading on its line
    ("PATIENT PROFILE - <PHARMACY>   Tel ..."): the issuer's number, not a labelled answer
    (a person's name in capitals before it does not count)."""
    text = before.strip(" |-,;")
    return bool(text) and ":" not in text and is_heading(text) \
        and not looks_like_name(text.title())


def _text_before_number(before: str) -> bool:
    """True when a label's value starts with other matter than the number: a separator bar
    or more than a few words ("Lakeside Care | 41 Harbor Blvd | (555) ...")."""
    return "|" in before or len(re.findall(r"[A-Za-z]{2,}", before)) > _WORDS_BEFORE_NUMBER


def _phones(p: _Page) -> Iterator[HeuristicHit]:
    """The subject's phones; a work phone ("Work Phone:", "Business phone") on a page that
    also gives the subject's own number is not the phone asked for (rejected with why)."""
    rows = [(hit, label) for hit, label in _row_hits(p, PHONE_KEY, _phone_in)
            if not hit.accepted or _organisation_number(hit.raw_value, "", "") is None]
    hits = [(bool(_WORK_PLACE.search(label)), hit)
            for hit, label in [*_labelled_phones(p), *rows]]
    own = any(hit.accepted and not work for work, hit in hits)
    for work, hit in hits:
        if work and own and hit.accepted:
            yield _rejected(hit.raw_value, hit.evidence, "not_the_subjects_home:work_phone")
        else:
            yield hit


def _labelled_phones(p: _Page) -> Iterator[tuple[HeuristicHit, str]]:
    """(hit, the label's words) for every phone label of the page."""
    footer = _footer(p.lines)
    for index, (line, context) in enumerate(zip(p.lines, p.parties, strict=False)):
        for match in PHONE_KEY.finditer(line):
            segment = _segment(line, match.end())
            raw = _phone_in(segment)
            if raw is None:
                continue
            if _text_before_number(segment[: segment.find(raw)]):
                # "Phone: <clinic name> | <street> | (555) ...": the label's own answer is
                # empty; the number belongs to the text printed before it (a footer strip)
                yield _rejected(raw, _evidence(p.doc_id, p.page, [line]),
                                "other_text_before_number"), ""
                continue
            if not _PHONE_WORD.search(match.group(0)) and context != SUBJECT \
                    and not _in_subject_block(p.lines, index):
                continue  # "Contact:" / "Home Number:" away from the subject's block
            evidence = _evidence(p.doc_id, p.page, [line])
            label = label_words(line, match.start(), match.end())
            party = label_party(line, match.start(), match.end(), context)
            wrapped = _wrapped_from(p.lines, index)
            if is_subject(party) and wrapped:  # "..., 40 Quarry Street, Barre, VT 05641,"
                shift = len(wrapped) + 1  # then "phone (802) ...": the line above's party
                party = label_party(f"{wrapped} {line}", match.start() + shift,
                                    match.end() + shift, context)
            if not is_subject(party):
                yield _rejected(raw, evidence, f"other_party:{party}"), label
                continue
            if not_current(line, match.start(), match.end()):
                yield _rejected(raw, evidence, "not_current_value"), label
                continue
            lead = line[: max(line.find(raw, match.start()), match.end())]
            reason = _organisation_number(raw, line[: match.start()],
                                          _previous_line(p.lines, index), lead)
            if reason is None and (_after_example(line[match.end():], raw)
                                   or example_line(line, match.start())):
                reason = "blank_form:example"
            if reason is None and index in footer:
                reason = "organisation_contact:footer"
            if reason is None and _address_strip(line[: match.start()]):
                reason = "organisation_contact:address_strip"
            if reason is None and _title_strip(line[: match.start()]):
                reason = "organisation_contact:title_line"
            if reason:
                yield _rejected(raw, evidence, reason), label
                continue
            flags = () if p.bound(index, line, match.start(), match.end()) else (UNBOUND,)
            if _SHARED_FAX.search(line[max(0, match.start() - 5): match.end() + 5]):
                flags = (*flags, SHARED_LABEL)  # "Phone/Fax:": which of the two is it?
            yield HeuristicHit(raw, evidence, flags=flags), label


#: A bare "ID" label (no member, subscriber, insurance or policy word in it).
_BARE_ID = re.compile(r"^\s*id\b", re.IGNORECASE)
#: Words of insurance coverage: a page with none of them holds no insurance member id.
_COVERAGE = re.compile(
    r"\b(?:insurance|insurer|insured|member|subscriber|policy|plan|coverage|payer|payor|"
    r"carrier|medicaid|medicare|benefits?|copay|rx\s*bin|group\s*(?:no\.?|number|#|:))",
    re.IGNORECASE)


def _member_ids(p: _Page) -> Iterator[HeuristicHit]:
    """Ids labelled member/subscriber/insurance id or policy number; on a page that gives a
    member id, a policy number is the plan's (rejected with that reason)."""
    ignore = frozenset(PARTY_WORDS) - NOT_MEMBER_ID_OWNERS - {SUBJECT}
    found: list[tuple[bool, HeuristicHit]] = []
    coverage = bool(_COVERAGE.search(p.page.full_text))
    for number, (line, context) in enumerate(zip(p.lines, p.parties, strict=False)):
        for match in MEMBER_KEY.finditer(line):
            if not is_subject(label_party(line, match.start(), match.end(), context, ignore)):
                continue
            segment = _segment(line, match.end())
            token = MEMBER_TOKEN.search(segment)
            if token and not_current(line, match.start(), match.end()):
                found.append((False, _rejected(token.group(0), _evidence(
                    p.doc_id, p.page, [line]), "not_current_value")))
                continue
            if token and not coverage and _BARE_ID.match(match.group(0)):
                # a lab's or a clinic's record number: "ID: 445120" on a page about no plan
                found.append((False, _rejected(token.group(0), _evidence(
                    p.doc_id, p.page, [line]), "not_a_coverage_id:bare_id")))
                continue
            if token and (_after_example(segment, token.group(0))
                          or example_line(line, match.start())):
                found.append((False, _rejected(token.group(0), _evidence(
                    p.doc_id, p.page, [line]), "blank_form:example")))
                continue
            if token and token.start() <= 12 and not PHONE_LIKE.match(token.group(0)):
                policy = match.group(0).strip().lower().startswith("policy")
                bound = p.bound(number, line, match.start(), match.end())
                found.append((policy, HeuristicHit(token.group(0),
                                                   _evidence(p.doc_id, p.page, [line]),
                                                   flags=() if bound else (UNBOUND,))))
    has_member_id = any(not policy and hit.accepted for policy, hit in found)
    for policy, hit in found:
        if policy and has_member_id:
            yield _rejected(hit.raw_value, hit.evidence, "policy_number_not_member_id")
        else:
            yield hit


_COLUMN_GAP = re.compile(r"\s{3,}")


def _address_lines(lines: list[str], i: int, label_start: int,
                   first: str) -> tuple[list[str], list[str]]:
    """The address after the label on line ``i``: the rest of its line (``first``) and up to
    two printed lines below it, in the label's column, up to the city line; with the printed
    lines quoted (the label's line first)."""
    line = lines[i]
    parts, used = ([first] if first else []), [line]
    column = len(_COLUMN_GAP.findall(line[:label_start].strip()))
    columns = len(_COLUMN_GAP.findall(line.strip())) + 1
    for printed in lines[i + 1: i + 3]:
        follow = printed
        if not follow.strip() or _LABEL_LINE.match(follow) or is_heading(follow):
            break
        chunks = _COLUMN_GAP.split(follow.strip())
        if len(chunks) > 1:  # two columns: only the label's own column continues it
            if len(chunks) != columns:
                break
            follow = chunks[column]
        open_end = bool(parts) and parts[-1].rstrip().endswith(",")
        if parts and not CITY_LINE.search(follow) and not open_end:
            break
        if not _written(follow.strip()):
            break
        parts.append(follow.strip())
        used.append(printed)  # the quote is the whole printed line
        if CITY_LINE.search(follow):
            break
    return parts, used


def _addresses(p: _Page) -> Iterator[HeuristicHit]:
    lines = p.lines
    for i, (line, context) in enumerate(zip(lines, p.parties, strict=False)):
        match = ADDRESS_LABEL.search(line)
        if not match or NOT_POSTAL.search(match.group("label")):
            continue
        if not is_subject(label_party(line, match.start("label"), match.end("label"), context)):
            continue
        first = _segment(line, match.end())
        reason = _blank(first, p.labels) if first else None
        if reason:
            yield _rejected(first, _evidence(p.doc_id, p.page, [line]), f"blank_form:{reason}")
            continue
        label = match.group("label")
        if _NOT_CURRENT.search(label) or _WORK_PLACE.search(label):
            shown = first or _next_line(lines, i).strip()
            if shown:
                yield _rejected(shown, _evidence(p.doc_id, p.page, [line]),
                                "not_current_value" if _NOT_CURRENT.search(label)
                                else "not_the_subjects_home:work_address")
            continue
        if _ASKS_NAME.search(label):  # "Name and Address: <name>, <street>, ...": the name
            name, rest = name_before_address(first)  # is no part of the address
            if name is None:
                if first:
                    yield _rejected(first, _evidence(p.doc_id, p.page, [line]),
                                    "label_asks_two_fields")
                continue
            first = rest
        below = lines[i + 1].strip() if not first and i + 1 < len(lines) else ""
        reason = _blank(below, p.labels) if below and _written(below) else None
        if reason:  # nothing after the label, and the line under it is the form's own
            # text (the next section's prompt ending in ':'): no address was written
            yield _rejected(below, _evidence(p.doc_id, p.page, [line, lines[i + 1]]),
                            f"blank_form:{reason}")
            continue
        parts, used = _address_lines(lines, i, match.start("label"), first)
        if parts:
            bound = p.bound(i, line, match.start("label"), match.end("label"))
            yield HeuristicHit("\n".join(parts), _evidence(p.doc_id, p.page, used),
                               flags=() if bound else (UNBOUND,))


#: An address label that asks for the name too ("Patient's Name and Address").
_ASKS_NAME = re.compile(r"\bname\b", re.IGNORECASE)


def name_before_address(value: str) -> tuple[str | None, str]:
    """(the person's name, the address) of a "name, street, city ..." value; (None, value)
    when it does not read so (the name first, then a part starting with a house number)."""
    head, _, rest = value.partition(",")
    if rest.strip()[:1].isdigit() and looks_like_name(head.strip()):
        return head.strip(), rest.strip()
    return None, value


_STRENGTH = re.compile(
    r"\b\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ug|g|ml|mL|units?|iu|IU|%|meq|mEq)\b(?:\s*/\s*\w+)?",
    re.IGNORECASE)
#: Words that start the dosing or the directions of a medication entry.
_DOSING = re.compile(
    r"\b(?:bid|tid|qid|qd|qhs|qam|qpm|prn|po|daily|nightly|weekly|once|twice|three|every|"
    r"each|as|take|takes|taken|to|for|with|by|at|in|before|after|sublingual|oral|orally|"
    r"tab|tabs|tablet|tablets|cap|caps|capsule|capsules|puff|puffs|\d+)\b", re.IGNORECASE)
_REACTION = re.compile(r"\s*(?:\(|\s-\s|:|\u2013|\u2014|\bcauses?\b|\breaction\b).*$",
                       re.IGNORECASE)


def medication_item(text: str) -> str:
    """A medication entry's drug name and strength as printed (dosing dropped)."""
    body = _BULLET.sub("", text).strip()
    strength = _STRENGTH.search(body)
    if strength and strength.start() > 0:
        return body[: strength.end()].strip(" ,;.")
    dosing = _DOSING.search(body)
    if dosing and dosing.start() > 0:
        return body[: dosing.start()].strip(" ,;.-")
    return body.strip(" ,;.")


def allergy_item(text: str) -> str:
    """An allergy entry's allergen (the reaction dropped)."""
    body = _BULLET.sub("", text).strip()
    return _REACTION.sub("", body).strip(" ,;.") or body.strip(" ,;.")


ITEM_FORM: dict[str, Callable[[str], str]] = {"medications": medication_item,
                                              "allergies": allergy_item}
_BULLET_ONLY = re.compile(r"^\s*(?:[-*\u2022\u00b7\u25aa\u25cf\u2013]|\d+[.)])\s*$")


#: A run of underscores: a fill-in line printed for a handwritten answer.
_FILL_IN_RUN = re.compile(r"_{3,}")


def _answer_slot_blank(lines: list[str], index: int, after_label: str) -> bool:
    """True when a list label's own answer slot is an empty fill-in line: underscores after
    the label on its line ("Allergies ________"), or, with nothing after it, a line that opens
    with underscores right under it ("Allergies" over "______ Gout"). The label's answer is
    that empty line; the lines under it are the form's next questions or a checklist of other
    conditions, no entries of the list."""
    if _FILL_IN_RUN.search(after_label.split(":", 1)[-1][:40]):
        return True
    if after_label.strip(" :\t"):
        return False
    following = next((x for x in lines[index + 1: index + 3] if x.strip()), "")
    return bool(re.match(r"^\s*_{3,}", following))


def _list_items(lines: list[str], start: int) -> tuple[list[str], int]:
    """Entries written under a list label: (items, index of the last line used).

    A bullet printed on a line of its own belongs to the next line; a bulleted entry may wrap
    onto following lines (they are not entries of their own).
    """
    items: list[str] = []
    last = start
    bulleted = False
    pending_bullet = False
    after_instruction = False
    skipped_entry = False  # the current bulleted entry was not read: its wrapped lines neither
    end = min(len(lines), start + 40)
    for index in range(start + 1, end):
        follow = lines[index]
        if _BULLET_ONLY.match(follow):
            pending_bullet = True
            continue
        if _COLUMNS.search(follow) and not _written(follow.strip(), LIST_HINTS):
            continue  # a table's column headings ("Medication   Dose   How often")
        if not follow.strip() or is_heading(follow):
            if pending_bullet or not follow.strip() and not items:
                continue
            break
        is_bullet = pending_bullet or bool(_BULLET.match(follow))
        pending_bullet = False
        if skipped_entry and not is_bullet:
            continue  # the wrapped tail of an entry that was not read is no entry of its own
        skipped_entry = False
        if _LABEL_LINE.match(follow) and not is_bullet:
            break
        if items and bulleted and not is_bullet:
            ahead = lines[index + 1: index + 4]
            if any(_BULLET_ONLY.match(a) or _BULLET.match(a) for a in ahead):
                continue  # a wrapped entry
            break
        body = _BULLET.sub("", follow).strip()
        if has_checkboxes(body) or is_option_row(follow):
            marked = marked_options(body)
            items += marked
            last = index if marked else last
            continue
        if is_instruction(body) or (after_instruction and body[:1].islower()):
            if items:
                break
            after_instruction = True  # its wrapped lines too ("herbal supplements. ...")
            continue
        after_instruction = False
        if not _written(body, LIST_HINTS):
            skipped_entry = is_bullet
            continue
        bulleted = bulleted or is_bullet
        items.append(follow.strip())  # as written (bullets too): the value stays literal
        last = index
        if len(items) >= 25:
            break
    return items, last


#: Prose cues of a list: "allergies to sulfa and shellfish", "treated with A, B and C".
PROSE_CUES = {
    "allergies": re.compile(r"\ballerg(?:ies|y|ic)\s+(?:to|include[sd]?|including)\s+",
                            re.IGNORECASE),
    "medications": re.compile(
        r"\b(?:treated\s+with|(?:currently\s+)?taking|takes|was\s+prescribed|"
        r"(?:started|continued|discharged|maintained)\s+on|(?:will\s+)?continues?(?:\s+on)?|"
        r"medications?\s+(?:include[sd]?|are|were|consist\s+of))\s+", re.IGNORECASE),
}
#: A cue verb common outside medication lists ("continue to call", "continue on page 2").
_WEAK_CUE = re.compile(r"\bcontinues?\b", re.IGNORECASE)
_GENERIC = re.compile(r"\b(?:patients|members|clients|anyone|everyone|all|any|those|people)\b",
                      re.IGNORECASE)
_NO_ENTRIES = re.compile(r"^\s*(?:(?:none|nil)(?:\s+(?:known|reported|noted|documented|listed|"
                         r"stated))?|no|nka|nkda|n/?a|no\s+known(?:\s+\w+){0,2})\s*\.?\s*$",
                         re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|we|our|you|your)\b")
_NEGATION = re.compile(r"\b(?:no|not|denies|denied|without|nkda|nka|never)\b[^.]{0,30}$",
                       re.IGNORECASE)
#: A word that ends a prose list ("... and peanuts were documented", "... during their stay").
_PROSE_END = re.compile(
    r"\s+(?:were|was|is|are|be|has|have|had|which|that|who|should|must|may|might|can|could|"
    r"will|would|need|needs|documented|noted|reported|during|"
    r"since|for|while|after|before|until|at|in|on|to|from|as|because|but|with|by|if|when)\b"
    r"|[.;:!?()]", re.IGNORECASE)
_INFINITIVE = re.compile(r"to\s+[a-z]", re.IGNORECASE)
_PROSE_ITEM = re.compile(r"^[A-Za-z][A-Za-z\-']*(?:\s+[A-Za-z0-9][A-Za-z0-9.\-']*){0,3}$")
_ARTICLE = re.compile(r"^(?:the|a|an|his|her|their|some|and|or)\s+", re.IGNORECASE)
_LIST_WORDS = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,|\s+and\s+|\s+or\s+|&)\s*", re.IGNORECASE)


_DETERMINER = re.compile(r"^(?:such|these|those|this|that|any|all|other|certain|your|my|"
                        r"our|no|several|many|various|some|new|same)\b", re.IGNORECASE)


def _prose_item(item: str) -> bool:
    """A named thing (``penicillin``, ``metformin 500 mg``), not ``such medications``."""
    words = [w.lower().strip(".,'") for w in item.split()]
    return bool(_PROSE_ITEM.match(item)) and not _DETERMINER.match(item) \
        and not any(w in LIST_HINTS for w in words)


def _prose_list(field: str, p: _Page) -> Iterator[HeuristicHit]:
    """A list of the subject's allergies or medications named in a sentence (for review)."""
    text = collapse_ws(p.page.full_text)
    headings = [collapse_ws(line) for line in p.page.full_text.split("\n") if is_heading(line)]
    for match in PROSE_CUES[field].finditer(text):
        before = text[max(0, match.start() - 200): match.start()]
        sentence = re.split(r"(?<=[.!?])\s+", before)[-1]
        for heading in headings:  # a heading ends the sentence before it ("DISCHARGE PLAN")
            at = sentence.rfind(heading)
            if at >= 0:
                sentence = sentence[at + len(heading):].lstrip()
        if _NEGATION.search(sentence) or not is_subject(party_of(sentence)) \
                or _GENERIC.search(sentence):  # "Patients allergic to latex must ...": policy
            continue
        tail = re.split(r"(?<=[.!?])(?:\s|$)", text[match.start(): match.start() + 300])[0]
        whole = f"{sentence} {tail}"
        if blank_reason(whole) in ("question", "instruction", "example", "fill_in_line") \
                or _FIRST_PERSON.search(whole):  # a form's question or its consent text
            continue
        rest = text[match.end(): match.end() + 160]
        if _INFINITIVE.match(rest):  # "the time it takes to complete them": no list
            continue
        stop = _PROSE_END.search(rest)
        chunk = rest[: stop.start()] if stop else rest
        items = [_ARTICLE.sub("", i).strip() for i in _LIST_WORDS.split(chunk)]
        items = [i for i in items if i]
        if not items or not all(_prose_item(i) for i in items):
            continue
        if _WEAK_CUE.search(match.group(0)) and not all(_STRENGTH.search(i) for i in items):
            continue  # "continue" says little: only drugs with their strength are a list
        quote = (sentence + " " if sentence else "") + text[match.start(): match.end()] + chunk
        yield HeuristicHit("\n".join(ITEM_FORM[field](i) for i in items),
                           _evidence(p.doc_id, p.page, [quote.strip()]),
                           flags=("list_from_prose",))


_CHOICE_LINE = re.compile(r"^\s*[A-Z][A-Za-z'’/\-]*(?:\s+[A-Z][A-Za-z'’/\-]*){1,4}\s*$")
_CHOICES_ABOVE = 2


def _amid_choices(lines: list[str], index: int) -> bool:
    """True when the lines right above a colon-less list label are printed choices like it:
    each a short phrase of capitalised words, no digits, no colon ("Operative Reports",
    "Medication List" over "Allergies")."""
    above = [line for line in lines[:index] if line.strip()][-_CHOICES_ABOVE:]
    return len(above) == _CHOICES_ABOVE and all(_CHOICE_LINE.match(line) for line in above)


#: One printed option of a question's choices: a short phrase opening with a capital, no
#: digits, colon or list punctuation ("Gout", "Night sweats").
_OPTION_LINE = re.compile(r"^\s*[A-Z][A-Za-z'’/\-]*(?:\s+[A-Za-z][A-Za-z'’/\-]*){0,4}\s*$")
#: How many options above a label may stand between it and the question they answer.
_OPTIONS_ABOVE = 12


def _option_of_question(lines: list[str], index: int) -> bool:
    """True when a colon-less list label is one of the options printed under a question:
    the lines above it, up to the question ("Has your pet had any of these?"), are short
    option phrases like it ("Asthma", "Ear infections") or there are none. Such a label is
    a choice whose box is drawn, not a label over written entries; the lines under it are
    the question's next options."""
    for line in reversed(lines[max(0, index - _OPTIONS_ABOVE - 1): index]):
        if not line.strip():
            continue
        if _OPTION_LINE.match(line):
            continue
        return blank_reason(line) == "question"
    return False


#: A word qualifying a list's label ("Known drug allergies:", "Reported allergies:").
_LIST_QUALIFIER = r"(?:(?:known|current|reported|documented|recorded)\s+)?"


def _list_field(field: str) -> Scanner:
    labels = "|".join(re.escape(x) for x in LIST_LABELS[field])
    label = re.compile(
        rf"^\s*{_NUMBERED}{_LIST_QUALIFIER}(?:{labels})\b"
        rf"{_HINT}\s*(:?)\s*",
        re.IGNORECASE,
    )
    titled = re.compile(
        rf"^\s*[A-Z][A-Za-z'’\-.]*(?:\s+[A-Z][A-Za-z'’\-.]*){{0,3}}\s+"
        rf"(?i:{'|'.join(re.escape(x) for x in LIST_LABELS[field])})\b\s*(:)\s*$")
    form = ITEM_FORM[field]

    def scan(p: _Page) -> Iterator[HeuristicHit]:
        lines = p.lines
        for i, (line, context) in enumerate(zip(lines, p.parties, strict=False)):
            match = label.match(line) or titled.match(line)
            if not match or not is_subject(context):
                continue
            rest = _segment(line, match.end())
            hint = _PAREN.search(match.group(0))
            choose = bool(hint and is_instruction(hint.group(1)))  # "(check all that apply)"
            evidence = _evidence(p.doc_id, p.page, [line])
            if rest:
                if not match.group(1):  # "Medications reviewed today": prose, not a label
                    continue
                if has_checkboxes(rest) or choose:  # options: only marked ones are values
                    marked = marked_options(rest)
                    if marked:
                        yield HeuristicHit("; ".join(form(m) for m in marked), evidence)
                    else:
                        yield _rejected(rest, evidence, "blank_form:option_list")
                    continue
                reason = _blank(rest, p.labels, LIST_HINTS)
                if reason:
                    yield _rejected(rest, evidence, f"blank_form:{reason}")
                else:
                    yield HeuristicHit("; ".join(form(x) for x in re.split(r"[;,]", rest)
                                                 if x.strip()), evidence)
                continue
            if _answer_slot_blank(lines, i, line[match.end():]):
                yield _rejected(line.strip(), evidence, "blank_form:fill_in_line")
                continue
            table = read_cell_table(lines, i) if field == "medications" else None
            if table is not None:
                quote = _evidence(p.doc_id, p.page, lines[table.first: table.last + 1])
                if table.items:
                    yield HeuristicHit("\n".join(table.items), quote)
                else:  # cells that cannot be cut into checked rows: no reading is sure
                    yield _rejected(" ".join(lines[i: table.last + 1]), quote,
                                    "table_cells_unaligned")
                continue
            if not match.group(1) and (_amid_choices(lines, i)
                                       or _option_of_question(lines, i)):
                # "Medication List / Allergies / Radiology Image": one of the form's own
                # printed choices (their boxes are widgets), no label over entries
                yield _rejected(line.strip(), evidence, "blank_form:option_list")
                continue
            items, last = _list_items(lines, i)
            if items:
                yield HeuristicHit("\n".join(form(x) for x in items),
                                   _evidence(p.doc_id, p.page, lines[i: last + 1]))
        yield from _prose_list(field, p)

    return scan


_LEADING_NUMBER = re.compile(r"^\s*(?:\d{1,2}[a-z]?|[A-Z])[.)]?\s+(?=[A-Za-z])")
_CITY_PART = re.compile(r"\b(?:city|state|zip|postal|province)\b", re.IGNORECASE)


def label_phrase(label: str) -> str:
    """A widget's printed label as a label: its number dropped, cut after its first
    parenthetical or sentence ("1 Name (as shown on ...). Name is required" -> "Name (as
    shown on ...)")."""
    text = _LEADING_NUMBER.sub("", label.strip())
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if not depth:
                return text[: index + 1].strip()
        elif char in ".;:" and not depth and index > 0:
            return text[:index].strip()
    return text.strip()


def widget_lines(fields: list[FilledField]) -> list[str]:
    """The filled widgets of an input page as ``"<label>: <value>"`` lines, in page order; a
    city/state/ZIP widget right after an address widget continues the address."""
    lines: list[str] = []
    in_address = False
    for item in fields:
        if not item.label:
            in_address = False
            continue
        phrase = label_phrase(item.label)
        if in_address and _CITY_PART.search(phrase):
            lines.append(item.value)
            continue
        lines.append(f"{phrase}: {item.value}")
        in_address = bool(ADDRESS_LABEL.search(lines[-1]))
    return lines


def _widget_hits(scanner: Scanner, doc_id: str, page: LayoutPageText,
                 labels: frozenset[str], order: str | None) -> Iterator[HeuristicHit]:
    """Hits from the filled widgets of an input page: the label decides the field, the
    value (printed on the page) is the quote."""
    lines = widget_lines(page.form_fields)
    if not lines:
        return
    bare = page.model_copy(update={"full_text": ""})  # no prose pass over widget lines
    for hit in scanner(_Page(doc_id, bare, lines, [None] * len(lines), labels, order)):
        quote = Evidence(doc_id=doc_id, page=page.page, quoted_text=hit.raw_value)
        yield HeuristicHit(hit.raw_value, quote, hit.flags, hit.rejected)


SCANNERS: dict[str, Scanner] = {
    "full_name": _names,
    "dob": _dobs,
    "phone": _phones,
    "insurance_member_id": _member_ids,
    "address": _addresses,
    "allergies": _list_field("allergies"),
    "medications": _list_field("medications"),
}
#: Fields whose label may stand on the line above its value (see :func:`join_label_lines`).
JOINED_LABEL_FIELDS = frozenset({"full_name", "dob", "phone", "insurance_member_id"})


def scan_field(field: str, docs: list[LayoutDoc],
               contexts: dict[str, dict[int, list[str | None]]] | None = None,
               *, include_rejected: bool = False) -> list[HeuristicHit]:
    """The one heuristic pass for ``field`` over its routed documents (in routing order).

    Args:
        field: the field key.
        docs: the routed documents.
        contexts: a cache of :func:`line_parties` per doc id, shared across fields.
        include_rejected: also return the hits the scan rejected (blank-form text, another
            party's value), each with its reason.

    Duplicate hits (same value, same document and page) are kept once.
    """
    scanner = SCANNERS.get(field)
    if scanner is None:
        return []
    wanted = PAGE_FILTER.get(field)
    cache = contexts if contexts is not None else {}
    hits: list[HeuristicHit] = []
    seen: set[tuple[str, str, int, tuple[str, ...]]] = set()
    orders = {d.doc_id: document_date_order(d) for d in docs} if field == "dob" else {}
    known = set(orders.values()) - {None}
    bundle_order = next(iter(known)) if len(known) == 1 else None  # the same person's papers
    for doc in docs:
        labels = form_labels([line for page in doc.pages
                              for line in page.full_text.split("\n")])
        order = orders.get(doc.doc_id) or bundle_order
        for page in doc.pages:
            if wanted is not None and not wanted.search(page.full_text):
                continue
            if doc.doc_id not in cache:
                cache[doc.doc_id] = line_parties(doc)
            lines = page.full_text.split("\n")
            joined: frozenset[int] = frozenset()
            if field in JOINED_LABEL_FIELDS:
                raw, lines = lines, join_label_lines(lines)
                joined = frozenset(i for i, (a, b) in enumerate(zip(raw, lines, strict=True))
                                   if a != b)
                if field == "full_name" and not _values_below_labels(raw, joined):
                    lines, joined = raw, frozenset()  # a blank form's labels, one per line
            parties = cache[doc.doc_id].get(page.page, [])
            anchored, several = subject_anchors(page.full_text.split("\n"))
            found = scanner(_Page(doc.doc_id, page, lines, parties, labels, order, joined,
                                  anchored, several))
            widget_found = _widget_hits(scanner, doc.doc_id, page, labels, order)
            examples = {collapse_ws(line) for line, party in zip(lines, parties, strict=False)
                        if party == EXAMPLE and line.strip()}
            for hit in [*found, *widget_found]:
                if examples and hit.accepted and collapse_ws(
                        hit.evidence.quoted_text.split("\n")[0]) in examples:
                    hit = _rejected(hit.raw_value, hit.evidence, "blank_form:example")
                if hit.rejected and not include_rejected:
                    continue
                if page.ocr:  # read by OCR: lower confidence, the quote's box from OCR lines
                    box = span_box(page, hit.evidence.quoted_text)
                    hit = HeuristicHit(hit.raw_value,
                                       hit.evidence.model_copy(update={"bbox": box}),
                                       (*hit.flags, "ocr_text"), hit.rejected)
                key = (collapse_ws(hit.raw_value).casefold(), doc.doc_id, page.page,
                       hit.rejected)
                if key not in seen:
                    seen.add(key)
                    hits.append(hit)
    return hits
