"""Whole papers the claims reader lost on a real set opened after a blind session (issue #23):
tables it did not see at all.

Each family is a structural reason the table reader saw no table, or a wrong grid; the tests
draw small PDFs with PyMuPDF, in two variants each, with invented names and numbers:

* a table set in a font whose text-layer box is much lower than its size (a small caps face):
  its rows looked 4 points high, so the gap under the caption ended the table before its
  header and every word of a row became a cell of its own;
* a running head with its page number over a caption was taken for the caption's one-row table
  above it, beside the real table below;
* a header line over sub-headers that all repeat one word ('accuracy | accuracy') printed with
  no more than a word space between its two parts was one header over both columns;
* two columns of running text under a full-width caption read as table rows, so the caption
  took them for its table instead of the table above it;
* rows numbered '1', '2', ... with an 'Average' row: the numbers were a column of values, the
  grid had no label column and no table was read; a rank in parentheses ('52.0% (2/10)') was
  read as a second value;
* a caption of many lines on a two-column page was cut after seven lines of both columns, and
  its rest taken for running text that ended the table;
* a journal caption 'TABLE II.  TITLE' with its title set apart on the label's baseline was cut
  at the label, so the table was read in the left column only;
* a table the reader now sees, with a group title over its 'Method' label column under a caption
  about datasets, gave its method rows as the paper's datasets (a cell of another table then
  had two datasets to choose from).
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf
import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables.cells import parse_cell_values
from tests.papers.layouts import Line, grid, prose_down, wrap
from tests.papers.test_claims_r3_families import claims_of_lines, confident


def _pdf(lines: Sequence[Line], short: Sequence[Line] = (), size: float = 9.0,
         short_size: float = 8.0) -> bytes:
    """One page of ``lines`` (Helvetica) and ``short`` lines in a face whose descriptor gives
    a box half its size high (ascent 500, descent 0), as some small caps fonts do."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, y, text in lines:
        page.insert_text((x, y), text, fontsize=size, fontname="helv")
    for x, y, text in short:
        page.insert_text((x, y), text, fontsize=short_size, fontname="tiro")
    if short:
        xref = next(f[0] for f in page.get_fonts() if f[4] == "tiro")
        descriptor = doc.get_new_xref()
        doc.update_object(descriptor, (
            "<< /Type /FontDescriptor /FontName /ZetaSmallCaps /Flags 32 "
            "/FontBBox [0 0 1000 500] /ItalicAngle 0 /Ascent 500 /Descent 0 "
            "/CapHeight 500 /StemV 80 >>"))
        doc.xref_set_key(xref, "FontDescriptor", f"{descriptor} 0 R")
        doc.xref_set_key(xref, "BaseFont", "/ZetaSmallCaps")
    data = doc.tobytes()
    doc.close()
    return data


def _claims(pdf: bytes, name: str) -> list[Claim]:
    return heuristic_claims(extract_pages(pdf, name), pdf)


def _values(claims: list[Claim]) -> set[str | None]:
    return {c.printed_value for c in claims}


# --- a table in a face whose text-layer box is lower than its size --------------------------


@pytest.mark.parametrize(("dataset", "rows"), [
    ("Harbour Street", [["Fenwick et al. [4]", "74.1%", "61.0%"], ["Plain net", "77.2%", "66.4%"],
                        ["Looped net (3 passes)", "79.9%", "68.8%"]]),
    ("Quillon Yard", [["Ostrow & Pell [2]", "70.3%", "55.5%"], ["Base model", "72.6%", "58.1%"],
                      ["Deep model (two stages)", "75.4%", "60.2%"]]),
])
def test_a_table_in_a_face_lower_than_its_size_is_read(dataset: str, rows: list[list[str]]
                                                       ) -> None:
    lines = [(100, 60, "Looped Networks for Street Scene Labelling")]
    lines += prose_down(f"We label the {dataset} dataset with looped networks; Table 3 gives "
                        "the accuracy of each method.", 100, 80)
    lines += [(100, 120, f"Table 3. Pixel accuracy of other methods and ours on the {dataset} "
                         "dataset.")]
    short = grid([110, 300], 160, [["Method", "pixel accuracy"]]) + grid(
        [110, 300, 380], 176, rows, pitch=10.0)
    pdf = _pdf(lines, short)
    claims = _claims(pdf, "short-face")
    last = rows[-1]
    assert any(c.printed_value == last[1].rstrip("%") and c.dataset_name == dataset
               and c.metric_name == "pixel_accuracy" for c in claims), confident(claims)


