"""Claims the precision audit of issue #23 found wrong at a confidence of 0.7 or more, each
reproduced with small PDFs the tests draw in two variants (invented names and numbers).

* a row with no label of whole numbers in parentheses under the headers ('(412) | (87)') gives
  the sizes of the columns' data, not results;
* column headers the caption prints as parts of its one dataset ('Hourly: 1-8, Daily: 1-14'
  on 'the Qorvex test set') are that dataset's parts ('Qorvex Hourly'), not datasets alone;
* a caption comparing runs 'with and without X' prints X as an ablated component: a column
  header 'X' is no dataset;
* an evaluation protocol ('Cross-validation results', 'Leave-one-out results') is no dataset;
* a transposed table whose rows are quantities ('ZQ-12 mAP', 'crops') holds methods in its
  columns, a row naming no metric beside rows that do is a setting, and a metric row's
  values take the row's metric;
* in running text a difference ('another 1.7 AP', '2.2 percentage points higher') is no
  result.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.ambiguity import metric_row, unfixed_row
from repro_assets.papers.claims.context import caption_aliases
from repro_assets.papers.claims.datasets import name_phrases
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render

CONFIDENT = 0.7


def claims_of(pages: list[Page]) -> list[Claim]:
    pdf = render(pages)
    return heuristic_claims(extract_pages(pdf, "audit"), pdf)


def confident(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.confidence >= CONFIDENT]


_SERIES = [
    ("Qorvex", "Hourly", "Daily", ["(412)", "(87)", "(499)"], "1-8", "1-14"),
    ("Brindle-7", "Weekly", "Annual", ["(1,530)", "(246)", "(1,776)"], "1-13", "1-6"),
]


def _series_paper(name: str, first: str, second: str, sizes: list[str], h1: str,
                  h2: str) -> list[Page]:
    table = Table(
        f"Table 3: Mean sMAPE of each forecaster, {name} test set; horizons per "
        f"frequency ({first}: {h1}, {second}: {h2}, Average: {h2}). Smaller is better.",
        [["", first, second, "Average"]],
        [["", *sizes], ["Seasonal naive", "17.41", "9.63", "13.52"],
         ["Drift model", "16.88", "9.12", "13.00"], ["Ours", "15.20", "8.71", "11.96"]],
        [72.0, 230.0, 300.0, 370.0], 560)
    lines = prose(f"Forecasts are scored on the {name} dataset. Table 3 gives every "
                  "method's error.", 72, 700)
    return [Page(title="Forecasting with Stacked Blocks", lines=lines, tables=[table])]


@pytest.mark.parametrize("variant", _SERIES)
def test_a_row_of_sizes_in_parentheses_is_no_result(
        variant: tuple[str, str, str, list[str], str, str]) -> None:
    claims = claims_of(_series_paper(*variant))
    sizes = {s.strip("()") for s in variant[3]}
    assert not [c for c in claims if c.printed_value in sizes]
    assert {c.printed_value for c in claims} >= {"17.41", "9.12", "11.96"}


@pytest.mark.parametrize("variant", _SERIES)
def test_column_parts_printed_in_the_caption_keep_the_caption_dataset(
        variant: tuple[str, str, str, list[str], str, str]) -> None:
    name, first, second = variant[:3]
    claims = {c.printed_value: c for c in confident(claims_of(_series_paper(*variant)))}
    assert claims["17.41"].dataset_name == f"{name} {first}"
    assert claims["8.71"].dataset_name == f"{name} {second}"
    assert not [c for c in claims.values() if c.dataset_name in {first, second}]


@pytest.mark.parametrize(("component", "phrase"), [
    ("LayerDrop", "with and without LayerDrop"),
    ("GateMix", "with or without the GateMix"),
])
def test_a_component_the_caption_ablates_is_no_dataset(component: str, phrase: str) -> None:
    table = Table(
        f"Table 1: WER of stacked recurrent encoders of growing depth on our fitting and "
        f"held-out speech, {phrase}. Each encoder keeps one parameter budget.",
        [["Architecture", "Train", "", "Dev", ""], ["", "Baseline", component, "Baseline",
                                                    component]],
        [["2 RNN", "10.21", "11.48", "13.07", "13.92"],
         ["4 RNN", "9.37", "8.14", "11.26", "10.33"]],
        [72.0, 180.0, 250.0, 330.0, 400.0], 560)
    claims = claims_of([Page(title="Deep Speech at Scale", tables=[table])])
    assert not [c for c in confident(claims) if c.dataset_name == component]


@pytest.mark.parametrize("caption", [
    "Table 2: Cross-validated results (Doe et al., 1999)",
    "Table 4: Leave-one-out results of the two samplers",
])
def test_an_evaluation_protocol_is_no_dataset(caption: str) -> None:
    table = Table(caption, [["Method", "Acc+", "Acc-"]],
                  [["SHRUB", "81.4%", "61.7%"], ["Two-sided pruning", "75.2%", "85.9%"]],
                  [72.0, 250.0, 320.0], 560)
    claims = claims_of([Page(title="Oversampling Minorities", tables=[table])])
    names = {(c.dataset_name or "").lower() for c in claims}
    assert not {n for n in names if n.startswith(("cross", "leave"))}


@pytest.mark.parametrize(("first", "second", "row"), [
    ("Fooplex", "QN", "ZQ-12 mAP"),
    ("Barnet", "KZ", "VX2007 mAP"),
])
def test_a_transposed_table_holds_methods_in_its_columns(first: str, second: str,
                                                         row: str) -> None:
    table = Table(
        f"Table 7. One crop or five. Numbers for {first} {second} (close to model S) come "
        "from [10]. A big network on one crop balances cost and quality best.",
        [["", first, second, "S", "S", "M"]],
        [["crops", "1", "5", "1", "5", "1"],
         [row, "58.3", "59.6", "57.4", "58.8", "61.2"]],
        [72.0, 200.0, 250.0, 300.0, 350.0, 400.0], 560)
    claims = claims_of([Page(title="Fast Region Detectors", tables=[table])])
    assert not [c for c in confident(claims) if c.dataset_name in {first, second}]
    assert not [c for c in claims if c.printed_value in {"1", "5"}]
    assert {c.metric_name for c in claims if c.printed_value == "58.3"} <= {"map"}


@pytest.mark.parametrize(("label", "metric"), [
    ("VX07 mAP", "map"), ("mAP", "map"), ("Test err.", "error_rate"), ("F1-tuned tagger", None),
    ("crops", None), ("Average accuracy", None),
])
def test_a_metric_row_is_a_metric_and_at_most_one_name(label: str, metric: str | None) -> None:
    assert metric_row(label) == metric


def test_a_row_naming_no_metric_beside_metric_rows_is_a_setting() -> None:
    assert unfixed_row(None, "crops", 1)
    assert unfixed_row(None, "Kestrel", 0) is None  # no row names a metric
    assert unfixed_row("map", "crops", 1) is None  # the column names the metric
    assert unfixed_row(None, "VX07 mAP", 1) is None


@pytest.mark.parametrize(("sentence", "difference", "result"), [
    ("Our pipeline yields an AP of 38.4 on the KestrelDet dataset. Swapping in a wider "
     "trunk lifts it another 1.7 AP.", "1.7", "38.4"),
    ("Our tagger reaches an accuracy of 91.3% on the Pollux corpus, and a shallow variant "
     "obtains an accuracy 2.2 percentage points lower on the Pollux corpus.", "2.2", "91.3"),
])
def test_a_difference_in_running_text_is_no_result(sentence: str, difference: str,
                                                   result: str) -> None:
    claims = claims_of([Page(title="A Study of Gains", lines=prose(sentence, 72, 700))])
    values = {c.printed_value for c in claims}
    assert difference not in values
    assert result in values


@pytest.mark.parametrize(("first", "second"), [("(Two-", "Way)"), ("(Five/", "Class)")])
def test_a_parenthesis_wrapped_over_header_lines_is_one_qualifier(first: str,
                                                                  second: str) -> None:
    table = Table("Table 1: Error rates of our encoder compared to other approaches on the "
                  "Quillbank dataset.",
                  [["Model", "Error rate", "Error rate"], ["", first, "(Coarse"],
                   ["", second, "Labels)"]],
                  [["Bag of words", "18.4%", "58.7%"], ["Ours", "15.1%", "54.9%"]],
                  [72.0, 250.0, 340.0], 560)
    claims = claims_of([Page(title="Paragraph Codes", tables=[table])])
    names = {c.dataset_name for c in claims}
    assert names and all(n.count("(") == n.count(")") for n in names)
    assert not [n for n in names if n.split()[-1] in {second, "Labels)"}]


@pytest.mark.parametrize(("text", "names"), [
    ("comparable results (4.48% vs 4.59% error on Q10+, 21.93% vs 22.40% error on Q100+)",
     ["Q10+", "Q100+"]),
    ("a lower error on ZB-7, 13.2% against 14.9% for the baseline", ["ZB-7"]),
])
def test_a_number_after_a_comma_is_no_part_of_a_name(text: str, names: list[str]) -> None:
    assert [n for n, _ in name_phrases(text)] == names


@pytest.mark.parametrize(("caption", "short", "long"), [
    ("SacreBLEU on evalset2030 (Ev30) and eval- set2031 (Ev31) for our decoder.", "ev31",
     "evalset2031"),
    ("Scores on the heldout2019 (H19) and held- out2020 (H20) splits.", "h20", "heldout2020"),
])
def test_a_caption_alias_hyphenated_over_a_line_break_is_joined(caption: str, short: str,
                                                                long: str) -> None:
    assert caption_aliases(caption)[short] == long


@pytest.mark.parametrize(("header", "value"), [("OS", "16"), ("Stride", "32")])
def test_a_column_of_one_repeated_whole_number_is_a_setting(header: str, value: str) -> None:
    table = Table("Table 6: Decoder heads compared on the Quarry-Seg validation set (mIoU).",
                  [["Backbone", header]],
                  [["Lite-A", value], ["Lite-B", value], ["Wide-C", value]],
                  [72.0, 250.0], 560)
    claims = claims_of([Page(title="Light Segmenters", tables=[table])])
    assert not [c for c in claims if c.printed_value == value]
