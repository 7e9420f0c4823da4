"""What a blank form looks like: placeholders, instructions, option lists and headings.

A blank form is full of text that sits where a value would be: fill-in lines (``______``,
``(___) ___-____``, ``MM/DD/YYYY``), hints (``Last, First, MI``), instructions ("Please list
ALL current medications ..."), checkbox option lists (``[ ] Yes [ ] No``) and section headings.
None of these are values. These pure functions let the heuristics tell them apart.
"""

from __future__ import annotations

import re

#: Characters of fill-in lines, boxes and separators.
_FILL_CHARS = re.compile(r"[_.\u2026\-\u2013\u2014/|\\()\[\]{}<>:#,;*=+~\s"
                         r"\u2610-\u2612\u25a0-\u25ff\u2b1c\u2b1b]")
#: Words that only describe what belongs on a line.
HINT_WORDS = frozenset({
    "mm", "dd", "yy", "yyyy", "mmddyyyy", "mmddyy", "month", "day", "year", "first", "last",
    "middle", "mi", "m.i", "initial", "initials", "name", "names", "street", "city", "state",
    "zip", "zipcode", "code", "postal", "apt", "unit", "suite", "number", "no", "area", "ext",
    "extension", "address", "home", "cell", "work", "phone", "or", "and", "box", "po", "p.o",
    "country", "county", "optional", "required", "print", "please", "legibly", "type",
    "signature", "sign", "date", "here", "id", "member", "group", "policy", "n/a", "na",
})
_CHECKBOX = re.compile(r"[\u2610\u2611\u2612\u25a1\u25a2\u25fb\u25fd\u2b1c\u274f\u274e]|"
                       r"\[\s?[xX✓✔]?\s?\]|\(\s?[xX✓✔]?\s?\)(?=\s*[A-Za-z])")
_MARKED = re.compile(r"[\u2611\u2612\u274e]|\[\s?[xX✓✔]\s?\]|\(\s?[xX✓✔]\s?\)|[✓✔]")
#: Marked answers that are not entries of a list ("[x] Yes" says there is one, not which).
_ANSWER = re.compile(r"(?:yes|no|other|unknown|not sure|n/?a)\b.*", re.IGNORECASE)
_YES_NO = re.compile(r"\b(?:yes|no)\b\s*(?:[/|]|\bor\b)?\s*\b(?:yes|no)\b", re.IGNORECASE)
_INSTRUCTION = re.compile(
    r"^\s*(?:\(?\s*)(?:please|kindly|list|include|including|indicate|check|circle|mark|select|"
    r"describe|explain|write|print|attach|bring|use|see|sign|complete|fill|enter|provide|"
    r"specify|if\s+(?:yes|no|any|applicable|so|none|different|other)|"
    r"do\s+not|don't|for\s+office\s+use|office\s+use)\b"
    r"|\b(?:please|if\s+applicable|if\s+any|if\s+yes|check\s+(?:all|one)|all\s+that\s+apply|"
    r"use\s+additional|attach\s+(?:a\s+)?(?:separate|additional)|continue\s+on)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’.]*")
_SECTION_WORDS = re.compile(
    r"\b(?:information|info|contact|details|history|section|part|insurance|employer|"
    r"physician|doctor|provider|guarantor|policyholder|pharmacy|emergency|patient|employee|"
    r"claimant|demographics|medications?|allergies|coverage)\b", re.IGNORECASE)
_LABEL_VALUE = re.compile(r":\s*\S")
_NUMBERING = re.compile(r"^\s*(?:(?:section|part)\s+)?(?:\d{1,2}|[A-Za-z]|[IVX]{1,4})[.)]\s+",
                        re.IGNORECASE)


def is_placeholder(value: str) -> bool:
    """True when ``value`` is only fill-in marks and hint words (nothing was written)."""
    rest = _FILL_CHARS.sub(" ", value)
    words = [w.lower().strip(".'’") for w in rest.split()]
    if any(w in HINT_WORDS for w in words):  # "LAST FIRST M.I." splits into single letters
        words = [w for w in words if len(w) > 1]
    return all(w in HINT_WORDS or not w for w in words)


def is_instruction(text: str) -> bool:
    """True for instructions to the person filling the form."""
    return bool(_INSTRUCTION.search(text))


#: A mark printed before each option of a row of choices; a checkbox glyph the text layer
#: cannot spell comes out as a dot, a circle, a square or a private-use character.
_OPTION_MARK = re.compile(r"(?:^|\s)([\u00b7\u2022\u25aa\u25a0\u25a1\u25cb\u25e6\u25fb"
                          r"\u2610\ue000-\uf8ff])\s*(?=[A-Za-z])")


#: A symbol-font checkbox spelled as a letter ("q Penicillin q Latex q Sulfa"): only a run of
#: three or more counts, a lone "o" or "q" is a word.
_LETTER_MARK = re.compile(r"(?:^|\s)([oq])\s+(?=[A-Z])")


def is_option_row(text: str) -> bool:
    """True for one line of choices each after the same mark ("· Penicillin · Latex · Sulfa"):
    a bulleted list has one entry per line, a row of marks is a form's unticked options."""
    marks = _OPTION_MARK.findall(text)
    letters = _LETTER_MARK.findall(text)
    return (len(marks) >= 2 and len(set(marks)) == 1) or (
        len(letters) >= 3 and len(set(letters)) == 1)