# --- a running head over a caption ----------------------------------------------------------


@pytest.mark.parametrize(("head", "number", "caption"), [
    ("Looped Networks for Street Labelling", "9",
     "Table 2. Accuracy of the looped networks on the Tarvo Bay dataset."),
    ("P. Quendel, R. Amsel", "12", "Table 4. Accuracy of two labellers on the Tarvo Bay dataset."),
])
def test_a_running_head_over_a_caption_is_no_table(head: str, number: str, caption: str
                                                   ) -> None:
    lines = [(150, 40, head), (470, 40, number), (72, 72, caption)]
    lines += grid([72, 260, 340], 110, [["Method", "accuracy", "time (s)"],
                                        ["Plain net", "71.4%", "0.6"],
                                        ["Looped net", "74.9%", "2.1"]])
    lines += prose_down("The looped net labels the bay scenes better than the plain one at a "
                        "higher cost per image, as the table above shows for every scene.",
                        72, 180)
    claims = claims_of_lines(lines, "running-head")
    assert any(c.printed_value == "74.9" and c.dataset_name == "Tarvo Bay" for c in claims), (
        confident(claims))


# --- a header line over sub-headers repeating one word --------------------------------------


@pytest.mark.parametrize(("left", "right", "right_metric"), [
    ("per pixel", "avg per class", "mean_class_recall"),
    ("pixel-wise", "per-class", "mean_class_recall"),
])
def test_a_header_over_repeated_sub_headers_is_split_over_its_columns(
        left: str, right: str, right_metric: str) -> None:
    lines = [(72, 60, "Labelling Scenes of the Orlen Coast")]
    lines += prose_down("We label the Orlen Coast dataset; Table 4 compares the methods.",
                        72, 80)
    lines += [(72, 110, "Table 4. Accuracy of the methods on the Orlen Coast dataset.")]
    # the two upper headers one word space apart, each centred over its column
    x_left = 250
    x_right = x_left + pymupdf.get_text_length(left + " ", fontname="helv", fontsize=9)
    lines += [(x_left, 135, left), (x_right, 135, right)]
    lines += grid([72, x_left + 4, x_right + 8], 147, [["Method", "accuracy", "accuracy"],
                                                       ["Plain net", "76.5%", "31.0%"],
                                                       ["Looped net", "77.7%", "29.8%"]])
    claims = claims_of_lines(lines, "repeated-subheaders")
    second = [c for c in claims if c.printed_value == "29.8"]
    assert second and all(c.metric_name == right_metric for c in second), confident(claims)
    assert any(c.printed_value == "77.7" and c.metric_name == "pixel_accuracy"
               for c in claims), confident(claims)


# --- two columns of running text under a full-width caption ---------------------------------


_LEFT = ("Training. We first train the reader on a large set of general questions (Orm et "
         "al., 2017) and then tune it on the Velk questions with a rate of 10 and 20 for the "
         "two phases, stopping when the development score stops improving after 3 rounds.")
_RIGHT = ("Ensembles. To reduce the variance of the answers we average 5 readers trained on "
          "different folds (Kess and Lo, 2014) of the training questions and submit both the "
          "single reader and the ensemble to the shared task of 2017.")


