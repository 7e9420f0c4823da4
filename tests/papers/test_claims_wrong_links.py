"""Claims on the wrong dataset or metric, by structural family (issue #23, precision 4).

Each family is a structural reason a cell was read under another dataset or metric than the
one it reports; the tests draw small PDFs with PyMuPDF, in two variants at least each, with
invented names and numbers:

* a caption's legend glossing the codes of the table ('A+B+Q: A+B plus QORV segmentation
  labels') gave its training-data name as the dataset of every cell at 0.85, while the
  caption's own 'results on ZETA 2031 test' was not read (the split word closed no name);
* a metric the sentence citing the table gives one dataset ('the AUC achieved on the zelda
  dataset ... (see Table 3)') was given to every row of the table (it is that row's);
* two settings numbered 'r1 | R2', repeated under each dataset of a grouped header, read 'R2'
  as the coefficient of determination at 0.9 (a series was only three numbers or more);
* 'X% accuracy on Velmo and Y% on Kiru' read the next value into the name ('Velmo and 62');
* a column header naming the data the models were trained on ('Train: Velmo',
  'Velmo-pretrained') was read as the dataset of its cells at 0.85, under a caption naming
  the data they were tested on;
* a caption naming the table's dataset and, in a later clause, a second one ('The last two
  columns report Kiru'; 'Kiru results of models selected on the Velmo dev set') gave the first
  (or the one named as a set) to every cell at 0.85: two readings, no sure one;
* column headers naming datasets ('Velmo | Kiru', '+Velmo') under a caption giving the cells
  another one ('Accuracy on Tarn of models trained on the set in each column', 'Tarn accuracy
  by pre-training corpus') were each column's dataset at 0.85: the header may name training
  data as well as test data.
"""

from __future__ import annotations

import pytest

from repro_assets.papers.claims import Claim
from repro_assets.papers.claims.datasets import training_header, without_legend
from tests.papers.layouts import grid, prose_down
from tests.papers.test_claims_r3_families import CONFIDENT, claims_of_lines, confident

# --- a caption legend glossing a code with a training-data name -----------------------------


@pytest.mark.parametrize(("caption", "text", "legend_name", "test_name"), [
    ("Table 1: Detection results on ZETA 2031 test. Legend: A+B: A trainval + B trainval, "
     "A+B+Q: A+B plus QORV segmentation labels [12], R: recurrent context features, SS: "
     "selective boxes.",
     "We train on ZETA 2031 trainval and ZETA 2032 trainval and evaluate on ZETA 2031 test. "
     "Extra segmentation labels come from QORV [12].", "QORV", "ZETA 2031"),
    ("Table 2: Mean AP of detectors on HARLAN 7 test. Notation: H: Harlan train, H+K: H plus "
     "KESTRO detection annotations, F: flipped inputs.",
     "We evaluate detectors on Harlan-7. Some models also use the KESTRO detection "
     "annotations.", "KESTRO", "HARLAN 7"),
])
def test_a_name_in_the_caption_legend_is_no_dataset_of_the_cells(
        caption: str, text: str, legend_name: str, test_name: str) -> None:
    lines = [(72, 60, "Context Pooling for Object Detection")]
    lines += prose_down(text, 72, 90)
    lines += grid([72, 200, 270, 330], 150, [["Method", "Train", "mAP"],
                                              ["Plain net", "A+B", "70.0"],
                                              ["Ours", "A+B+Q", "76.5"]])
    lines += prose_down(caption, 72, 200)
    claims = claims_of_lines(lines, "legend")
    assert not [c for c in claims if legend_name in (c.dataset_name or "")], confident(claims)
    assert any(c.printed_value == "76.5" and c.dataset_name == test_name
               and c.confidence >= CONFIDENT for c in claims), confident(claims)


def test_without_legend_keeps_a_caption_without_one() -> None:
    caption = "Table 3: Accuracy on the Quorn test set: ours against two baselines."
    assert without_legend(caption) == caption
    blanked = without_legend("Results on Quorn. Legend: Q+V: Quorn plus Velmo labels.")
    assert "Velmo" not in blanked and "Results on Quorn" in blanked
    assert len(blanked) == len("Results on Quorn. Legend: Q+V: Quorn plus Velmo labels.")


# --- a metric the citing sentence gives one dataset ---------------------------------------