def has_checkboxes(text: str) -> bool:
    """True for a checkbox option list, a row of marked-off choices or a yes/no choice."""
    return bool(_CHECKBOX.search(text) or _YES_NO.search(text) or is_option_row(text))


def marked_options(text: str) -> list[str]:
    """The marked options of a checkbox list (``[x] Penicillin``, ``☒ Latex``); a marked
    yes/no/other answer is not an option."""
    out: list[str] = []
    pieces = _CHECKBOX.split(text)
    marks = _CHECKBOX.findall(text)
    for mark, label in zip(marks, pieces[1:], strict=False):
        if _MARKED.search(mark):
            option = label.strip(" :;,.-")
            if option and not is_placeholder(option) and not _ANSWER.fullmatch(option):
                out.append(option)
    return out


_ASIDE = re.compile(r"\([^()]*\)")


def is_heading(line: str) -> bool:
    """A section heading: a short line with no value, in capitals, ending in ':' or naming a
    section ("EMERGENCY CONTACT", "Insurance information", "Employer:")."""
    text = _NUMBERING.sub("", line.strip())
    if not text or len(text) > 70 or _LABEL_VALUE.search(text):
        return False
    words = _WORD.findall(text)
    if not words or len(words) > 8:
        return False
    letters = [c for c in _ASIDE.sub("", text) if c.isalpha()]  # "CHILD (foster)" too
    if len(letters) >= 3 and all(c.isupper() for c in letters):
        return True
    if text.endswith(":") and len(words) <= 6:
        return True
    return len(words) <= 6 and not re.search(r"\d", text) and bool(_SECTION_WORDS.search(text)) \
        and not is_instruction(text)


def clean_value(value: str) -> str:
    """Strip trailing fill-in marks a value may share its line with (``Ann Lee ______``)."""
    return re.sub(r"[\s_.\u2026]{3,}$", "", value).strip()


_QUESTION = re.compile(
    r"\?\s*[_.\s]*$|^\s*(?:is|are|do|does|did|have|has|had|was|were|will|would|can|could|"
    r"should|what|which|who|whom|whose|when|where|why|how)\b[^.]*\?", re.IGNORECASE)
_EXAMPLE = re.compile(r"\(\s*(?:example|sample)\s*\)|\be\.\s?g\.|\bi\.\s?e\.|"
                      r"\bex(?:ample)?s?\s*[:.]|\bfor\s+example\b|\bsuch\s+as\b",
                      re.IGNORECASE)
_OPTION_WORD = re.compile(r"\b(?:other|none|n/a|unknown|not\s+sure)\b", re.IGNORECASE)


def is_printed_options(text: str) -> bool:
    """A row of printed choices without boxes ("Penicillin Sulfa Codeine Latex Other"):
    three or more words, no list punctuation or digits, and either a catch-all option
    ("Other", "None") or four or more words all capitalized."""
    if re.search(r"[,;:\d]", text):
        return False
    words = text.split()
    if len(words) < 3:
        return False
    return bool(_OPTION_WORD.search(text)) or (
        len(words) >= 4 and all(w[:1].isupper() for w in words))


_FILL_IN = re.compile(r"_{2,}|\(\s*\)|\[\s*\]|\.{4,}|\u2026{2,}")

#: Why a text that stands where a value would is not a value (``blank_form:<reason>``).
BLANK_REASONS = ("fill_in_line", "hint", "question", "instruction", "example", "option_list",
                 "heading", "form_label")


def blank_reason(value: str, labels: frozenset[str] = frozenset()) -> str | None:
    """Why ``value`` is blank-form text rather than something written, or None.

    Judged by structure: fill-in lines (underscores, empty ``( )``, hint words only), a
    question, an instruction ("List ...", "Please ..."), an example ("e.g."), a checkbox
    option list, a heading, or a text that is also one of the form's own labels
    (``labels`` holds them as :func:`label_key` forms).
    """
    text = value.strip()
    if not text:
        return None
    if is_placeholder(text) or _FILL_IN.search(text):
        return "fill_in_line"
    if text.startswith("(") and text.endswith(")"):  # "(prescription, over-the-counter)"
        return "hint"
    if _QUESTION.search(text):
        return "question"
    if any(is_instruction(sentence) for sentence in re.split(r"(?<=[.!?])\s+", text)):
        return "instruction"  # "herbal supplements. Include dosage if known."
    if _EXAMPLE.search(text):
        return "example"
    if has_checkboxes(text):
        return "option_list"
    if label_key(text) in labels:
        return "form_label"
    if is_heading(text) and (text.endswith(":") or _SECTION_WORDS.search(text)):
        return "heading"
    return None


def label_key(text: str) -> str:
    """The comparable form of a label: lowercase letters and digits, single spaces."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


_LABEL_TEXT = re.compile(r"^\s*([A-Za-z][^:\n]{1,58}?)\s*:")


def form_labels(lines: list[str]) -> frozenset[str]:
    """The labels a document prints (text before a colon at the start of a line, and lines
    that end with ``:`` or ``?``), as :func:`label_key` forms."""
    out: set[str] = set()
    for line in lines:
        text = line.strip()
        match = _LABEL_TEXT.match(text)
        if match:
            out.add(label_key(match.group(1)))
        if text.endswith((":", "?")) and len(text) <= 80:
            out.add(label_key(text))
    out.discard("")
    return frozenset(out)
