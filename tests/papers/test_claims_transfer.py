"""Claims rules that transfer to unseen papers (issue #23, sixth pass), each reproduced with
small PDFs the tests draw in at least two layout variants.

* a significance column ('p-value', 'Significance', 't-stat') beside the results is no result,
  whatever metric the caption names;
* a body row labelled like a label column's heading ('Method | 0.5 | 0.75', 'Models | 1 | 2'):
  a header row read as a body row (thresholds, counts), not results;
* a row named after the paper's own method (or a cited baseline) that the caption also prints
  ('ZNet256* also sees ...') is a method, not a subset of the column's dataset: the
  dataset keeps its name.
"""

from __future__ import annotations

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render


def claims_of(pages: list[Page]) -> list[Claim]:
    pdf = render(pages)
    return heuristic_claims(extract_pages(pdf, "transfer"), pdf)


def printed(claims: list[Claim]) -> set[str]:
    return {c.printed_value or "" for c in claims}


# --- significance columns ----------------------------------------------------------------


def test_a_p_value_column_beside_a_mean_rank_is_no_result() -> None:
    table = Table("Table 3: Mean position of each method when sorted by accuracy on the "
                  "Orvane dataset, over the folds.",
                  [["Method", "avg. rank", "p-value"]],
                  [["Brindle", "9.3", "2.5e-01"], ["Quaver", "9.9", "3.8e-02"],
                   ["Tamsin", "10.7", "4.1e-03"]], [72.0, 240.0, 330.0], 640)
    claims = claims_of([Page(lines=prose("We compare on the Orvane dataset.", 72, 700),
                             tables=[table])])
    assert not printed(claims) & {"2.5e-01", "3.8e-02", "4.1e-03"}


def test_a_significance_column_under_a_caption_metric_is_no_result() -> None:
    table = Table("Table 2: Classifiers ranked by test accuracy (%) on the Pellworth benchmark; "
                  "the last column gives the significance of the difference to ours.",
                  [["Classifier", "Mean rank", "Significance"]],
                  [["Marlow", "4.1", "0.012"], ["Ferris", "3.6", "0.340"],
                   ["Ours", "2.2", ""]], [72.0, 240.0, 320.0], 600, caption_above=True)
    claims = claims_of([Page(tables=[table])])
    assert not printed(claims) & {"0.012", "0.340", "0.34"}


# --- a header row read as a body row -------------------------------------------------------


def test_a_method_row_of_iou_thresholds_is_no_result() -> None:
    table = Table("Table 6: Detection mAP on the Corvale and Tessaly test sets.",
                  [["", "Corvale", "Tessaly", "Tessaly"]],
                  [["Method", "0.5", "0.5", "0.75"], ["Lumen", "63.7", "38.9", "21.6"],
                   ["Lumen+", "65.1", "44.2", "25.3"]], [72.0, 200.0, 270.0, 340.0], 640)
    claims = claims_of([Page(tables=[table])])
    assert "63.7" in printed(claims)
    assert not [c for c in claims if c.printed_value in {"0.5", "0.75"}]


def test_a_models_row_of_counts_is_no_result() -> None:
    table = Table("Table 4: Error rate (%) of the ensembles on Rostrel.",
                  [["", "Rostrel dev", "Rostrel test"]],
                  [["Models", "3", "5"], ["Voting", "12.4", "11.8"],
                   ["Stacking", "10.9", "10.2"]], [72.0, 220.0, 320.0], 600, caption_above=True)
    claims = claims_of([Page(tables=[table])])
    assert {"11.8", "10.2"} <= printed(claims)
    assert not [c for c in claims if c.printed_value in {"3", "5"}]


# --- the paper's own method printed in the caption -----------------------------------------


def _own_method_page(caption: str, above: bool) -> Page:
    lines = prose("Abstract. We present ZNet, a single-shot detector. We evaluate ZNet on the "
                  "Corvale dataset.", 72, 700)
    table = Table(caption, [["Method", "Corvale mAP"]],
                  [["Prior [4]", "70.1"], ["ZNet256", "68.4"], ["ZNet256*", "71.6"]],
                  [72.0, 260.0], 600, caption_above=above)
    return Page(title="ZNet: Single-Shot Detection", lines=lines, tables=[table])


