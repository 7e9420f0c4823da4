"""Table detection families of issue #23 that do not depend on one paper's layout.

Each family is drawn in at least two invented layout variants (wording, column order, caption
side) with a small PDF the test makes:

* appendix and supplementary tables numbered with a letter ('Table S2.', 'Table B.3:');
* a 'Table N' label alone on its line with the caption text centred on the lines below it
  (journal style), and a wrapped sentence ending in 'Table N' that is no caption;
* a leading column of swept settings ('Depth | 2, 4, 8') that names the rows of a table
  without a text label column;
* a caption that lists the compared methods before the data ('error of A, B and C on the X
  benchmark'): the column headers it lists are methods, never datasets;
* two tables side by side whose captions are printed level (their lines group as one line):
  each caption keeps its own words and bounds its own table; a header row read as a body row
  ('Model | 1 | 2 | All') does not make the models datasets.
"""

from __future__ import annotations

import io
from collections import Counter

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.context import _read_dataset_table
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import ParsedTable, extract_tables

Rows = list[list[str]]


def _pdf(draw: list[tuple[str, float, float, str]], title: str = "Lattice Forecasters") -> bytes:
    """A one-page PDF: ``draw`` holds (kind, x, y, text); kind 'l' left-aligned, 'c' centred
    on x, 'rule' a horizontal rule from x to float(text)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 740, title)
    c.setFont("Helvetica", 9)
    for kind, x, y, text in draw:
        if kind == "c":
            c.drawCentredString(x, y, text)
        elif kind == "rule":
            c.line(x, y, float(text), y)
        else:
            c.drawString(x, y, text)
    c.showPage()
    c.save()
    return buf.getvalue()


def _grid(xs: list[float], top: float, header: list[str], rows: Rows,
          pitch: float = 12.0) -> list[tuple[str, float, float, str]]:
    """A ruled grid: the header at ``top``, the rows below it."""
    out: list[tuple[str, float, float, str]] = [("rule", xs[0], top + 10, str(xs[-1] + 50))]
    out += [("l", x, top, t) for x, t in zip(xs, header, strict=True) if t]
    out.append(("rule", xs[0], top - 4, str(xs[-1] + 50)))
    for i, row in enumerate(rows):
        out += [("l", x, top - pitch * (i + 1) - 4, t) for x, t in zip(xs, row, strict=True)
                if t]
    out.append(("rule", xs[0], top - pitch * len(rows) - 8, str(xs[-1] + 50)))
    return out


def _claims(pdf: bytes) -> list[Claim]:
    return heuristic_claims(extract_pages(pdf, "detection"), pdf)


def _found(claims: list[Claim]) -> set[tuple[str, str, str]]:
    return {(c.dataset_name, c.metric_name, c.printed_value or "") for c in claims
            if c.extraction_method == "table"}


# --- appendix and supplementary numbers ----------------------------------------------------

def test_supplementary_number_caption_above_games_as_rows() -> None:
    body = [("l", 72, 710, "The agents are compared on every game of the arcade suite."),
            ("l", 72, 660, "Table S2. Raw scores of the agents on the Pixelvale arcade "
                           "benchmark.")]
    body += _grid([72, 200, 270, 340], 640, ["Game", "Greedy", "Planner", "Lattice"],
                  [["Marsh Run", "120.5", "340.2", "512.9"], ["Ice Cave", "88.0", "97.3",
                                                                 "141.6"],
                   ["Sky Fort", "301.4", "288.9", "377.0"]])
    pdf = _pdf(body)
    assert [t.number for t in extract_tables(pdf)] == ["S2"]
    got = _found(_claims(pdf))
    assert {("Marsh Run", "raw_score", "512.9"), ("Sky Fort", "raw_score", "288.9")} <= got


def test_appendix_number_caption_below_datasets_as_rows() -> None:
    body = _grid([72, 200, 260, 320], 690, ["Dataset", "Ours", "Tree", "Linear"],
                 [["quarry", "0.8123", "0.7710", "0.7012"], ["orchid", "0.9031", "0.8922",
                                                             "0.8410"],
                  ["lumen", "0.6650", "0.6481", "0.6013"]])
    body += [("l", 72, 630, "Table B.3: Test accuracy of the classifiers on every data set of "
                            "the appendix suite.")]
    pdf = _pdf(body)
    assert [t.number for t in extract_tables(pdf)] == ["B.3"]
    got = _found(_claims(pdf))
    assert {("quarry", "accuracy", "0.8123"), ("lumen", "accuracy", "0.6013")} <= got


# --- a label alone on its line ---------------------------------------------------------------

def _alone_caption_pdf(label: str, caption: list[str], header: list[str], rows: Rows) -> bytes:
    body: list[tuple[str, float, float, str]] = [("c", 306, 680, label)]
    body += [("c", 306, 668 - 10 * i, text) for i, text in enumerate(caption)]
    body += _grid([150, 260, 340, 420], 630 - 10 * len(caption), header, rows)
    body += [("l", 72, 480, "The table above is discussed in the text of this section, where "
                            "the three models are compared at length.")]
    return _pdf(body)


def test_label_alone_on_its_line_journal_style() -> None:
    pdf = _alone_caption_pdf(
        "Table 4", ["Mean absolute error of the three forecasters on the Zentrix benchmark",
                    "for a range of look-back windows"],
        ["Model", "Window 8", "Window 16", "Window 32"],
        [["Seasonal naive", "1.306", "1.271", "1.254"], ["Lattice (ours)", "0.833", "0.795",
                                                      "0.768"]])
    tables = extract_tables(pdf)
    assert [t.number for t in tables] == ["4"]
    assert tables[0].caption and "Zentrix benchmark" in tables[0].caption
    assert ("Zentrix benchmark", "mae", "0.768") in _found(_claims(pdf))


def test_upper_case_label_alone_then_caption_text() -> None:
    pdf = _alone_caption_pdf(
        "TABLE II", ["Test accuracy of the compared models on the Quorvex dataset"],
        ["Model", "Fold A", "Fold B", "Fold C"],
        [["Linear probe", "71.2", "70.8", "72.0"], ["Knot encoder", "80.4", "79.9", "81.3"]])
    tables = extract_tables(pdf)
    assert [t.number for t in tables] == ["II"]
    assert [r[0] for r in tables[0].rows] == ["Linear probe", "Knot encoder"]


def test_sentence_wrapped_before_a_table_number_is_no_caption() -> None:
    body = [("l", 72, 700, "The forecasters are compared in detail in the next section, whose "
                           "results are gathered in"),
            ("l", 72, 688, "Table 4"),
            ("l", 72, 676, "and discussed at length there, together with the effect of the "
                           "window on every model.")]
    body += _grid([150, 260, 340, 420], 640, ["Model", "Window 8", "Window 16", "Window 32"],
                  [["Seasonal naive", "1.306", "1.271", "1.254"],
                   ["Lattice (ours)", "0.833", "0.795", "0.768"]])
    assert extract_tables(_pdf(body)) == []


# --- a leading column of settings ------------------------------------------------------------

def test_increasing_setting_column_names_the_rows() -> None:
    body = [("l", 72, 700, "Table 6: Test accuracy on the Valdor dataset for networks of "
                           "growing depth.")]
    body += _grid([72, 160, 240, 320], 680, ["Depth", "Plain", "Residual", "Gated"],
                  [["2", "81.2", "81.9", "82.4"], ["4", "82.0", "83.5", "84.1"],
                   ["8", "80.7", "84.2", "85.0"]])
    tables = extract_tables(_pdf(body))
    assert len(tables) == 1
    assert tables[0].label_cols == 1
    assert [r[0] for r in tables[0].rows] == ["2", "4", "8"]
    assert tables[0].column_labels()[0] == "Depth"


def test_decreasing_setting_column_with_a_symbol_header() -> None:
    body = _grid([72, 150, 230, 310], 700, ["# labels", "Alder", "Birch", "Cedar"],
                 [["1000", "0.412", "0.398", "0.377"], ["500", "0.455", "0.431", "0.402"],
                  ["100", "0.561", "0.540", "0.498"], ["50", "0.630", "0.601", "0.577"]])
    body += [("l", 72, 630, "Table 2. Root mean squared error of the regressors as labelled "
                            "examples are removed.")]
    tables = extract_tables(_pdf(body))
    assert len(tables) == 1
    assert [r[0] for r in tables[0].rows] == ["1000", "500", "100", "50"]


def test_unordered_first_column_without_labels_is_not_a_setting() -> None:
    body = [("l", 72, 700, "Table 6: Test accuracy on the Valdor dataset.")]
    body += _grid([72, 160, 240, 320], 680, ["Plain", "Residual", "Gated", "Mixed"],
                  [["81.2", "81.9", "82.4", "80.1"], ["79.0", "83.5", "84.1", "82.2"],
                   ["80.7", "84.2", "85.0", "83.3"]])
    assert all(t.label_cols == 0 or not t.rows[0][0].startswith("81")
               for t in extract_tables(_pdf(body)))


# --- methods the caption lists before the data -----------------------------------------------

def test_caption_listing_methods_before_the_data_gives_no_method_dataset() -> None:
    body = [("l", 72, 700, "Table 3: Mean absolute error of QR Forest, QR Boost and QR Net on "
                           "the Pellow benchmark.")]
    body += _grid([72, 160, 240, 320], 680, ["Trees", "QR Forest", "QR Boost", "QR Net"],
                  [["3", "0.713", "0.688", "0.671"], ["7", "0.652", "0.629", "0.614"],
                   ["15", "0.637", "0.611", "0.596"]])
    got = _found(_claims(_pdf(body)))
    assert not any(d and d.startswith("QR") for d, _, _ in got)
    assert ("Pellow benchmark", "mae", "0.614") in got


def test_comparison_between_methods_at_a_test_set() -> None:
    body = _grid([72, 200, 280], 700, ["Setting", "Alder", "Birch"],
                 [["short", "71.5", "73.0"], ["long", "69.2", "72.4"]])
    body += [("l", 72, 650, "Table 1: Comparison between Alder and Birch at the Corvo test "
                            "set (accuracy).")]
    got = _found(_claims(_pdf(body)))
    assert not any(d in {"Alder", "Birch"} for d, _, _ in got)


# --- two tables side by side, captions level with each other ---------------------------------

def _side_by_side_pdf(captions_above: bool, right_caption: str) -> bytes:
    """Two tables side by side; the left caption wraps to two lines, the right one starts just
    after the left one's lines on a baseline 2 pt away (the lines group as one)."""
    left = ["Table 4: Tagging accuracy on the Harlow-1 set (Set-A)",
            "and the Harlow-2 set (Set-B), for the taggers."]
    end = 80 + max(pdfmetrics.stringWidth(t, "Helvetica", 9) for t in left)
    cap_y = 700 if captions_above else 596
    body: list[tuple[str, float, float, str]] = [
        ("l", 80, cap_y - 10 * i, t) for i, t in enumerate(left)]
    body += [("l", end + 5, cap_y - 2 - 10 * i, t) for i, t in enumerate(right_caption.split("|"))]
    top = 660 if captions_above else 660
    body += _grid([80, 150, 210], top, ["Model", "Set-A", "Set-B"],
                  [["Baseline", "30.1", "31.2"], ["Ours", "31.5", "32.4"]])
    body += _grid([end + 20, end + 90, end + 150], top, ["Model", "Mean", "Spread"],
                  [["Baseline", "0.41", "1.22"], ["Ours", "0.37", "1.08"], ["Wide", "0.52",
                                                                           "1.31"]])
    return _pdf(body)


