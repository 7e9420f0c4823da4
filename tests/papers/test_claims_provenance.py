"""Dataset provenance and the precision rule of issue #23 (second pass).

A claim records what named its dataset; a dataset guessed from far away (the text around the
table, the section, the paper's only dataset) stays below the plan threshold, and a cell read
twice with different datasets or metrics gives no claim. Each layout is a generated PDF.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.checks import merge_claims
from repro_assets.papers.claims.models import Evidence
from repro_assets.papers.claims.provenance import SOURCE_CONFIDENCE, WEAK_SOURCES, capped
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.plan_targets import PLAN_MIN_CONFIDENCE
from tests.papers.layouts import Page, Table, prose, render

X3 = [72.0, 250.0, 330.0]


def claims_of(pdf: bytes) -> list[Claim]:
    return heuristic_claims(extract_pages(pdf, "provenance"), pdf)


def at(claims: list[Claim], printed: str) -> list[Claim]:
    return [c for c in claims if c.printed_value == printed]


def test_weak_sources_are_capped_below_the_plan_threshold() -> None:
    assert {"paper", "section", "reference", "nearby_sentence"} <= WEAK_SOURCES
    assert all(SOURCE_CONFIDENCE[s] < PLAN_MIN_CONFIDENCE for s in WEAK_SOURCES)
    assert {"row_label", "column_header", "caption", "sentence"}.isdisjoint(WEAK_SOURCES)
    assert capped(0.9, "section") < PLAN_MIN_CONFIDENCE
    assert capped(0.9, "column_header") == 0.9
    # calibration levels: a grid label the reader took for a dataset, a metric from context
    assert capped(0.9, "row_label") < PLAN_MIN_CONFIDENCE
    assert capped(0.9, "column_cue") < PLAN_MIN_CONFIDENCE
    assert capped(0.9, "column_header", "implied") < PLAN_MIN_CONFIDENCE
    assert capped(0.9, "caption", "caption") == 0.85


@pytest.mark.parametrize(("text", "title", "source"), [
    ("Accuracy. We test on the Plombix dataset; Table 1 lists the accuracy of our model and "
     "the baseline.", None, "reference"),
    ("Abstract. We propose a model for text classification and evaluate it on the Plombix "
     "dataset. Plombix is a hard set. We report Plombix results. 1 Introduction. Text "
     "classification on Plombix is hard.", "A model for text", "paper"),
])
def test_a_dataset_only_the_text_or_the_paper_names_is_not_a_plan_target(
        text: str, title: str | None, source: str) -> None:
    table = Table("Table 1: Accuracy of the compared models.",
                  [["Model", "Accuracy"]],
                  [["Baseline [4]", "81.20"], ["Ours", "84.70"]], X3, 560)
    claims = claims_of(render([Page(lines=prose(text, 72, 680), tables=[table], title=title)]))
    read = at(claims, "84.70")
    assert read and all(c.dataset_name == "Plombix" for c in read)
    assert {c.dataset_source for c in read} == {source}
    assert all(c.confidence < PLAN_MIN_CONFIDENCE for c in read)


def test_a_dataset_column_the_caption_names_stays_a_plan_target() -> None:
    table = Table("Table 2: Accuracy on Plombix and Quarvo.",
                  [["Model", "Plombix", "Quarvo"]],
                  [["Baseline [4]", "81.20", "70.10"], ["Ours", "84.70", "73.30"]],
                  [72.0, 250.0, 330.0, 410.0], 560)
    body = prose("We evaluate on the Plombix and Quarvo datasets (Table 2).", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    read = at(claims, "73.30")
    assert [c.dataset_name for c in read] == ["Quarvo"]
    assert read[0].dataset_source in {"column_header", "column_caption"}
    assert read[0].confidence >= PLAN_MIN_CONFIDENCE


def _claim(dataset: str, metric: str) -> Claim:
    return Claim(dataset_name=dataset, split="test", metric_name=metric, metric_value=0.847,
                 printed_value="84.7", source_citation="Table 1, row 'Ours', column 'A', page 1",
                 confidence=0.9, evidence=Evidence(page=1, quoted_text="Ours 84.7"),
                 extraction_method="table", dataset_source="column_header")


def test_a_cell_read_twice_with_different_datasets_or_metrics_gives_no_claim() -> None:
    merged, _ = merge_claims([_claim("Plombix", "accuracy"), _claim("Quarvo", "accuracy")])
    assert merged == []
    merged, _ = merge_claims([_claim("Plombix", "accuracy"), _claim("Plombix", "f1")])
    assert merged == []
    merged, _ = merge_claims([_claim("Plombix", "accuracy"), _claim("Plombix", "accuracy")])
    assert len(merged) == 1


@pytest.mark.parametrize(("caption", "source"), [
    ("Table 3: Accuracy of the models.", "column_unconfirmed"),
    ("Table 3: Accuracy of the models on three datasets.", "column_cue"),
])
def test_a_column_is_a_confident_dataset_only_with_a_cue(caption: str, source: str) -> None:
    """'Quarvo' sits beside a known dataset column; a cue word ('datasets') in the caption
    makes it a dataset (it could be a method or a setting), but the link is the reader's
    layout decision, not a name the paper presents: below the plan threshold either way
    (claims.provenance, calibration)."""
    table = Table(caption, [["Model", "Plombix", "Quarvo"]],
                  [["Baseline [4]", "81.20", "70.10"], ["Ours", "84.70", "73.30"]],
                  [72.0, 250.0, 330.0, 410.0], 560)
    body = prose("We use the Plombix dataset as in prior work. Table 3 lists the results.", 72,
                 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    [read] = at(claims, "73.30")
    assert (read.dataset_name, read.dataset_source) == ("Quarvo", source)
    assert read.confidence < PLAN_MIN_CONFIDENCE
    [known] = at(claims, "84.70")
    assert known.dataset_source == "column_header" and known.confidence >= PLAN_MIN_CONFIDENCE


_SETTINGS_TABLE = Table("Table 4: Accuracy of the compared settings.",
                        [["Setting", "Accuracy"]],
                        [["Zorb-S", "81.20"], ["Zorb-L", "84.70"]], X3, 560)


@pytest.mark.parametrize(("text", "source"), [
    # the labels are only called 'splits' (a setting, a sub-condition): never a dataset
    ("We compare the Zorb-S split and the Zorb-L split of our model in Table 4.",
     "row_label_unconfirmed"),
    # the same labels, presented as datasets by the body
    ("We evaluate on the Zorb-S dataset and on the Zorb-L dataset in Table 4.", "row_label"),
])
def test_a_row_label_is_a_confident_dataset_only_when_the_paper_presents_it(
        text: str, source: str) -> None:
    """A label column whose names the text mentions is read as datasets (row_label) only when
    the paper presents the names as datasets somewhere (issue #23); a grid label is a layout
    link, below the plan threshold either way (claims.provenance, calibration)."""
    body = prose(text, 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[_SETTINGS_TABLE])]))
    [read] = at(claims, "84.70")
    assert (read.dataset_name, read.dataset_source) == ("Zorb-L", source)
    assert read.confidence < PLAN_MIN_CONFIDENCE


def test_a_row_label_under_a_dataset_header_is_a_layout_link() -> None:
    """A 'Dataset' header over the label column presents its rows as datasets (row_header);
    the link is still the grid's layout (a wrapped block label under such a header was a wrong
    dataset on an unseen set): below the plan threshold."""
    table = Table("Table 5: Accuracy of our model.", [["Dataset", "Accuracy"]],
                  [["Zorb-S", "81.20"], ["Zorb-L", "84.70"]], X3, 560)
    body = prose("We compare the Zorb-S split and the Zorb-L split in Table 5.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    [read] = at(claims, "84.70")
    assert (read.dataset_name, read.dataset_source) == ("Zorb-L", "row_header")
    assert read.confidence < PLAN_MIN_CONFIDENCE
