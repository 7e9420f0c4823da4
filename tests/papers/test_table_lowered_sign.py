"""A '±' typeset smaller and below the baseline of its deviation (issue #23, precision).

Some papers print ``0.9417 ±0.006`` with the sign in a smaller font, lower than the digits. The
text layer then puts the sign on a line of its own, and the deviation became a column of values:
"AUC 0.006" read as a confident result. The sign is glued back to its deviation, which stays a
decoration of the value before it. Names and numbers are made up by the test.
"""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import extract_tables

ROWS = [("Ours", "0.9811", "0.012", None), ("Baseline A", "0.9745", "0.009", "2.1e-02"),
        ("Baseline B", "0.9702", "0.015", "4.4e-03")]


def _pdf(size: float, drop: float, with_p: bool) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 740, "Self-Tuning Units for Tabular Data")
    c.setFont("Helvetica", 10)
    c.drawString(72, 700, "Table 2: Comparison of methods on Brackwater-7 in terms of AUC, "
                 "averaged over ten folds.")
    heads = ["method", "AUC"] + (["p-value"] if with_p else [])
    for x, head in zip((72, 180, 260), heads, strict=False):
        c.drawString(x, 680, head)
    y = 664
    for name, value, sd, p in ROWS:
        c.setFont("Helvetica", 10)
        c.drawString(72, y, name)
        c.drawString(180, y, value)
        width = c.stringWidth(value, "Helvetica", 10)
        c.setFont("Helvetica", size)
        sign_x = 180 + width + 4
        c.drawString(sign_x, y - drop, "±")
        c.drawString(sign_x + c.stringWidth("± ", "Helvetica", size), y, sd)
        if with_p and p:
            c.setFont("Helvetica", 10)
            c.drawString(260, y, p)
        y -= 14
    c.setFont("Helvetica", 10)
    c.drawString(72, y - 20, "Our units reach the best AUC on Brackwater-7.")
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize(("size", "drop", "with_p"), [(7.0, 3.0, True), (6.5, 3.5, False)])
def test_a_lowered_sign_keeps_the_deviation_with_its_value(size: float, drop: float,
                                                           with_p: bool) -> None:
    pdf = _pdf(size, drop, with_p)
    cells = [cell for table in extract_tables(pdf) for row in table.rows for cell in row]
    deviations = {sd for _, _, sd, _ in ROWS}
    assert any("0.9811" in cell for cell in cells), cells
    assert not [cell for cell in cells if cell.strip() in deviations], cells
    claims = extract_claims(extract_pages(pdf, "lowered-sign"), pdf).claims
    assert {c.printed_value for c in claims} & {"0.9811", "0.9745"}
    assert not [c for c in claims if c.printed_value in deviations], [
        (c.metric_name, c.printed_value, c.confidence) for c in claims]
