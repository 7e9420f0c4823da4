"""The grounding check: a claim's value is printed in its quote, and the quote is on its page.

A value may be printed as a percentage (``88.1``, ``88.1%``, ``88.1 %``), as a decimal
(``0.881``, ``.881``) or, in PDFs whose text layer splits numbers over lines, as the same
digits separated by whitespace with a stray decimal point (``88 1\\n.``). Quotes are compared
after normalisation (Unicode NFKC, ligatures, dashes and quotes unified, hyphenated line breaks
joined, whitespace collapsed, case folded).
"""

from __future__ import annotations

import re
import unicodedata

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_QUOTES = {ord("\u2018"): "'", ord("\u2019"): "'", ord("\u201c"): '"', ord("\u201d"): '"'}


def normalize_text(text: str) -> str:
    """Normalise text for quote matching (see module docstring)."""
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    text = re.sub(r"(\w)-\s+(\w)", r"\1\2", text)  # hyphenated line break (also collapsed)
    text = re.sub(r"\s+", " ", text)
    return text.strip().casefold()


def quote_on_page(quote: str, page_text: str) -> bool:
    """True when the normalised quote is a substring of the normalised page text."""
    needle = normalize_text(quote)
    if len(needle) < 3:
        return False
    return needle in normalize_text(page_text)


def _exact_forms(number: float) -> list[str]:
    """Printed forms of ``number`` with 0-4 decimals that round-trip exactly."""
    forms = []
    for places in (1, 2, 0, 3, 4):
        text = f"{number:.{places}f}"
        if abs(float(text) - number) < 1e-9 and text not in forms:
            forms.append(text)
    return forms


def printed_forms(value: float) -> list[str]:
    """Printed forms of a metric value, most specific first.

    ``0.881`` -> ``["88.1", "88.10", "88.100", "88.1000", "0.881", ".881", ...]``; values
    outside [0, 1] (BLEU, perplexity, seconds) are printed as they are.
    """
    forms: list[str] = []
    if 0 <= value <= 1.0:
        forms += _exact_forms(round(value * 100, 6))
        for text in _exact_forms(value):
            if "." not in text:
                continue  # a bare "1" or "0" is not evidence of anything
            forms.append(text)
            if text.startswith("0."):
                forms.append(text[1:])
    else:
        forms += _exact_forms(value)
    return list(dict.fromkeys(forms))


def _form_regex(form: str) -> str:
    """Regex matching ``form`` printed normally or split by the text layer."""
    if "." not in form:
        return re.escape(form)
    whole, frac = form.split(".", 1)
    if not whole:
        return r"\.\s*" + re.escape(frac)
    digits = r"\s*".join(re.escape(d) for d in whole)
    tail = re.escape(frac)
    return rf"{digits}(?:\s*\.\s*{tail}|\s*{tail}[ \t]*\n\s*\.|\s+{tail}[ \t]*\.)"


def value_in_text(value: float, text: str, printed: str | None = None) -> str | None:
    """Return the printed form of ``value`` found in ``text`` (None if not printed).

    A form matches only as a whole number token: ``88.1`` does not match inside ``188.15``.
    ``printed`` (the number exactly as the paper prints it, e.g. ``0.000353``) is tried first
    when it is consistent with ``value``.
    """
    normalized = unicodedata.normalize("NFKC", text)
    forms = printed_forms(value)
    if printed and _consistent(printed, value):
        forms = [printed, *forms]
    for form in dict.fromkeys(forms):
        pattern = rf"(?<![\d.]){_form_regex(form)}(?!\d)(?!\.\d)"
        if re.search(pattern, normalized):
            return form
    return None


def _consistent(printed: str, value: float) -> bool:
    """True when ``printed`` is ``value`` as printed or as a percentage of it."""
    try:
        number = float(printed)
    except ValueError:
        return False
    return any(abs(number - v) <= 1e-9 * max(1.0, abs(v)) for v in (value, value * 100))


def check_grounding(
    value: float, quote: str, page_no: int, pages: dict[int, str], printed: str | None = None
) -> str | None:
    """Return None when grounded, else the rejection reason.

    Args:
        value: the claim's metric value (decimal, e.g. 0.881).
        quote: the quoted evidence text.
        page_no: 1-based page the quote is cited on.
        pages: page number -> page text.
        printed: the number as printed, when known.
    """
    reason, _ = locate_quote(value, quote, [page_no], pages, printed)
    return reason


def locate_quote(
    value: float,
    quote: str,
    cited: list[int],
    pages: dict[int, str],
    printed: str | None = None,
) -> tuple[str | None, int]:
    """Ground a quote cited on one page or a page range.

    Returns ``(None, page)`` with the cited page the quote was found on, or ``(reason, first
    cited page)``. A quote that spans a page break is accepted when it is on any cited page
    (an LLM tool returns chunks that cover a page range).
    """
    first = cited[0]
    if not quote or not quote.strip():
        return "no quoted text", first
    existing = [n for n in cited if n in pages]
    if not existing:
        return f"page {first} does not exist", first
    if value_in_text(value, quote, printed) is None:
        return f"value {value} is not printed in the quote", first
    for page_no in existing:
        if quote_on_page(quote, pages[page_no]):
            return None, page_no
    other = [n for n, text in pages.items() if n not in cited and quote_on_page(quote, text)]
    where = f"page {first}" if len(cited) == 1 else f"pages {cited[0]}-{cited[-1]}"
    if other:
        return f"quote is not on {where} (found on page {other[0]})", first
    return f"quote does not appear on {where}", first