@pytest.mark.parametrize(("metric", "name", "sentence"), [
    ("AUC", "zelda", "And the spread of the AUC achieved on the zelda dataset is even larger, "
                     "up to 3.4 points (see Table 3)."),
    ("F1", "Quorn", "The F1 obtained on the Quorn benchmark varies most across runs "
                    "(Table 3)."),
])
def test_a_metric_the_citing_sentence_gives_one_dataset_is_not_the_tables(
        metric: str, name: str, sentence: str) -> None:
    row = name.capitalize()
    lines = [(72, 60, "A Practical Study of Sentence Classifiers")]
    lines += prose_down(f"We use the Velmo, Kiru, Tarn and {row} datasets. For the {name} "
                        f"dataset we report the {metric} instead, because it is imbalanced. "
                        f"Mean accuracy has a range of up to 1.5 points over repeated runs. "
                        f"{sentence}", 72, 90)
    lines += grid([72, 180, 260, 340], 160, [["Dataset", "Static net", "Tuned net", "Joint net"],
                                              ["Velmo", "81.24", "81.03", "81.02"],
                                              ["Kiru", "47.08", "45.65", "45.98"],
                                              ["Tarn", "85.49", "85.22", "85.45"],
                                              [row, "67.07", "67.20", "67.11"]])
    lines += prose_down("Table 3: Performance of the three nets. Each cell reports the mean of "
                        "repeated runs.", 72, 240)
    claims = claims_of_lines(lines, "tied-metric")
    others = [c for c in claims if c.dataset_name in {"Velmo", "Kiru", "Tarn"}]
    assert not [c for c in others if c.metric_name == metric.lower()], [
        (c.dataset_name, c.metric_name, c.printed_value) for c in claims]
    tied = {c.metric_name for c in claims if c.dataset_name == row}
    assert tied <= {metric.lower()}, [(c.dataset_name, c.metric_name) for c in claims]


# --- two settings numbered under each dataset of a grouped header --------------------------


@pytest.mark.parametrize(("shift", "names"), [(25, ("VELMO-WE", "VELMO-FL")),
                                              (40, ("Velmo", "Kiru"))])
def test_two_numbered_settings_under_each_group_name_no_metric(
        shift: int, names: tuple[str, str]) -> None:
    x = [72, 200, 250, 300, 350]
    lines = [(72, 60, "Reading Questions over Movies")]
    lines += prose_down(f"We evaluate on the {names[0]} and {names[1]} datasets, see Table 5.",
                        72, 90)
    lines += [(x[1] + shift, 127, names[0]), (x[3] + shift, 127, names[1])]
    lines += grid(x, 140, [["Method", "r1", "R2", "r1", "R2"],
                           ["Plain reader", "79.4", "83.4", "58.2", "60.4"],
                           ["Vocab reader", "81.0", "85.4", "59.9", "61.9"]])
    lines += prose_down("Table 5: Accuracy of the readers with two retrieval steps.", 72, 190)
    claims = claims_of_lines(lines, "two-codes")
    assert not [c for c in claims if c.metric_name == "r2"], confident(claims)
    assert any(c.printed_value == "85.4" and c.metric_name == "accuracy" for c in claims), (
        confident(claims))


# --- the next value read into a name ------------------------------------------------------


@pytest.mark.parametrize("sentence", [
    "ZetaNet reaches 85.1% accuracy on Velmo and 62.2% on Kiru.",
    "Our reader obtains 85.1% accuracy on Velmo-2 and 62.2% on Kiru.",
])
def test_the_next_value_is_no_part_of_the_name(sentence: str) -> None:
    lines = [(72, 60, "Reading Short Notes")]
    lines += prose_down("We evaluate on the Velmo-2 dataset and the Kiru dataset. " + sentence,
                        72, 90)
    claims = claims_of_lines(lines, "next-value")
    named = [c.dataset_name for c in claims if c.printed_value == "85.1"]
    assert named in (["Velmo"], ["Velmo-2"]), confident(claims)


# --- a column header naming the training data -----------------------------------------------


@pytest.mark.parametrize("heads", [["Train: Velmo", "Train: Tarn"],
                                   ["Training: Velmo", "Training: Tarn"]])
def test_a_header_naming_what_models_learned_from_names_no_test_data(heads: list[str]) -> None:
    lines = [(72, 60, "Transfer Between Note Collections")]
    lines += prose_down("We use the Velmo dataset, the Tarn dataset and the Kiru dataset.", 72,
                        90)
    lines += grid([72, 200, 290], 140, [["Model", *heads], ["Plain", "81.2", "70.2"],
                                          ["Ours", "83.5", "72.8"]])
    lines += prose_down("Table 3: Accuracy on the Kiru test set of models trained on each set.",
                        72, 190)
    claims = claims_of_lines(lines, "training-header")
    assert not [c for c in claims if c.dataset_name in {"Velmo", "Tarn"}], confident(claims)


