"""Offline claim extraction on the generated sample papers: every printed table cell is found
with the right value, page and quote, and nothing ungrounded passes."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from repro_assets.papers.claims import (
    Candidate,
    ClaimsError,
    extract_claims,
    ground_candidates,
    page_texts,
    resolve_metric,
)
from repro_assets.papers.grounding import check_grounding, value_in_text
from repro_assets.papers.models import PaperPages
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.registry import resolve_alias
from repro_assets.papers.samples import SAMPLE_PAPERS, SamplePaper, render_pdf, write_samples

REPO_SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples" / "papers"


def sample_pages(paper: SamplePaper) -> tuple[PaperPages, bytes]:
    """The sample's PDF bytes and its pages as the ingest stage extracts them."""
    data = render_pdf(paper)
    return extract_pages(data, paper.slug), data


def test_samples_are_deterministic_and_small(tmp_path: Path) -> None:
    paths = write_samples(tmp_path)
    assert [p.name for p in paths] == [f"{s.slug}.pdf" for s in SAMPLE_PAPERS]
    for path in paths:
        assert path.read_bytes() == render_pdf(next(s for s in SAMPLE_PAPERS
                                                     if path.stem == s.slug))
        assert path.stat().st_size < 100_000
        committed = REPO_SAMPLES / path.name
        if committed.exists():
            assert committed.read_bytes() == path.read_bytes(), "regenerate the samples"
        with pymupdf.open(path) as doc:
            assert 1 <= doc.page_count <= 3


@pytest.mark.parametrize("paper", SAMPLE_PAPERS, ids=lambda p: p.slug)
def test_every_table_cell_is_a_grounded_claim(paper: SamplePaper) -> None:
    pages, data = sample_pages(paper)
    result = extract_claims(pages, data)
    assert result.method == "heuristic"
    assert result.tables_found == 1
    table_claims = [c for c in result.claims if c.extraction_method == "table"]
    expected = {
        (label, resolve_alias(dataset), metric, round(float(value) / 100, 6))
        for label, dataset, metric, value in paper.table.cells
    }
    # datasets are claimed as printed ("Breast Cancer"); the registry resolves them later
    found = {(c.method_snippet, resolve_alias(c.dataset_name), c.metric_name,
              round(c.metric_value, 6)) for c in table_claims}
    assert found == expected
    texts = page_texts(pages)
    table_page = next(n for n, t in texts.items() if paper.table.caption[:20] in t)
    for claim in result.claims:
        assert check_grounding(claim.metric_value, claim.evidence.quoted_text,
                               claim.evidence.page, texts) is None
        assert claim.units == "%"
        assert 0.5 <= claim.confidence <= 1.0
        assert claim.source_citation
    for claim in table_claims:
        assert claim.evidence.page == table_page
        assert claim.evidence.quoted_text.startswith(claim.method_snippet or "")
        assert f"Table {paper.table.caption.split()[1].rstrip(':')}" in claim.source_citation


def test_headline_sentence_claim_is_found() -> None:
    paper = SAMPLE_PAPERS[0]
    pages, _ = sample_pages(paper)
    result = extract_claims(pages, None)  # sentences only
    claim = next(c for c in result.claims if resolve_alias(c.dataset_name) == "breast_cancer"
                 and c.metric_name == "accuracy" and abs(c.metric_value - 0.965) < 1e-9)
    assert "achieves 96.5% accuracy on the Breast Cancer Wisconsin dataset" in (
        claim.evidence.quoted_text)
    assert claim.evidence.page == 1
    assert claim.extraction_method == "sentence"
    # "97.2% accuracy on the Wine dataset" in the same sentence goes to Wine, not Breast Cancer
    wine = [c for c in result.claims if abs(c.metric_value - 0.972) < 1e-9
            and c.evidence.quoted_text == claim.evidence.quoted_text]
    assert [resolve_alias(c.dataset_name) for c in wine] == ["wine"]
    # percentages of data splits are not metrics
    assert not any(abs(c.metric_value - 0.8) < 1e-9 for c in result.claims)


def test_ungrounded_candidates_are_rejected_with_reasons() -> None:
    pages, _ = sample_pages(SAMPLE_PAPERS[1])
    texts = page_texts(pages)
    base = dict(dataset_name="digits", split="test", metric_name="accuracy", units="%",
                method_snippet="MLP", source_citation="Table 2, page 1", confidence=0.9,
                source="llm")
    candidates = [
        Candidate(**base, metric_value=0.983, page=1, quoted_text="MLP-64 (ours) 98.3 98.3"),
        Candidate(**base, metric_value=0.991, page=1, quoted_text="MLP-64 (ours) 98.3 98.3"),
        Candidate(**base, metric_value=0.991, page=1, quoted_text="The MLP reaches 99.1%."),
        Candidate(**base, metric_value=0.983, page=2, quoted_text="MLP-64 (ours) 98.3 98.3"),
        Candidate(**{**base, "confidence": 0.3}, metric_value=0.983, page=1,
                  quoted_text="MLP-64 (ours) 98.3 98.3"),
        Candidate(**{**base, "dataset_name": None}, metric_value=0.983, page=1,
                  quoted_text="MLP-64 (ours) 98.3 98.3"),
    ]
    claims, rejected = ground_candidates(candidates, texts)
    assert len(claims) == 1 and claims[0].metric_value == 0.983
    reasons = [r.reason for r in rejected]
    assert reasons[0] == "value 0.991 is not printed in the quote"
    assert reasons[1] == "quote does not appear on page 1"
    assert reasons[2] == "quote is not on page 2 (found on page 1)"
    assert reasons[3].startswith("confidence 0.30")
    assert reasons[4] == "no dataset could be identified"


def test_a_paper_without_results_fails_with_no_output() -> None:
    pages = PaperPages(paper_id="x", title="t", pages=[
        {"page_no": 1, "text": "We discuss theory.\nNo experiments are reported.",
         "has_text_layer": True}])
    with pytest.raises(ClaimsError) as info:
        extract_claims(pages, None)
    assert info.value.code == "E_EXTRACT_NO_OUTPUT"


@pytest.mark.parametrize(
    ("value", "text", "form"),
    [(0.881, "achieves 88.1% accuracy", "88.1"), (0.881, "acc 0.881", "0.881"),
     (0.881, "acc .881", ".881"), (0.881, "88 1\n.", "88.1"), (1.0, "100.0", "100.0"),
     (0.881, "188.15", None), (0.881, "88.15", None), (1.0, "used 1 GPU", None)],
)
def test_printed_forms(value: float, text: str, form: str | None) -> None:
    assert value_in_text(value, text) == form


def test_metric_aliases() -> None:
    assert resolve_metric("Acc.") == "accuracy"
    assert resolve_metric("macro-F1") == "f1"
    assert resolve_metric("Iris F1") == "f1"
    assert resolve_metric("AUROC") == "auc"
    assert resolve_metric("Model") is None