def _spaced(text: str, x: float, y: float, gap: float = 8.0) -> list[Line]:
    """The words of one line from ``x``, ``gap`` points apart (loosely justified type: wider
    than a word space, narrower than a column gap)."""
    out, at = [], x
    for word in text.split():
        out.append((at, y, word))
        at += pymupdf.get_text_length(word, fontname="helv", fontsize=9) + gap
    return out


@pytest.mark.parametrize("metric", ["MRR", "F1"])
def test_two_columns_of_prose_under_a_caption_are_no_table(metric: str) -> None:
    lines = grid([150, 240, 330], 70, [["Round", "Single", "Ensemble"]])
    lines += [(150, 58, f"Factoid {metric}")]
    lines += grid([150, 240, 330], 86, [["Early", "41.2%", "43.0%"], ["Late", "38.6%", "40.4%"],
                                        ["Overall", "39.9%", "41.7%"]])
    lines += prose_down(f"Table 1: Results for factoid questions on the Velk benchmark, "
                        f"{metric} of our single and ensemble readers in each round of the "
                        "challenge.", 72, 150, width=110)
    for k, (left, right) in enumerate(zip(wrap(_LEFT, 36), wrap(_RIGHT, 36), strict=False)):
        lines += _spaced(left, 72, 185 + 12 * k)
        lines += _spaced(right, 320, 185 + 12 * k)
    claims = claims_of_lines(lines, "two-column-prose")
    assert any(c.printed_value == "41.7" and "Velk" in (c.dataset_name or "") for c in claims), (
        confident(claims))


# --- rows numbered 1, 2, ... and an average row ---------------------------------------------


@pytest.mark.parametrize("rows", [
    [["1", "52.5% (2/10)", "57.0% (1/10)"], ["2", "38.5% (3/15)", "42.5% (2/15)"],
     ["3", "43.5% (1/16)", "42.0% (2/16)"], ["Average", "44.8%", "47.2%"]],
    [["1", "61.5% (4/12)", "63.0% (3/12)"], ["2", "58.5% (5/14)", "60.0% (2/14)"],
     ["Average", "60.0%", "61.5%"]],
])
def test_rows_numbered_one_two_three_are_labels(rows: list[list[str]]) -> None:
    lines = [(72, 60, "A Reader for the Pelmot Questions")]
    lines += prose_down("We report the results for every test batch of the Pelmot benchmark "
                        "in Table 1.", 72, 80)
    lines += [(72, 110, "Table 1: MRR of our single and ensemble readers per test batch on "
                        "the Pelmot benchmark.")]
    lines += grid([72, 160, 260], 130, [["Batch", "Single", "Ensemble"], *rows])
    claims = claims_of_lines(lines, "numbered-rows")
    average = rows[-1]
    assert any(c.printed_value == average[2].rstrip("%") and "Pelmot" in (c.dataset_name or "")
               for c in claims), confident(claims)
    ranks = {r.split("/")[1].rstrip(")") for row in rows for r in row if "/" in r}
    assert not _values(claims) & ranks, confident(claims)  # '(2/10)' is a rank, no value


def test_a_slash_inside_parentheses_is_no_pair() -> None:
    assert [v.printed for v in parse_cell_values("52.0% (2/10)")] == ["52.0"]
    assert [v.printed for v in parse_cell_values("31.40 / 29.95")] == ["31.40", "29.95"]


# --- a long caption on a two-column page ----------------------------------------------------


