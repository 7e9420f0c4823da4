"""The claims reader on an invented stand-in for unseen papers (issue #23).

Every paper of :mod:`tests.papers.unseen_papers` is generated here, with invented names and
wording, and carries the truth of each result cell it prints. Whatever the reader finds, no
claim at or above the plan threshold may put a truth cell under another dataset, split or
metric, or turn a number that is no result (a size, a count, a time, a gain) into a claim.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims.ambiguity import (
    caption_calls_method,
    column_residue,
    count_columns,
    data_groups,
    sentence_ambiguous,
    underspecified,
    unfixed_metric,
)
from repro_assets.papers.claims.provenance import SOURCE_CONFIDENCE, WEAK_SOURCES
from repro_assets.papers.pages import extract_pages
from tests.papers import unseen_papers as unseen


@pytest.mark.parametrize("build", unseen.BUILDERS, ids=lambda b: b.__name__)
def test_no_confident_claim_is_wrong_on_an_unseen_paper(build) -> None:
    paper = build()
    result = unseen.score(paper)
    wrong = [w for w in result.wrong if "(>=0.7)" in w]
    assert not wrong, f"{paper.family}: {wrong}"


def test_the_stand_in_prints_every_truth_value_once() -> None:
    for paper in unseen.papers():
        text = " ".join(p.text for p in extract_pages(paper.pdf, paper.name).pages)
        printed = [t.printed for t in paper.truth]
        assert len(printed) == len(set(printed)), paper.name
        assert all(v in text for v in printed), paper.name


def found(name: str) -> unseen.Score:
    build = next(b for b in unseen.BUILDERS if b.__name__ == name)
    return unseen.score(build())


@pytest.mark.parametrize("name", ["caption_only", "wide_comparison", "language_variants",
                                  "dev_test_columns", "non_metric_columns", "transfer_columns"])
def test_families_the_structure_fixes_are_still_read(name: str) -> None:
    score = found(name)
    assert score.found_confident == score.truth


def test_datasets_as_rows_are_read_below_the_plan_threshold() -> None:
    """Rows under a 'Dataset' header are read as datasets; the link is the grid's layout
    (row_header), which failed on unseen papers: every cell is found, none confidently
    (claims.provenance, calibration)."""
    score = found("dataset_rows_method_columns")
    assert score.found == score.truth and score.found_confident == 0


def test_one_benchmark_per_language_keeps_the_language() -> None:
    paper = unseen.language_variants()
    claims = {c.printed_value: c.dataset_name for c in unseen.read(paper)}
    assert claims["79.2"] == "TagCorpus-31 German"
    assert claims["91.4"] == "TagCorpus-31 English"


def test_a_caption_naming_two_datasets_gives_no_cell_a_confident_dataset() -> None:
    # only the caption's order ties the repeated 'P R F1' blocks to its two datasets: a guess
    claims = [c for c in unseen.read(unseen.two_datasets_one_caption())
              if c.printed_value in {"67.1", "76.1", "56.6", "64.1"}]
    assert {c.dataset_source for c in claims} <= {"caption_order"}
    assert all(c.confidence < 0.7 for c in claims)


def test_columns_that_name_no_metric_beside_one_that_does_are_no_results() -> None:
    claims = unseen.read(unseen.non_metric_columns())
    assert sorted(c.printed_value or "" for c in claims) == ["24.3", "25.1", "27.9"]
    claims = unseen.read(unseen.per_class_columns())
    assert sorted(c.printed_value or "" for c in claims) == ["58.3", "62.9"]


def test_task_columns_under_a_caption_naming_their_suite_stay_below_the_threshold() -> None:
    claims = unseen.read(unseen.acronym_task_columns())
    assert claims and {c.dataset_source for c in claims} == {"context_ambiguous"}
    assert all(c.confidence < 0.7 for c in claims)
    assert "context_ambiguous" in WEAK_SOURCES and SOURCE_CONFIDENCE["context_ambiguous"] < 0.7


@pytest.mark.parametrize(("header", "caption", "residue"), [
    ("German F1", "", "German"),
    ("Top-1 err. (%)", "", ""),
    ("Dev", "", ""),
    ("Top 1", "", ""),
    ("Monthly (48k)", "", "Monthly"),
    ("Average (90,000) sMAPE", "", ""),
    ("Image Retrieval R@5", "", ""),
    ("NLX", "Table 3: Correlation of the encoder trained on NLX data.", ""),
    ("Crops", "", "Crops"),
])
def test_column_residue(header: str, caption: str, residue: str) -> None:
    assert column_residue(header, caption) == residue


def test_underspecified_needs_a_table_wide_source_and_differing_headers() -> None:
    siblings = [("f1", "English"), ("f1", "German")]
    assert underspecified("caption", "Tagset", "f1", "German", siblings)
    assert not underspecified("column_header", "Tagset", "f1", "German", siblings)
    assert not underspecified("caption", "Tagset German", "f1", "German", siblings)
    assert not underspecified("caption", "Tagset", "f1", "German", [("f1", "German")])
    assert not underspecified("caption", "Tagset", "f1", "German",
                              [("f1", "German"), ("accuracy", "Speed")])


def test_unfixed_metric_only_beside_a_column_that_names_one() -> None:
    assert unfixed_metric(None, None, False, 1)
    assert unfixed_metric("accuracy", None, False, 1) is None
    assert unfixed_metric(None, "f1", False, 1) is None
    assert unfixed_metric(None, None, True, 1) is None  # a dataset column: caption metric
    assert unfixed_metric(None, None, False, 0) is None


def test_row_groups_that_repeat_the_methods_qualify_a_caption_dataset() -> None:
    claims = {c.printed_value: c for c in unseen.read(unseen.subset_group_rows())}
    assert claims["0.986"].dataset_name == "Drizzle benchmark Daily series"
    assert claims["0.986"].confidence >= 0.7
    untitled = claims["0.468"]  # its title was read into the header: not printed by the row
    assert untitled.dataset_source == "context_ambiguous" and untitled.confidence < 0.7


def test_data_groups_are_groups_that_repeat_the_same_methods() -> None:
    labels = ["Naive", "Ours", "Naive", "Ours"]
    assert data_groups(["", "", "Daily", "Daily"], labels) == {"", "daily"}
    assert data_groups(["Hourly", "Hourly", "Daily", "Daily"], labels) == {"hourly", "daily"}
    assert not data_groups(["Hourly", "Hourly", "Daily", "Daily"], ["A", "B", "C", "D"])
    assert not data_groups(["Existing systems", "Existing systems", "Our systems",
                            "Our systems"], labels)
    assert not data_groups(["Trained on Alder", "Trained on Alder", "", ""], labels)


def test_a_dataset_across_a_clause_turn_is_not_the_number_s() -> None:
    names = {"Alder", "Birch"}
    turn = "On Alder, ours reaches 81.3% accuracy, and on Birch it reaches 76.8%."
    assert sentence_ambiguous(turn, "81.3", "Birch", names)
    assert not sentence_ambiguous(turn, "76.8", "Birch", names)
    assert not sentence_ambiguous("Ours reaches 81.3% on Alder, and 76.8% on Birch.", "81.3",
                                  "Alder", names)
    assert not sentence_ambiguous("On Alder, ours reaches 81.3%, and it is fast.", "81.3",
                                  "Alder", {"Alder"})
    claims = unseen.read(unseen.clause_turn_sentence())
    assert [(c.dataset_name, c.confidence < 0.7) for c in claims
            if c.printed_value == "81.3"] in ([], [("Heronsgate", True)])


def test_a_column_the_caption_calls_a_kind_of_network_is_no_confident_dataset() -> None:
    assert caption_calls_method("Gated", "Table 3: Dev set WER of stacks of Plain or Gated cells.")
    assert caption_calls_method("GRX", "Table 3: WER of networks with either plain RNN or GRX.")
    assert not caption_calls_method("Alder", "Table 2: Accuracy on Alder, Birch and Cedar.")
    assert not caption_calls_method("Birch", "Table 2: Scores of our model on the Birch data.")
    claims = unseen.read(unseen.method_columns_in_caption())
    assert claims and all(c.confidence < 0.7 for c in claims)


def test_whole_number_columns_beside_decimal_results_are_counts() -> None:
    rows = [["Alder", "2", "1,200", "70.6"], ["Birch", "5", "36", "61.5"]]
    assert count_columns(rows, [1, 2, 3]) == {1, 2}
    assert not count_columns([["Alder", "401", "766"], ["Birch", "1976", "23846"]], [1, 2])
    claims = unseen.read(unseen.statistics_beside_method_columns())
    assert sorted(c.printed_value or "" for c in claims) == [
        "61.5", "67.3", "70.6", "76.9", "79.8", "84.9"]
