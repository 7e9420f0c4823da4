"""Marker parsing, the viability gate and citation checks (pure functions)."""

from __future__ import annotations

from repro_assets.debate.evidence import build_turn_query
from repro_assets.debate.markers import (
    check_citations,
    cited_indices,
    is_consensus,
    parse_markers,
)

FULL = """Position: fine [1].

References (APA 7)
- Doe, J. (2020). Title. [9]

**Agreement:** AGREE
- Viability: not viable
Validation: n/a
Conclusion: More work is needed.
"""


def test_parse_all_markers_with_markdown_and_spelling_variants() -> None:
    markers = parse_markers(FULL)
    assert markers.agreement == "AGREE"
    assert markers.viability == "NOT_VIABLE"
    assert markers.validation == "N/A"
    assert markers.conclusion == "More work is needed."
    assert markers.well_formed


def test_last_marker_wins_and_bad_values_are_reported() -> None:
    markers = parse_markers("Viability: VIABLE\nViability: maybe\nValidation: PASS\n")
    assert markers.viability == "VIABLE"
    assert markers.invalid == ["viability: maybe"]
    assert markers.missing == ["agreement", "conclusion"]
    assert not markers.well_formed


def test_missing_viability_is_not_viable() -> None:
    markers = parse_markers("Agreement: AGREE\nValidation: PASS\nConclusion: ok")
    assert "viability" in markers.missing
    assert not is_consensus(markers)


def test_viability_gate() -> None:
    ok = parse_markers("Agreement: AGREE\nViability: VIABLE\nValidation: PASS\nConclusion: x")
    assert is_consensus(ok)
    failed = parse_markers("Viability: VIABLE\nValidation: FAIL")
    assert not is_consensus(failed)
    # the compact verdict is parsed, but never replaces the required lines
    compact = parse_markers("Agreement: AGREE\nAnswer: VERIFIED\nVerification Reason: tests ok\n"
                            "Conclusion: good")
    assert compact.verification_reason == "tests ok"
    assert compact.missing == ["viability", "validation"] and not is_consensus(compact)
    contradicted = parse_markers("Viability: NOT_VIABLE\nAnswer: VERIFIED")
    assert not is_consensus(contradicted)


def test_citations_lists_ranges_and_references_section_ignored() -> None:
    assert cited_indices("a [1] b [2, 4] c [6-8] d [3;5]") == [1, 2, 3, 4, 5, 6, 7, 8]
    assert cited_indices(FULL) == [1]  # the [9] inside References is not an inline citation
    valid, invalid = check_citations("x [1] y [7] z [0]", available=6)
    assert valid == [1] and invalid == [0, 7]


def test_turn_query_uses_question_and_previous_conclusion() -> None:
    first = build_turn_query("How to test DL models?", None, None)
    assert first == "How to test DL models?"
    markers = parse_markers("Conclusion: Metamorphic testing [2] is the key.")
    query = build_turn_query("How to test DL models?", "long text", markers)
    assert query == "How to test DL models? Metamorphic testing is the key."
    fallback = build_turn_query("Q?", "Position: use ```python\nx=1\n``` mutation [1].\n"
                                "Agreement: AGREE", None)
    assert fallback == "Q? Position: use mutation ."


def test_offline_digest_quotes_the_whole_sentence_closest_to_the_question() -> None:
    from repro_assets.debate.relevance import best_sentences
    from repro_assets.storage.embedder import get_embedder

    content = ("A title\nWe study fish. Deep learning forecasts of ecological collapse are "
               "tested against decisions. Code for conservation decisions is at https://x.org/d.")
    [match] = best_sentences(get_embedder(), "testing deep learning ecological forecasts",
                             [(content, "A title")])
    assert match is not None and match.sentence == (
        "Deep learning forecasts of ecological collapse are tested against decisions.")
