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
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)  # hyphenated line break
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


def value_in_text(value: float, text: str) -> str | None:
    """Return the printed form of ``value`` found in ``text`` (None if not printed).

    A form matches only as a whole number token: ``88.1`` does not match inside ``188.15``.
    """
    normalized = unicodedata.normalize("NFKC", text)
    for form in printed_forms(value):
        pattern = rf"(?<![\d.]){_form_regex(form)}(?!\d)(?!\.\d)"
        if re.search(pattern, normalized):
            return form
    return None


def check_grounding(
    value: float, quote: str, page_no: int, pages: dict[int, str]
) -> str | None:
    """Return None when grounded, else the rejection reason.

    Args:
        value: the claim's metric value (decimal, e.g. 0.881).
        quote: the quoted evidence text.
        page_no: 1-based page the quote is cited on.
        pages: page number -> page text.
    """
    if not quote or not quote.strip():
        return "no quoted text"
    if page_no not in pages:
        return f"page {page_no} does not exist"
    if value_in_text(value, quote) is None:
        return f"value {value} is not printed in the quote"
    if not quote_on_page(quote, pages[page_no]):
        other = [n for n, text in pages.items() if quote_on_page(quote, text)]
        if other:
            return f"quote is not on page {page_no} (found on page {other[0]})"
        return f"quote does not appear on page {page_no}"
    return None
