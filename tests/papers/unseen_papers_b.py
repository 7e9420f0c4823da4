"""Batch B of invented stand-ins for unseen papers (issue #23, seventh pass).

Written and measured before any reader change made for it (the figure is in the commit that
adds it). Same truth format and scoring as :mod:`tests.papers.unseen_papers`; the layouts are
the ones the first batch covers thinly: two-column pages, results in running text a paragraph
after the dataset is named, a section heading as the only name, sub-captions under two panels,
environment columns, datasets as rows with the paper's method in the middle, a wide table with
the metric in a second header row, scaled units, footnote markers, standard deviations,
lowercase 'the x data', an ablation below the main table. Look-alikes that must not be claimed
with confidence: training data in the caption, two datasets in one caption with no header tying
a column to one, a number quoted from another paper on other data, hyper-parameter tables.

Run ``python -m tests.papers.unseen_papers_b [-v]`` for the per-paper table.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from tests.papers.layouts import Page, Table, prose
from tests.papers.unseen_papers import UnseenPaper, _cells, report

#: Left and right text columns of a two-column page (x, characters per line).
LEFT, RIGHT, NARROW = 72.0, 320.0, 44


def running_text_paragraph_before() -> UnseenPaper:
    """Two-column page: the dataset is named a paragraph before the results; the second
    dataset is named in the right column's first sentence."""
    left = (prose("We next turn to the Kestrel-5k benchmark. It holds five thousand short "
                  "clips of birds filmed by volunteers, each labelled with one of forty "
                  "species.", LEFT, 690, NARROW)
            + prose("Our model reaches 71.3% accuracy here, while the strongest baseline stays "
                    "at 68.9%.", LEFT, 630, NARROW))
    right = prose("The Marrow corpus is harder: its clips are shorter and noisier. Our "
                  "tagger obtains an F1 of 58.4 on it, against 55.1 for the frame-level "
                  "baseline.", RIGHT, 690, NARROW)
    truth = (_cells(("kestrel5k",), "accuracy", ["71.3", "68.9"])
             + _cells(("marrow",), "f1", ["58.4", "55.1"]))
    return UnseenPaper("paragraph_before", "running text, dataset a paragraph before",
                       [Page(title="Listening to Birds", lines=left + right)], truth)


def heading_only() -> UnseenPaper:
    """A section heading is the only place the dataset is named; the caption names none."""
    table = Table("Table 3: Comparison with earlier readers.",
                  [["Reader", "EM", "F1"]],
                  [["Span pointer [4]", "61.8", "70.2"], ["Gated memory [11]", "64.0", "72.9"],
                   ["Ours", "67.5", "75.6"]], [72.0, 230.0, 300.0], 560)
    lines = ([(72, 700, "5.2 Results on Quillmoor-QA")]
             + prose("Table 3 compares our reader with two earlier ones under the same "
                     "tokenization and answer-length limit.", 72, 686))
    truth = (_cells(("quillmoorqa", "quillmoor"), "exact_match", ["61.8", "64.0", "67.5"])
             + _cells(("quillmoorqa", "quillmoor"), "f1", ["70.2", "72.9", "75.6"]))
    return UnseenPaper("heading_only", "dataset only in the section heading",
                       [Page(title="Readers with Gated Memory", lines=lines, tables=[table])],
                       truth)


def panels_below() -> UnseenPaper:
    """Two panels side by side, sub-captions '(a) X' and '(b) Y' printed under them, one
    caption under both."""
    first = Table("(a) Saltmarsh-10", [["Method", "Acc."]],
                  [["Linear [2]", "63.1"], ["Ours", "69.4"]], [72.0, 190.0], 600)
    second = Table("(b) Fenwick-Dialog", [["Method", "Acc."]],
                   [["Linear [2]", "51.6"], ["Ours", "57.0"]], [330.0, 450.0], 600)
    lines = ([(72, 530, "Table 4: Accuracy (%) of the two panels, single runs.")]
             + prose("We classify intents in short utterances with a pooled encoder.", 72, 690))
    truth = (_cells(("saltmarsh10",), "accuracy", ["63.1", "69.4"])
             + _cells(("fenwickdialog",), "accuracy", ["51.6", "57.0"]))
    return UnseenPaper("panels_below", "sub-captions under two panels",
                       [Page(title="Pooled Intent Encoders", lines=lines,
                             tables=[first, second])], truth)


