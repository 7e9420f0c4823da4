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
    table = Table("Table 1: Click prediction quality on the Klickr Dataset.",
                  [["Model", "AUC", "Log Loss"]],
                  [["LR [3]", "70.12", "0.1411"], ["QNN (ours)", "76.35", "0.1298"]], X3, 560)
    body = prose("We propose QNN. We compare on the Klickr and Bidz datasets.", 72, 680)
    claims = claims_of(render([Page(title="QNN for click prediction", lines=body,
                                    tables=[table])]))
    assert {("Klickr", "auc", "76.35"), ("Klickr", "logloss", "0.1298")} <= found(claims)


def test_a_results_table_with_a_name_column_is_not_a_dataset_table() -> None:
    table = Table("Table 1: Node labelling quality on both graphs, as micro-averaged F1.",
                  [["Name", "Citeweb", "Citeweb", "Forum", "Forum"],
                   ["", "Unsup. F1", "Sup. F1", "Unsup. F1", "Sup. F1"]],
                  [["Random", "0.211", "0.215", "0.047", "0.045"],
                   ["GraphZIP-mean", "0.771", "0.814", "0.889", "0.941"]], X5, 560)
    body = prose("We introduce GraphZIP; our experiments use the Citeweb and Forum datasets.",
                 72, 680)
    claims = claims_of(render([Page(title="GraphZIP: Inductive graphs", lines=body,
                                    tables=[table])]))
    assert at(claims, "0.814") == [("Citeweb", "f1")]
    assert at(claims, "0.941") == [("Forum", "f1")]
    assert not [c for c in claims if "Random" in c.dataset_name or "GraphZIP" in c.dataset_name]


def test_a_caption_defines_the_short_names_of_its_test_set_columns() -> None:
    table = Table("Table 2: BLEU of each system on newstest2031 (T31) and newstest2032 (T32).",
                  [["Model", "T31", "T32"]],
                  [["Baseline [4]", "20.8", "21.6"], ["Ours", "22.1", "23.3"]], X3, 560)
    body = prose("Our system learns from the WMT31 German to English pairs; BLEU scores it.",
                 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "22.1") == [("newstest2031", "bleu")]
    assert at(claims, "23.3") == [("newstest2032", "bleu")]


def test_top_k_columns_without_a_metric_word_are_not_guessed() -> None:
    table = Table("Table 5: Scores on the ZetaNet-2010 test set.",
                  [["Model", "Top-1", "Top-5 (val)"]],
                  [["Conv net [7]", "46.3", "27.4"], ["Conv net + ours", "38.6", "16.2"]],
                  X3, 560)
    body = prose("We study image classification with a new regularizer.", 72, 680)
    pdf = render([Page(title="A Regularizer for Image Classification", lines=body,
                       tables=[table])])
    claims = claims_of(pdf)
    assert not at(claims, "38.6") and not at(claims, "16.2")  # error or accuracy: unknown
    named = Table("Table 5: Error rates measured on the ZetaNet-2010 test set.", table.header,
                  table.rows, X3, 560)
    claims = claims_of(render([Page(lines=body, tables=[named])]))
    assert at(claims, "38.6") == [("ZetaNet-2010", "top1_error")]
    assert at(claims, "16.2") == [("ZetaNet-2010", "top5_error")]


def test_a_language_or_subset_in_the_caption_or_header_narrows_the_dataset() -> None:
    german = Table("Table 2: Entity tagging of German text (TagBank-2003 test set).",
                   [["Model", "F1"]], [["CRF [2]", "73.5"], ["Ours", "77.9"]], X3, 600)
    grains = Table("Table 3: Scores on the Mood Treebank dataset.",
                   [["Model", "Error rate", "Error rate"], ["", "(Binary)", "(Fine-grained)"]],
                   [["SVM [4]", "21.4", "58.7"], ["Ours", "13.1", "50.6"]], X3, 460)
    claims = claims_of(render([Page(lines=prose("We evaluate our tagger.", 72, 700),
                                    tables=[german, grains])]))
    assert at(claims, "77.9") == [("TagBank-2003 German", "f1")]
    assert at(claims, "13.1") == [("Mood Treebank Binary", "error_rate")]
    assert at(claims, "50.6") == [("Mood Treebank Fine-grained", "error_rate")]


