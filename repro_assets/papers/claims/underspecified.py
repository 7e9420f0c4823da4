"""Dataset names too vague to be the dataset of a claim with confidence.

A claim's dataset is printed as the paper prints it; some printed names do not identify one
dataset, however sure the reader is of where the name stands:

* a **language code alone** ('DE', 'FR' over a block of columns): the language of several
  benchmarks, not one of them;
* a **bare family name** ('Zeta' when the paper reports on 'Zeta-10' and 'Zeta-100', or on
  "Zeta'14" and "Zeta'16"): the family of two or more datasets the paper names with their
  version, so which member the number is on is not said.

Such claims keep their value and citation but stay below the plan threshold (source
``name_underspecified``, see :mod:`repro_assets.papers.claims.provenance`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from repro_assets.papers.claims.datasets import normalize_key
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.provenance import SOURCE_CONFIDENCE

#: Two-letter codes of languages ML benchmarks are commonly split by (ISO 639-1).
LANGUAGE_CODES = frozenset({
    "ar", "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he", "hi", "hu", "id",
    "it", "ja", "ko", "lt", "lv", "nl", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "sw",
    "th", "tr", "uk", "ur", "vi", "zh",
})

#: Language names by code, for reading pair headers ('EN-FR') against named pairs.
LANGUAGE_NAMES = {
    "en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
    "pt": "portuguese", "nl": "dutch", "ro": "romanian", "cs": "czech", "ru": "russian",
    "zh": "chinese", "ja": "japanese", "ko": "korean", "fi": "finnish", "tr": "turkish",
    "ar": "arabic", "hi": "hindi", "vi": "vietnamese", "et": "estonian", "lv": "latvian",
    "kk": "kazakh", "gu": "gujarati", "uk": "ukrainian",
}
_CODE_PAIR = re.compile(r"(?i)(?<![\w-])([a-z]{2})\s*(?:-|–|→|->|/)\s*([a-z]{2})(?![\w-])")
_NAMED_PAIR = re.compile(
    rf"(?i)\b({'|'.join(sorted(set(LANGUAGE_NAMES.values())))})\s*(?:-|–|→|->|\s+to\s+|-to-)"
    rf"\s*({'|'.join(sorted(set(LANGUAGE_NAMES.values())))})\b")


def code_pair(text: str) -> tuple[str, str] | None:
    """The language pair a header prints as codes ('EN-FR', 'En→De'), as language names."""
    match = _CODE_PAIR.search(text)
    if not match:
        return None
    pair = (LANGUAGE_NAMES.get(match.group(1).lower()), LANGUAGE_NAMES.get(
        match.group(2).lower()))
    return (pair[0], pair[1]) if pair[0] and pair[1] else None


def named_pairs(text: str) -> list[tuple[tuple[str, str], int, int]]:
    """The language pairs a text names ('English-to-French', 'German to English'), with
    their spans."""
    return [((m.group(1).lower(), m.group(2).lower()), m.start(), m.end())
            for m in _NAMED_PAIR.finditer(text)]


#: A version printed after a family name: '-10', ' 2014', "'14", '-v2'.
_VERSION = r"[\s\-_'’]*(?:v\s?)?\d"


def is_language_code(name: str) -> bool:
    """True for a name that is only a two-letter language code ('DE', 'fr')."""
    stripped = name.strip(" .:;,()")
    return bool(re.fullmatch(r"[A-Za-z]{2}", stripped)) and stripped.lower() in LANGUAGE_CODES


def versioned_members(name: str, names: Iterable[str]) -> list[str]:
    """The names of ``names`` that are ``name`` followed by a version ('Zeta-10' for 'Zeta'),
    one per normalized key."""
    stripped = name.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z.]*", stripped):
        return []  # a name with a digit or several words carries its own version
    pattern = re.compile(rf"(?i)^{re.escape(stripped)}{_VERSION}")
    members: dict[str, str] = {}
    for other in names:
        if pattern.match(other.strip()):
            members.setdefault(normalize_key(other), other)
    return list(members.values())


def underspecified(name: str, names: Iterable[str]) -> str | None:
    """Why ``name`` does not identify one dataset among the paper's ``names``, or None."""
    if is_language_code(name):
        return f"'{name}' is a language code, not a dataset"
    members = versioned_members(name, names)
    if len(members) >= 2:
        return f"'{name}' is the family of {', '.join(sorted(members)[:3])}"
    return None


def cap_underspecified(candidates: list[Candidate], names: Iterable[str]) -> None:
    """Mark the candidates whose dataset name is under-specified (in place): their source
    becomes ``name_underspecified`` and their confidence stays below the plan threshold."""
    known = list(names)
    cap = SOURCE_CONFIDENCE["name_underspecified"]
    for cand in candidates:
        if cand.reason or not cand.dataset_name or cand.source == "llm":
            continue
        if underspecified(cand.dataset_name, known):
            cand.dataset_source = "name_underspecified"
            cand.confidence = min(cand.confidence, cap)