def environment_columns() -> UnseenPaper:
    """Columns are control environments (the caption says so), rows are agents; returns are
    scaled (x10^3) with standard deviations."""
    table = Table("Table 5: Mean episode return (\u00d710^3) on three continuous-control "
                  "environments, mean \u00b1 std over 5 seeds.",
                  [["Agent", "Hopwell", "Stridemark", "Glidewing"]],
                  [["ClipPG [12]", "2.31 \u00b1 0.18", "3.40 \u00b1 0.22", "1.05 \u00b1 0.09"],
                   ["Ours", "2.87 \u00b1 0.11", "3.96 \u00b1 0.30", "1.44 \u00b1 0.12"]],
                  [72.0, 180.0, 280.0, 380.0], 560, right=470)
    body = prose("We present a policy-gradient agent with a learned baseline and test it on "
                 "simulated locomotion.", 72, 690)
    truth = (_cells(("hopwell",), "return", ["2.31", "2.87"])
             + _cells(("stridemark",), "return", ["3.40", "3.96"])
             + _cells(("glidewing",), "return", ["1.05", "1.44"]))
    return UnseenPaper("environment_columns", "environment columns, scaled returns with std",
                       [Page(title="Learned Baselines for Locomotion", lines=body,
                             tables=[table])], truth)


def dataset_rows_ours_middle() -> UnseenPaper:
    """Datasets as rows under 'Data set'; the paper's method is the middle column; footnote
    markers on a header and on a value."""
    table = Table("Table 2: Classification error (%) on the benchmark collections.",
                  [["Data set", "kNN", "SplitNet (ours)", "GradBoost\u2020"]],
                  [["Alderbrook", "14.2", "11.6", "12.3"],
                   ["Cinder-7", "21.9", "18.4*", "19.0"]],
                  [72.0, 180.0, 260.0, 370.0], 560)
    lines = (prose("We propose SplitNet, a differentiable tree ensemble. We compare it on the "
                   "Alderbrook and Cinder-7 collections.", 72, 690)
             + [(72, 480, "\u2020 our re-implementation. * best of three restarts.")])
    truth = (_cells(("alderbrook",), "error_rate", ["14.2", "11.6", "12.3"])
             + _cells(("cinder7",), "error_rate", ["21.9", "18.4", "19.0"]))
    return UnseenPaper("dataset_rows_ours_middle", "dataset rows, own method middle column",
                       [Page(title="SplitNet: Differentiable Tree Ensembles", lines=lines,
                             tables=[table])], truth)


def wide_metric_second_row() -> UnseenPaper:
    """A wide table: tasks in the first header row, metrics in parentheses in the second, an
    average column, a footnote marker on one task."""
    table = Table("Table 6: Results on the development sets of the Larch tasks.",
                  [["Model", "Bramble\u2020", "Yarrow", "Tansy", "Vetch", "Avg"],
                   ["", "(Acc)", "(F1)", "(Acc)", "(MCC)", ""]],
                  [["BiLSTM [3]", "70.2", "77.5", "61.0", "24.8", "58.4"],
                   ["Ours", "74.6", "81.3", "66.7", "33.1", "63.9"]],
                  [72.0, 170.0, 230.0, 290.0, 350.0, 410.0], 560)
    body = prose("We fine-tune a small encoder on each of the four Larch tasks and report "
                 "development scores.", 72, 690)
    truth = (_cells(("bramble",), "accuracy", ["70.2", "74.6"], split="validation")
             + _cells(("yarrow",), "f1", ["77.5", "81.3"], split="validation")
             + _cells(("tansy",), "accuracy", ["61.0", "66.7"], split="validation")
             + _cells(("vetch",), "matthews_corr", ["24.8", "33.1"], split="validation"))
    return UnseenPaper("wide_second_row", "wide table, metric in parentheses below",
                       [Page(title="Small Encoders for the Larch Tasks", lines=body,
                             tables=[table])], truth)


def perplexity_footnotes() -> UnseenPaper:
    """Validation and test perplexity columns, a size column 'in millions', footnote marks."""
    table = Table("Table 7: Perplexity on Thornbury-103.",
                  [["Model", "Params (in millions)", "Valid PPL", "Test PPL*"]],
                  [["Gated conv [6]", "230", "37.8", "38.9"],
                   ["Ours", "151", "32.4*", "33.0"]],
                  [72.0, 180.0, 300.0, 380.0], 560)
    lines = (prose("We train a recurrent language model with a shared memory.", 72, 690)
             + [(72, 500, "* averaged over three runs.")])
    truth = (_cells(("thornbury103", "thornbury"), "perplexity", ["37.8", "32.4"],
                    split="validation")
             + _cells(("thornbury103", "thornbury"), "perplexity", ["38.9", "33.0"]))
    return UnseenPaper("perplexity_footnotes", "valid/test columns, footnote marks, sizes",
                       [Page(title="Shared Memory Language Models", lines=lines,
                             tables=[table])], truth)


