"""Confidence by provenance level (issue #23, calibration; see claims.provenance).

A claim reaches the plan threshold only when its dataset and its metric are both printed at
the number (the cell's own header the paper presents as a dataset, the caption or title, the
sentence). A dataset tied by the reader's own layout decision (a label column taken as
datasets, a name-like header under a caption about data) or a metric taken from context (a
sentence citing the table, the paper's topic) keeps the claim below it. Every claim records
both paths and its table's layout. Each case is a generated PDF in two layout variants.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.plan_targets import PLAN_MIN_CONFIDENCE
from tests.papers.layouts import Page, Table, prose, render

X3 = [72.0, 250.0, 330.0]
X4 = [72.0, 220.0, 300.0, 380.0]


def claims_of(page: Page) -> list[Claim]:
    pdf = render([page])
    return heuristic_claims(extract_pages(pdf, "calibration"), pdf)


def cell(claims: list[Claim], printed: str) -> Claim:
    [found] = [c for c in claims if c.printed_value == printed]
    return found


@pytest.mark.parametrize("above", [False, True])
def test_every_claim_records_its_metric_path_and_its_table_layout(above: bool) -> None:
    table = Table("Table 2: Test accuracy of the tagging models.",
                  [["Model", "Wrenfold", "Tarnmoor"]],
                  [["Chain [7]", "81.40", "77.20"], ["Ours", "84.60", "79.90"]], X4, 560,
                  caption_above=above)
    body = prose("We use the Wrenfold dataset and the Tarnmoor dataset. Our tagger reaches an "
                 "accuracy of 85.3% on Wrenfold with a larger vocabulary.", 72, 690)
    claims = claims_of(Page(lines=body, tables=[table]))
    read = cell(claims, "84.60")
    assert (read.dataset_name, read.dataset_source) == ("Wrenfold", "column_header")
    assert (read.metric_source, read.layout) == ("caption", "datasets_as_columns")
    assert read.confidence >= PLAN_MIN_CONFIDENCE  # both links printed at the cell
    said = cell(claims, "85.3")
    assert (said.dataset_source, said.metric_source, said.layout) == ("sentence", "sentence", "")
    assert said.confidence >= PLAN_MIN_CONFIDENCE


@pytest.mark.parametrize("cite", [
    "Table 3 lists the F1 of our parser and of the baseline.",
    "Our parser improves the F1 over the baseline on Wrenfold (Table 3).",
])
def test_a_metric_only_a_citing_sentence_names_stays_below_the_plan_threshold(
        cite: str) -> None:
    """The header and caption print the dataset but no metric; the metric comes from a body
    sentence citing the table: a context link (it was read at 0.75)."""
    table = Table("Table 3: Results of the parsers.", [["Parser", "Wrenfold"]],
                  [["Shift [2]", "88.10"], ["Ours", "90.30"]], X3, 560)
    body = prose("We parse the Wrenfold dataset. " + cite, 72, 690)
    read = cell(claims_of(Page(lines=body, tables=[table])), "90.30")
    assert (read.dataset_name, read.metric_name) == ("Wrenfold", "f1")
    assert read.confidence < PLAN_MIN_CONFIDENCE
    assert read.metric_source == "reference"


@pytest.mark.parametrize(("header", "text"), [
    # a label column whose names the body presents as datasets (no header says so)
    ("Split", "We evaluate on the Larkspur dataset and on the Moorhen dataset in Table 4."),
    # the same under a 'Dataset' header over the label column
    ("Dataset", "We compare our model on two collections in Table 4."),
])
def test_a_dataset_the_grid_layout_ties_stays_below_the_plan_threshold(
        header: str, text: str) -> None:
    """Rows read as datasets are a layout decision of the reader (on unseen papers a method
    column or a wrapped block label was taken for datasets): read, not a plan target (they
    were read at 0.9)."""
    table = Table("Table 4: Accuracy of our model.", [[header, "Accuracy"]],
                  [["Larkspur", "81.20"], ["Moorhen", "84.70"]], X3, 560)
    read = cell(claims_of(Page(lines=prose(text, 72, 680), tables=[table])), "84.70")
    assert read.dataset_name == "Moorhen"
    assert read.confidence < PLAN_MIN_CONFIDENCE
    assert read.dataset_source in {"row_label", "row_header"}
    assert read.layout == "datasets_as_rows"


@pytest.mark.parametrize("caption", [
    "Table 5: Accuracy of the models on three datasets.",
    "Table 5: Accuracy on the evaluation datasets (higher is better).",
])
def test_a_name_like_column_under_a_caption_about_data_stays_below_the_plan_threshold(
        caption: str) -> None:
    """'Quillet' is taken as a dataset only because the caption speaks of datasets and a
    sibling column is one: a layout link (it was read at 0.8); the presented column stays a
    plan target."""
    table = Table(caption, [["Model", "Larkspur", "Quillet"]],
                  [["Base [4]", "81.20", "70.10"], ["Ours", "84.70", "73.30"]], X4, 560)
    body = prose("We use the Larkspur dataset as in prior work. Table 5 lists the results.",
                 72, 680)
    claims = claims_of(Page(lines=body, tables=[table]))
    guessed = cell(claims, "73.30")
    assert (guessed.dataset_name, guessed.dataset_source) == ("Quillet", "column_cue")
    assert guessed.confidence < PLAN_MIN_CONFIDENCE
    known = cell(claims, "84.70")
    assert known.dataset_source == "column_header" and known.confidence >= PLAN_MIN_CONFIDENCE


# --- datasets as rows beside columns that are kinds of one model (R4 miss family) -----------


@pytest.mark.parametrize(("caption", "heads"), [
    ("Table 6: Melody modelling with four kinds of TNets; each entry gives negative "
     "log-likelihoods per note, held-out tunes.",
     ["TNet", "D-TNet", "DO-TNet", "sTNet"]),
    ("Table 6: Negative log-likelihood of three variants of GridNet on the test sequences.",
     ["GridNet", "GridNet-W", "GridNet-D", "Base [3]"]),
])
def test_rows_beside_columns_of_model_kinds_are_the_datasets(
        caption: str, heads: list[str]) -> None:
    """A header-less label column of names beside columns the caption calls kinds of one
    model, one row presented as a dataset: each row is the dataset of its cells (they had no
    dataset at all). A layout link: read below the plan threshold."""
    table = Table(caption, [["", *heads]],
                  [["Brantwood", "3.412", "3.388", "3.301", "3.455"],
                   ["Kelso Airs", "8.214", "8.190", "8.102", "8.266"],
                   ["Farnley", "6.870", "6.861", "6.790", "6.902"]],
                  [72.0, 180.0, 250.0, 320.0, 390.0], 560)
    body = prose("We model melodies from the Farnley dataset and two other collections of "
                 "folk tunes.", 72, 690)
    claims = claims_of(Page(lines=body, tables=[table]))
    kelso, farnley = cell(claims, "8.102"), cell(claims, "6.790")
    assert (kelso.dataset_name, kelso.metric_name) == ("Kelso Airs", "nll")
    assert farnley.dataset_name == "Farnley"
    assert kelso.layout == "datasets_as_rows"
    assert max(kelso.confidence, farnley.confidence) < PLAN_MIN_CONFIDENCE


def test_rows_beside_model_kinds_the_paper_never_presents_as_data_stay_unread() -> None:
    """The same columns over rows that are settings ('Char-Level', 'Word-Level'), none of them
    presented as a dataset: no row is taken for a dataset."""
    table = Table("Table 7: Text modelling with four kinds of TNets, held-out text.",
                  [["", "TNet", "D-TNet", "DO-TNet", "sTNet"]],
                  [["Char-Level", "1.414", "1.409", "1.386", "1.412"],
                   ["Word-Level", "117.7", "112.0", "107.5", "110.0"]],
                  [72.0, 180.0, 250.0, 320.0, 390.0], 560)
    body = prose("We also model text, one character or one word at a time.", 72, 690)
    claims = claims_of(Page(lines=body, tables=[table]))
    assert not [c for c in claims if c.dataset_name in {"Char-Level", "Word-Level"}]


# --- the caption names the data only as what the models were trained on (R4 miss family) ---


@pytest.mark.parametrize(("caption", "metric"), [
    ("Table 3: Test set error (%) of the networks trained on the Pellucid dataset.",
     "error_rate"),
    ("Table 3. Test perplexity (lower is better) of recurrent models trained on the Pellucid "
     "dataset for 20 epochs.", "perplexity"),
])
def test_a_caption_naming_only_the_training_data_gives_its_test_split(
        caption: str, metric: str) -> None:
    """A caption reporting test figures of models trained on one dataset, naming no other
    data, reports that dataset's test split (the cells had no dataset): a context link, below
    the plan threshold."""
    table = Table(caption, [["Model", "Small", "Large"]],
                  [["Plain", "31.40", "28.20"], ["Gated", "29.60", "26.10"]], X4, 560)
    body = prose("Our experiments use the Pellucid dataset and the Marrow dataset, with "
                 "their usual splits.", 72, 690)
    read = cell(claims_of(Page(lines=body, tables=[table])), "26.10")
    assert (read.dataset_name, read.metric_name) == ("Pellucid", metric)
    assert read.confidence < PLAN_MIN_CONFIDENCE
    assert read.dataset_source == "caption_training"


def test_a_caption_naming_training_and_test_data_keeps_the_test_data() -> None:
    table = Table("Table 3: Test error (%) of networks trained on the Marrow dataset and "
                  "tested on the Pellucid dataset.", [["Model", "Small", "Large"]],
                  [["Plain", "31.40", "28.20"], ["Gated", "29.60", "26.10"]], X4, 560)
    body = prose("Our experiments use the Pellucid dataset and the Marrow dataset, with "
                 "their usual splits.", 72, 690)
    read = cell(claims_of(Page(lines=body, tables=[table])), "26.10")
    assert read.dataset_name == "Pellucid" and read.dataset_source != "caption_training"
