"""Parse the machine-readable marker lines and the [n] citations of a response; decide consensus.

Marker lines (seed 002 section 6/7), case-insensitive, tolerant of Markdown decoration
(``**Agreement:** AGREE``, ``- Viability: not viable``). When a marker appears more than once the
last one wins (the contract says the lines end the response).
"""

from __future__ import annotations

import re

from repro_assets.debate.models import Markers

_LINE_RE = re.compile(
    r"^[\s>*_\-#`]*(?P<key>agreement|viability|validation|answer|verification[ _]reason|"
    r"conclusion)[\s*_`]*:[\s*_`]*(?P<value>.*?)[\s*_`]*$",
    re.IGNORECASE | re.MULTILINE,
)
# a citation [n] is never glued to what precedes it (``y[0]``, ``f(x)[2]``, ``a[1][2]`` index)
_CITATION_RE = re.compile(r"(?<![\w\])\[])\[(\s*\d+\s*(?:(?:,|;|\u2013|-)\s*\d+\s*)*)\]")
# fenced code blocks (``` or ~~~, an unterminated fence runs to the end) and inline code spans
_FENCE_RE = re.compile(r"(`{3,}|~{3,}).*?(?:\1|\Z)", re.DOTALL)
_INLINE_CODE_RE = re.compile(r"(`+)[^`\n]*?\1")
_REFERENCES_HEADING_RE = re.compile(
    r"^[\s#*_]*references(\s*\(apa\s*7\))?[\s*_:]*$", re.IGNORECASE | re.MULTILINE
)
MAX_RANGE = 50

REQUIRED = ("agreement", "viability", "validation", "conclusion")


def strip_code(text: str) -> str:
    """``text`` with fenced code blocks and inline code spans blanked (code is not prose)."""
    return _INLINE_CODE_RE.sub(" ", _FENCE_RE.sub(" ", text))


def _norm(value: str) -> str:
    value = value.strip().strip(".").upper().replace("-", "_").replace(" ", "_")
    return {"NOTVIABLE": "NOT_VIABLE", "NA": "N/A", "N_A": "N/A", "NONE": "N/A",
            "NOT_APPLICABLE": "N/A"}.get(value, value)


_ALLOWED = {
    "agreement": {"AGREE", "DISAGREE"},
    "viability": {"VIABLE", "NOT_VIABLE"},
    "validation": {"PASS", "FAIL", "N/A"},
    "answer": {"VERIFIED", "UNVERIFIED"},
}


def parse_markers(text: str) -> Markers:
    """Read the marker lines of ``text``.

    Required for every response: Agreement, Viability, Validation, Conclusion. A reviewer
    (pessimist) may add the compact verdict ``Answer:`` + ``Verification Reason:``; it does not
    replace the required lines. Marker lines inside code blocks are ignored.
    """
    found: dict[str, str] = {}
    invalid: list[str] = []
    for match in _LINE_RE.finditer(strip_code(text)):
        key = match.group("key").lower().replace(" ", "_")
        raw = match.group("value").strip()
        if key in _ALLOWED:
            value = _norm(raw.split()[0] if raw else "")
            if raw and value not in _ALLOWED[key]:
                # "NOT VIABLE" arrives as two words
                value = _norm(raw)
            if value in _ALLOWED[key]:
                found[key] = value
            else:
                invalid.append(f"{key}: {raw}")
        elif raw:
            found[key] = raw
    missing = [k for k in REQUIRED if k not in found]
    return Markers(
        agreement=found.get("agreement"),
        viability=found.get("viability"),
        validation=found.get("validation"),
        answer=found.get("answer"),
        verification_reason=found.get("verification_reason"),
        conclusion=found.get("conclusion"),
        missing=missing,
        invalid=invalid,
    )


def is_consensus(markers: Markers) -> bool:
    """The viability gate (seed section 7) with the full marker set.

    The reviewer must say ``Agreement: AGREE``, ``Viability: VIABLE``, ``Validation: PASS`` and
    give a ``Conclusion``; a compact ``Answer:`` verdict, when present, must be ``VERIFIED``
    (VIABLE + PASS beside ``Answer: UNVERIFIED`` contradicts itself). Anything missing,
    malformed or contradictory is not viable.
    """
    return (
        markers.well_formed
        and markers.agreement == "AGREE"
        and markers.viability == "VIABLE"
        and markers.validation == "PASS"
        and bool((markers.conclusion or "").strip())
        and markers.answer in (None, "VERIFIED")
    )


def body_without_references(text: str) -> str:
    """The response up to its 'References (APA 7)' heading (citations are read from here)."""
    match = _REFERENCES_HEADING_RE.search(text)
    return text[: match.start()] if match else text


def cited_indices(text: str) -> list[int]:
    """Every [n] cited in the prose body (``[1]``, ``[1, 3]``, ``[2-4]``), sorted, unique.

    Code (fenced blocks, inline spans) and indexing (``y[0]``) are not citations.
    """
    cited: set[int] = set()
    for match in _CITATION_RE.finditer(strip_code(body_without_references(text))):
        for part in re.split(r"[,;]", match.group(1)):
            bounds = re.split(r"\u2013|-", part)
            if len(bounds) == 2:
                low, high = int(bounds[0]), int(bounds[1])
                if 0 < high - low <= MAX_RANGE:
                    cited.update(range(low, high + 1))
                    continue
            cited.update(int(b) for b in bounds if b.strip())
    return sorted(cited)


def check_citations(text: str, available: int) -> tuple[list[int], list[int]]:
    """Split the cited [n] into (valid, invalid) against ``available`` retrieved chunks."""
    cited = cited_indices(text)
    return [n for n in cited if 1 <= n <= available], [n for n in cited if not 1 <= n <= available]
