"""Text helpers shared by extraction, entities and analysis: sentences, tokens, figures."""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    "a an and are as at be been being by can could did do does for from had has have how in "
    "into is it its of on or our such than that the their them then there these this those to "
    "was we were what when where which while who will with within without would also both each "
    "more most other some only over very may might using used use based via between".split()
)
NEGATIONS = re.compile(
    r"\b(not|no|never|cannot|can't|fails? to|failed to|without|neither|nor|none|"
    r"does not|did not|do not|is not|are not|unable)\b",
    re.IGNORECASE,
)
FIGURE = re.compile(r"(?<![\w.-])\d+(?:[.,]\d+)?\s*%?")
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a text (whitespace collapsed; blank lines end a sentence)."""
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        flat = " ".join(block.split())
        sentences.extend(s.strip() for s in SENTENCE_SPLIT.split(flat) if s.strip())
    return sentences


def content_tokens(text: str) -> set[str]:
    """Lower-cased content words (stopwords removed, light plural stripping)."""
    words = re.findall(r"[a-z0-9]+(?:[.-][a-z0-9]+)*", text.lower())
    return {w.rstrip("s") if len(w) > 4 else w for w in words if w not in STOPWORDS}


def jaccard(a: set[str], b: set[str]) -> float:
    """Jaccard similarity of two token sets."""
    return len(a & b) / len(a | b) if a and b else 0.0


def figures(text: str) -> set[str]:
    """The numbers a statement gives (``"30 %"`` and ``"30%"`` are one figure)."""
    return {n.replace(" ", "").replace(",", ".") for n in FIGURE.findall(text)}


def negated(text: str) -> bool:
    """True when the statement is negated."""
    return bool(NEGATIONS.search(text))