def test_side_by_side_captions_below_bound_their_tables() -> None:
    pdf = _side_by_side_pdf(False, "Table 5: Mean and spread of the hidden activations|"
                                   "of every tagger, measured on the dev portion.")
    tables = {t.number: t for t in extract_tables(pdf)}
    assert set(tables) == {"4", "5"}
    assert [r[0] for r in tables["4"].rows] == ["Baseline", "Ours"]
    assert tables["4"].column_labels()[1:] == ["Set-A", "Set-B"]
    assert "Harlow-2 set (Set-B)" in (tables["4"].caption or "")
    assert "Table 5" not in (tables["4"].caption or "")
    assert [r[0] for r in tables["5"].rows] == ["Baseline", "Ours", "Wide"]


def test_side_by_side_captions_above_bound_their_tables() -> None:
    pdf = _side_by_side_pdf(True, "Table 5: Activation statistics (mean, spread)|"
                                  "of the three taggers.")
    tables = {t.number: t for t in extract_tables(pdf)}
    assert set(tables) == {"4", "5"}
    assert tables["4"].column_labels()[1:] == ["Set-A", "Set-B"]
    assert "Harlow-2" in (tables["4"].caption or "")
    got = _found(_claims(pdf))
    assert not any(d and "Harlow-1" in d and v == "32.4" for d, _, v in got)


