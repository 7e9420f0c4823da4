"""Papers whose only dataset is named in a 'Dataset' section (issue #23, whole-paper misses).

A paper that presents its data once, as the subject opening a 'Dataset' section ('4.1
Dataset' / 'X contains ...'), and whose results table names no dataset (a caption on a
held-out part, headers of methods and metrics) yielded no claim at all: the name had no dataset
cue, the abstract did not name it, and the table is referenced from another section. The
section presents the name; a table with no other link takes the paper's only presented
dataset (printed twice at least), a context link below the plan threshold. Each case is a
generated PDF in two variants.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, ClaimsError, heuristic_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.plan_targets import PLAN_MIN_CONFIDENCE
from tests.papers.layouts import Page, Table, prose, render

X3 = [72.0, 250.0, 330.0]


def claims_of(page: Page) -> list[Claim]:
    pdf = render([page])
    return heuristic_claims(extract_pages(pdf, "data_section"), pdf)


def _page(heading: list[str], opening: str, metric: str, name: str, datasets_text: str = ""
          ) -> Page:
    lines = [(72.0, 740.0, "Abstract"),
             *prose("We study a gated reader for sequence labelling and compare it with a "
                    "chain baseline.", 72, 726),
             (72.0, 700.0, "4 Experiment Settings"),
             *prose("We evaluate the gated reader against the chain baseline." + datasets_text,
                    72, 686)]
    y = 660.0
    for line in heading:
        lines.append((72.0, y, line))
        y -= 14
    lines += prose(f"{opening} We keep a part of {name} aside for tuning.", 72, y)
    lines += [(72.0, y - 40, "5 Results")]
    lines += prose("Table 1 lists the scores of both readers.", 72, y - 54)
    table = Table(f"Table 1: {metric} of both readers, held-out part.",
                  [["Model", metric]], [["Chain [3]", "71.20"], ["Gated reader", "74.60"]],
                  X3, 420)
    return Page(lines=lines, tables=[table])


VARIANTS = [
    (["4.1 Dataset"], "Quillmark ’09 contains 40,000 annotated sentences from court records.",
     "F1", "Quillmark ’09"),
    (["4.1", "DATASET"], "Vexaline consists of 12,000 labelled letters written by clerks.",
     "Accuracy", "Vexaline"),
]


@pytest.mark.parametrize(("heading", "opening", "metric", "name"), VARIANTS)
def test_a_dataset_only_a_data_section_names_gives_the_table_claims_below_the_threshold(
        heading: list[str], opening: str, metric: str, name: str) -> None:
    claims = claims_of(_page(heading, opening, metric, name))
    [read] = [c for c in claims if c.printed_value == "74.60"]
    assert read.dataset_name == name
    assert read.dataset_source == "sole_dataset"
    assert read.metric_name == metric.lower()
    assert read.confidence < PLAN_MIN_CONFIDENCE


@pytest.mark.parametrize(("heading", "opening", "metric", "name"), VARIANTS)
def test_a_paper_presenting_another_dataset_too_gives_no_such_link(
        heading: list[str], opening: str, metric: str, name: str) -> None:
    """Two datasets presented: the table's is not known, no claim is guessed."""
    page = _page(heading, opening, metric, name, " We also use the Brackwater dataset.")
    try:
        claims = claims_of(page)
    except ClaimsError:
        return
    assert not [c for c in claims if c.printed_value == "74.60"]
