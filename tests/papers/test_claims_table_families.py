"""Table layout families of issue #23, each reproduced with a small PDF the test draws.

* a dataset label printed once beside a group of metric rows (vertically centred, left of the
  metric labels), the methods as columns;
* math-symbol headers ('r', 'ρ', 'Set(r)') the caption defines or whose statistic it names,
  and 'the other columns are accuracy' for the columns without a metric of their own;
* a name printed once over every value column, above header rows that split them into
  groups, each group over metric columns: the dataset of every column, narrowed by its group;
* a caption naming the test set and, later, the data the systems were fine-tuned on: the set
  followed by 'test' is the dataset of the table;
* a full-width table on a two-column page whose short caption is centred across the gutter;
* a page printed over a page-sized background image (a watermark): its tables are read;
* a table in the right column under a page whose upper part is full width (the page is not
  read as two columns): its caption's column bounds the table;
* games as rows and agents as columns under a caption about raw game scores (and a caption
  sentence pointing at another table gives that table's metric, not its own);
* 'Top-1' / 'Top-5' columns without a metric word: an error or an accuracy as the paper's prose
  calls top-k figures, undecided when it calls them both;
"""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.extract import heuristic_candidates
from repro_assets.papers.claims.metrics import (
    compatible_metrics,
    find_metric_mentions,
    lower_is_better,
)
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import extract_tables
from tests.papers.layouts import Page, Table, prose, render


def claims_of(pdf: bytes) -> list[Claim]:
    return heuristic_claims(extract_pages(pdf, "families"), pdf)


def found(claims: list[Claim]) -> set[tuple[str, str, str]]:
    return {(c.dataset_name, c.metric_name, c.printed_value or "") for c in claims
            if c.extraction_method == "table"}


def _prose(c: canvas.Canvas, y: float, *lines: str) -> None:
    c.setFont("Helvetica", 9)
    for i, line in enumerate(lines):
        c.drawString(72, y - 12 * i, line)


def _spanning_dataset_pdf() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 740, "Ranking Shelves with Recurrent Pointers")
    _prose(c, 710, "We evaluate the recurrent pointer ranker (RPR) on two datasets, Bookshelf and",
           "Tunebox, against item-popularity and factorization baselines (Table 2).")
    xs = [72.0, 130.0, 200.0, 260.0, 320.0]
    pitch, top = 12.0, 640.0
    c.setFont("Helvetica", 9)
    for x, text in zip(xs, ["Datasets", "Metric", "PopRank", "FactorMF", "RPR"], strict=True):
        c.drawString(x, top, text)
    c.line(72, top - 4, 380, top - 4)
    groups = [("Bookshelf", [("HR@5", "0.211", "0.305", "0.342"),
                             ("NDCG@5", "0.132", "0.201", "0.236"),
                             ("MRR", "0.118", "0.187", "0.219"),
                             ("HR@10", "0.298", "0.401", "0.447")]),
              ("Tunebox", [("HR@5", "0.402", "0.455", "0.498"),
                           ("NDCG@5", "0.288", "0.331", "0.367"),
                           ("MRR", "0.251", "0.296", "0.333"),
                           ("HR@10", "0.511", "0.562", "0.604")])]
    y = top - pitch - 4
    for name, rows in groups:
        first = y
        for metric, *values in rows:
            for x, text in zip(xs[1:], [metric, *values], strict=True):
                c.drawString(x, y, text)
            c.line(130, y - 3, 380, y - 3)  # a rule under every metric row, not across the set
            y -= pitch
        c.drawString(xs[0], (first + y + pitch) / 2 - 1, name)  # centred beside its rows
        c.line(72, y + pitch - 3.5, 380, y + pitch - 3.5)
    c.setFont("Helvetica", 9)
    c.drawString(72, y - 6, "Table 2: Comparison of the methods on next-item recommendation.")
    c.showPage()
    c.save()
    return buf.getvalue()


