"""Column headers that cannot make a table claim sure (issue #23, precision on real papers).

* A column headed only by lower-case words ('matched', 'clean') names a condition of the data,
  not the data: even when the text presents the word in capitals as what the table is on, a
  claim that takes it as its dataset stays below the plan threshold (0.7).
* Top-k columns whose values contradict their headers (a top-5 error above the top-1 error of
  the same row) are misprinted or mis-aligned: no claim of that row reads its metric at >= 0.7.
"""

from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from repro_assets.papers.claims import Claim, extract_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import extract_tables
from tests.papers.layouts import Page, Table, prose, render

PLAN_THRESHOLD = 0.7


def claims_of(pdf: bytes) -> list[Claim]:
    return extract_claims(extract_pages(pdf, "header-precision"), pdf).claims


def _condition_columns(words: tuple[str, str], name: str) -> bytes:
    """A two-level header 'Accuracy (%)' over two lower-case condition words; the body names
    the dataset and prints the two words in capitals as what the results are on."""
    table = Table("Table 3: Classification accuracy (%) of each model.",
                  [["Models", "Accuracy (%)", ""], ["", words[0], words[1]]],
                  [["Tree encoder [4]", "71.2", "70.8"], ["Ours", "74.6", "73.9"]],
                  [72.0, 250.0, 330.0], 560)
    lines = prose(f"For the {name} benchmark we give results on {words[0].upper()} and "
                  f"{words[1].upper()} in Table 3; the tree encoder trails ours on both.", 72, 700)
    return render([Page(title="Dense Matching Networks", lines=lines, tables=[table])])


@pytest.mark.parametrize(("words", "name"), [
    (("matched", "mismatched"), "QuoraNLI"),
    (("clean", "noisy"), "VoxTalk"),
])
def test_a_lower_case_condition_header_is_no_sure_dataset(words: tuple[str, str],
                                                          name: str) -> None:
    claims = claims_of(_condition_columns(words, name))
    bare = [c for c in claims if c.dataset_name.strip().lower() in words]
    assert bare
    assert all(c.confidence < PLAN_THRESHOLD for c in bare), [
        (c.dataset_name, c.printed_value, c.confidence) for c in bare]


def _top_k_table(head: list[str], rows: list[list[str]], name: str) -> bytes:
    table = Table(f"Table 4: Single-model results on the {name} validation set.",
                  [head], rows, [72.0, 200.0, 280.0, 360.0], 560)
    lines = prose(f"We report single-model results on {name} in Table 4.", 72, 700)
    return render([Page(title="Rethinking Wide Nets", lines=lines, tables=[table])])


_INVERTED = [
    (["Network", "Crops", "Top-5 Error", "Top-1 Error"],
     [["WideNet-A", "10", "24.3%", "7.1%"], ["Ours", "144", "19.2%", "4.6%"]], "ZetaNet 2014"),
    (["Model", "Views", "Top-1 Acc.", "Top-5 Acc."],
     [["DeepNet [3]", "1", "91.4", "72.5"], ["Ours", "10", "93.0", "76.8"]], "PixBank"),
]


@pytest.mark.parametrize(("head", "rows", "name"), _INVERTED)
def test_top_k_values_contradicting_their_headers_are_not_sure(
        head: list[str], rows: list[list[str]], name: str) -> None:
    claims = [c for c in claims_of(_top_k_table(head, rows, name))
              if c.metric_name.startswith("top")]
    assert claims
    assert all(c.confidence < PLAN_THRESHOLD for c in claims), [
        (c.metric_name, c.printed_value, c.confidence) for c in claims]


@pytest.mark.parametrize(("head", "rows", "name"), _INVERTED)
def test_top_k_values_agreeing_with_their_headers_stay_sure(
        head: list[str], rows: list[list[str]], name: str) -> None:
    """The same tables with the headers over the right columns keep their confidence."""
    fixed = [head[0], head[1], head[3], head[2]]
    claims = [c for c in claims_of(_top_k_table(fixed, rows, name))
              if c.metric_name.startswith("top")]
    assert len(claims) == 4
    assert all(c.confidence >= PLAN_THRESHOLD for c in claims), [
        (c.metric_name, c.printed_value, c.confidence) for c in claims]


