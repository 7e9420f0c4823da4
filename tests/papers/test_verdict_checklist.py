"""The offline reproducibility checklist."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate

from repro_assets.papers.grounding import quote_on_page
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.samples import SAMPLE_PAPERS
from repro_assets.papers.verdict import heuristic_verdict, verdict_markdown, verify_paper
from tests.papers.test_claims_samples import sample_pages


def _pdf(paragraphs: list[str]) -> bytes:
    buf = io.BytesIO()
    style = getSampleStyleSheet()["Normal"]
    SimpleDocTemplate(buf, invariant=True).build([Paragraph(p, style) for p in paragraphs])
    return buf.getvalue()


@pytest.mark.parametrize("paper", SAMPLE_PAPERS, ids=lambda p: p.slug)
def test_samples_are_reproducible_with_evidence(paper) -> None:
    pages, _ = sample_pages(paper)
    verdict = verify_paper(pages, llm=None)
    assert verdict.reproducible is True and verdict.missing_elements == []
    assert verdict.method == "heuristic"
    texts = {p.page_no: p.text for p in pages.pages}
    for item in verdict.checklist:
        assert item.present and item.evidence, item.element
        for ev in item.evidence:
            assert quote_on_page(ev.quote, texts[ev.page]), (item.element, ev.quote)
    assert "| dataset | yes |" in verdict_markdown(verdict)


def test_proprietary_vague_paper_is_not_reproducible() -> None:
    data = _pdf([
        "Scaling Customer Churn Models",
        "1 Introduction",
        "We study churn prediction on internal company data that cannot be released.",
        "2 Method",
        "We trained a gradient boosting model for several epochs until it converged.",
        "3 Results",
        "The model achieves 91.2% accuracy on our held-out customers.",
    ])
    verdict = heuristic_verdict(extract_pages(data, "churn"))
    assert verdict.reproducible is False
    assert verdict.missing_elements == ["dataset", "training_config"]
    by_element = {item.element: item for item in verdict.checklist}
    assert "proprietary" in by_element["dataset"].detail
    assert "vague" in by_element["training_config"].detail
    assert by_element["results"].present and by_element["model"].present
    assert verdict.reasoning.startswith("Missing: dataset, training_config.")


def test_theory_paper_misses_results() -> None:
    data = _pdf(["On the Geometry of Loss Surfaces", "1 Introduction",
                 "We prove a bound on the curvature of the loss of linear models.",
                 "Our analysis uses the Iris dataset only as an illustration."])
    verdict = heuristic_verdict(extract_pages(data, "theory"))
    assert verdict.reproducible is False
    assert "results" in verdict.missing_elements


def test_results_printed_only_in_a_table_are_results() -> None:
    """A paper whose results are a table (metric in the caption, no metric sentence) has
    quantitative results; the checklist reads the table when it has the PDF."""
    from tests.papers.layouts import Page, Table, prose, render

    table = Table("Table 2: Results of our models against other methods.",
                  [["Model", "GraphA", "GraphB"]],
                  [["Baseline", "71.2", "64.0"], ["Ours", "78.4", "69.9"]],
                  x=[72, 220, 300], top=560)
    table.caption = "Table 2: Accuracy (%) of our models against other methods."
    lines = prose("We evaluate our model on the GraphA and GraphB datasets. Table 2 compares "
                  "it with the baseline.", 72, 700)
    pdf = render([Page(title="Message Passing for Graphs", lines=lines, tables=[table])])
    pages = extract_pages(pdf, "graphs")
    without = {i.element: i for i in heuristic_verdict(pages).checklist}
    assert not without["results"].present  # no sentence names a metric with a value
    results = {i.element: i for i in heuristic_verdict(pages, pdf).checklist}["results"]
    assert results.present and "grounded result values in tables" in results.detail
    texts = {p.page_no: p.text for p in pages.pages}
    assert results.evidence and all(quote_on_page(e.quote, texts[e.page])
                                    for e in results.evidence)