def lowercase_data() -> UnseenPaper:
    """Lowercase names in running text ('on the wren-urban data'); results one clause later."""
    lines = prose("On the wren-urban data the forecaster attains a mean absolute error of "
                  "0.412, while the seasonal baseline sits at 0.538. The fen-rural data are "
                  "smoother: there our forecaster reaches a mean absolute error of 0.207.",
                  72, 700)
    truth = (_cells(("wrenurban",), "mae", ["0.412", "0.538"])
             + _cells(("fenrural",), "mae", ["0.207"]))
    return UnseenPaper("lowercase_data", "lowercase 'the x data' in running text",
                       [Page(title="Forecasting Small Towns", lines=lines)], truth)


def ablation_below_main() -> UnseenPaper:
    """An ablation table whose dataset is named only in the caption of the main table above."""
    main = Table("Table 2: Top-1 accuracy (%) on the Hollowgate-1k validation set.",
                 [["Method", "Top-1"]],
                 [["ResBlock-50 [9]", "76.2"], ["Ours", "78.9"]], [72.0, 260.0], 640)
    ablation = Table("Table 3: Ablation of the gate components.",
                     [["Variant", "Top-1"]],
                     [["full model", "78.9"], ["w/o gate", "77.1"], ["w/o pooling", "77.8"]],
                     [72.0, 260.0], 520)
    body = prose("We add a channel gate to residual blocks.", 72, 700)
    truth = (_cells(("hollowgate1k",), "top1_accuracy", ["76.2", "78.9", "77.1", "77.8"],
                    split="validation"))
    return UnseenPaper("ablation_below", "ablation below the main table",
                       [Page(title="Channel Gates", lines=body, tables=[main, ablation])],
                       truth)


def section_paragraph_table() -> UnseenPaper:
    """Two-column page: a paragraph names the benchmark for the whole section; the table's
    caption names none; values carry standard deviations and a quoted-result footnote mark."""
    table = Table("Table 4: Results (mean \u00b1 std over 5 runs).",
                  [["Method", "Acc. (%)"]],
                  [["Prototype [3]", "72.4*"], ["Matching [8]", "74.0 \u00b1 0.6"],
                   ["Ours", "77.3 \u00b1 0.4"]], [320.0, 450.0], 560, right=520)
    left = ([(LEFT, 700, "4 Experiments")]
            + prose("All experiments in this section use the Tidewater-20 benchmark of "
                    "twenty rare plant species, with five images per class for training.",
                    LEFT, 686, NARROW))
    right = prose("Table 4 compares our episodic learner with two earlier ones.", RIGHT, 690,
                  NARROW)
    lines = left + right + [(RIGHT, 500, "* quoted from [3].")]
    truth = _cells(("tidewater20",), "accuracy", ["72.4", "74.0", "77.3"])
    return UnseenPaper("section_paragraph", "two-column, dataset named in the section",
                       [Page(title="Episodic Learners for Rare Plants", lines=lines,
                             tables=[table])], truth)


def trained_evaluated_caption() -> UnseenPaper:
    """Look-alike: the caption names the training data and the evaluation data."""
    table = Table("Table 6: Systems trained on Ridgeback-Large and evaluated on the "
                  "Pennywhistle test set (BLEU).",
                  [["System", "BLEU"]],
                  [["Phrase-based [5]", "21.4"], ["Attention [2]", "24.7"],
                   ["Ours", "26.3"]], [72.0, 260.0], 560)
    body = prose("We translate with a copy-augmented decoder.", 72, 690)
    truth = _cells(("pennywhistle",), "bleu", ["21.4", "24.7", "26.3"])
    return UnseenPaper("trained_evaluated", "look-alike: training data in the caption",
                       [Page(title="Copy-Augmented Decoders", lines=body, tables=[table])],
                       truth)


