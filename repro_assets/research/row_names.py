"""Who a paper's rows and sentences speak for: its own method, its authors, combined labels.

A results table often names the paper's own method in words ("Ours", "Proposed method"),
and a question often names a paper by its authors ("the tagger of Smith et al."). These
helpers read, from structure only, which names stand for the paper itself:

* the **own method**: the name before the colon of the title ("Quillnet: ..."), or the name
  the abstract introduces ("we propose Quillnet", "a network called Quillnet");
* the **authors** a question cites ("X et al.", "X and Y (2019)"), which stand for the paper
  whose opening text (title block) names them;
* an **own row**: a row label that is the paper's own method in words;
* a **combined label** ("Net-A+B"): a row for the combination of parts the question asks
  for together ("Net combining A and B", or the words the letters abbreviate).
"""

from __future__ import annotations

import re
import unicodedata

#: Row labels that name the paper's own method in words.
_OWN_ROW = re.compile(
    r"^\W*(ours|our (model|method|approach|system|network)s?|(the )?proposed"
    r"( (model|method|approach|system|network))?|this (work|paper))\W*$", re.IGNORECASE)
#: "(ours)" after a name: the row is the paper's own, under that name.
_OWN_MARK = re.compile(r"\((ours|proposed)\)", re.IGNORECASE)
#: What an abstract says when it introduces the paper's own method.
_INTRODUCES = re.compile(
    r"\b(?i:we|this paper|this work)\s+(?i:propose|introduce|present|describe|develop)s?\s+"
    r"(?:(?i:a|an|the)\s+(?:[\w\-]+\s+){0,6}?(?:called|named|dubbed|termed)\s+)?"
    r"(?P<name>[A-Z][\w\-]*[A-Za-z0-9])")
#: "we introduce the Quill Routing Network (QuillNet)": the name in brackets after the phrase.
_INTRODUCES_BRACKETED = re.compile(
    r"\b(?i:we|this paper|this work)\s+(?:[\w,]+\s+){0,6}?"
    r"(?i:propose|introduce|present|describe|develop)s?\s+"
    r"(?:(?i:a|an|the)\s+)?(?:[A-Za-z][\w\-]*\s+){1,6}?\((?P<name>[A-Z][\w\-]*[A-Za-z0-9])\)")
_CALLED = re.compile(r"\b(?:called|named|dubbed|termed)\s+(?P<name>[A-Z][\w\-]*[A-Za-z0-9])")
#: Authors cited by a question: "X et al.", "X and Y (2019)".
_ET_AL = re.compile(r"\b([A-Z][\w\-']+)(?:\s+(?:and|&)\s+([A-Z][\w\-']+))?\s+et\s+al\b")
_AUTHOR_PAIR = re.compile(r"\b([A-Z][\w\-']+)\s+(?:and|&)\s+([A-Z][\w\-']+)\s*\(\d{4}\)")
#: Question words that ask for parts together.
_COMBINES = re.compile(r"\b(combin\w*|ensemble\w*|together|joint\w*|both)\b", re.IGNORECASE)
#: Function words that never stand for a combined part by their initial.
_FUNCTION_WORDS = frozenset({"the", "and", "of", "with", "a", "an", "to", "its", "their",
                             "model", "models", "variant", "variants", "together", "both"})
#: Words of a name that are no method name ("We present Two new ...").
_NOT_NAMES = frozenset({"a", "an", "the", "two", "three", "new", "novel", "this", "our"})
#: First words of a title head that is a phrase, not a name ("On ...: ", "Towards ...: ").
_TITLE_OPENERS = frozenset({"on", "towards", "toward", "beyond", "why", "how", "what", "when",
                            "revisiting", "rethinking"})


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", unicodedata.normalize("NFKC", text).lower())


def own_method_keys(title: str, identity: str) -> frozenset[str]:
    """Keys of the names a paper gives its own method (title before a colon, abstract).

    "Quillnet: Sparse Routing" -> ``quillnet``; "We propose Quillnet, ..." -> ``quillnet``;
    "a network called Quillnet" -> ``quillnet``. A title without a colon names no method.
    """
    keys: set[str] = set()
    head, sep, _ = title.partition(":")
    words = head.split()
    if sep and 0 < len(words) <= 3 and head.strip()[:1].isupper() and \
            words[0].lower() not in _NOT_NAMES | _TITLE_OPENERS:
        keys.add(_key(head))
    text = unicodedata.normalize("NFKC", identity)
    for pattern in (_INTRODUCES, _INTRODUCES_BRACKETED, _CALLED):
        for m in pattern.finditer(text):
            name = m.group("name")
            if name.lower() not in _NOT_NAMES:
                keys.add(_key(name))
    return frozenset(k for k in keys if len(k) >= 3)


def is_own_row(label: str) -> bool:
    """True when a row label names the paper's own method in words ("Ours", "Proposed")."""
    return bool(_OWN_ROW.match(label.strip()) or _OWN_MARK.search(label))


def cited_authors(question: str) -> tuple[str, ...]:
    """Keys of the author names a question cites ("X et al.", "X and Y (2019)")."""
    out: list[str] = []
    for pattern in (_ET_AL, _AUTHOR_PAIR):
        for m in pattern.finditer(question):
            out += [_key(g) for g in m.groups() if g]
    # a capitalised word before "et al." is a surname however short ("He et al.", "Li et al.")
    return tuple(dict.fromkeys(k for k in out if len(k) >= 2))


def combined_parts(token: str) -> tuple[str, list[str]] | None:
    """``Net-A+B`` -> ``("Net", ["A", "B"])``; None when the token joins nothing with "+"."""
    if "+" not in token:
        return None
    head, sep, tail = token.rpartition("-")
    if not sep or not head or "+" in head:
        return None
    parts = [p for p in tail.split("+") if p]
    if len(parts) < 2 or not all(re.fullmatch(r"[A-Za-z0-9]{1,12}", p) for p in parts):
        return None
    return head, parts


_LISTED = re.compile(r"^\s*(?:that\s+)?(?:\w+(?:ing|s)\s+)?(?:of\s+)?(?:the\s+)?"
                     r"(?P<items>[\w\-]+(?:\s*,\s*[\w\-]+)*,?\s+(?:and|&)\s+[\w\-]+)")


def asks_combination(question: str, parts: list[str]) -> bool:
    """The question asks for ``parts`` together, and for no other part.

    After a combination word ("combining", "ensemble of", "both"), the question lists the
    parts ("combining A and B", "combining the alpha and beta models" for ``A+B``): the list
    has as many items as ``parts`` and each part is an item or an item's initial.
    """
    cue = _COMBINES.search(question)
    if not cue:
        return False
    listed = _LISTED.match(question[cue.end():])
    if not listed:
        return False
    items = [w for w in re.split(r"\s*,\s*|\s+(?:and|&)\s+", listed.group("items")) if w]
    if len(items) != len(parts):
        return False
    left = list(items)
    for part in parts:
        match = next((w for w in left if w.lower() == part.lower()), None) or next(
            (w for w in left if len(part) == 1 and len(w) > 2
             and w.lower() not in _FUNCTION_WORDS and w[0].lower() == part.lower()), None)
        if match is None:
            return False
        left.remove(match)
    return True
