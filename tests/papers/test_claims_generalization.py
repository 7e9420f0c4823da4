"""Claims families that failed on papers the reader had never seen (issue #23).

Each test generates its own small PDF: a dataset given by the caption or the text rather than
the cell, table roles (methods as rows, training data, a qualifier under a dataset), metric
names normalized alike by the reader and the evaluation, and under-specified datasets.
"""

from __future__ import annotations

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render

X3 = [72.0, 250.0, 330.0]
X4 = [72.0, 250.0, 320.0, 390.0]
X5 = [72.0, 230.0, 290.0, 350.0, 410.0]


def claims_of(pdf: bytes) -> list[Claim]:
    return heuristic_claims(extract_pages(pdf, "general"), pdf)


def found(claims: list[Claim]) -> set[tuple[str, str, str]]:
    """(dataset, metric, printed value) of the claims."""
    return {(c.dataset_name, c.metric_name, c.printed_value or "") for c in claims}


def at(claims: list[Claim], printed: str) -> list[tuple[str, str]]:
    return [(c.dataset_name, c.metric_name) for c in claims if c.printed_value == printed]


def test_metric_names_share_one_normalization() -> None:
    from repro_assets.papers.claims.metrics import (
        canonical_metric,
        compatible_metrics,
        find_metric_mentions,
    )

    assert canonical_metric("phone_error_rate") == "per"
    assert canonical_metric("Top-1 err.") == "top1_error"
    assert canonical_metric("prec@1") == "precision@1"
    assert canonical_metric("HR@10") == "hr@10"
    assert canonical_metric("test_errors_count") == "test_errors_count"  # not "error"
    assert compatible_metrics("per", "phone_error_rate")
    assert not compatible_metrics("f1", "accuracy")
    names = [m for m, _, _ in find_metric_mentions(
        "HR@10 NDCG@5 MRR R@1 Log Loss PER MOS sMAPE Mean r")]
    assert names == ["hr@10", "ndcg@5", "mrr", "recall@1", "logloss", "per", "mos", "smape",
                     "mean_rank"]


def test_a_capitalised_dataset_noun_in_the_caption_names_the_dataset() -> None:
    table = Table("Table 1: Overall performance on the Klickr Dataset.",
                  [["Model", "AUC", "Log Loss"]],
                  [["LR [3]", "71.48", "0.1334"], ["QNN (ours)", "77.79", "0.1252"]], X3, 560)
    body = prose("We propose QNN. We compare on the Klickr and Bidz datasets.", 72, 680)
    claims = claims_of(render([Page(title="QNN for click prediction", lines=body,
                                    tables=[table])]))
    assert {("Klickr", "auc", "77.79"), ("Klickr", "logloss", "0.1252")} <= found(claims)


def test_a_results_table_with_a_name_column_is_not_a_dataset_table() -> None:
    table = Table("Table 1: Prediction results for the two datasets (micro-averaged F1 "
                  "scores).",
                  [["Name", "Citeweb", "Citeweb", "Forum", "Forum"],
                   ["", "Unsup. F1", "Sup. F1", "Unsup. F1", "Sup. F1"]],
                  [["Random", "0.206", "0.207", "0.043", "0.042"],
                   ["GraphZIP-mean", "0.778", "0.820", "0.897", "0.950"]], X5, 560)
    body = prose("We introduce GraphZIP, and we evaluate on the Citeweb and Forum datasets.",
                 72, 680)
    claims = claims_of(render([Page(title="GraphZIP: Inductive graphs", lines=body,
                                    tables=[table])]))
    assert at(claims, "0.820") == [("Citeweb", "f1")]
    assert at(claims, "0.950") == [("Forum", "f1")]
    assert not [c for c in claims if "Random" in c.dataset_name or "GraphZIP" in c.dataset_name]


