"""Results-table layout families, each reproduced with a small generated PDF (issue #13 item 1).

Datasets as columns or rows; a metric named only in a second header row, the caption, a
caption's per-dataset phrase or nowhere (a classification paper); spanning headers; values
with decorations; a table captioned "Figure"; side-by-side sub-tables; row groups; lower is
better; non-result tables; sentence claims; headline marking.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, extract_claims
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import extract_tables
from tests.papers.layouts import Page, Table, prose, render

X4 = [72.0, 250.0, 320.0, 390.0]
X5 = [72.0, 230.0, 290.0, 350.0, 410.0]


def claims_of(pdf: bytes) -> list[Claim]:
    return extract_claims(extract_pages(pdf, "layout"), pdf).claims


def triples(claims: list[Claim], **where: str) -> set[tuple[str, str, str]]:
    """(dataset, metric, printed value) of the table claims matching ``where``."""
    return {(c.dataset_name, c.metric_name, c.printed_value or "") for c in claims
            if c.extraction_method == "table"
            and all(getattr(c, k) == v for k, v in where.items())}


def by_value(claims: list[Claim], printed: str) -> list[Claim]:
    return [c for c in claims if c.printed_value == printed]


def test_datasets_as_columns_metric_implied_by_a_classification_paper() -> None:
    stats = Table("Table 1: Summary statistics for the datasets.",
                  [["Data", "c", "N", "Test"]],
                  [["Reviews-5", "5", "11855", "2210"], ["NewsCat", "4", "12000", "CV"],
                   ["QA-6", "6", "5952", "500"]], X5[:4], 560)
    results = Table("Table 2: Results of our models against other methods.",
                    [["Model", "Reviews-5", "NewsCat", "QA-6"]],
                    [["RAN-small", "45.0", "82.7", "91.2"], ["RAN-large", "48.0", "86.1", "93.6"],
                     ["SVM (Smith et al., 2012)", "40.1", "84.0", "95.0"]], X4, 420)
    body = prose("We evaluate Recurrent Attention Networks (RAN) on the Reviews-5, NewsCat and "
                 "QA-6 datasets. Table 2 lists the results of RAN against other methods.",
                 72, 660)
    pdf = render([Page(title="Recurrent Attention Networks for Document Classification",
                       lines=body, tables=[stats, results])])
    claims = claims_of(pdf)
    assert triples(claims, role="headline") == {
        ("Reviews-5", "accuracy", "48.0"), ("NewsCat", "accuracy", "86.1"),
        ("QA-6", "accuracy", "93.6")}
    assert {c.role for c in by_value(claims, "95.0")} == {"baseline"}
    assert not by_value(claims, "11855") and not by_value(claims, "2210")  # statistics
    assert all(c.metric_value < 1 and c.units == "%" for c in claims
               if c.extraction_method == "table")


def test_datasets_as_rows_with_the_metric_per_row_in_the_caption() -> None:
    table = Table("Table 1: Test set results. The metric varies across tasks - accuracy for "
                  "TextPairs and Polarity-5; F1 for SpanQA.",
                  [["TASK", "PREVIOUS SOTA", "OUR BASELINE", "KAPPA + BASELINE"]],
                  [["SpanQA", "84.4", "81.1", "85.8"], ["TextPairs", "88.6", "88.0",
                                                        "88.7 ± 0.17"],
                   ["Polarity-5", "53.7", "51.4", "54.7 ± 0.5"]], [72, 160, 260, 360], 600)
    body = prose("We introduce KAPPA, a representation learned from a language model.", 72, 680)
    pdf = render([Page(title="KAPPA: Contextual Representations", lines=body, tables=[table])])
    claims = claims_of(pdf)
    assert triples(claims, role="headline") == {
        ("SpanQA", "f1", "85.8"), ("TextPairs", "accuracy", "88.7"),
        ("Polarity-5", "accuracy", "54.7")}
    assert {c.role for c in by_value(claims, "84.4")} == {"baseline"}


def test_metric_in_a_second_header_row_with_caption_abbreviations() -> None:
    table = Table("Table 4: Results on the benchmark (mc = Matthews correlation, acc = "
                  "Accuracy, pc = Pearson correlation).",
                  [["Method", "GramOK", "Senti2", "SimPairs"], ["", "(mc)", "(acc)", "(pc)"]],
                  [["Tagger LSTM [12]", "35.0", "90.2", "55.5"],
                   ["Our transformer (ours)", "45.4", "91.3", "82.0"]], X4, 600)
    pdf = render([Page(lines=prose("We evaluate on the GramOK, Senti2 and SimPairs datasets.",
                                   72, 700), tables=[table])])
    assert triples(claims_of(pdf), role="headline") == {
        ("GramOK", "matthews_corr", "45.4"), ("Senti2", "accuracy", "91.3"),
        ("SimPairs", "pearson_corr", "82.0")}


def test_spanning_header_and_the_dataset_named_only_in_the_abstract() -> None:
    table = Table("Table 1: ROUGE F1 and METEOR scores on the test set.",
                  [["", "", "", "", "", ""], ["", "1", "2", "L", "exact match", "+ stem"]],
                  [["seq2seq baseline", "31.33", "11.81", "28.83", "12.03", "13.20"],
                   ["copy-net", "36.44", "15.66", "33.42", "15.35", "16.65"]],
                  [72, 230, 270, 310, 360, 430], 560,
                  spans=[(0, 1, 3, "ROUGE"), (0, 4, 5, "METEOR")], right=480)
    abstract = prose("Abstract. We apply the copy-net model to the NewsSum summarization "
                     "dataset and improve ROUGE over sequence models on NewsSum. NewsSum "
                     "pairs news articles with summaries; NewsSum has 300k of them.", 72, 700)
    pdf = render([Page(title="Copying for Summarization", lines=abstract, tables=[table])])
    claims = claims_of(pdf)
    assert {("NewsSum", "rouge_1", "36.44"), ("NewsSum", "rouge_2", "15.66"),
            ("NewsSum", "rouge_l", "33.42"), ("NewsSum", "meteor", "15.35"),
            ("NewsSum", "meteor", "16.65")} <= triples(claims)


@pytest.mark.parametrize(("cell", "printed"), [
    ("81.5 (4s)", "81.5"), ("93.2 ± 0.3", "93.2"), ("23.0 (+2.1)", "23.0"),
    ("11.26∗", "11.26"), ("60.8%", "60.8"), ("38.5 (−0.4)", "38.5")])
def test_decorated_cells_give_the_main_number(cell: str, printed: str) -> None:
    table = Table("Table 1: Accuracy (%) on the GraphA dataset.", [["Method", "GraphA"]],
                  [["Prop (ours)", cell], ["Base [3]", "70.0"]], [72, 250], 600)
    claims = claims_of(render([Page(tables=[table])]))
    assert [c.printed_value for c in claims if c.role == "headline"] == [printed]


def test_pair_cells_missing_marks_and_units() -> None:
    table = Table("Table 3: The top-1 and top-5 error rates on the PicNet validation set, "
                  "with single-crop / 10-crop testing.",
                  [["Model", "Params", "top-1", "top-5"]],
                  [["WideNet-121", "8.0M", "25.02 / 23.61", "7.71 / 6.48"],
                   ["WideNet-264", "33.3M", "31.40 / 29.95", "OOM"]], X4, 600)
    claims = claims_of(render([Page(tables=[table])]))
    assert {("PicNet", "top1_error", "31.40"), ("PicNet", "top1_error", "29.95"),
            ("PicNet", "top5_error", "6.48")} <= triples(claims)
    assert not by_value(claims, "8.0") and not by_value(claims, "33.3")  # parameter sizes
    assert all(c.lower_is_better for c in claims if c.extraction_method == "table")


def test_table_captioned_as_a_figure_next_to_a_plot() -> None:
    table = Table("(a) Test errors for the experiments.", [["Dataset", "Model", "ERM", "mix"]],
                  [["", "ResNet-18", "5.6", "4.2"], ["ImgA-10", "WRN-28", "3.8", "2.7"],
                   ["", "DenseNet", "3.7", "2.9"], ["", "ResNet-18", "25.6", "21.1"],
                   ["ImgA-100", "WRN-28", "19.4", "17.5"], ["", "DenseNet", "19.0", "16.8"]],
                  [110, 170, 250, 290], 640, rules=False, right=320)
    lines = [(150, 540, "Figure 3: Test errors for ERM and mix on the image experiments.")]
    lines += prose("We propose mix, a data augmentation. We evaluate on the ImgA-10 and "
                   "ImgA-100 datasets.", 72, 720)
    pdf = render([Page(lines=lines, tables=[table], plots=[(400, 560, 520, 660)])])
    tables = extract_tables(pdf)
    assert [t.kind for t in tables] == ["figure"]
    claims = claims_of(pdf)
    assert ("ImgA-10", "error_rate", "2.7") in triples(claims, role="headline")
    assert ("ImgA-100", "error_rate", "16.8") in triples(claims, role="headline")
    assert not by_value(claims, "15") and not by_value(claims, "20")  # plot ticks


def test_side_by_side_sub_tables_with_dataset_rows() -> None:
    table = Table("Table 4: ERM and mix classification errors on the UCI datasets.",
                  [["Dataset", "ERM", "mix", "Dataset", "ERM", "mix"]],
                  [["Abalone", "74.0", "73.6", "Htru2", "2.0", "2.0"],
                   ["Arcene", "57.6", "48.0", "Iris", "21.3", "17.3"]],
                  [72, 150, 200, 300, 380, 430], 600)
    lines = prose("We propose mix, a simple data augmentation.", 72, 700)
    claims = claims_of(render([Page(lines=lines, tables=[table])]))
    assert {("Abalone", "error_rate", "73.6"), ("Arcene", "error_rate", "48.0"),
            ("Iris", "error_rate", "17.3")} <= triples(claims, role="headline")
    assert {c.role for c in by_value(claims, "74.0")} != {"headline"}


def test_group_rows_and_lower_is_better_headline() -> None:
    table = Table("Table 1: WMT’14 English-German results – perplexity (ppl) and BLEU.",
                  [["System", "Ppl", "BLEU"]],
                  [["Existing systems", "", ""], ["PhraseMT (Buck et al., 2014)", "", "20.7"],
                   ["Our systems", "", ""], ["Base", "10.6", "11.3"],
                   ["Base + attention", "6.1", "20.9 (+9.6)"]], [72, 300, 360], 600)
    claims = claims_of(render([Page(tables=[table])]))
    headline = triples(claims, role="headline")
    assert headline == {("WMT’14 English-German", "perplexity", "6.1"),
                        ("WMT’14 English-German", "bleu", "20.9")}
    assert {c.role for c in by_value(claims, "20.7")} == {"baseline"}
    assert all(c.lower_is_better for c in by_value(claims, "6.1"))


def test_non_result_tables_and_implausible_values_give_no_claims() -> None:
    timing = Table("Table 2: Training time cost comparison (seconds per iteration).",
                   [["", "FastBoost", "SlowBoost"]],
                   [["CreditA", "10.85", "0.28"], ["FlightB", "5.94", "0.22"]], X4[:3], 640)
    results = Table("Table 3: Accuracy on the CreditA dataset.", [["Method", "Year", "Acc."]],
                    [["FastBoost", "2016", "93.5"], ["SlowBoost", "2017", "250.0"]], X4[:3],
                    520)
    pdf = render([Page(tables=[timing, results])])
    claims = claims_of(pdf)
    assert not by_value(claims, "10.85") and not by_value(claims, "2016")
    assert not by_value(claims, "250.0")
    result = extract_claims(extract_pages(pdf, "x"), pdf)
    assert any("250" in r.reason and "range" in r.reason for r in result.rejected)
    assert by_value(claims, "93.5")


@pytest.mark.parametrize(("sentence", "dataset", "metric", "printed"), [
    ("Our model achieves 88.1 accuracy on the FilmPolar dataset.", "FilmPolar", "accuracy",
     "88.1"),
    ("It reaches a BLEU score of 41.8 on the WMT-16 Ro-En test set.", "WMT-16 Ro-En", "bleu",
     "41.8"),
    ("On the PicNet dataset the network has an error rate of 3.57%.", "PicNet", "error_rate",
     "3.57"),
    ("On the SpanQA dataset the reader obtains an F1 of 93.2.", "SpanQA", "f1", "93.2"),
])
def test_sentence_claims_with_or_without_percent(sentence: str, dataset: str, metric: str,
                                                 printed: str) -> None:
    lines = prose(f"We study a new model. {sentence} This improves over prior work by 2.1 "
                  "points.", 72, 700)
    claims = [c for c in claims_of(render([Page(lines=lines)]))
              if c.extraction_method == "sentence"]
    assert [(c.dataset_name, c.metric_name, c.printed_value) for c in claims] == [
        (dataset, metric, printed)]