@pytest.mark.parametrize(("caption", "first"), [
    ("Table 5: Mean and spread of the activations; we use the Harlow dev dataset.", "Model"),
    ("Table 2: Statistics of the gates of every network.", "Methods"),
])
def test_header_row_read_as_a_row_keeps_models_out_of_the_datasets(caption: str,
                                                                    first: str) -> None:
    table = ParsedTable(page_no=1, number="5", caption=caption, header=[], method="text_layout",
                        rows=[[first, "1", "2", "All"], ["Gridnorm", "0.41", "0.52", "0.47"],
                              ["Layerless", "0.37", "0.44", "0.40"]])
    presented: set[str] = set()
    names: dict[str, str] = {}
    _read_dataset_table(table, Counter(), names, {}, {}, presented)
    assert not presented and not names


# --- captions above their tables, each nearer the table of the caption before it -------------

def _stacked_pdf(labels: list[str], names: list[str], gap_after: float) -> bytes:
    """Tables each under its caption; the rows of one table end ``gap_after`` pt above the
    next caption, closer than that caption's own rows below it."""
    body: list[tuple[str, float, float, str]] = []
    y = 700.0
    for k, (label, name) in enumerate(zip(labels, names, strict=True)):
        body.append(("l", 80, y, f"{label}: Overall results on the {name} dataset."))
        rows = [["Linear", f"7{k}.1", f"0.{k}31"], ["Lattice", f"7{k}.9", f"0.{k}27"]]
        body += _grid([80, 180, 250], y - 22, ["Model", "AUC", "Log Loss"], rows)
        y -= 22 + 12 * len(rows) + 8 + gap_after
    return _pdf(body)