def test_dataset_label_spanning_several_metric_rows() -> None:
    pdf = _spanning_dataset_pdf()
    table = next(t for t in extract_tables(pdf) if t.number == "2")
    assert [r[0] for r in table.rows] == ["Bookshelf"] * 4 + ["Tunebox"] * 4
    got = found(claims_of(pdf))
    assert {("Bookshelf", "hr@5", "0.342"), ("Bookshelf", "mrr", "0.219"),
            ("Tunebox", "hr@5", "0.498"), ("Tunebox", "hr@10", "0.604"),
            ("Tunebox", "ndcg@5", "0.367")} <= got
    assert not any(d == "Bookshelf" and v in {"0.498", "0.402", "0.604"} for d, _, v in got)
    assert not any(m is None for _, m, _ in got)


@pytest.mark.parametrize(("sentence", "family"), [
    ("As is usual for this benchmark we report two error rates, top-1 and top-5.", "error"),
    ("We report the top-1 accuracy and the top-5 accuracy of every network.", "accuracy"),
    ("Top-1 accuracy rises while the top-5 error falls for every network.", None),
])
def test_topk_columns_take_the_family_the_prose_names(sentence: str, family: str | None) -> None:
    table = Table("Table 3: Results on the Zentrix-1K validation set.",
                  [["Model", "Top-1", "Top-5"]],
                  [["Lattice net (ours)", "31.4", "11.2"], ["Wide grid net", "35.9", "14.8"]],
                  [72.0, 250.0, 320.0], 560)
    body = prose(f"We train lattice networks on the Zentrix-1K dataset. {sentence} Table 3 "
                 "compares them with wide grid networks.", 72, 680)
    got = found(claims_of(render([Page(title="Lattice Networks", lines=body,
                                       tables=[table])])))
    topk = {(d, m, v) for d, m, v in got if m and m.startswith("top")}
    if family is None:
        assert not topk
    else:
        assert {("Zentrix-1K", f"top1_{family}", "31.4"),
                ("Zentrix-1K", f"top5_{family}", "11.2")} <= topk


def test_symbol_headers_and_the_rest_of_the_columns_from_the_caption() -> None:
    mixed = Table("Table 1: Pearson and Spearman correlation, then mean squared error; the "
                  "other columns are accuracy.",
                  [["Model", "Ferro(r)", "Ferro(ρ)", "Ferro(MSE)", "QuillA", "QuillB"]],
                  [["Bag of words", "0.701", "0.652", "0.455", "71.2", "80.4"],
                   ["Knot encoder (ours)", "0.842", "0.781", "0.301", "78.9", "86.3"]],
                  [72.0, 200.0, 250.0, 300.0, 360.0, 410.0], 600)
    symbols = Table("Table 2: Agreement with annotators on the Quorvia pairs corpus, as "
                    "Pearson's r and Spearman's ρ.",
                    [["Model", "r", "ρ"]],
                    [["Bag of words", "51.30", "49.75"], ["Knot encoder (ours)", "66.12", "63.48"]],
                    [72.0, 250.0, 320.0], 470)
    body = prose("We evaluate the knot encoder on the Ferro, QuillA and QuillB datasets and on the "
                 "Quorvia pairs corpus (Tables 1 and 2).", 72, 680)
    got = found(claims_of(render([Page(title="Knot Encoders", lines=body,
                                       tables=[mixed, symbols])])))
    assert {("Ferro", "pearson_corr", "0.842"), ("Ferro", "spearman_corr", "0.781"),
            ("Ferro", "mse", "0.301"), ("QuillA", "accuracy", "78.9"),
            ("QuillB", "accuracy", "86.3")} <= got
    by_value = {v: (d, m) for d, m, v in got}
    assert by_value["66.12"][1] == "pearson_corr" and by_value["63.48"][1] == "spearman_corr"
    assert "Quorvia" in by_value["66.12"][0]