@pytest.mark.parametrize(("header", "training"), [
    ("Train: Velmo", True), ("Velmo-pretrained", True), ("trained on Velmo", True),
    ("Velmo (source)", True), ("Velmo (train)", False), ("Train acc.", False), ("Velmo", False),
])
def test_training_header(header: str, training: bool) -> None:
    assert training_header(header) is training


# --- a caption naming a second dataset ----------------------------------------------------


def _caption_table(caption: str, heads: list[str], rows: list[list[str]],
                   text: str = "We use the Velmo dataset, the Tarn dataset and the Kiru dataset."
                   ) -> list[Claim]:
    lines = [(72, 60, "Parsing Notes")]
    lines += prose_down(text, 72, 90)
    lines += grid([72, 200, 250, 300, 350][:len(heads) + 1], 140, [["Model", *heads], *rows])
    lines += prose_down(caption, 72, 190)
    return claims_of_lines(lines, "second-dataset")


@pytest.mark.parametrize(("caption", "heads", "rows"), [
    ("Table 4: Accuracy and F1 on Velmo. The last two columns report Kiru.",
     ["Acc", "F1", "Acc", "F1"], [["Plain", "81.2", "70.1", "61.2", "50.1"],
                                  ["Ours", "83.5", "72.7", "63.5", "52.7"]]),
    ("Table 4: Kiru results of models selected on the Velmo dev set.",
     ["Acc", "F1"], [["Plain", "81.2", "70.1"], ["Ours", "83.5", "72.7"]]),
])
def test_a_caption_naming_a_second_dataset_gives_no_sure_one(
        caption: str, heads: list[str], rows: list[list[str]]) -> None:
    claims = _caption_table(caption, heads, rows)
    assert not [c for c in claims if c.confidence >= CONFIDENT], confident(claims)


@pytest.mark.parametrize(("caption", "dataset"), [
    ("Table 4: Results on Velmo; see Table 5 for Kiru.", "Velmo"),
    ("Table 4: Velmo models on the Kiru test set.", "Kiru"),
    ("Table 4: Results on the Kiru test set for models distilled from Velmo.", "Kiru"),
])
def test_a_second_name_that_is_no_reading_keeps_the_caption_dataset(caption: str,
                                                                    dataset: str) -> None:
    claims = _caption_table(caption, ["Acc", "F1"], [["Plain", "81.2", "70.1"],
                                                     ["Ours", "83.5", "72.7"]])
    assert {c.dataset_name for c in claims if c.confidence >= CONFIDENT} == {dataset}, (
        confident(claims))


def test_the_short_name_of_the_caption_dataset_is_no_second_dataset() -> None:
    claims = _caption_table("Table 4: Accuracy on the Quill Ranking Set (QRS) corpus.",
                            ["Acc", "F1"], [["Plain", "81.2", "70.1"], ["Ours", "83.5", "72.7"]],
                            text="We use the Quill Ranking Set (QRS) corpus. The QRS corpus "
                                 "holds ranked notes.")
    sure = {c.dataset_name for c in claims if c.confidence >= CONFIDENT}
    assert sure and sure <= {"Quill Ranking", "Quill Ranking Set"}, confident(claims)


# --- column headers naming datasets under a caption naming another -------------------------


@pytest.mark.parametrize(("heads", "caption"), [
    (["Velmo", "Kiru"], "Table 4: Accuracy on Tarn of models trained on the set in each column."),
    (["Velmo", "Kiru"], "Table 4: Tarn accuracy by pre-training corpus."),
    (["+Velmo", "+Kiru"], "Table 4: Accuracy on the Tarn test set."),
])
def test_dataset_headers_under_a_caption_naming_another_are_not_sure(
        heads: list[str], caption: str) -> None:
    claims = _caption_table(caption, heads, [["Plain", "81.2", "70.1"],
                                             ["Ours", "83.5", "72.7"]])
    assert not [c for c in claims if c.confidence >= CONFIDENT and c.dataset_name != "Tarn"], (
        confident(claims))


def test_a_header_naming_the_caption_dataset_stays_sure() -> None:
    claims = _caption_table("Table 4: Accuracy on Velmo and its hard subset.",
                            ["Velmo", "Velmo-hard"], [["Plain", "81.2", "70.1"],
                                                      ["Ours", "83.5", "72.7"]])
    assert {c.dataset_name for c in claims if c.printed_value == "83.5"
            and c.confidence >= CONFIDENT} == {"Velmo"}, confident(claims)
