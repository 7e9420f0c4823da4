"""Issue #16 (debate): consensus needs the full marker set; code is not a citation.

Each test here reproduces a reported defect and failed before the fix.
"""

from __future__ import annotations

from repro_assets.debate.markers import cited_indices, is_consensus, parse_markers


def test_viable_pass_beside_answer_unverified_is_not_consensus() -> None:
    markers = parse_markers(
        "Agreement: AGREE\nViability: VIABLE\nValidation: PASS\nConclusion: fine.\n"
        "Answer: UNVERIFIED\nVerification Reason: the quote was not found.")
    assert not is_consensus(markers)


def test_consensus_needs_agreement_and_conclusion_markers() -> None:
    no_agreement = parse_markers("Viability: VIABLE\nValidation: PASS\nConclusion: ok")
    assert "agreement" in no_agreement.missing and not is_consensus(no_agreement)
    no_conclusion = parse_markers("Agreement: AGREE\nViability: VIABLE\nValidation: PASS")
    assert "conclusion" in no_conclusion.missing and not is_consensus(no_conclusion)
    disagree = parse_markers("Agreement: DISAGREE\nViability: VIABLE\nValidation: PASS\n"
                             "Conclusion: ok")
    assert not is_consensus(disagree)
    # the compact ending alone (no Agreement/Viability/Validation/Conclusion) is not consensus
    compact = parse_markers("Answer: VERIFIED\nVerification Reason: fine")
    assert not is_consensus(compact)
    full = parse_markers("Agreement: AGREE\nViability: VIABLE\nValidation: PASS\n"
                         "Conclusion: ok.\nAnswer: VERIFIED\nVerification Reason: ran it")
    assert full.well_formed and is_consensus(full)


def test_code_blocks_and_indexing_are_not_citations() -> None:
    text = (
        "The ensemble [1] beats the baseline [2].\n\n"
        "```python\nx = [3, 4]\nprint(y[0], scores[5])\n```\n\n"
        "Inline `arr[6]` and a plain index y[7] or f(x)[8] are code too; [2-3] is a range.\n"
        "~~~\nz = [9]\n~~~\n"
    )
    assert cited_indices(text) == [1, 2, 3]


def test_an_unterminated_code_fence_is_still_code() -> None:
    assert cited_indices("Claim [1].\n```python\nx = [2, 3]\n") == [1]