def test_title_printed_once_over_grouped_metric_columns() -> None:
    table = Table("Table 4: Mean results over five test folds.",
                  [["", "", "VQX-2", "", ""], ["", "", "", "", ""],
                   ["Model", "R@1", "R@10", "R@1", "R@10"]],
                  [["Hash baseline", "31.0", "70.2", "24.6", "61.3"],
                   ["Knot retriever (ours)", "44.8", "85.5", "35.1", "79.9"]],
                  [72.0, 200.0, 250.0, 330.0, 380.0], 600,
                  spans=[(1, 1, 2, "Text search"), (1, 3, 4, "Photo search")])
    body = prose("We evaluate the knot retriever for text and photo search (Table 4).", 72, 680)
    got = found(claims_of(render([Page(title="Knot Retrieval", lines=body, tables=[table])])))
    assert {("VQX-2 Text search", "recall@1", "44.8"), ("VQX-2 Text search", "recall@10", "85.5"),
            ("VQX-2 Photo search", "recall@1", "35.1"),
            ("VQX-2 Photo search", "recall@10", "79.9")} <= got


@pytest.mark.parametrize(("text", "metric"), [
    ("M4 Average OWA", "owa"), ("overall weighted average", "owa"),
    ("ND performance of the forecasters", "nd"), ("normalized deviation", "nd"),
    ("the 2nd and 3rd rows", None), ("nd", None),
])
def test_forecasting_metric_names(text: str, metric: str | None) -> None:
    mentions = [m for m, _, _ in find_metric_mentions(text)]
    assert mentions[:1] == ([metric] if metric else [])
    if metric:
        assert lower_is_better(metric)


def test_caption_test_set_wins_over_the_fine_tuning_data() -> None:
    table = Table("Table 5: Scores on the Orvane Pairs test set. Every system was fine-tuned on "
                  "the OrvTrain dataset.",
                  [["Model", "Spearman"]],
                  [["Bag of words", "58.20"], ["Knot encoder (ours)", "84.35"]],
                  [72.0, 250.0], 600)
    body = prose("We evaluate the knot encoder on Orvane Pairs and tune it on OrvTrain (Table 5).",
                 72, 680)
    got = found(claims_of(render([Page(title="Knot Encoders", lines=body, tables=[table])])))
    assert ("Orvane Pairs", "spearman_corr", "84.35") in got
    assert not any("OrvTrain" in d for d, _, _ in got)


def _two_column_page_with_a_wide_table() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica", 9)
    left = ("We sort parcels with lattice networks and compare them with older sorters on "
            "six parcel collections named after their depots. Every collection holds ten "
            "thousand parcels and a held-out test split of two thousand parcels.")
    right = ("The lattice sorter reads the label of each parcel once and keeps a short memory "
             "of the previous labels. Table 2 lists the share of parcels sent to the right "
             "depot for every sorter and collection.")
    for x, text in ((72, left), (320, right)):
        for x0, y, line in prose(text, x, 720, width=44):
            c.drawString(x0, y, line)
    xs = [72.0, 170.0, 250.0, 310.0, 370.0, 430.0, 490.0]
    header = ["Sorter", "Ambel", "Borvik", "Cadoz", "Dunmere", "Elkton", "Farrow"]
    rows = [["Rule table", "61.2", "58.4", "63.0", "55.1", "60.7", "57.9"],
            ["Greedy sorter", "66.5", "62.8", "64.1", "59.9", "63.3", "61.0"],
            ["Lattice sorter (ours)", "71.4", "69.2", "70.8", "66.3", "68.9", "67.5"]]
    y = 600.0
    for x, text in zip(xs, header, strict=True):
        c.drawString(x, y, text)
    c.line(72, y - 4, 530, y - 4)
    for row in rows:
        y -= 12
        for x, text in zip(xs, row, strict=True):
            c.drawString(x, y, text)
    c.line(72, y - 4, 530, y - 4)
    c.drawString(230, y - 18, "Table 2: Parcel sorting, in percentage")
    for x, text in ((72, left), (320, right)):
        for x0, y1, line in prose(text, x, 500, width=44):
            c.drawString(x0, y1, line)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_wide_table_under_a_caption_centred_across_the_gutter() -> None:
    pdf = _two_column_page_with_a_wide_table()
    table = next(t for t in extract_tables(pdf) if t.number == "2")
    assert table.rows[-1][-1] == "67.5" and len(table.column_labels()) == 7
    assert table.column_labels()[-1] == "Farrow"


