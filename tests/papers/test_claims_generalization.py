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


def test_a_sub_table_names_its_dataset_in_the_top_left_cell() -> None:
    left = Table("Table 1: Performance on the Q4, Q3 test sets. Lower values are better.",
                 [["Q4", "sMAPE"]],
                 [["Theta [2]", "12.30"], ["Z-BEATS (ours)", "11.13"]], [72.0, 200.0], 560)
    right = Table("", [["Q3", "sMAPE"]],
                  [["Theta [2]", "13.01"], ["Z-BEATS (ours)", "12.37"]], [320.0, 440.0], 560)
    body = prose("We present Z-BEATS. We evaluate on the Q4 and Q3 datasets.", 72, 680)
    claims = claims_of(render([Page(title="Z-BEATS: Series Forecasting", lines=body,
                                    tables=[left, right])]))
    assert at(claims, "11.13") == [("Q4", "smape")]
    assert at(claims, "12.37") == [("Q3", "smape")]


def test_rows_printed_in_the_caption_are_subsets_of_its_dataset() -> None:
    table = Table("Table 6. Negative log-likelihood on 32×32 and 64×64 ZetaNet in bits/dim.",
                  [["Image size", "NLL Test"]], [["32x32:", "3.86"], ["64x64:", "3.63"]],
                  X3, 560)
    body = prose("We model images of the ZetaNet and CIFAR-10 datasets; CIFAR-10 results are "
                 "in Table 5.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "3.86") == [("ZetaNet 32x32", "nll")]


def test_a_column_the_caption_calls_training_data_is_not_the_dataset() -> None:
    table = Table("Table 6: Spearman correlation of our model trained on NLX data.",
                  [["Pooling", "NLX", "Simil"]],
                  [["MEAN", "80.78", "87.44"], ["MAX", "79.07", "69.92"]], X3, 560)
    body = prose("We evaluate sentence embeddings on the Simil benchmark. The NLX dataset "
                 "has 570k sentence pairs.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert not [c for c in claims if c.dataset_name == "NLX"]
    assert at(claims, "87.44") == [("Simil", "spearman_corr")]


def test_a_header_cut_at_a_comma_is_not_a_metric() -> None:
    table = Table("Table 5: ZOCO test-dev detection results.",
                  [["Method", "Avg.", "Precision,", "IoU:"]],
                  [["Fast [6]", "19.7", "35.9", "19.1"], ["Ours", "26.8", "46.5", "27.8"]],
                  X4, 560)
    claims = claims_of(render([Page(lines=prose("We detect objects.", 72, 680),
                                    tables=[table])]))
    assert not at(claims, "46.5")


def test_a_title_that_is_only_a_name_names_the_method() -> None:
    from repro_assets.papers.claims.context import build_context

    body = prose("Fast Z-Net trains a detector nine times faster. We evaluate on the Pascal-Q "
                 "dataset. With dense boxes only, Fast Z-Net reaches 52.9% mAP.", 72, 680)
    context = build_context(extract_pages(render([Page(title="Fast Z-Net", lines=body)]), "t"),
                            [])
    assert context.is_own("Fast Z-Net")
    context.add_dataset("Fast Z-Net")  # a table that reads it as a dataset does not make it one
    assert not context.is_dataset("Fast Z-Net")


def test_a_dev_column_keeps_its_split_in_the_dataset() -> None:
    table = Table("Table 11: WER of the speech system on the Regular Dev and Noisy Dev sets.",
                  [["Model", "Regular Dev", "Noisy Dev"]],
                  [["GRU", "8.54", "14.4"], ["RNN", "7.73", "13.06"]], X3, 560)
    body = prose("We test a speech system on the Regular dataset.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "7.73") == [("Regular Dev", "wer")]


def test_scores_on_a_suite_of_games_with_mean_and_median_columns() -> None:
    summary = Table("Table 1. Mean and median human-normalized scores on 57 Zork games.",
                    [["Method", "Mean", "Median"]],
                    [["DQN [3]", "121.9%", "47.5%"], ["Q3C (ours)", "623.0%", "112.6%"]],
                    X3, 600)
    games = Table("Table 6: Raw scores on 57 Zork games.",
                  [["Game", "DQN", "Q3C"]],
                  [["Cave Run", "401.2", "766.8"], ["Star Sail", "1976.0", "23846.0"]],
                  X3, 460)
    body = prose("We present Q3C, an asynchronous agent.", 72, 680)
    claims = claims_of(render([Page(title="Q3C: Asynchronous Agents", lines=body,
                                    tables=[summary, games])]))
    assert at(claims, "623.0") == [("Zork", "mean_normalized_score")]
    assert at(claims, "112.6") == [("Zork", "median_normalized_score")]
    assert not [c for c in claims if c.source_citation.startswith("Table 6")
                and c.dataset_name == "Zork"]  # rows are games: never the whole suite


def test_a_result_word_then_on_names_the_dataset_of_the_abstract() -> None:
    table = Table("Table 3: Comparing macroarchitecture variants of our network.",
                  [["Architecture", "Top-1 Accuracy", "Top-5 Accuracy"]],
                  [["Vanilla SqueezeBox", "57.5%", "80.3%"], ["SqueezeBox + Bypass", "60.4%",
                                                              "82.5%"]], X3, 560)
    abstract = prose("Abstract. SqueezeBox reaches baseline-level accuracy on PixNet with 50x "
                     "fewer parameters. Our model keeps its accuracy on PixNet. PixNet has "
                     "1000 classes, and every result below is on PixNet.", 72, 690)
    claims = claims_of(render([Page(title="SqueezeBox: small networks", lines=abstract,
                                    tables=[table])]))
    assert at(claims, "60.4") == [("PixNet", "top1_accuracy")]


def test_a_caption_about_one_time_column_does_not_skip_the_table() -> None:
    table = Table("Table 4: Performance on PixNet. In the last column we report running time.",
                  [["Network", "Top-1 Acc.", "CPU"]],
                  [["ZapNet [4]", "70.6", "113"], ["ZapNet2 (ours)", "72.0", "75"]], X3, 560)
    claims = claims_of(render([Page(lines=prose("We classify images.", 72, 680),
                                    tables=[table])]))
    assert at(claims, "72.0") == [("PixNet", "top1_accuracy")]


def test_an_average_column_is_not_a_dataset() -> None:
    table = Table("Table 1: Spearman correlation on the STX tasks.",
                  [["Model", "STX12", "STX13", "Avg."]],
                  [["GloVe [2]", "55.14", "70.66", "62.90"], ["Ours", "74.53", "77.00", "75.77"]],
                  X4, 560)
    body = prose("We embed sentences and test on the STX12 and STX13 datasets.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "74.53") == [("STX12", "spearman_corr")]
    assert not at(claims, "75.77")  # the average over the datasets is no dataset's result
