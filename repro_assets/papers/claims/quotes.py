"""Verbatim quotes for table claims: the printed row (label through its numbers).

The quote is cut from the page's own text (whitespace collapsed), so the grounding check
finds it on the cited page. Text layers that split numbers ("88 1\\n." for 88.1) are matched
in their split form.
"""

from __future__ import annotations

import re
import unicodedata

from repro_assets.papers.claims.text import _collapse


def loose_number(printed: str) -> str:
    """Regex for a printed number that also matches the split form ('88 1 .')."""
    if "." not in printed:
        return re.escape(printed)
    whole, frac = printed.split(".", 1)
    return rf"{re.escape(whole)}(?:\s*\.\s*{re.escape(frac)}|\s+{re.escape(frac)}\s*\.)"


def _number(printed: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\d.])" + loose_number(printed) + r"(?!\d)")


def row_quote(page_text: str, label: str, printed: list[str], value: str) -> str | None:
    """Verbatim span of the page from the row label through its numbers.

    Prefers an occurrence of the label directly followed by the row's numbers (each within
    a short gap, allowing "± 1.2" parts and dashes); else the label followed by the value
    within 300 characters; else the value with the text around it.
    """
    collapsed = _collapse(unicodedata.normalize("NFKC", page_text))
    tokens = [re.escape(t) for t in label.split() if t]
    occurrences = []
    if tokens:
        label_re = re.compile(r"\s*".join(tokens), re.IGNORECASE)
        occurrences = list(label_re.finditer(collapsed))
    for match in occurrences:
        pos = end = match.end()
        for text in printed:
            hit = _number(text).search(collapsed, pos, min(len(collapsed), pos + 48))
            if not hit:
                end = -1
                break
            pos = end = hit.end()
        if end > match.end() and _number(value).search(collapsed, match.start(), end):
            return collapsed[match.start():end]
    for match in occurrences:
        hit = _number(value).search(collapsed, match.end(), min(len(collapsed), match.end() + 300))
        if hit:
            return collapsed[match.start():hit.end()]
    return None


def value_context(page_text: str, value: str, near: list[str]) -> str | None:
    """The value with the text around it, at the occurrence closest to the ``near`` words."""
    collapsed = _collapse(unicodedata.normalize("NFKC", page_text))
    hits = list(_number(value).finditer(collapsed))
    if not hits:
        return None
    anchors = [m.start() for w in near if w for m in re.finditer(re.escape(w), collapsed)]

    def distance(hit: re.Match[str]) -> int:
        return min((abs(hit.start() - a) for a in anchors), default=0)

    best = min(hits, key=distance)
    start = max(0, best.start() - 60)
    start = collapsed.rfind(" ", 0, start) + 1 if start else 0
    end = min(len(collapsed), best.end() + 20)
    space = collapsed.find(" ", end)
    return collapsed[start: space if space > 0 else len(collapsed)].strip()
