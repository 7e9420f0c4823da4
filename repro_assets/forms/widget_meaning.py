"""What a widget's tooltip or printed label asks for: a v1 key and the part of its value.

Pure text rules about form wording (never about one form): "Date of birth" asks for ``dob``,
"Last Name" for the last part of ``full_name``, "City, state, and ZIP code" for the city,
state and ZIP of ``address``, "(MM/DD/YYYY)" gives the order of a date split over boxes.
"""

from __future__ import annotations

import re

#: What a widget's tooltip or printed label asks for: (pattern, key, part). First match wins.
MEANINGS: tuple[tuple[re.Pattern[str], str, str | None], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), key, part) for pattern, key, part in (
        (r"\ballerg", "allergies", None),
        (r"\bname\s+of\s+(?:the\s+)?medication|\bmedications?\b|\bmedicines?\b|"
         r"\bdrug\s+name", "medications", "row_name"),
        (r"\bdos(?:e|age)\b|\bstrength\b", "medications", "row_dose"),
        (r"\bhow\s+often\b|\bfrequency\b", "medications", "row_often"),
        (r"\b(?:member|insurance|policy|insured)(?:'s|’s)?\s+(?:member\s+)?"
         r"(?:i\.?\s?d\b|identification\b|number\b|no\b|#)|\bmember\s*id\b", "insurance_member_id",
         None),
        (r"\barea\s+code\b", "phone", "area"),
        (r"\bfirst\s+three\b|\bprefix\b", "phone", "prefix"),
        (r"\blast\s+four\b", "phone", "line"),
        (r"\bphone\b|\btelephone\b|\bmobile\b", "phone", None),
        (r"\bdate\s+of\s+birth\b|\bbirth\s*date\b|\bdob\b", "dob", None),
        (r"\baddress\b", "address", None),
        (r"\bname\b", "full_name", None),
        # "surname", "first_names", "Forenames": a name's part as a field name of its own
        (r"(?:\b|_)(?:surname|(?:fore|first|given|family|last)[\s_]*names?)(?:\b|_)",
         "full_name", None),
    ))
#: Both an allergy and a medication word, joined: one box for two lists ("Medications and
#: allergies") asks for neither alone.
_TWO_LISTS = re.compile(r"\b(?:medications?|medicines?|drugs?)\s*(?:and|&|/|,)\s*allerg|"
                        r"\ballerg\w*\s*(?:and|&|/|,)\s*(?:medications?|medicines?|drugs?)\b",
                        re.IGNORECASE)
#: Words of a label that asks for the city, state and/or ZIP code of an address.
_POSTAL = {"city": "city", "town": "city", "state": "state", "zip": "zip", "zipcode": "zip",
           "postal": "zip"}
_POSTAL_FILLER = {"and", "code", "or", "home", "patient", "patients", "patient's", "mailing",
                  "residence", "province", "no", "foreign", "country"}
_NUMBERING = re.compile(r"^\s*(?:\d{1,2}[a-z]?|[a-z])[.)]?\s+", re.IGNORECASE)


#: A label that is only a name part ("MI", "M.I.", "Middle initial", a bare "Last" / "First"
#: captioning a box of a split name) or only the subject's
#: role ("Patient:", "Employee") asks for a name (another party's role word alone keeps
#: meaning nothing: the widget stays that party's, see :mod:`repro_assets.forms.fill`).
_NAME_ALONE = re.compile(
    r"^\W*(?:\d{1,2}[a-z]?\W+)?(?:[a-z]+(?:'s|’s)\s+)?(?:m\.?\s?i\.?|middle(?:\s+initial)?|initial|surname|"
    r"last|first|"
    r"patient|employee|claimant|client|applicant|student|resident)(?:'s|’s)?\W*$",
    re.IGNORECASE)


_FIELD_WORD = (r"(name|address|phone|telephone|date\s+of\s+birth|dob|birth\s*date|"
               r"member\s+id)")
#: One box asking for two fields ("Name and Address", "Name/DOB"): neither alone is its answer.
_TWO_FIELDS = re.compile(rf"\b{_FIELD_WORD}\s*(?:and|&|/|,|\+)\s*(?:\w+\s+)?{_FIELD_WORD}\b",
                         re.IGNORECASE)
_FIELD_KEY = {"name": "name", "address": "address", "phone": "phone", "telephone": "phone",
              "dob": "dob", "member id": "id"}


def _asks_two_fields(text: str) -> bool:
    for match in _TWO_FIELDS.finditer(text):
        first, second = (_FIELD_KEY.get(" ".join(g.lower().split()), "dob")
                         for g in match.groups())
        if first != second:
            return True
    return False