def test_caption_above_takes_its_own_rows_not_the_nearer_previous_table() -> None:
    pdf = _stacked_pdf(["TABLE I", "TABLE II", "TABLE III"], ["Quorvex", "Pellow", "Zentrix"],
                       8.0)
    tables = {t.number: t for t in extract_tables(pdf)}
    assert [tables[n].rows[0][1] for n in ("I", "II", "III")] == ["70.1", "71.1", "72.1"]
    got = _found(_claims(pdf))
    assert {("Quorvex", "auc", "70.9"), ("Pellow", "auc", "71.9"),
            ("Zentrix", "auc", "72.9")} <= got
    assert not any(d == "Pellow" and v == "70.9" for d, _, v in got)


def test_two_captions_above_with_arabic_numbers() -> None:
    pdf = _stacked_pdf(["Table 1", "Table 2"], ["Harlow", "Valdor"], 6.0)
    tables = {t.number: t for t in extract_tables(pdf)}
    assert tables["1"].rows[0][1] == "70.1" and tables["2"].rows[0][1] == "71.1"


# --- a caption that remarks on speed over a table whose headers name metrics -----------------

def test_speed_remark_in_a_caption_does_not_refuse_a_results_table() -> None:
    body = [("l", 72, 700, "Table 2: Detectors on the Corvo test set; the larger input pays off "
                           "only at twice the running time.")]
    body += _grid([72, 200, 260, 320], 680, ["Detector", "AP", "AP50", "Time (ms)"],
                  [["One stage", "28.4", "47.9", "41"], ["Lattice det", "33.7", "53.2",
                                                           "86"]])
    got = _found(_claims(_pdf(body)))
    assert {("Corvo", "ap", "33.7"), ("Corvo", "ap50", "53.2")} <= got
    assert not any(v in {"41", "86"} for _, _, v in got)


def test_accuracy_speed_trade_off_with_a_metric_row() -> None:
    body = _grid([72, 200, 260, 320], 700, ["", "Small", "Medium", "Large"],
                 [["Top-1 accuracy", "71.3", "74.8", "76.2"], ["Latency (ms)", "12", "19",
                                                                 "33"]])
    body += [("l", 72, 650, "Table 3: How accuracy and latency balance for the lattice "
                            "networks on the Quorvex dataset.")]
    got = _found(_claims(_pdf(body)))
    assert any(d == "Quorvex" and v == "76.2" for d, _, v in got)
    assert not any(v in {"12", "19", "33"} for _, _, v in got)


def test_hyperparameter_table_naming_a_loss_stays_refused() -> None:
    body = [("l", 72, 700, "Table 9: Hyper-parameters of the forecasters.")]
    body += _grid([72, 200, 300], 680, ["Parameter", "Short", "Long"],
                  [["Width", "512", "1024"], ["Blocks", "3", "4"], ["Loss", "MAE", "RMSE"]])
    assert not _found(_claims(_pdf(body)))


# --- groups side by side in one row, keyed by the row's first cell ---------------------------

