"""Dataset names as the paper prints them, and the split a claim is on."""

from __future__ import annotations

import re

from repro_assets.papers.registry import resolve_alias


def canonical_dataset(name: str) -> str:
    """Registry name for ``name`` when it resolves, else the name cleaned up."""
    return resolve_alias(name) or re.sub(r"\s+", " ", name).strip()


def split_from(text: str) -> str:
    """The split a result is on, from its header, caption or sentence (default test)."""
    low = text.lower()
    if re.search(r"\b(validation|dev)\b", low):
        return "validation"
    if re.search(r"\btrain(ing)? (accuracy|error|set accuracy)\b", low):
        return "train"
    return "test"
