"""Step route_docs: the locked token-overlap similarity and top-k selection.

Each document is the concatenation of its pages' text cut to the first 20,000 characters; each
field is ``key + label + alias terms``. Tokens are lowercase, split on whitespace/punctuation,
and shorter than 2 characters are dropped. score = |q ∩ d| / |q|, clamped to 0..1. Ties keep
the input document order.
"""

from __future__ import annotations

import re

from repro_assets.forms.models import ALIASES, FieldSpec, LayoutDoc, RoutingEntry

DOC_CHARS = 20000
#: A token is a maximal run of letters/digits; runs of one character are dropped.
_TOKEN = re.compile(r"[^\W_]{2,}", re.UNICODE)


def tokenize(text: str) -> set[str]:
    """Locked tokenizer: lowercase, split on whitespace/punctuation, drop tokens < 2 chars."""
    return set(_TOKEN.findall(text.lower()))


def doc_string(doc: LayoutDoc) -> str:
    """Concatenate the pages' text and keep the first 20,000 characters."""
    return "\n".join(page.full_text for page in doc.pages)[:DOC_CHARS]


def field_query(spec: FieldSpec) -> str:
    """``key + label + alias terms``."""
    return " ".join([spec.key, spec.label or "", *ALIASES.get(spec.key, [])])


def similarity(query_tokens: set[str], doc_tokens: set[str]) -> float:
    """|q ∩ d| / |q| clamped to 0..1 (0 for an empty query)."""
    if not query_tokens:
        return 0.0
    return round(min(1.0, max(0.0, len(query_tokens & doc_tokens) / len(query_tokens))), 4)


def route(fields: list[FieldSpec], readable: list[LayoutDoc], top_k: int) -> list[RoutingEntry]:
    """Pick the ``top_k`` readable docs for each field (empty when none is readable)."""
    doc_tokens = [(doc.doc_id, tokenize(doc_string(doc))) for doc in readable]
    entries = []
    for spec in fields:
        query = tokenize(field_query(spec))
        scores = {doc_id: similarity(query, tokens) for doc_id, tokens in doc_tokens}
        order = sorted(range(len(doc_tokens)), key=lambda i: -scores[doc_tokens[i][0]])
        chosen = [doc_tokens[i][0] for i in order[:top_k]]
        entries.append(RoutingEntry(field=spec.key, doc_ids=chosen, scores=scores))
    return entries