def two_datasets_untied() -> UnseenPaper:
    """Look-alike: a caption names two datasets; repeated metric columns are tied to neither
    by a header (a careful reader takes them in caption order)."""
    table = Table("Table 8: Gullwing and Marlpit, top-1 and top-5 accuracy (%).",
                  [["Method", "Top-1", "Top-5", "Top-1", "Top-5"]],
                  [["Baseline [7]", "58.2", "80.4", "44.9", "70.1"],
                   ["Ours", "61.7", "83.0", "48.3", "73.6"]],
                  [72.0, 190.0, 250.0, 310.0, 370.0], 560)
    body = prose("We classify aerial images of coasts and wetlands.", 72, 690)
    truth = (_cells(("gullwing",), "top1_accuracy", ["58.2", "61.7"])
             + _cells(("gullwing",), "top5_accuracy", ["80.4", "83.0"])
             + _cells(("marlpit",), "top1_accuracy", ["44.9", "48.3"])
             + _cells(("marlpit",), "top5_accuracy", ["70.1", "73.6"]))
    return UnseenPaper("two_untied", "look-alike: two datasets in a caption, no header tie",
                       [Page(title="Coasts from Above", lines=body, tables=[table])], truth)


def quoted_other_data() -> UnseenPaper:
    """Look-alike: a number quoted from another paper on another (larger) dataset."""
    lines = prose("Our single model reaches 86.0% accuracy on the Sandpiper dataset. For "
                  "reference, [12] report 91.3% on Sandpiper-XL, with ten times more "
                  "training images.", 72, 700)
    truth = (_cells(("sandpiper",), "accuracy", ["86.0"], exclude=("xl",))
             + _cells(("sandpiperxl",), "accuracy", ["91.3"]))
    return UnseenPaper("quoted_other_data", "look-alike: a quoted number on other data",
                       [Page(title="Single Models for Shorebirds", lines=lines)], truth)


def hyperparameter_tables() -> UnseenPaper:
    """Look-alike: a hyper-parameter table with datasets as columns beside a results table."""
    hyper = Table("Table 9: Hyper-parameters per dataset.",
                  [["Parameter", "Cobblestone", "Larchmont"]],
                  [["Learning rate", "0.0003", "0.001"], ["Batch size", "32", "64"],
                   ["Dropout", "0.3", "0.1"], ["Epochs", "20", "40"]],
                  [72.0, 220.0, 320.0], 640)
    results = Table("Table 10: Macro-F1 of the taggers.",
                    [["Tagger", "Cobblestone", "Larchmont"]],
                    [["CRF [4]", "71.8", "66.2"], ["Ours", "75.5", "70.9"]],
                    [72.0, 220.0, 320.0], 480)
    body = prose("We tag clinical notes from two hospitals, the Cobblestone and Larchmont "
                 "datasets.", 72, 700)
    truth = (_cells(("cobblestone",), "f1", ["71.8", "75.5"])
             + _cells(("larchmont",), "f1", ["66.2", "70.9"]))
    return UnseenPaper("hyperparameters", "look-alike: hyper-parameters per dataset",
                       [Page(title="Tagging Clinical Notes", lines=body,
                             tables=[hyper, results])], truth)


def abstract_and_sentence_numbers() -> UnseenPaper:
    """The abstract states the headline on one dataset; the body reports a result on another
    named a sentence before ('We next evaluate on X. ... it reaches ...')."""
    lines = (prose("Abstract. Our compact parser sets a new best labelled attachment score of "
                   "91.7 on the Brackwater treebank.", 72, 700)
             + [(72, 660, "6 Low-resource setting")]
             + prose("We next evaluate on the Peatmoss treebank, which has only two thousand "
                     "sentences. Trained on it alone, the parser reaches a labelled attachment "
                     "score of 78.2.", 72, 646))
    truth = (_cells(("brackwater",), "las", ["91.7"])
             + _cells(("peatmoss",), "las", ["78.2"]))
    return UnseenPaper("abstract_sentence", "abstract headline, next dataset a sentence before",
                       [Page(title="Compact Parsers", lines=lines)], truth)


BUILDERS: list[Callable[[], UnseenPaper]] = [
    running_text_paragraph_before, heading_only, panels_below, environment_columns,
    dataset_rows_ours_middle, wide_metric_second_row, perplexity_footnotes, lowercase_data,
    ablation_below_main, section_paragraph_table, trained_evaluated_caption,
    two_datasets_untied, quoted_other_data, hyperparameter_tables,
    abstract_and_sentence_numbers,
]


def papers() -> list[UnseenPaper]:
    """Every paper of batch B."""
    return [build() for build in BUILDERS]


if __name__ == "__main__":
    report(papers(), verbose="-v" in sys.argv)