def test_a_caption_defines_the_short_names_of_its_test_set_columns() -> None:
    table = Table("Table 2: BLEU on newstest2031 (T31) and newstest2032 (T32) for our "
                  "translation model.",
                  [["Model", "T31", "T32"]],
                  [["Baseline [4]", "21.7", "22.9"], ["Ours", "22.4", "23.7"]], X3, 560)
    body = prose("We train on the WMT31 English-German data and report BLEU.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "22.4") == [("newstest2031", "bleu")]
    assert at(claims, "23.7") == [("newstest2032", "bleu")]


def test_top_k_columns_without_a_metric_word_are_not_guessed() -> None:
    table = Table("Table 5: Results on the ZetaNet-2010 test set.",
                  [["Model", "Top-1", "Top-5 (val)"]],
                  [["Conv net [7]", "47.1", "28.2"], ["Conv net + ours", "37.5", "17.0"]],
                  X3, 560)
    body = prose("We study image classification with a new regularizer.", 72, 680)
    pdf = render([Page(title="A Regularizer for Image Classification", lines=body,
                       tables=[table])])
    claims = claims_of(pdf)
    assert not at(claims, "37.5") and not at(claims, "17.0")  # error or accuracy: unknown
    named = Table("Table 5: Error rates on the ZetaNet-2010 test set.", table.header,
                  table.rows, X3, 560)
    claims = claims_of(render([Page(lines=body, tables=[named])]))
    assert at(claims, "37.5") == [("ZetaNet-2010", "top1_error")]
    assert at(claims, "17.0") == [("ZetaNet-2010", "top5_error")]


def test_a_language_or_subset_in_the_caption_or_header_narrows_the_dataset() -> None:
    german = Table("Table 2: German NER results (TagBank-2003 test set).",
                   [["Model", "F1"]], [["CRF [2]", "74.1"], ["Ours", "78.8"]], X3, 600)
    grains = Table("Table 3: Results on the Mood Treebank dataset.",
                   [["Model", "Error rate", "Error rate"], ["", "(Binary)", "(Fine-grained)"]],
                   [["SVM [4]", "20.6", "59.3"], ["Ours", "12.2", "51.3"]], X3, 460)
    claims = claims_of(render([Page(lines=prose("We evaluate our tagger.", 72, 700),
                                    tables=[german, grains])]))
    assert at(claims, "78.8") == [("TagBank-2003 German", "f1")]
    assert at(claims, "12.2") == [("Mood Treebank Binary", "error_rate")]
    assert at(claims, "51.3") == [("Mood Treebank Fine-grained", "error_rate")]


def test_own_model_variants_and_training_data_are_never_datasets() -> None:
    table = Table("Table 1: Results on the Pascal-Q 2007 test set.",
                  [["Method", "data", "mAP"]],
                  [["Faster [25]", "trainval", "73.2"], ["BOX300", "07+12", "74.3"],
                   ["BOX512", "07+12+Q", "76.8"]], X3, 560)
    body = prose("We present BOX, a single-shot detector. BOX300 and BOX512 differ in input "
                 "size. We evaluate BOX on the Pascal-Q 2007 test set.", 72, 680)
    claims = claims_of(render([Page(title="BOX: Single Shot Boxes", lines=body,
                                    tables=[table])]))
    assert at(claims, "76.8") == [("Pascal-Q 2007", "map")]
    assert not [c for c in claims if c.dataset_name in {"BOX512", "07+12+Q", "trainval"}]


def test_rows_that_name_subsets_of_the_section_dataset_keep_their_subset() -> None:
    table = Table("Table 14: Comparing WER of our system on accented speech.",
                  [["Test set", "Old", "Ours"]],
                  [["VoxBank American", "15.01", "7.55"], ["VoxBank Indian", "45.35", "22.44"]],
                  X3, 560)
    body = prose("Accented speech. We test on the VoxBank dataset; Table 14 lists the word "
                 "error rate of our system per accent.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert ("VoxBank Indian", "wer") in at(claims, "22.44")
    assert not [c for c in claims if c.dataset_name == "VoxBank"]


def test_a_column_headed_by_a_placeholder_is_not_read() -> None:
    table = Table("Table 2: Document classification, in percentage.",
                  [["Method", "-"]], [["BoW [3]", "58.0"], ["Ours", "68.2"]], X3, 560)
    body = prose("Table 2 lists the accuracy on the Revs-13 dataset.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert not at(claims, "68.2")
    named = Table(table.caption, [["Method", "Acc."]], table.rows, X3, 560)
    claims = claims_of(render([Page(lines=body, tables=[named])]))
    assert at(claims, "68.2") == [("Revs-13", "accuracy")]