@pytest.mark.parametrize("extra", [
    "The rightmost column refers to models trained on the larger collections of text.",
    "Note that the gain from more data is modest, so the model is well trained on the "
    "smaller sets as well, except on the smallest one.",
])
def test_a_long_caption_in_a_column_is_read_whole(extra: str) -> None:
    caption = ("Table 1. This table shows the test bits per character for each experiment, "
               "with the training bits in brackets where available. The looped net achieves "
               "lower bits per character than the word memoizer but higher than the packed "
               "compressor on each of the three datasets. " + extra + " Note also that "
               "every run used the same number of units and factors as the others.")
    lines: list[Line] = [(55, 60, "LOOP: Looped Networks for Character Text")]
    first = wrap(caption, 60)[0]  # the first line the widest, as a justified caption's
    cap = [first, *wrap(caption[len(first):], 50)]
    assert len(cap) >= 8
    right = wrap("The optimizer uses a small number of large updates, each of them costly, "
                 "which makes it easy to run on many machines at once. " * 4, 55)
    for k, text in enumerate(cap):
        lines.append((55, 90 + 11 * k, text))
    for k, text in enumerate(right):
        lines.append((320, 84 + 12 * k, text))
    top = 90 + 11 * len(cap) + 24
    lines += grid([60, 130, 180, 230], top, [["DATA SET", "MEMO", "PACK", "LOOP"],
                                             ["QARN", "1.66", "1.51", "1.60"],
                                             ["TELL", "1.49", "1.38", "1.48"]])
    claims = claims_of_lines(lines, "long-caption")
    assert any(c.printed_value == "1.48" and c.dataset_name == "TELL" for c in claims), (
        confident(claims))


# --- a journal caption 'TABLE II.  TITLE' ---------------------------------------------------


@pytest.mark.parametrize(("label_x", "title_x"), [(110, 200), (150, 240)])
def test_a_journal_caption_with_a_title_set_apart_spans_the_page(label_x: float,
                                                                 title_x: float) -> None:
    lines: list[Line] = []
    for k, text in enumerate(wrap("The classifier is a nearest neighbour rule on every data "
                                  "set; we report the dimension and the accuracy of each "
                                  "stage of the selection. " * 3, 50)):
        lines += [(50, 60 + 12 * k, text), (320, 60 + 12 * k, text)]
    lines += [(label_x, 200, "TABLE II."),
              (title_x, 200, "DIMENSION AND CLASSIFICATION ACCURACY OF EACH STAGE")]
    lines += grid([60, 140, 210, 280, 350, 420, 490], 222, [
        ["Data", "Dim.", "Acc. (%)", "Dim. one", "Acc. (%)", "Dim. two", "Acc. (%)"],
        ["wavelet40", "40", "80.10", "19", "81.70", "15", "79.40"],
        ["lettersix", "617", "91.98", "565", "91.60", "297", "90.64"]])
    claims = claims_of_lines(lines, "journal-caption")
    assert any(c.printed_value == "90.64" and c.dataset_name == "lettersix"
               and c.metric_name == "accuracy" for c in claims), confident(claims)


# --- a group title over a 'Method' label column ----------------------------------------------


@pytest.mark.parametrize("title", ["Comparison of learners", "Learners compared here"])
def test_rows_under_a_method_header_below_a_group_title_are_no_datasets(title: str) -> None:
    lines = [(72, 60, "Self-Scaling Units for Deep Tabular Learners")]
    lines += prose_down("We compare the learners on 40 public datasets and on the QRS3 "
                        "dataset of pulsar candidates.", 72, 80)
    lines += [(72, 110, "Table 1: Comparison of five learners on 40 public datasets. We "
                        "consider the average rank difference to the middle rank.")]
    lines += grid([100], 130, [[title]])
    lines += grid([72, 200, 280], 143, [["Method", "avg. rank diff.", "p-value"],
                                        ["Zelnet", "-6.7", ""], ["KNN-X", "-6.4", "5.8e-01"],
                                        ["Forest-B", "-5.9", "2.1e-01"]])
    lines += [(72, 230, "Table 2: Comparison of the learners at QRS3 in terms of AUC.")]
    lines += grid([72, 200], 250, [["Method", "AUC"], ["Zelnet", "0.981"], ["KNN-X", "0.975"],
                                   ["Forest-B", "0.962"]])
    claims = claims_of_lines(lines, "group-title-method")
    assert any(c.printed_value == "0.981" and c.dataset_name == "QRS3" for c in claims), (
        confident(claims))
    assert not [c for c in claims if c.dataset_name in {"KNN-X", "Forest-B"}], confident(claims)
