"""Reading numbers out of table cells as papers print them.

A results cell holds a main number plus decorations that are not part of it: a standard
deviation (``93.2 ± 0.3``), a training time or a gain in parentheses (``81.5 (4s)``,
``23.0 (+2.1)``, ``38.5 (−0.4)``), footnote marks (``11.26∗``, ``64.1†``), a percent sign, or
a second number of a pair (``31.40 / 29.95``: single-crop / 10-crop). Dashes, ``n/a`` and
``OOM`` mark missing cells. Sizes, counts and timings carry a unit (``15.3M``, ``12 M``,
``4s``) and are flagged so they are never taken for a result. Text layers that split numbers
over lines (``"88 1\\n."`` for 88.1) are repaired.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from dataclasses import dataclass

_MISSING = {"", "-", "--", "–", "—", "n/a", "na", "n.a.", "×", "x", "?", "/", "oom", "n.a",
            "none", "nan", "timeout", "t/o", "*", "†", "‡"}
_MARKS = "*∗†‡§¶⋆★"
_UNIT = r"(?:[kKMGBT]|ms|s|h|min|x|×|days?|hours?|GB|MB|params)"
_NUM = r"[-+]?(?:\d+(?:[.,]\d+)*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
_MAIN = re.compile(rf"^(?P<sign>[<>≤≥~≈]?)\s*(?P<num>{_NUM})\s*(?P<pct>%)?\s*(?P<unit>{_UNIT})?$")


@dataclass(frozen=True)
class CellValue:
    """A parsed numeric cell: the value as printed (e.g. 98.2) and its printed text.

    ``percent`` is True when the cell prints a ``%``; ``unit`` is a size/time suffix (``M``,
    ``s``) that makes the number a count or timing; ``bound`` marks ``<``/``>`` values;
    ``extra`` keeps the decoration (``± 0.3``, ``(+2.1)``).
    """

    number: float
    printed: str
    repaired: bool
    percent: bool = False
    unit: str | None = None
    bound: bool = False
    extra: str | None = None


def normalize_cell(text: str | None) -> str:
    """NFKC, unicode minus as '-', whitespace collapsed (newlines kept)."""
    text = unicodedata.normalize("NFKC", text or "").replace("\u2212", "-")
    return re.sub(r"[ \t]+", " ", text).strip()


def _strip_decorations(text: str) -> tuple[str, str | None]:
    """Split 'main ± sd' / 'main (gain)' / 'main†' into (main, decoration)."""
    text = text.strip()
    extra = None
    match = re.search(r"\s*(±|\+/-|\+-)\s*.*$", text, flags=re.S)
    if match and match.start() > 0:
        extra = match.group(0).strip()
        text = text[:match.start()]
    match = re.search(r"\s*\([^()]*\)\s*$", text)
    if match and match.start() > 0:
        extra = (match.group(0).strip() + " " + (extra or "")).strip()
        text = text[:match.start()]
    text = text.rstrip(_MARKS).strip()
    text = re.sub(r"^[(\[]\s*(.*?)\s*[)\]]$", r"\1", text)  # "(88.1)" -> "88.1"
    return text.rstrip(_MARKS).strip(), extra


def parse_cell_values(cell: str | None, decimals_hint: int = 1) -> list[CellValue]:
    """All result numbers of a cell: one, or two for a pair cell ('31.40 / 29.95').

    Returns an empty list for missing cells and text.
    """
    text = normalize_cell(cell)
    if text.lower() in _MISSING:
        return []
    # a slash inside parentheses is the cell's decoration ('52.0% (2/10)': a rank), no pair
    outside = re.sub(r"\([^()]*\)", " ", text)
    if "\n" not in text and "/" in outside and re.fullmatch(r"[^/]*\d[^/]*/[^/]*\d[^/]*", text):
        parts = [p.strip() for p in text.split("/")]
        values = [v for part in parts for v in parse_cell_values(part, decimals_hint)]
        return values if len(values) == len(parts) else []
    value = parse_cell_value(text, decimals_hint)
    return [value] if value is not None else []


def parse_cell_value(cell: str | None, decimals_hint: int = 1) -> CellValue | None:
    """Parse a table cell into its main number.

    Handles ``"96.5"``, ``"96.5%"``, ``"96.7 ± 3.7"``, ``"0.881*"``, ``"(88.1)"``,
    ``"81.5 (4s)"``, ``"23.0 (+2.1)"`` and messy text layers: ``"88 1\\n."`` -> 88.1,
    ``"982\\n."`` -> 98.2 (decimal places taken from ``decimals_hint``), ``"967±37\\n. ."`` ->
    96.7. Dashes, empty cells and text give None.
    """
    text = normalize_cell(cell)
    if text.lower() in _MISSING:
        return None
    if "\n" not in text:
        main, extra = _strip_decorations(text)
        match = _MAIN.match(main)
        if match and not re.search(r"\d\s+\d", main):
            printed = match.group("num").lstrip("+")
            if re.search(r"\d,\d{3}", printed):
                printed = printed.replace(",", "")
            elif "," in printed:
                return None
            try:
                number = float(printed)
            except ValueError:
                return None
            return CellValue(number, printed, repaired=False, percent=bool(match.group("pct")),
                             unit=match.group("unit"), bound=bool(match.group("sign")),
                             extra=extra)
    return _repair_split_number(text, decimals_hint)


def _repair_split_number(text: str, decimals_hint: int) -> CellValue | None:
    """Digits split by whitespace/newlines with a stray decimal point ('88 1\\n.')."""
    lines = text.split("\n")
    stray_dot = any(re.fullmatch(r"[.\s]+", line) for line in lines if line)
    content = " ".join(line for line in lines if not re.fullmatch(r"[.\s]*", line))
    main = re.split(r"±|\+/-|\+-|\(", content, maxsplit=1)[0]
    if not main.strip() and "(" in content:
        main = content.strip("() ")
    main = main.strip().rstrip(_MARKS + "%").strip()
    if stray_dot and "." not in main:
        main += "\n."
    clean = re.fullmatch(r"-?\d+(?:\.\d+)?|-?\.\d+", main.replace(" ", "")) if (
        "\n" not in main and not re.search(r"\d\s+\d", main)
    ) else None
    if clean:
        printed = clean.group(0)
        return CellValue(float(printed), printed, repaired=False)
    groups = re.findall(r"\d+", main)
    if not groups or re.search(r"[A-Za-z]", main):
        return None
    has_dot = "." in main
    if len(groups) == 2:
        printed = f"{groups[0]}.{groups[1]}"
    elif len(groups) == 1 and has_dot and len(groups[0]) > decimals_hint:
        digits = groups[0]
        printed = f"{digits[:-decimals_hint]}.{digits[-decimals_hint:]}"
    elif len(groups) == 1:
        printed = groups[0]
    else:
        return None
    return CellValue(float(printed), printed, repaired=True)


def is_numeric_cell(cell: str | None) -> bool:
    """True when the cell parses as a number."""
    return bool(parse_cell_values(cell))


def is_missing_cell(cell: str | None) -> bool:
    """True for a dash, n/a, OOM and similar missing-value marks."""
    text = normalize_cell(cell).lower()
    return bool(text) and text in _MISSING


def column_decimals(cells: list[str]) -> int:
    """Most common number of decimals among cleanly printed cells of a column (default 1)."""
    counts = []
    for cell in cells:
        value = parse_cell_value(cell)
        if value and not value.repaired and "." in value.printed:
            counts.append(len(value.printed.split(".")[1]))
    return statistics.mode(counts) if counts else 1