#: A label naming a kind of identification number (a social security or tax number, an
#: account, policy, case or licence number): its digit boxes ("First three digits", "Last
#: four") never ask for a phone.
IDENTIFIER = re.compile(
    r"\bsocial\s+security\b|\b(?:ssn|ss#|tin|itin|ein)\b|\bidentification\s+(?:number|no\b)|"
    r"\b(?:account|acct|policy|case|claim|licen[cs]e|passport|routing|certificate|member|id)"
    r"\s*(?:number|no\b|#)", re.IGNORECASE)


def names_identifier(text: str) -> bool:
    """True when a label names a kind of identification number (never a phone)."""
    return bool(IDENTIFIER.search(text))


def meaning_of(text: str) -> tuple[str, str | None] | None:
    """``(key, part)`` a tooltip or printed label asks for, or None (also for one box that
    asks for two fields, and for a phone's words in a label naming an identifier: "First
    three digits of SSN")."""
    if _TWO_LISTS.search(text) or _asks_two_fields(text):
        return None
    if _NAME_ALONE.match(text):
        return "full_name", None
    identifier = names_identifier(text)
    for pattern, key, part in MEANINGS:
        if pattern.search(text) and not (identifier and key == "phone"):
            return key, part
    return None


def label_words(text: str) -> list[str]:
    """Lowercase letter/digit runs of a label, dotted initials joined ("M.I." -> mi)."""
    joined = re.sub(r"\b([A-Za-z])\.\s?([A-Za-z])\.", r"\1\2", text)
    return re.findall(r"[a-z0-9]+", joined.lower())


def _subject_role(word: str) -> bool:
    """True for one word that is the subject's role ("client's" in "Client's Town")."""
    from repro_assets.forms.parties import SUBJECT, mentions  # imports nothing from here

    return any(m.start == 0 and m.end == len(word) for m in mentions(word, [SUBJECT]))


def postal_part(text: str) -> str | None:
    """``city``, ``state``, ``zip`` or a ``+``-joined run of them ("city+state+zip") when a
    label asks only for those parts of an address, else None ("State of injury" asks for
    something else)."""
    words = re.findall(r"[a-z']+", _NUMBERING.sub("", text.lower().replace("’", "'")))
    if not words or len(words) > 7:
        return None
    parts: list[str] = []
    for word in words:
        if word in _POSTAL:
            if _POSTAL[word] not in parts:
                parts.append(_POSTAL[word])
        elif word not in _POSTAL_FILLER and not _subject_role(word):
            return None
    return "+".join(parts) if parts else None


_DATE_TOKENS = {"mm": "month", "m": "month", "month": "month", "dd": "day", "d": "day",
                "day": "day", "yyyy": "year", "yy": "year", "y": "year", "year": "year"}


def date_order(text: str) -> list[str]:
    """The order a label prints a date's parts in ("(MM/DD/YYYY)" -> month, day, year); an
    empty list when it does not say."""
    for pattern in re.finditer(r"\b(m{1,2}|d{1,2}|y{2,4})\s*[/\-. ]\s*(m{1,2}|d{1,2}|y{2,4})"
                               r"\s*[/\-. ]\s*(m{1,2}|d{1,2}|y{2,4})\b", text.lower()):
        order = [_DATE_TOKENS[token] for token in pattern.groups()]
        if sorted(order) == ["day", "month", "year"]:
            return order
    return []


def name_order(text: str) -> list[str]:
    """The name parts a label lists, in its order ("Last, First, MI" -> last, first,
    middle)."""
    parts = {"last": "last", "surname": "last", "family": "last", "first": "first",
             "given": "first", "middle": "middle", "mi": "middle", "initial": "middle"}
    out: list[str] = []
    for word in label_words(text):
        part = parts.get(word)
        if part and part not in out:
            out.append(part)
    return out


_PAGE_PREFIX = re.compile(r"^\s*(?:page\s+\d+\s*\.\s*)?(?:\d{1,2}[a-z]?\s*\.\s+)?", re.IGNORECASE)
#: Where a sentence of a tooltip ends: a full stop, semicolon, ! or ? after a word of two or
#: more letters ("M.I." and "No." inside a label end nothing), before the next sentence.
_SENTENCE_END = re.compile(r"(?<=[a-z]{2}[.;!?])\s+(?=[A-Z0-9])|(?<=[a-z]{2}[;!?])\s+|"
                           r"(?<=[.;])\s+(?=\d{1,2}[a-z]?\.\s+[a-z])", re.IGNORECASE)
#: The verb of a tooltip's request ("Enter City or Town", "Please provide your ..."): no
#: part of the label ("Print Name" keeps its verb: a signature block's).
_IMPERATIVE = re.compile(r"^(?:please\s+)?(?:enter|provide|write|give|fill\s+in)\s+",
                         re.IGNORECASE)