def _one_value_column(name: str, metric: str, head: str) -> bytes:
    table = Table(f"Table 2: Test {metric} (%) on {name}.",
                  [["Method", head]], [["Logistic baseline [2]", "81.3"], ["Ours", "84.9"]],
                  [72.0, 250.0], 560)
    lines = prose(f"Table 2 lists the test {metric} of each method on {name}.", 72, 700)
    return render([Page(title="Sparse Gates", lines=lines, tables=[table])])


@pytest.mark.parametrize(("name", "metric"), [("the Heliox corpus", "F1"),
                                              ("the Brantwood corpus", "accuracy")])
def test_a_header_less_column_gets_no_sure_metric(name: str, metric: str) -> None:
    """Nothing printed over the column ties the caption's metric to it: below 0.7; the same
    column headed by a word (here a split) keeps the caption's metric at >= 0.7."""
    bare = claims_of(_one_value_column(name, metric, ""))
    headed = claims_of(_one_value_column(name, metric, "Test"))
    assert {c.printed_value for c in bare} == {"81.3", "84.9"}
    assert all(c.confidence < PLAN_THRESHOLD for c in bare)
    assert all(c.confidence >= PLAN_THRESHOLD for c in headed) and len(headed) == 2


def _caption_beside_figure_caption(name: str, label: str) -> bytes:
    """A table's caption wraps; level with its first line, a few word spaces to the right, the
    caption of a figure in the next column starts ('... on the X   Figure 3: ...'), printed
    as one run of text."""
    first = f"Table 6: Removing parts of the model, {name}"
    table = Table(f"{first}      {label} Loss curves of the variants per epoch",
                  [["Variant", "Accuracy (%)"]],
                  [["Full model", "87.2"], ["- gating", "86.1"], ["- residual", "85.4"]],
                  [72.0, 200.0], 560)
    y = 560 - 12 * 4 - 8
    x = 72 + stringWidth(f"{first}      ", "Helvetica", 9)
    lines = [(72, y - 11, "dev set."), (x, y - 11, "for the three runs.")]
    lines += prose(f"Table 6 lists what each removed part costs on {name}.", 72, 700)
    return render([Page(title="Stacked Gates", lines=lines, tables=[table])])


@pytest.mark.parametrize(("name", "label"), [("Voxlane", "Figure 3:"), ("QuirkNLI", "Fig. 4:")])
def test_a_caption_ends_where_the_next_columns_caption_starts(name: str, label: str) -> None:
    pdf = _caption_beside_figure_caption(name, label)
    assert [t.caption for t in extract_tables(pdf)] == [
        f"Table 6: Removing parts of the model, {name} dev set."]
    claims = claims_of(pdf)
    assert {c.dataset_name for c in claims} == {name}


def _method_group_column(group: str, name: str) -> bytes:
    table = Table(f"Table 2: Accuracy (%) on the {name} test set.",
                  [["Model", f"{group} Acc."]],
                  [["Tree encoder [4]", "84.5"], ["Gated reader [5]", "85.6"], ["Ours", "86.9"]],
                  [72.0, 250.0], 560)
    lines = prose(f"Table 2 compares the models on {name}.", 72, 700)
    return render([Page(title="Dense Readers", lines=lines, tables=[table])])


@pytest.mark.parametrize(("group", "name"), [("Pair encoding-based method", "QuorBench"),
                                             ("Pooling (single/ensemble) model", "Heliox")])
def test_a_header_naming_a_kind_of_method_does_not_qualify_the_dataset(group: str,
                                                                       name: str) -> None:
    """'<kind> method Acc.' over the values: the kind is how the rows were built, not a
    part of the caption's data."""
    claims = claims_of(_method_group_column(group, name))
    assert {c.dataset_name for c in claims} == {name}
    assert len(claims) == 3