def test_own_model_variants_and_training_data_are_never_datasets() -> None:
    table = Table("Table 1: Detection scores on the Pascal-Q 2007 test set.",
                  [["Method", "data", "mAP"]],
                  [["Faster [25]", "trainval", "72.6"], ["BOX300", "05+09", "75.1"],
                   ["BOX512", "05+09+Q", "77.3"]], X3, 560)
    body = prose("We present BOX, a one-pass box detector. The input sizes of BOX300 and "
                 "BOX512 differ. BOX is tested on the Pascal-Q 2007 test set.", 72, 680)
    claims = claims_of(render([Page(title="BOX: Single Shot Boxes", lines=body,
                                    tables=[table])]))
    assert at(claims, "77.3") == [("Pascal-Q 2007", "map")]
    assert not [c for c in claims if c.dataset_name in {"BOX512", "05+09+Q", "trainval"}]


def test_rows_that_name_subsets_of_the_section_dataset_keep_their_subset() -> None:
    table = Table("Table 14: Word error rates of our recogniser for speakers with an accent.",
                  [["Test set", "Old", "Ours"]],
                  [["VoxBank Northern", "16.22", "8.14"], ["VoxBank Coastal", "44.91", "21.73"]],
                  X3, 560)
    body = prose("Speaker accents. Our test data is the VoxBank dataset; Table 14 breaks the "
                 "word error rate of our recogniser down by accent.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert ("VoxBank Coastal", "wer") in at(claims, "21.73")
    assert not [c for c in claims if c.dataset_name == "VoxBank"]


def test_a_column_headed_by_a_placeholder_is_not_read() -> None:
    table = Table("Table 2: Topic labelling of documents, in percent.",
                  [["Method", "-"]], [["BoW [3]", "57.4"], ["Ours", "67.9"]], X3, 560)
    body = prose("Table 2 gives the accuracy reached on the Revs-13 dataset.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert not at(claims, "67.9")
    named = Table(table.caption, [["Method", "Acc."]], table.rows, X3, 560)
    claims = claims_of(render([Page(lines=body, tables=[named])]))
    assert at(claims, "67.9") == [("Revs-13", "accuracy")]


def test_a_sub_table_names_its_dataset_in_the_top_left_cell() -> None:
    left = Table("Table 1: Forecast quality on the Q4, Q3 test sets; the lower the better.",
                 [["Q4", "sMAPE"]],
                 [["Theta [2]", "12.71"], ["Z-BEATS (ours)", "11.52"]], [72.0, 200.0], 560)
    right = Table("", [["Q3", "sMAPE"]],
                  [["Theta [2]", "13.44"], ["Z-BEATS (ours)", "12.05"]], [320.0, 440.0], 560)
    body = prose("We present Z-BEATS. The Q4 and Q3 datasets are our test beds.", 72, 680)
    claims = claims_of(render([Page(title="Z-BEATS: Series Forecasting", lines=body,
                                    tables=[left, right])]))
    assert at(claims, "11.52") == [("Q4", "smape")]
    assert at(claims, "12.05") == [("Q3", "smape")]


def test_rows_printed_in_the_caption_are_subsets_of_its_dataset() -> None:
    table = Table("Table 6. NLL on 32×32 and 64×64 ZetaNet, in bits per dimension.",
                  [["Image size", "NLL Test"]], [["32x32:", "3.91"], ["64x64:", "3.58"]],
                  X3, 560)
    body = prose("Our models generate images of the ZetaNet and Quux-10 datasets; Table 5 "
                 "holds the Quux-10 numbers.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "3.91") == [("ZetaNet 32x32", "nll")]


def test_a_column_the_caption_calls_training_data_is_not_the_dataset() -> None:
    table = Table("Table 6: Rank correlation (Spearman) of the encoder trained on NLX data.",
                  [["Pooling", "NLX", "Simil"]],
                  [["MEAN", "81.35", "86.92"], ["MAX", "78.64", "70.15"]], X3, 560)
    body = prose("Our sentence vectors are scored on the Simil benchmark. The NLX dataset "
                 "holds many labelled pairs.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert not [c for c in claims if c.dataset_name == "NLX"]
    assert at(claims, "86.92") == [("Simil", "spearman_corr")]


def test_a_header_cut_at_a_comma_is_not_a_metric() -> None:
    table = Table("Table 5: Boxes found on ZOCO test-dev.",
                  [["Method", "Avg.", "Precision,", "IoU:"]],
                  [["Fast [6]", "18.9", "34.8", "18.4"], ["Ours", "25.7", "45.1", "26.9"]],
                  X4, 560)
    claims = claims_of(render([Page(lines=prose("We detect objects.", 72, 680),
                                    tables=[table])]))
    assert not at(claims, "45.1")


def test_a_title_that_is_only_a_name_names_the_method() -> None:
    from repro_assets.papers.claims.context import build_context

    body = prose("Fast Z-Net trains detectors much sooner than before. Our evaluation uses "
                 "the Pascal-Q dataset. Fast Z-Net reaches 51.7% mAP with dense boxes alone.",
                 72, 680)
    context = build_context(extract_pages(render([Page(title="Fast Z-Net", lines=body)]), "t"),
                            [])
    assert context.is_own("Fast Z-Net")
    context.add_dataset("Fast Z-Net")  # a table that reads it as a dataset does not make it one
    assert not context.is_dataset("Fast Z-Net")


def test_a_dev_column_keeps_its_split_in_the_dataset() -> None:
    table = Table("Table 11: Word error rate per layer type on the Regular Dev and Noisy Dev "
                  "sets.",
                  [["Model", "Regular Dev", "Noisy Dev"]],
                  [["Gated", "8.91", "14.9"], ["Plain", "7.62", "13.38"]], X3, 560)
    body = prose("Our recogniser is tested on the Regular dataset.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "7.62") == [("Regular Dev", "wer")]


def test_scores_on_a_suite_of_games_with_mean_and_median_columns() -> None:
    summary = Table("Table 1. Mean and median of human-normalized scores on 57 Zork games.",
                    [["Method", "Mean", "Median"]],
                    [["DQN [3]", "118.4%", "45.9%"], ["Q3C (ours)", "611.7%", "109.3%"]],
                    X3, 600)
    games = Table("Table 6: Raw game scores on 57 Zork games.",
                  [["Game", "DQN", "Q3C"]],
                  [["Cave Run", "398.5", "771.3"], ["Star Sail", "1890.0", "22987.0"]],
                  X3, 460)
    body = prose("We present Q3C, an agent that learns from parallel actors.", 72, 680)
    claims = claims_of(render([Page(title="Q3C: Asynchronous Agents", lines=body,
                                    tables=[summary, games])]))
    assert at(claims, "611.7") == [("Zork", "mean_normalized_score")]
    assert at(claims, "109.3") == [("Zork", "median_normalized_score")]
    assert not [c for c in claims if c.source_citation.startswith("Table 6")
                and c.dataset_name == "Zork"]  # rows are games: never the whole suite


def test_a_result_word_then_on_names_the_dataset_of_the_abstract() -> None:
    table = Table("Table 3: Variants of the macro layout of our network.",
                  [["Architecture", "Top-1 Accuracy", "Top-5 Accuracy"]],
                  [["Plain SqueezeBox", "56.9%", "79.8%"], ["SqueezeBox + Bypass", "59.7%",
                                                            "81.6%"]], X3, 560)
    abstract = prose("Abstract. SqueezeBox is as accurate on PixNet as a baseline fifty times "
                     "its size. Our model keeps its accuracy on PixNet. PixNet has 1000 "
                     "classes, and every result below is on PixNet.", 72, 690)
    claims = claims_of(render([Page(title="SqueezeBox: small networks", lines=abstract,
                                    tables=[table])]))
    assert at(claims, "59.7") == [("PixNet", "top1_accuracy")]


def test_a_caption_about_one_time_column_does_not_skip_the_table() -> None:
    table = Table("Table 4: Performance on PixNet; the last column gives the running time.",
                  [["Network", "Top-1 Acc.", "CPU"]],
                  [["ZapNet [4]", "69.8", "121"], ["ZapNet2 (ours)", "71.4", "79"]], X3, 560)
    claims = claims_of(render([Page(lines=prose("We classify images.", 72, 680),
                                    tables=[table])]))
    assert at(claims, "71.4") == [("PixNet", "top1_accuracy")]


def test_an_average_column_is_not_a_dataset() -> None:
    table = Table("Table 1: Spearman rank correlation for the STX tasks.",
                  [["Model", "STX12", "STX13", "Avg."]],
                  [["GloVe [2]", "54.62", "71.03", "62.83"], ["Ours", "73.88", "76.45", "75.17"]],
                  X4, 560)
    body = prose("Our sentence vectors are tested on the STX12 and STX13 datasets.", 72, 680)
    claims = claims_of(render([Page(lines=body, tables=[table])]))
    assert at(claims, "73.88") == [("STX12", "spearman_corr")]
    assert not at(claims, "75.17")  # the average over the datasets is no dataset's result
