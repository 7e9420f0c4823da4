"""Messy tables: numbers split over lines ("88 1\\n."), no rules, dashes for missing cells."""

from __future__ import annotations

import io

import pymupdf
import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import (
    _text_layout_tables,
    extract_tables,
    parse_cell_value,
    table_cells,
    table_from_rows,
)

ROWS = [("CNN-rand", "83 7", "76 1"), ("CNN-static", "86 8", "81 0"),
        ("CNN-non-static", "87 2", "—"), ("CNN-multichannel", "88 1", "81 1")]
EXPECTED = {
    ("CNN-rand", "SST-2", 83.7), ("CNN-static", "SST-2", 86.8),
    ("CNN-non-static", "SST-2", 87.2), ("CNN-multichannel", "SST-2", 88.1),
    ("CNN-rand", "MR", 76.1), ("CNN-static", "MR", 81.0), ("CNN-multichannel", "MR", 81.1),
}


def messy_pdf() -> bytes:
    """A page whose table has no rules and whose decimals are typeset as 'NN N' + a low '.'."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Times-Roman", 10)
    y = 700
    c.drawString(72, y, "4 Experiments")
    y -= 20
    c.drawString(72, y, "We compare CNN variants on SST-2 and MR (test accuracy, %).")
    y -= 30
    cols = [72, 250, 330]
    for x, text in zip(cols, ("Model", "SST-2", "MR"), strict=True):
        c.drawString(x, y, text)
    y -= 16
    for label, *values in ROWS:
        c.drawString(cols[0], y, label)
        for x, value in zip(cols[1:], values, strict=True):
            c.drawString(x, y, value)
            if value != "—":
                c.drawString(x + 9.5, y - 5, ".")
        y -= 16
    c.drawString(72, y - 6, "Table 2: Test accuracy of CNN variants on SST-2 and MR.")
    c.showPage()
    c.save()
    return buf.getvalue()


def _triples(table) -> set[tuple[str, str, float]]:
    return {(label, column, value.number) for label, column, value, _ in table_cells(table)}


def test_text_layer_really_is_messy() -> None:
    with pymupdf.open(stream=messy_pdf(), filetype="pdf") as doc:
        text = doc[0].get_text()
    assert "88 1\n." in text and "88.1" not in text


def test_messy_pdf_table_parses_into_triples() -> None:
    tables = extract_tables(messy_pdf())
    assert len(tables) == 1
    assert tables[0].number == "2"
    assert _triples(tables[0]) == EXPECTED


def test_text_layout_fallback_parses_the_same_triples() -> None:
    with pymupdf.open(stream=messy_pdf(), filetype="pdf") as doc:
        tables = _text_layout_tables(doc[0], 1)
    assert len(tables) == 1 and tables[0].method == "text_layout"
    assert _triples(tables[0]) == EXPECTED


def test_messy_cells_from_find_tables_style_strings() -> None:
    # what PyMuPDF's Table.extract() returns for real papers: dots on their own line
    table = table_from_rows([
        ["Model", "BreastCancer", None, "Wine", None],
        [None, "Acc\n.", "F1", "Acc\n.", "F1"],
        ["Logisticregression(L2)", "982\n.", "981\n.", "972\n.", "971\n."],
        ["Randomforest", "956\n.", "953\n.", "1000\n.", "1000\n."],
        ["MLP", "867±83\n. .", "865\n.", "–", "-"],
    ])
    assert table.column_labels()[1:] == ["BreastCancer Acc.", "BreastCancer F1",
                                         "Wine Acc.", "Wine F1"]
    triples = {(label, col, value.number) for label, col, value, _ in table_cells(table)}
    assert ("Logisticregression(L2)", "BreastCancer Acc.", 98.2) in triples
    assert ("Randomforest", "Wine F1", 100.0) in triples
    assert ("MLP", "BreastCancer Acc.", 86.7) in triples
    assert not any(label == "MLP" and "Wine" in col for label, col, _ in triples)
    assert len(triples) == 10


@pytest.mark.parametrize(
    ("cell", "number"),
    [("88 1\n.", 88.1), ("982\n.", 98.2), ("96.7 ± 3.7", 96.7), ("967±37\n. .", 96.7),
     ("0.881*", 0.881), ("(88.1)", 88.1), ("85.0%", 85.0), ("—", None), ("-", None),
     ("n/a", None), ("", None), ("ours", None)],
)
def test_parse_cell_value(cell: str, number: float | None) -> None:
    value = parse_cell_value(cell)
    assert (value.number if value else None) == number


def test_messy_claims_are_grounded_on_the_split_text() -> None:
    data = messy_pdf()
    result = extract_claims(extract_pages(data, "messy"), data)
    got = {(c.method_snippet, c.dataset_name, round(c.metric_value, 4))
           for c in result.claims if c.extraction_method == "table"}
    assert got == {(label, col, round(v / 100, 4))  # datasets as printed
                   for label, col, v in EXPECTED}
    assert all(c.metric_name == "accuracy" for c in result.claims)


def two_column_pdf() -> bytes:
    """Prose in the left column at the same heights as a rule-less table in the right one."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Times-Roman", 9)
    prose = ("We ran 3 seeds and 2 folds per setting on 4 machines with 16 cores in 2024. "
             * 6).split()
    y = 700
    while prose:
        line, prose = " ".join(prose[:9]), prose[9:]
        c.drawString(50, y, line)
        y -= 12
    x = [320, 450, 520]
    y = 700
    for cells in (("Model", "Wine", "Iris"), ("Random forest", "100.0", "90.0"),
                  ("Logistic regression", "97.2", "93.3"), ("MLP", "97.2", "86.7")):
        for xx, text in zip(x, cells, strict=True):
            c.drawString(xx, y, text)
        y -= 12
    c.drawString(320, y - 6, "Table 1: Accuracy (%) on Wine and Iris.")
    c.showPage()
    c.save()
    return buf.getvalue()


def test_text_layout_keeps_to_the_captions_column() -> None:
    with pymupdf.open(stream=two_column_pdf(), filetype="pdf") as doc:
        tables = _text_layout_tables(doc[0], 1)
    assert len(tables) == 1
    assert tables[0].column_labels() == ["Model", "Wine", "Iris"]
    assert _triples(tables[0]) == {
        ("Random forest", "Wine", 100.0), ("Random forest", "Iris", 90.0),
        ("Logistic regression", "Wine", 97.2), ("Logistic regression", "Iris", 93.3),
        ("MLP", "Wine", 97.2), ("MLP", "Iris", 86.7),
    }


@pytest.mark.parametrize(("slug", "method"), [("compact_mlp_digits", "find_tables"),
                                              ("gradient_boosting_uci", "text_layout")])
def test_text_layout_agrees_with_find_tables_on_the_samples(slug: str, method: str) -> None:
    """A fully ruled grid is read with find_tables (which agrees with the word layout); a
    booktabs table (no vertical rules) is read from the word layout."""
    from repro_assets.papers.samples import SAMPLE_PAPERS, render_pdf

    data = render_pdf(next(p for p in SAMPLE_PAPERS if p.slug == slug))
    (found,) = extract_tables(data)
    assert found.method == method
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        (layout,) = _text_layout_tables(doc[found.page_no - 1], found.page_no)
    assert layout.number == found.number
    assert _triples(layout) == _triples(found)
