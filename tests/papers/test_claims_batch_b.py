"""Claims rules from batch B of the invented stand-ins (issue #23, seventh pass), each
reproduced with small PDFs the tests draw in at least two variants.

* a first row label ending in 'k' ('Alderbrook', 'Mixed stack') is no swept parameter
  ('k = 5'): the row stays a body row, not a second header row;
* a 'Valid PPL' / 'Valid. BPC' column header is the validation split;
* a row label that cites a paper or marks the paper's own method ('Gated memory [11]') is a
  method, not a cost row, whatever cost word it holds;
* a caption about 'environments' or 'games' makes name-like column headers the columns'
  datasets; episode returns and rewards are a metric;
* a section heading ('5.2 Results on X') names the data of the tables its section references
  (weakly: below the plan threshold); a heading over a collection ('121 X datasets') does not;
* running text takes the dataset of the nearest previous sentence of its own section that names
  one ('The Y corpus is harder. ... 58.4 on it'), never one across a heading;
* side-by-side panels under one line of sub-captions ('(a) X  (b) Y', above or below) each take
  their own, below the plan threshold unless the paper presents the name as a dataset.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.datasets import graded_name_phrases, split_from
from repro_assets.papers.pages import extract_pages
from tests.papers import unseen_papers as unseen
from tests.papers import unseen_papers_b as batch_b
from tests.papers import unseen_papers_c as batch_c
from tests.papers.layouts import Page, Table, prose, render

CONFIDENT = 0.7


def claims_of(pages: list[Page]) -> list[Claim]:
    pdf = render(pages)
    return heuristic_claims(extract_pages(pdf, "batch_b"), pdf)


def by_value(claims: list[Claim]) -> dict[str, Claim]:
    return {c.printed_value or "": c for c in claims}


@pytest.mark.parametrize("build", batch_b.BUILDERS, ids=lambda b: b.__name__)
def test_no_confident_claim_is_wrong_on_batch_b(build) -> None:
    paper = build()
    result = unseen.score(paper)
    wrong = [w for w in result.wrong if "(>=0.7)" in w]
    assert not wrong, f"{paper.family}: {wrong}"


@pytest.mark.parametrize("build", batch_c.BUILDERS, ids=lambda b: b.__name__)
def test_no_confident_claim_is_wrong_on_batch_c(build) -> None:
    paper = build()
    result = unseen.score(paper)
    wrong = [w for w in result.wrong if "(>=0.7)" in w]
    assert not wrong, f"{paper.family}: {wrong}"


# --- a first row label ending in 'k' ------------------------------------------------------


@pytest.mark.parametrize("first", [["Alderbrook", "71.3", "74.8", "77.5"],
                                   ["Kestrel-5k", "71.3", "74.8", "77.5"]])
def test_a_first_dataset_row_ending_in_k_stays_a_row(first: list[str]) -> None:
    table = Table("Table 4: Test accuracy (%) of the classifiers.",
                  [["Dataset", "kNN", "RidgeTree", "SplitNet"]],
                  [first, ["Quince", "62.1", "66.9", "68.2"], ["Sorrel", "80.4", "83.6", "85.7"]],
                  [72.0, 240.0, 310.0, 380.0], 560)
    body = prose("We propose SplitNet. We use the Quince, Sorrel and "
                 f"{first[0]} datasets.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    assert claims["74.8"].dataset_name == first[0]
    assert claims["77.5"].dataset_name == first[0]


def test_a_first_method_row_ending_in_k_stays_a_row() -> None:
    table = Table("Table 2: Word error rate (%) on the Tamarind-Read test set.",
                  [["Architecture", "WER"]],
                  [["Mixed stack", "12.4"], ["Plain stack", "13.9"], ["Ours", "10.8"]],
                  [72.0, 260.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We decode speech.", 72, 690),
                                      tables=[table])]))
    assert claims["12.4"].dataset_name == "Tamarind-Read"
    assert claims["12.4"].metric_name == "wer"


# --- 'Valid' columns ----------------------------------------------------------------------


@pytest.mark.parametrize(("valid", "test", "values"), [
    ("Valid PPL", "Test PPL", ["37.8", "38.9", "32.4", "33.0"]),
    ("Valid. BPC", "Test BPC", ["1.318", "1.342", "1.207", "1.226"])])
def test_a_valid_column_is_the_validation_split(valid: str, test: str,
                                                values: list[str]) -> None:
    table = Table("Table 7: Results on Thornbury-103.",
                  [["Model", valid, test]],
                  [["Gated conv [6]", *values[:2]], ["Ours", *values[2:]]],
                  [72.0, 250.0, 330.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We model language.", 72, 690),
                                      tables=[table])]))
    assert claims[values[0]].split == "validation"
    assert claims[values[2]].split == "validation"
    assert claims[values[1]].split == "test"


def test_valid_as_an_adjective_is_no_split() -> None:
    assert split_from("Test accuracy, a valid comparison of the readers") == "test"
    assert split_from("Valid PPL") == "validation"


# --- cited rows with a cost word ------------------------------------------------------------


@pytest.mark.parametrize("label", ["Gated memory [11]", "Slot memory (ours)"])
def test_a_cited_method_with_a_cost_word_is_read(label: str) -> None:
    table = Table("Table 3: Results on the Quillmoor-QA test set.",
                  [["Reader", "EM", "F1"]],
                  [["Span pointer [4]", "61.8", "70.2"], [label, "64.0", "72.9"]],
                  [72.0, 230.0, 300.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We read stories.", 72, 690),
                                      tables=[table])]))
    assert claims["64.0"].dataset_name == "Quillmoor-QA"
    assert claims["72.9"].metric_name == "f1"


def test_a_memory_cost_row_is_still_no_result() -> None:
    table = Table("Table 3: Accuracy (%) on the Quillmoor-QA test set.",
                  [["", "Baseline [4]", "Ours"]],
                  [["Accuracy", "61.8", "64.0"], ["Memory (GB)", "11.5", "12.25"]],
                  [72.0, 230.0, 300.0], 560)
    values = by_value(claims_of([Page(lines=prose("We read stories.", 72, 690),
                                      tables=[table])]))
    assert "11.5" not in values and "12.25" not in values


# --- environments and games as columns ------------------------------------------------------


@pytest.mark.parametrize(("caption", "metric"), [
    ("Table 5: Mean episode return on three continuous-control environments.", "return"),
    ("Table 5: Average reward on three arcade games, mean of five seeds.", "return")])
def test_environment_columns_are_the_datasets(caption: str, metric: str) -> None:
    table = Table(caption, [["Agent", "Hopwell", "Stridemark", "Glidewing"]],
                  [["ClipPG [12]", "2.31", "3.40", "1.05"], ["Ours", "2.87", "3.96", "1.44"]],
                  [72.0, 180.0, 280.0, 380.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We train agents.", 72, 690),
                                      tables=[table])]))
    assert claims["2.87"].dataset_name == "Hopwell"
    assert claims["3.96"].dataset_name == "Stridemark"
    assert claims["1.44"].metric_name == metric


# --- a section heading names the data ---------------------------------------------------------


@pytest.mark.parametrize("heading", ["5.2 Results on Quillmoor-QA",
                                     "5 Experiments on the Quillmoor-QA benchmark"])
def test_a_heading_names_the_data_of_its_tables_weakly(heading: str) -> None:
    table = Table("Table 3: Comparison with earlier readers.",
                  [["Reader", "EM", "F1"]],
                  [["Span pointer [4]", "61.8", "70.2"], ["Ours", "67.5", "75.6"]],
                  [72.0, 230.0, 300.0], 560)
    lines = [(72, 700, heading)] + prose("Table 3 compares our reader with an earlier one.",
                                         72, 686)
    claims = by_value(claims_of([Page(lines=lines, tables=[table])]))
    assert "Quillmoor" in claims["67.5"].dataset_name
    assert claims["67.5"].confidence < CONFIDENT


def test_a_heading_over_a_collection_names_no_dataset() -> None:
    lines = ([(72, 700, "4.1 Forty Wrenfield Archive datasets.")]
             + prose("Averaged over them, our model reaches an AUC of 0.812.", 72, 686))
    claims = claims_of([Page(lines=lines)])
    assert not [c for c in claims if c.printed_value == "0.812"]


# --- running text: the nearest sentence of the section -------------------------------------------


def test_the_nearest_sentence_naming_a_dataset_wins() -> None:
    lines = prose("We next turn to the Kestrel-5k benchmark. Our model reaches 71.3% accuracy "
                  "here. The Marrow corpus is harder: its clips are shorter. Our tagger "
                  "obtains an F1 of 58.4 on it.", 72, 700)
    claims = by_value(claims_of([Page(lines=lines)]))
    assert claims["71.3"].dataset_name.startswith("Kestrel-5k")
    assert claims["58.4"].dataset_name == "Marrow"
    assert claims["58.4"].confidence < CONFIDENT


def test_no_dataset_is_taken_across_a_heading() -> None:
    lines = (prose("Abstract. Our parser sets a new best labelled attachment score of 91.7 on "
                   "the Brackwater treebank.", 72, 700)
             + [(72, 660, "6 Low-resource setting")]
             + prose("We next evaluate on the Peatmoss treebank, which is small. Trained on it "
                     "alone, the parser reaches a labelled attachment score of 78.2.", 72, 646))
    claims = by_value(claims_of([Page(lines=lines)]))
    assert "Peatmoss" in claims["78.2"].dataset_name
    assert claims["91.7"].metric_name == "las"


def test_the_article_before_a_name_is_not_the_sentence_start() -> None:
    assert [n for n, _, _ in graded_name_phrases("The Marrow corpus is harder.")] == ["Marrow"]
    assert [n for n, _, _ in graded_name_phrases("These results hold.")] == []


# --- sub-captions per panel -------------------------------------------------------------------


@pytest.mark.parametrize("above", [True, False])
def test_each_panel_takes_its_own_sub_caption(above: bool) -> None:
    top = 600 if not above else 560
    first = Table("(a) Saltmarsh-10", [["Method", "Acc."]],
                  [["Linear [2]", "63.1"], ["Ours", "69.4"]], [72.0, 190.0], top,
                  caption_above=above)
    second = Table("(b) Fenwick-Dialog", [["Method", "Acc."]],
                   [["Linear [2]", "51.6"], ["Ours", "57.0"]], [330.0, 450.0], top,
                   caption_above=above)
    label = (72, 530 if not above else 470, "Table 4: Accuracy (%) of the two panels.")
    claims = by_value(claims_of([Page(lines=[label], tables=[first, second])]))
    assert claims["69.4"].dataset_name == "Saltmarsh-10"
    assert claims["57.0"].dataset_name == "Fenwick-Dialog"
    assert max(c.confidence for c in claims.values()) < CONFIDENT


# --- an ablation under its main table -----------------------------------------------------------


def _main_and_ablation(main_caption: str, same_page: bool) -> list[Page]:
    main = Table(main_caption, [["Method", "Top-1"]],
                 [["ResBlock-50 [9]", "76.2"], ["Ours", "78.9"]], [72.0, 260.0], 640)
    ablation = Table("Table 3: Ablation of the gate components.", [["Variant", "Top-1"]],
                     [["full model", "78.9"], ["w/o gate", "77.1"], ["w/o pooling", "77.8"]],
                     [72.0, 260.0], 520 if same_page else 640)
    body = prose("We add a channel gate to residual blocks.", 72, 700)
    if same_page:
        return [Page(lines=body, tables=[main, ablation])]
    return [Page(lines=body, tables=[main]), Page(tables=[ablation])]


@pytest.mark.parametrize("same_page", [True, False])
def test_an_ablation_takes_the_dataset_of_the_main_table_weakly(same_page: bool) -> None:
    pages = _main_and_ablation(
        "Table 2: Top-1 accuracy (%) on the Hollowgate-1k validation set.", same_page)
    claims = [c for c in claims_of(pages) if c.printed_value in {"77.1", "77.8"}]
    assert {c.dataset_name for c in claims} == {"Hollowgate-1k"}
    assert {c.split for c in claims} == {"validation"}
    assert max(c.confidence for c in claims) < CONFIDENT


def test_an_ablation_under_a_table_of_two_datasets_takes_none() -> None:
    pages = _main_and_ablation(
        "Table 2: Top-1 accuracy (%) on the Hollowgate-1k and Brackenmoor datasets.", True)
    assert not [c for c in claims_of(pages) if c.printed_value in {"77.1", "77.8"}]


# --- two datasets in a caption over a repeated block of metrics ------------------------------


@pytest.mark.parametrize("heads", [["P", "R", "F1"], ["Acc.", "F1"]])
def test_a_repeated_metric_block_takes_the_caption_order_weakly(heads: list[str]) -> None:
    n = len(heads)
    xs = [72.0 + 60.0 * i for i in range(2 * n + 1)]
    xs[1:] = [x + 100 for x in xs[1:]]
    table = Table("Table 6: Scores on the Finchley and Heronsgate datasets.",
                  [["System", *heads, *heads]],
                  [["Rules [2]", *[f"{60 + i}.5" for i in range(2 * n)]],
                   ["Ours", *[f"{70 + i}.5" for i in range(2 * n)]]], xs, 560)
    claims = by_value(claims_of([Page(lines=prose("We extract relations.", 72, 690),
                                      tables=[table])]))
    f1 = [f"{70 + heads.index('F1')}.5", f"{70 + n + heads.index('F1')}.5"]
    assert claims[f1[0]].dataset_name == "Finchley"
    assert claims[f1[1]].dataset_name == "Heronsgate"
    assert max(c.confidence for c in claims.values()) < CONFIDENT


def test_a_header_naming_the_columns_is_no_caption_order() -> None:
    table = Table("Table 6: F1 on the Finchley and Heronsgate datasets.",
                  [["System", "Base", "Large"], ["", "F1", "F1"]],
                  [["Rules [2]", "60.5", "61.5"], ["Ours", "70.5", "71.5"]],
                  [72.0, 200.0, 260.0], 560)
    claims = claims_of([Page(lines=prose("We extract relations.", 72, 690), tables=[table])])
    assert not [c for c in claims if c.dataset_source == "caption_order"]


# --- a second number set against a result ---------------------------------------------------


@pytest.mark.parametrize(("text", "first", "second", "metric"), [
    ("On the Kestrel-5k benchmark our model reaches 71.3% accuracy, while the strongest "
     "baseline stays at 68.9%.", "71.3", "68.9", "accuracy"),
    ("On the Marrow corpus our tagger obtains an F1 of 58.4, against 55.1 for the frame-level "
     "baseline.", "58.4", "55.1", "f1")])
def test_a_number_set_against_a_result_shares_its_metric(text: str, first: str, second: str,
                                                         metric: str) -> None:
    claims = by_value(claims_of([Page(lines=prose(text, 72, 700))]))
    assert claims[second].metric_name == metric
    assert claims[second].dataset_name == claims[first].dataset_name


def test_a_gain_set_against_a_result_is_no_result() -> None:
    text = ("On the Marrow corpus our tagger obtains an F1 of 58.4, against a gain of 3.3 "
            "points for the frame-level baseline.")
    assert "3.3" not in by_value(claims_of([Page(lines=prose(text, 72, 700))]))


# --- batch C families (fixed after batch C was measured) ------------------------------------


@pytest.mark.parametrize("sentence", [
    "For the experiments below we rely on Nettlebed, a corpus of parliament speeches.",
    "We evaluate on Nettlebed, a new benchmark for speech translation."])
def test_an_appositive_presents_the_corpus(sentence: str) -> None:
    assert [n for n, _, cued in graded_name_phrases(sentence) if cued] == ["Nettlebed"]


def test_an_appositive_about_a_network_names_no_dataset() -> None:
    assert graded_name_phrases("We start from ResNet, a deep residual network.") == []


@pytest.mark.parametrize("unit", ["MSE (\u00d710^-2)", "MSE (in thousands)"])
def test_a_scale_in_the_header_is_no_part_of_the_dataset(unit: str) -> None:
    table = Table("Table 6: Forecasting error on the two sensor collections.",
                  [["Model", "Brookfield", "Tarnmoor"], ["", unit, unit]],
                  [["Persistence", "8.41", "12.73"], ["Ours", "5.26", "9.08"]],
                  [72.0, 220.0, 320.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We forecast sensors.", 72, 690),
                                      tables=[table])]))
    assert claims["5.26"].dataset_name == "Brookfield"
    assert claims["9.08"].dataset_name == "Tarnmoor"
    assert claims["9.08"].metric_name == "mse"


@pytest.mark.parametrize("caption", ["Table 7: Exact match on Pebblecombe.",
                                     "Table 7: Readers fine-tuned from Hazelmere, tested on "
                                     "Pebblecombe (EM)."])
def test_a_caption_measuring_on_a_name_gives_it(caption: str) -> None:
    table = Table(caption, [["Model", "EM"]],
                  [["Retriever [6]", "41.3"], ["Ours", "45.8"]], [72.0, 260.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We answer questions.", 72, 690),
                                      tables=[table])]))
    assert claims["45.8"].dataset_name == "Pebblecombe"


@pytest.mark.parametrize(("dev", "test"), [("dev", "test"), ("Validation", "Test set")])
def test_split_rows_give_their_split(dev: str, test: str) -> None:
    table = Table("Table 7: Exact match on the Pebblecombe dataset.",
                  [["Split", "Retriever [6]", "Ours"]],
                  [[dev, "41.3", "45.8"], [test, "40.2", "44.1"]], [72.0, 200.0, 300.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We answer questions.", 72, 690),
                                      tables=[table])]))
    assert claims["45.8"].split == "validation"
    assert claims["44.1"].split == "test"
    assert claims["44.1"].dataset_name == "Pebblecombe"