def test_the_own_method_in_the_caption_does_not_narrow_the_dataset() -> None:
    claims = claims_of([_own_method_page(
        "Table 6: Effect of flipped crops. ZNet256* also sees flipped crops while it "
        "learns.", above=False)])
    got = {c.printed_value: c.dataset_name for c in claims if c.source_citation.startswith(
        "Table 6")}
    assert got.get("68.4") == "Corvale" and got.get("71.6") == "Corvale"


def test_own_models_listed_in_a_caption_above_keep_the_dataset_name() -> None:
    claims = claims_of([_own_method_page(
        "Table 6: Our models ZNet256 and ZNet256* against a prior detector.", above=True)])
    names = {c.dataset_name for c in claims if c.printed_value in {"68.4", "71.6"}}
    assert names == {"Corvale"}


# --- columns that run over datasets --------------------------------------------------------


def _dataset_columns_page(headers: list[str], presented: str, above: bool) -> Page:
    lines = prose(f"We evaluate the sentence encoders on {presented}. Each column of Table 3 "
                  "is one evaluation.", 72, 700)
    table = Table("Table 3: Encoder results; all columns report classification accuracy.",
                  [["Encoder", *headers]],
                  [["Plain [3]", "71.2", "74.0", "80.3", "66.1"],
                   ["Ours", "73.9", "76.4", "82.8", "68.0"]],
                  [72.0, 220.0, 280.0, 340.0, 400.0], 640, caption_above=above)
    return Page(lines=lines, tables=[table])


def test_unpresented_columns_beside_presented_datasets_are_read() -> None:
    """The unpresented siblings are read as datasets (column_cue) but, a layout link, stay
    below the plan threshold (claims.provenance); the presented columns stay plan targets."""
    page = _dataset_columns_page(["Alvor", "Brisk", "Cadmo", "Dunlin"],
                                 "the Alvor dataset and the Brisk dataset", above=False)
    claims = claims_of([page])
    got = {c.printed_value: (c.dataset_name, c.confidence) for c in claims}
    assert got["80.3"][0] == "Cadmo" and got["80.3"][1] < 0.7
    assert got["68.0"][0] == "Dunlin" and got["68.0"][1] < 0.7
    assert got["73.9"][0] == "Alvor" and got["73.9"][1] >= 0.7


def test_dataset_columns_with_symbols_under_a_caption_above_are_read() -> None:
    page = _dataset_columns_page(["Alvor (acc)", "Brisk (acc)", "Cadmo (acc)", "Dunlin (acc)"],
                                 "the Alvor and Brisk datasets (see the results on Alvor and "
                                 "on Brisk)", above=True)
    claims = claims_of([page])
    got = {c.printed_value: (c.dataset_name, c.confidence) for c in claims}
    assert got["82.8"][0] == "Cadmo" and got["82.8"][1] < 0.7  # column_cue: a layout link
    assert got["76.4"][0] == "Brisk" and got["76.4"][1] >= 0.7


def test_one_presented_column_does_not_confirm_its_neighbours() -> None:
    page = _dataset_columns_page(["Alvor", "Brisk", "Cadmo", "Dunlin"], "the Alvor dataset",
                                 above=False)
    claims = claims_of([page])
    unconfirmed = [c for c in claims if c.dataset_name in {"Cadmo", "Dunlin"}]
    assert unconfirmed and all(c.confidence < 0.7 for c in unconfirmed)


# --- metric names: bits/dim and nats, absolute and squared errors ---------------------------


def test_a_caption_in_bits_per_dimension_gives_the_nll() -> None:
    table = Table("Table 2: Test set performance of the flow models on Zorbit-32 in bits/dim.",
                  [["Model", "Test"]], [["Plain flow", "3.71"], ["Ours", "3.42"]],
                  [72.0, 260.0], 640)
    claims = claims_of([Page(tables=[table])])
    got = {c.printed_value: (c.dataset_name, c.metric_name) for c in claims}
    assert got["3.42"] == ("Zorbit-32", "nll")


def test_a_sentence_in_nats_gives_the_nll() -> None:
    lines = prose("On the Vellum dataset our sampler obtains 81.37 nats, against 83.02 nats "
                  "for the plain encoder.", 72, 700)
    claims = claims_of([Page(lines=lines)])
    got = {c.printed_value: c.metric_name for c in claims}
    assert got.get("81.37") == "nll"