#: A sentence that comments on the box instead of naming it ("Note: ...", "See the
#: instructions ...").
_NOTE = re.compile(r"^\W*(?:note|notes|see|caution|important|warning|reminder)\b",
                   re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """The sentences of a tooltip or printed label, ``(...)`` hints dropped, each without
    its leading "Page 1." / item number."""
    flat = re.sub(r"\s+([.;,])", r"\1", re.sub(r"\([^)]*\)", " ", text))
    parts = [_PAGE_PREFIX.sub("", p).strip() for p in _SENTENCE_END.split(_PAGE_PREFIX.sub(
        "", " ".join(flat.split())))]
    parts = [_IMPERATIVE.sub("", p) for p in parts]
    return [p.rstrip(".;") for p in parts if p.strip(" .;")]


def asked_sentence(text: str) -> str:
    """The sentence of a tooltip of several sentences that names the box: the first one with
    a meaning that is no note, else all its sentences but the notes ("Page 1. 1a. Name on
    your return. If you file jointly, give the name listed first." -> "Name on your return";
    "Note: ... your address on file. ... Enter the form number here" names no field); a
    one-sentence text is returned as it is."""
    parts = sentences(text)
    if len(parts) <= 1:
        return text
    kept = [part for part in parts if not _NOTE.match(part)]
    for part in kept:
        if meaning_of(part) is not None or postal_part(part):
            return part
    return ". ".join(kept)  # no sentence names a field: all of it but its notes


#: A label asking for a value the subject had before, not the current one.
NOT_CURRENT = re.compile(r"\b(?:previous|former|prior|old|maiden|past)\b|"
                         r"\bother\s+(?:last\s+|first\s+)?names?\b|\balias", re.IGNORECASE)


#: Words that may stand right before "name" in a label asking for the person's own name.
_OWN_NAME_WORDS = frozenset({"first", "last", "middle", "given", "family", "sur", "full",
                             "legal", "complete", "your", "his", "her", "their", "print",
                             "printed", "typed", "the", "of", "and", "or", "enter"})
_SKIPPED_TOKEN = re.compile(r"^(?:#?\d{1,2}[a-z]?|[\W_]+)$", re.IGNORECASE)


def qualified_name(text: str) -> str | None:
    """The word qualifying "Name" in a label when it is no party's role, no name part and no
    "full"/"legal" ("Ceremonial Name", "Preferred Name", "Sponsor #1 - Name", "Camper name":
    a kind of name, or a role the form defines; ``numbered`` for a name numbered as one entry
    of a list, "Member name 2"), else None. Numbering ("#1") and dashes are
    skipped; "Name" opening the label, "Patient's Name", "First Name" and "Spouse's name" are
    no qualified name."""
    from repro_assets.forms.parties import mentions  # parties imports nothing from here

    match = re.search(r"\bnames?\b", text, re.IGNORECASE)
    if not match:
        return None
    if re.match(r"\s*(?:no\.?\s*|#\s*)?\d{1,2}\W*$", text[match.end():], re.IGNORECASE):
        return "numbered"  # "Household member name 1": one entry of a list of people
    tokens = text[: match.start()].split()
    while tokens and _SKIPPED_TOKEN.match(tokens[-1]):
        tokens.pop()
    if not tokens:
        return None
    last = " ".join(tokens[-2:]).rstrip(".,:;")
    if any(m.end == len(last) for m in mentions(last)):  # "Patient", "Responsible Party"
        return None
    word = re.sub(r"(?:'s|’s|s'|s’)$", "", tokens[-1].lower()).strip(".,:;")
    return None if word in _OWN_NAME_WORDS else word


#: A tooltip's note on a region of the page beside the box, fenced by its screen-reader
#: markers ("begin office use only section. F C I. end office use only section. 4. Date of
#: birth"): the region is not the box.
_FENCE = re.compile(r"\bbegin\s+(?P<title>[^.]{1,40}?)\s+section\b.*?\bend\s+(?P=title)\s+"
                    r"section\b\.?", re.IGNORECASE | re.DOTALL)


def unfenced(tooltip: str) -> tuple[str, list[str]]:
    """A tooltip without its fenced notes on other regions, and those regions' titles."""
    titles = [m.group("title") for m in _FENCE.finditer(tooltip)]
    return " ".join(_FENCE.sub(" ", tooltip).split()), titles


def without_words(text: str, title: str) -> str:
    """``text`` without one occurrence of each word of ``title`` (a region's title printed
    beside the box, its words interleaved with the box's label: "DATE Office 4 Use OF Only"
    without "office use only" is "DATE 4 OF")."""
    for word in label_words(title):
        text = re.sub(rf"\b{re.escape(word)}\b", " ", text, count=1, flags=re.IGNORECASE)
    return " ".join(text.split())