def _keyed_groups_pdf(key_header: str, groups: list[tuple[str, str]], caption: str) -> bytes:
    """Rows 'dataset | method | acc | size' repeated in groups side by side; the dataset is
    printed once, left of the first group."""
    names = ["Quorvex", "Harlow", "Pellow"]
    xs = [72.0]
    header = [key_header]
    for _ in groups:
        base = xs[-1] + (70 if len(xs) == 1 else 45)
        xs += [base, base + 75, base + 115]
        header += ["Model", "Acc.", "Size"]
    rows = []
    for i, name in enumerate(names):
        row = [name]
        for g, (method, stem) in enumerate(groups):
            row += [f"{method}-{i}", f"{stem}{i}.{g + 3}%", f"{4 + g}M"]
        rows.append(row)
    body = [("l", 72, 720, "We propose LatticeNet, a family of lattice networks, and test it "
                           "on the Quorvex dataset and two more.")]
    body += _grid(xs, 680, header, rows)
    body += [("l", 72, 620, caption)]
    return _pdf(body, title="LatticeNet: Lattice Networks for Transfer")


def test_row_key_printed_once_left_of_side_by_side_groups() -> None:
    pdf = _keyed_groups_pdf("", [("Gridnet", "8"), ("LatticeNet", "9")],
                            "Table 5: LatticeNet on the transfer datasets, next to the best "
                            "published model.")
    tables = [t for t in extract_tables(pdf) if t.number == "5"]
    assert len(tables) == 2
    assert [r[0] for r in tables[1].rows] == ["Quorvex", "Harlow", "Pellow"]
    got = _found(_claims(pdf))
    assert {("Quorvex", "accuracy", "90.4"), ("Pellow", "accuracy", "92.4")} <= got


def test_row_key_with_a_data_header_and_own_model_first() -> None:
    pdf = _keyed_groups_pdf("Dataset", [("LatticeNet", "7"), ("Gridnet", "6"),
                                        ("Wideset", "5")],
                            "Table 2: Accuracy on three transfer datasets; each row compares "
                            "models of equal size.")
    tables = [t for t in extract_tables(pdf) if t.number == "2"]
    assert len(tables) == 3
    assert all([r[0] for r in t.rows] == ["Quorvex", "Harlow", "Pellow"] for t in tables)
    got = _found(_claims(pdf))
    assert ("Harlow", "accuracy", "71.3") in got
    assert not any(d and d.startswith(("Gridnet", "LatticeNet")) for d, _, _ in got)


# --- a table of one row -----------------------------------------------------------------------

def test_one_row_table_under_its_header_caption_below() -> None:
    body = _grid([72, 200, 260], 700, ["Test set", "Old system", "New system"],
                 [["Harlow voice", "21.37", "12.84"]])
    body += [("l", 72, 660, "Table 8: Word error rate of the two systems on an internal test "
                            "set.")]
    tables = extract_tables(_pdf(body))
    assert [(t.number, t.rows) for t in tables] == [("8", [["Harlow voice", "21.37", "12.84"]])]


def test_one_row_table_caption_above_three_columns() -> None:
    body = [("l", 72, 700, "Table 3: Accuracy on the Valdor dataset.")]
    body += _grid([72, 180, 240, 300], 680, ["Split", "Linear", "Tree", "Lattice"],
                  [["held-out", "61.4", "66.2", "70.5"]])
    tables = extract_tables(_pdf(body))
    assert [t.rows[0][3] for t in tables] == ["70.5"]


def test_one_row_under_a_header_holding_numbers_is_no_table() -> None:
    body = [("l", 72, 700, "Table 4: Cross-validated results of the two samplers.")]
    body += _grid([72, 200, 260], 680, ["Sampler", "Acc+", "Acc-"],
                  [["Shrinker", "71.5%", "52.9%"], ["Two-sided", "66.0%", "77.6%"]])
    assert all(len(t.rows) != 1 or not any(
        "%" in c for h in t.header for c in h) for t in extract_tables(_pdf(body)))


# --- an abbreviated improvement column ---------------------------------------------------------

@pytest.mark.parametrize("head", ["Improv.", "Impr."])
def test_abbreviated_improvement_column_is_no_result(head: str) -> None:
    body = _grid([72, 160, 220, 280, 340], 700, ["Data", "Metric", "Gridrec", "Ours", head],
                 [["Quorvex", "HR@5", "0.2113", "0.2471", "16.94%"],
                  ["Quorvex", "NDCG@5", "0.1322", "0.1587", "20.05%"]])
    body += [("l", 72, 660, "Table 2: Ranking results of the recommenders on the Quorvex "
                            "dataset.")]
    got = _found(_claims(_pdf(body)))
    assert ("Quorvex", "hr@5", "0.2471") in got
    assert not any(v in {"16.94", "20.05"} for _, _, v in got)