def test_tables_on_a_page_printed_over_a_background_image() -> None:
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.drawImage(ImageReader(Image.new("RGB", (20, 20), (250, 250, 245))), 0, 90, 612, 612)
    c.setFont("Helvetica", 9)
    for x, y, line in prose("We compare the lattice sorter with two older sorters on the "
                            "Ambel parcel collection (Table 1).", 72, 720):
        c.drawString(x, y, line)
    xs, y = [72.0, 220.0, 290.0], 640.0
    for row in (["Sorter", "Accuracy", "Recall"], ["Rule table", "61.2", "55.0"],
                ["Lattice sorter (ours)", "71.4", "66.8"]):
        for x, text in zip(xs, row, strict=True):
            c.drawString(x, y, text)
        y -= 12
    c.drawString(72, y - 6, "Table 1: Results on the Ambel parcel collection.")
    c.showPage()
    c.save()
    table = next(t for t in extract_tables(buf.getvalue()) if t.number == "1")
    assert table.rows[-1] == ["Lattice sorter (ours)", "71.4", "66.8"]


def test_right_column_table_below_a_full_width_part() -> None:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica", 9)
    wide = ("We sort parcels with lattice networks and compare them with older sorters on the "
            "Ambel parcel collection; every sorter reads the label of each parcel once and we "
            "count the parcels sent to the right depot, over ten thousand parcels in all. ") * 4
    for x, y, line in prose(wide, 72, 740, width=100):
        c.drawString(x, y, line)
    left = ("The lattice sorter keeps a short memory of the previous labels and uses it when "
            "a label is torn or smudged; the older sorters read each label alone and guess "
            "the depot from the first letters only, which fails on torn labels. ") * 2
    for x, y, line in prose(left, 72, 560, width=44):
        c.drawString(x, y, line)
    xs, y = [320.0, 450.0, 500.0], 560.0
    for row in (["Sorter", "Train", "Test"], ["Rule table", "63.0", "61.2"],
                ["Greedy sorter", "68.1", "66.5"], ["Lattice sorter (ours)", "74.9", "71.4"]):
        for x, text in zip(xs, row, strict=True):
            c.drawString(x, y, text)
        y -= 12
    c.drawString(320, y - 6, "Table 2: Accuracy of the sorters on Ambel.")
    c.showPage()
    c.save()
    table = next(t for t in extract_tables(buf.getvalue()) if t.number == "2")
    assert table.column_labels() == ["Sorter", "Train", "Test"]
    assert table.rows[-1] == ["Lattice sorter (ours)", "74.9", "71.4"]


def test_raw_game_scores_with_games_as_rows() -> None:
    table = Table("Table 6: Raw scores of the agents on four arcade games.",
                  [["Game", "random", "Grid agent", "Lattice agent (ours)"]],
                  [["Moonhop", "12.4", "1830.5", "2411.0"],
                   ["Reefdive", "96.1", "5120.0", "8877.3"],
                   ["Tilebreak", "1.2", "311.8", "402.6"], ["Skyrace", "0.0", "27.5", "31.9"]],
                  [72.0, 180.0, 250.0, 330.0], 600)
    body = prose("We train the lattice agent on the four arcade games Moonhop, Reefdive, "
                 "Tilebreak and Skyrace (Table 6).", 72, 680)
    summary = Table("Table 5: Human-normalized scores over the four arcade games. Table 6 "
                    "lists the raw scores.",
                    [["Agent", "Moonhop", "Reefdive"]],
                    [["Grid agent", "81.2", "64.0"], ["Lattice agent (ours)", "97.5", "88.4"]],
                    [72.0, 250.0, 320.0], 420)
    pdf = render([Page(title="Lattice Agents", lines=body, tables=[table, summary])])
    got = found(claims_of(pdf))
    assert {("Reefdive", "raw_score", "8877.3"), ("Moonhop", "raw_score", "2411.0"),
            ("Skyrace", "raw_score", "31.9")} <= got
    cands = heuristic_candidates(extract_pages(pdf, "families"), extract_tables(pdf))
    assert {c.metric_name for c in cands if c.source_citation.startswith("Table 5,")} == {
        "normalized_score"}  # Table 6's metric, named in Table 5's caption, is not Table 5's
    assert compatible_metrics("raw_score", "score")