def test_absolute_and_squared_errors_are_not_error_rates() -> None:
    table = Table("Table 5: Average absolute error and root mean square error of the "
                  "regressors on the Kestrel dataset.",
                  [["Regressor", "Abs. error", "Root mean square error"]],
                  [["Stump boost", "0.58", "0.91"], ["Ours", "0.43", "0.77"]],
                  [72.0, 230.0, 330.0], 640, caption_above=True)
    claims = claims_of([Page(tables=[table])])
    metrics = {c.metric_name for c in claims if c.printed_value in {"0.58", "0.43"}}
    assert "error_rate" not in metrics
    assert {c.metric_name for c in claims if c.printed_value == "0.77"} == {"rmse"}


# --- a sentence naming several datasets ----------------------------------------------------


def _sentence_claims(text: str) -> dict[str, tuple[str | None, float]]:
    claims = claims_of([Page(lines=prose(text, 72, 700))])
    return {c.printed_value or "": (c.dataset_name, c.confidence) for c in claims}


def test_numbers_after_two_datasets_are_not_tied_to_the_nearest() -> None:
    got = _sentence_claims("On the Alvor dataset and the Brisk dataset, our tagger reaches an "
                           "accuracy of 81.2% and an accuracy of 79.1%.")
    assert got and all(confidence < 0.7 for _, confidence in got.values())


def test_numbers_before_two_datasets_respectively_are_not_confident() -> None:
    got = _sentence_claims("Our tagger reaches an accuracy of 81.2% and an accuracy of 79.1% on "
                           "the Alvor dataset and the Brisk dataset respectively.")
    assert got and all(confidence < 0.7 for _, confidence in got.values())


def test_a_number_printed_before_its_own_dataset_stays_confident() -> None:
    got = _sentence_claims("Our tagger reaches an accuracy of 81.2% on the Alvor dataset and an "
                           "accuracy of 79.1% on the Brisk dataset.")
    assert got["81.2"][0] == "Alvor" and got["81.2"][1] >= 0.7
    assert got["79.1"][0] == "Brisk" and got["79.1"][1] >= 0.7


def test_a_number_after_its_own_dataset_in_a_second_clause_stays_confident() -> None:
    got = _sentence_claims("On the Alvor dataset our tagger reaches 81.2% accuracy, and on the "
                           "Brisk dataset it reaches an accuracy of 79.1%.")
    assert got["79.1"][0] == "Brisk" and got["79.1"][1] >= 0.7


# --- method rows under a caption that names a dataset ----------------------------------------


def _method_rows_page(caption: str, own: str) -> Page:
    table = Table(caption, [["Tagger", "Brisk", "Cadmo"]],
                  [["Plain tagger [3]", "71.2", "64.0"], [own, "73.9", "66.4"]],
                  [72.0, 220.0, 290.0], 640)
    lines = prose("Table 2 reports the accuracy. We evaluate on several datasets.", 72, 700)
    return Page(lines=lines, tables=[table])


def test_method_rows_beside_the_own_row_are_no_datasets() -> None:
    claims = claims_of([_method_rows_page(
        "Table 2: Results of the taggers trained on the Alvor dataset.", "Ours")])
    assert not [c for c in claims if c.dataset_name and (
        "Plain" in c.dataset_name or "Ours" in c.dataset_name) and c.confidence >= 0.7]


def test_a_cited_row_beside_a_proposed_method_is_no_dataset() -> None:
    claims = claims_of([_method_rows_page(
        "Table 2: Scores of taggers fitted on the Alvor dataset.", "Proposed tagger")])
    assert not [c for c in claims if c.dataset_name and "Plain" in c.dataset_name]


# --- the training data named in a caption ----------------------------------------------------


def _caption_claims(caption: str) -> dict[str, tuple[str | None, float]]:
    table = Table(caption, [["Tagger", "Accuracy"]], [["Plain tagger [3]", "71.2"],
                                                      ["Ours", "73.9"]], [72.0, 220.0], 640)
    lines = prose("We use the Alvor-7 dataset and the Brisk-9 dataset.", 72, 700)
    claims = claims_of([Page(lines=lines, tables=[table])])
    return {c.printed_value or "": (c.dataset_name, c.confidence) for c in claims}


def test_data_the_models_were_fitted_on_is_not_the_test_data() -> None:
    got = _caption_claims("Table 3: Transfer accuracy: taggers fitted on the Alvor-7 dataset, "
                          "tested on the Brisk-9 set.")
    assert got.get("73.9", (None, 0.0))[0] != "Alvor-7"


def test_training_data_in_parentheses_is_no_dataset() -> None:
    got = _caption_claims("Table 3: Accuracy of the taggers (training data: Alvor-7).")
    assert not [v for v in got.values() if v[0] == "Alvor-7" and v[1] >= 0.7]


def test_the_data_a_caption_turns_to_after_training_is_the_dataset() -> None:
    got = _caption_claims("Table 3: Accuracy of taggers trained on the Alvor-7 dataset and "
                          "evaluated on Brisk-9.")
    assert got["73.9"][0] == "Brisk-9"


# --- datasets as rows, methods as columns with the paper's own among them -------------------


def _rows_of_names(columns: list[str], title: str | None) -> list[Claim]:
    table = Table("Table 5: Accuracy on the Quillon suite.", [["", *columns]],
                  [["Alvor-7", "71.2", "70.0", "73.9"], ["Brisk-9", "61.5", "60.2", "64.8"]],
                  [72.0, 200.0, 260.0, 320.0], 640)
    lines = prose("We compare the classifiers on the Quillon suite.", 72, 700)
    return claims_of([Page(title=title, lines=lines, tables=[table])])


def test_name_rows_beside_an_ours_column_are_datasets_below_the_threshold() -> None:
    claims = _rows_of_names(["kNN", "SVM", "Ours"], None)
    got = {c.printed_value: (c.dataset_name, c.confidence) for c in claims}
    assert got["73.9"][0] == "Alvor-7" and got["64.8"][0] == "Brisk-9"
    assert all(c.confidence < 0.7 for c in claims if c.dataset_name in {"Alvor-7", "Brisk-9"})


def test_name_rows_beside_the_titled_method_column_are_datasets() -> None:
    claims = _rows_of_names(["kNN", "SVM", "Zephyr"], "Zephyr: Fast Tagging")
    got = {c.printed_value: c.dataset_name for c in claims}
    assert got.get("61.5") == "Brisk-9"


# --- IoU thresholds in a header row read as a body row ---------------------------------------


def _threshold_table(caption: str, label: str, thresholds: list[str]) -> list[Claim]:
    table = Table(caption, [["", "Zentra test", "Zentra test", "Zentra test"]],
                  [[label, *thresholds], ["Lumen", "21.9", "39.4", "20.7"],
                   ["Lumen+", "24.6", "43.8", "26.1"]], [72.0, 200.0, 260.0, 320.0], 640)
    lines = prose("We evaluate the detectors on the Zentra dataset.", 72, 700)
    return claims_of([Page(lines=lines, tables=[table])])


def test_iou_thresholds_under_one_header_give_each_column_its_ap() -> None:
    claims = _threshold_table("Table 6: Detection mAP of the detectors.", "Method",
                              ["0.5:0.95", "0.5", "0.75"])
    got = {c.printed_value: c.metric_name for c in claims}
    assert (got["24.6"], got["43.8"], got["26.1"]) == ("ap", "ap50", "ap75")


def test_iou_thresholds_named_in_the_caption_give_each_column_its_ap() -> None:
    claims = _threshold_table("Table 6: Average precision of the detectors at IoU 0.5 and 0.75.",
                              "Methods", ["0.5", "0.75", "0.75"])
    got = {c.printed_value: c.metric_name for c in claims}
    assert got["39.4"] == "ap75" and got["21.9"] == "ap50"


def test_one_threshold_under_every_header_keeps_the_map() -> None:
    table = Table("Table 6: Detection mAP on the Zentra and Quell test sets.",
                  [["", "Zentra", "Quell"]], [["Method", "0.5", "0.5"],
                                              ["Lumen", "63.7", "61.9"]],
                  [72.0, 200.0, 260.0], 640)
    got = {c.printed_value: c.metric_name for c in claims_of([Page(tables=[table])])}
    assert got["63.7"] == "map"
