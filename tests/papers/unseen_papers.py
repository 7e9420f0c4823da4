"""An invented stand-in for papers the claims reader has never seen (issue #23).

Each paper is a small generated PDF with invented dataset, method and metric wording and its
own truth: every result cell it prints, with the dataset (normalized keys), split and metric a
careful reader gives it. The papers cover the families that failed on unseen real papers: a
dataset named only in the caption, the section heading or a previous sentence; rows that are
methods under a caption dataset; datasets as rows with the paper's method as one column; two
datasets named in one caption (side by side, "(a)/(b)", row groups); language variants of one
benchmark; dev and test columns; setting and size labels that look like names; and numeric
columns that are no results (sizes, counts, times).

:func:`score` classifies every claim the reader emits: ``match`` (a truth cell with its
dataset, split and metric), ``wrong_dataset`` / ``wrong_metric`` (a truth cell under another
dataset, split or metric) and ``non_result`` (a printed number that is no result). Run
``python -m tests.papers.unseen_papers`` for the per-paper table.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.metrics import compatible_metrics
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render

#: Claims at or above this confidence are plan targets (PLAN_MIN_CONFIDENCE).
CONFIDENT = 0.7
X3 = [72.0, 260.0, 340.0]
X4 = [72.0, 240.0, 310.0, 380.0]


@dataclass(frozen=True)
class Truth:
    """One result cell: its printed value, the dataset keys (alternatives), split, metric."""

    printed: str
    keys: tuple[str, ...]
    metric: str
    split: str = "test"
    exclude: tuple[str, ...] = ()


@dataclass
class UnseenPaper:
    """A generated paper and the truth of every result cell it prints."""

    name: str
    family: str
    pages: list[Page]
    truth: list[Truth]
    _pdf: bytes | None = field(default=None, repr=False)

    @property
    def pdf(self) -> bytes:
        """The paper's PDF bytes (rendered once)."""
        if self._pdf is None:
            self._pdf = render(self.pages)
        return self._pdf


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())


def _cells(keys: tuple[str, ...], metric: str, values: list[str], split: str = "test",
           exclude: tuple[str, ...] = ()) -> list[Truth]:
    return [Truth(v, keys, metric, split, exclude) for v in values]


def caption_only() -> UnseenPaper:
    """The dataset is named only in the caption; rows are methods."""
    table = Table("Table 1: Word error rate (%) on the Tamarind-Read test set.",
                  [["Method", "WER"]],
                  [["Hybrid tied states [4]", "14.2"], ["Sequence CTC [9]", "12.7"],
                   ["SEE (ours)", "10.9"]], X3, 560)
    body = prose("We propose SEE, a sparse echo encoder for speech. It is trained end to end "
                 "on read speech and decoded with a small language model.", 72, 690)
    return UnseenPaper("caption_only", "dataset in the caption",
                       [Page(title="SEE: Sparse Echo Encoders", lines=body, tables=[table])],
                       _cells(("tamarindread",), "wer", ["14.2", "12.7", "10.9"]))


def section_heading() -> UnseenPaper:
    """The dataset is named in the section heading and its first sentence only; a frames per
    second column is no result."""
    table = Table("Table 2: Comparison with previous detectors.",
                  [["Detector", "mAP", "FPS"]],
                  [["BoxLite [3]", "60.9", "22"], ["Lattice Pool (ours)", "66.8", "19"]],
                  X3, 560)
    lines = ([(72, 700, "4 Experiments on Corvid-Street")]
             + prose("Every result of this section uses the Corvid-Street benchmark of street "
                     "scenes. Table 2 sets our detector against earlier ones.", 72, 686))
    return UnseenPaper("section_heading", "dataset in the section",
                       [Page(title="Lattice Pooling for Detection", lines=lines,
                             tables=[table])],
                       _cells(("corvidstreet",), "map", ["60.9", "66.8"]))


def previous_sentence() -> UnseenPaper:
    """Results in running text: the dataset is named one sentence earlier; a second dataset
    follows; a gain in points is no result."""
    lines = ([(72, 700, "5 Results")]
             + prose("We now turn to the Pellucid treebank. Our tagger obtains an F1 of 93.6, "
                     "while the strongest baseline obtains 91.2 F1. On the smaller Brindle "
                     "corpus the same tagger reaches 88.4 F1, a gain of 2.7 points over its "
                     "ablation.", 72, 686))
    truth = (_cells(("pellucid",), "f1", ["93.6", "91.2"])
             + _cells(("brindle",), "f1", ["88.4"]))
    return UnseenPaper("previous_sentence", "dataset in a previous sentence",
                       [Page(title="Tagging with Sparse Features", lines=lines)], truth)


def method_rows_caption_dataset() -> UnseenPaper:
    """Rows are the paper's own variants and baselines, a label column of training data; the
    dataset is in the caption."""
    table = Table("Table 3: Micro-F1 on the Orchard citation dataset.",
                  [["Model", "Train data", "Micro-F1"]],
                  [["Raw features", "full27k", "0.571"], ["NodeWalk [7]", "full27k", "0.612"],
                   ["GraphMosaic-Mean", "full27k", "0.803"],
                   ["GraphMosaic-Pool", "half13k", "0.829"]], X3, 560)
    body = prose("We introduce GraphMosaic, which samples neighbourhoods of large graphs. "
                 "We evaluate on the Orchard citation dataset.", 72, 690)
    return UnseenPaper("method_rows", "rows are methods, dataset in the caption",
                       [Page(title="GraphMosaic: Sampled Neighbourhoods", lines=body,
                             tables=[table])],
                       _cells(("orchard",), "f1", ["0.571", "0.612", "0.803", "0.829"]))


def dataset_rows_method_columns() -> UnseenPaper:
    """Datasets as rows under a 'Dataset' header; methods as columns, the paper's own method
    one column among baselines."""
    table = Table("Table 4: Test accuracy (%) of the classifiers.",
                  [["Dataset", "kNN", "RandForest", "BoostLeaf"]],
                  [["Mallow", "71.3", "74.8", "77.5"], ["Quince", "62.1", "66.9", "68.2"],
                   ["Sorrel", "80.4", "83.6", "85.7"]], X4, 560)
    body = prose("We present BoostLeaf, gradient trees that share leaves. We use three public "
                 "datasets, Mallow, Quince and Sorrel, with their standard splits.", 72, 690)
    truth = (_cells(("mallow",), "accuracy", ["71.3", "74.8", "77.5"])
             + _cells(("quince",), "accuracy", ["62.1", "66.9", "68.2"])
             + _cells(("sorrel",), "accuracy", ["80.4", "83.6", "85.7"]))
    return UnseenPaper("dataset_rows", "datasets as rows, methods as columns",
                       [Page(title="BoostLeaf: Leaf Sharing for Gradient Trees", lines=body,
                             tables=[table])], truth)


def unheaded_dataset_rows() -> UnseenPaper:
    """Rows name datasets without a header; the columns are methods, the last the paper's."""
    table = Table("Table 5: Area under the curve of the rankers.",
                  [["", "LogReg", "FacMach", "Crossweave"]],
                  [["Tidewell", "0.712", "0.734", "0.759"], ["Basalt", "0.688", "0.701",
                                                             "0.726"]], X4, 560)
    body = prose("We propose Crossweave, a ranker that crosses sparse features. Experiments "
                 "cover two click logs.", 72, 690)
    truth = (_cells(("tidewell",), "auc", ["0.712", "0.734", "0.759"])
             + _cells(("basalt",), "auc", ["0.688", "0.701", "0.726"]))
    return UnseenPaper("unheaded_rows", "datasets as rows without a header",
                       [Page(title="Crossweave: Crossing Sparse Features", lines=body,
                             tables=[table])], truth)


def two_datasets_one_caption() -> UnseenPaper:
    """A caption names two datasets; the columns repeat the metrics without naming either."""
    table = Table("Table 6: Precision, recall and F1 on the Finchley and Heronsgate datasets.",
                  [["System", "P", "R", "F1", "P", "R", "F1"]],
                  [["Rules [2]", "70.1", "64.3", "67.1", "58.2", "55.0", "56.6"],
                   ["Ours", "78.4", "73.9", "76.1", "66.5", "61.8", "64.1"]],
                  [72.0, 200.0, 250.0, 300.0, 350.0, 400.0, 450.0], 560)
    body = prose("We extract relations from two collections of letters.", 72, 690)
    truth = (_cells(("finchley",), "precision", ["70.1", "78.4"])
             + _cells(("finchley",), "recall", ["64.3", "73.9"])
             + _cells(("finchley",), "f1", ["67.1", "76.1"])
             + _cells(("heronsgate",), "precision", ["58.2", "66.5"])
             + _cells(("heronsgate",), "recall", ["55.0", "61.8"])
             + _cells(("heronsgate",), "f1", ["56.6", "64.1"]))
    return UnseenPaper("two_in_caption", "two datasets in one caption",
                       [Page(title="Relations in Letters", lines=body, tables=[table])], truth)


def left_right() -> UnseenPaper:
    """Side-by-side sub-tables: the caption says which is left and which is right."""
    left = Table("Table 7: Accuracy on Finchley (left) and Heronsgate (right).",
                 [["Model", "Acc."]],
                 [["Bag of words [5]", "81.7"], ["Ours", "86.5"]], [72.0, 200.0], 560)
    right = Table("", [["Model", "Acc."]],
                  [["Bag of words [5]", "72.4"], ["Ours", "75.9"]], [330.0, 460.0], 560)
    body = prose("We classify letters by their sender with a small recurrent network.", 72,
                 690)
    truth = (_cells(("finchley",), "accuracy", ["81.7", "86.5"])
             + _cells(("heronsgate",), "accuracy", ["72.4", "75.9"]))
    return UnseenPaper("left_right", "sub-tables left/right",
                       [Page(title="Who Wrote the Letter", lines=body, tables=[left, right])],
                       truth)


def sub_captions() -> UnseenPaper:
    """Two sub-tables under one caption with '(a) X' and '(b) Y' sub-captions."""
    first = Table("(a) Larkspur", [["Setting", "BLEU"]],
                  [["Baseline", "24.6"], ["+ copy gate", "26.2"]], [72.0, 200.0], 560,
                  caption_above=True)
    second = Table("(b) Gorsefield", [["Setting", "BLEU"]],
                   [["Baseline", "17.9"], ["+ copy gate", "19.3"]], [330.0, 460.0], 560,
                   caption_above=True)
    lines = [(72, 470, "Table 8: Translation quality with and without the copy gate.")]
    body = prose("We translate between two low-resource language pairs with a copy gate.", 72,
                 690)
    truth = (_cells(("larkspur",), "bleu", ["24.6", "26.2"])
             + _cells(("gorsefield",), "bleu", ["17.9", "19.3"]))
    return UnseenPaper("sub_captions", "sub-tables (a)/(b)",
                       [Page(title="Copy Gates for Translation", lines=body + lines,
                             tables=[first, second])], truth)


def group_rows() -> UnseenPaper:
    """Row groups titled by dataset inside one table; the caption names no dataset."""
    table = Table("Table 9: Mean absolute error of the forecasters (lower is better).",
                  [["Model", "MAE"]],
                  [["Drizzle-hourly", ""], ["Seasonal naive", "0.482"], ["Ours", "0.417"],
                   ["Gale-daily", ""], ["Seasonal naive", "1.093"], ["Ours", "0.951"]],
                  X3, 560)
    body = prose("We forecast two public series collections, Drizzle-hourly and Gale-daily, "
                 "with a small convolutional model.", 72, 690)
    truth = (_cells(("drizzlehourly", "drizzle"), "mae", ["0.482", "0.417"])
             + _cells(("galedaily", "gale"), "mae", ["1.093", "0.951"]))
    return UnseenPaper("group_rows", "row groups titled by dataset",
                       [Page(title="Small Forecasters", lines=body, tables=[table])], truth)


def language_variants() -> UnseenPaper:
    """One benchmark reported per language: the columns are languages."""
    table = Table("Table 10: Tagging F1 on TagCorpus-31.",
                  [["Model", "English", "German"]],
                  [["Feature CRF [3]", "88.9", "74.6"], ["Ours", "91.4", "79.2"]], X3, 560)
    body = prose("We evaluate our tagger on the TagCorpus-31 benchmark, which has an English "
                 "and a German part.", 72, 690)
    truth = (_cells(("tagcorpus31english", "englishtagcorpus31"), "f1", ["88.9", "91.4"])
             + _cells(("tagcorpus31german", "germantagcorpus31"), "f1", ["74.6", "79.2"]))
    return UnseenPaper("languages", "X (English) vs X (German)",
                       [Page(title="Tagging Across Languages", lines=body, tables=[table])],
                       truth)


def dev_test_columns() -> UnseenPaper:
    """Dev and test columns of one benchmark."""
    table = Table("Table 11: Accuracy on the Walrus reading benchmark.",
                  [["Model", "Dev", "Test"]],
                  [["Reader [8]", "68.3", "67.5"], ["Ours", "73.1", "72.2"]], X3, 560)
    body = prose("We answer questions about short stories.", 72, 690)
    truth = (_cells(("walrus",), "accuracy", ["68.3", "73.1"], split="validation")
             + _cells(("walrus",), "accuracy", ["67.5", "72.2"]))
    return UnseenPaper("dev_test", "dev vs test columns",
                       [Page(title="Reading Short Stories", lines=body, tables=[table])], truth)


def setting_labels() -> UnseenPaper:
    """Rows are model sizes and settings that look like names."""
    table = Table("Table 12: Ablation on the Otterbank QA development set.",
                  [["Variant", "Size", "EM", "F1"]],
                  [["Zeno", "Base", "71.2", "79.8"], ["Zeno", "Large", "74.6", "82.3"],
                   ["k=5", "Base", "69.9", "78.1"], ["w/o attention", "Base", "63.4", "72.5"]],
                  [72.0, 200.0, 280.0, 350.0], 560)
    body = prose("We present Zeno, a reader with a sparse memory.", 72, 690)
    truth = (_cells(("otterbank",), "exact_match", ["71.2", "74.6", "69.9", "63.4"],
                    split="validation")
             + _cells(("otterbank",), "f1", ["79.8", "82.3", "78.1", "72.5"],
                      split="validation"))
    return UnseenPaper("settings", "size and setting labels",
                       [Page(title="Zeno: Sparse Memory Readers", lines=body, tables=[table])],
                       truth)


def non_metric_columns() -> UnseenPaper:
    """Sizes, counts and times beside one error column."""
    table = Table("Table 13: Top-1 error (%) on the Pixelgrove test set.",
                  [["Network", "Params (M)", "Models", "Crops", "Top-1 err.", "Hours"]],
                  [["Plain-34 [6]", "21.8", "1", "10", "27.9", "41"],
                   ["Plain-34 [6]", "21.8", "7", "144", "24.3", "290"],
                   ["Ours-34", "22.4", "1", "10", "25.1", "44"]],
                  [72.0, 170.0, 240.0, 300.0, 360.0, 430.0], 560)
    body = prose("We train deeper image classifiers with a new residual gate.", 72, 690)
    return UnseenPaper("non_metric", "non-metric numeric columns",
                       [Page(title="Residual Gates", lines=body, tables=[table])],
                       _cells(("pixelgrove",), "top1_error", ["27.9", "24.3", "25.1"]))


def wide_comparison() -> UnseenPaper:
    """Systems as rows, task columns with the metric in a second header row."""
    table = Table("Table 14: Results on the tasks of the Tack suite.",
                  [["System", "Pinto", "Roan", "Dapple", "Bayard"],
                   ["", "Acc", "F1", "MCC", "Acc"]],
                  [["Unigram [4]", "61.2", "70.4", "21.5", "58.8"],
                   ["Ours", "68.9", "77.3", "35.6", "64.7"]],
                  [72.0, 200.0, 260.0, 320.0, 380.0], 560)
    body = prose("We pre-train a sentence encoder and fine-tune it on each task of the Tack "
                 "suite: the Pinto, Roan, Dapple and Bayard datasets.", 72, 690)
    truth = (_cells(("pinto",), "accuracy", ["61.2", "68.9"])
             + _cells(("roan",), "f1", ["70.4", "77.3"])
             + _cells(("dapple",), "matthews_corr", ["21.5", "35.6"])
             + _cells(("bayard",), "accuracy", ["58.8", "64.7"]))
    return UnseenPaper("wide", "wide comparison table",
                       [Page(title="Sentence Encoders", lines=body, tables=[table])], truth)


def section_of_several() -> UnseenPaper:
    """The section names three datasets, the caption none; the reference sentence names
    the table's dataset after the table."""
    table = Table("Table 15: Comparison with the baselines.",
                  [["Method", "Acc."]],
                  [["Linear probe [2]", "55.2"], ["Ours", "61.7"]], X3, 560)
    lines = ([(72, 700, "4 Experiments")]
             + prose("We evaluate on the Finchley, Heronsgate and Osprey Hill datasets.",
                     72, 686)
             + prose("Table 15 reports the Osprey Hill results; the other two are in the "
                     "appendix.", 72, 440))
    return UnseenPaper("section_several", "a section about several datasets",
                       [Page(title="Probing Letters", lines=lines, tables=[table])],
                       _cells(("ospreyhill",), "accuracy", ["55.2", "61.7"]))


def two_datasets_one_sentence() -> UnseenPaper:
    """One sentence gives results on two datasets."""
    lines = prose("On Finchley our model reaches 81.9% accuracy, and on Heronsgate it obtains "
                  "77.4%, both above the best earlier system.", 72, 700)
    truth = (_cells(("finchley",), "accuracy", ["81.9"])
             + _cells(("heronsgate",), "accuracy", ["77.4"]))
    return UnseenPaper("two_in_sentence", "two datasets in one sentence",
                       [Page(title="Letters Again", lines=lines)], truth)


def abstract_vs_table() -> UnseenPaper:
    """The abstract names one dataset; a transfer table is about another one."""
    table = Table("Table 16: Transfer of the learned features.",
                  [["Features", "Acc."]],
                  [["Random init", "48.3"], ["Ours", "63.5"]], X3, 500)
    lines = (prose("Abstract. Our residual gates reach the best known accuracy on "
                   "Pixelgrove. We also study how the features transfer.", 72, 700)
             + [(72, 660, "5 Transfer")]
             + prose("We transfer the features to the Lindenleaf dataset in Table 16.", 72,
                     646))
    return UnseenPaper("abstract_vs_table", "abstract names another dataset",
                       [Page(title="Gated Residual Features", lines=lines, tables=[table])],
                       _cells(("lindenleaf",), "accuracy", ["48.3", "63.5"]))


def metric_not_fixed() -> UnseenPaper:
    """Columns do not say which of the caption's two metrics they hold."""
    table = Table("Table 17: ROUGE and METEOR on the Kestrel news dataset.",
                  [["Model", "R", "M"]],
                  [["Lead sentences", "33.6", "18.2"], ["Ours", "37.9", "19.4"]], X3, 560)
    body = prose("We summarize news articles with a pointer network.", 72, 690)
    truth = (_cells(("kestrel",), "rouge", ["33.6", "37.9"])
             + _cells(("kestrel",), "meteor", ["18.2", "19.4"]))
    return UnseenPaper("metric_not_fixed", "metric not fixed by the column",
                       [Page(title="Pointers for News", lines=body, tables=[table])], truth)


def acronym_task_columns() -> UnseenPaper:
    """Columns are the tasks of a suite, printed as acronyms; the caption names the suite."""
    table = Table("Table 18: Accuracy on the Tack benchmark.",
                  [["System", "PNT", "RNX", "DPL"]],
                  [["Unigram [4]", "60.6", "52.3", "70.8"], ["Ours", "66.1", "57.2", "74.9"]],
                  X4, 560)
    body = prose("We fine-tune a sentence encoder on the three tasks of the Tack suite.", 72,
                 690)
    truth = (_cells(("pnt",), "accuracy", ["60.6", "66.1"])
             + _cells(("rnx",), "accuracy", ["52.3", "57.2"])
             + _cells(("dpl",), "accuracy", ["70.8", "74.9"]))
    return UnseenPaper("acronym_tasks", "task columns under a suite caption",
                       [Page(title="Encoders for the Tack Suite", lines=body, tables=[table])],
                       truth)


def per_class_columns() -> UnseenPaper:
    """A mean column beside per-class columns that name no metric."""
    table = Table("Table 19: Average precision on the Quarry-2019 test set.",
                  [["Method", "mAP", "boat", "bird", "car"]],
                  [["BoxLite [3]", "58.3", "41.2", "63.5", "70.2"],
                   ["Ours", "62.9", "45.8", "66.4", "73.7"]],
                  [72.0, 200.0, 260.0, 320.0, 380.0], 560)
    body = prose("We detect objects with lattice pooling.", 72, 690)
    truth = (_cells(("quarry2019",), "map", ["58.3", "62.9"])
             + _cells(("quarry2019boat",), "ap", ["41.2", "45.8"])
             + _cells(("quarry2019bird",), "ap", ["63.5", "66.4"])
             + _cells(("quarry2019car",), "ap", ["70.2", "73.7"]))
    return UnseenPaper("per_class", "per-class columns beside a mean column",
                       [Page(title="Pooled Lattices", lines=body, tables=[table])], truth)


def metric_rows_method_columns() -> UnseenPaper:
    """Rows are metrics, columns are methods with the paper's own one of them."""
    table = Table("Table 20: Results on the Mallow dataset.",
                  [["Metric", "kNN", "BoostLeaf"]],
                  [["Accuracy", "72.6", "78.8"], ["F1", "69.3", "75.1"]], X3, 560)
    body = prose("We present BoostLeaf, gradient trees that share leaves.", 72, 690)
    truth = (_cells(("mallow",), "accuracy", ["72.6", "78.8"])
             + _cells(("mallow",), "f1", ["69.3", "75.1"]))
    return UnseenPaper("metric_rows", "metrics as rows, methods as columns",
                       [Page(title="BoostLeaf: Shared Leaves", lines=body, tables=[table])],
                       truth)


def pretrained_on_caption() -> UnseenPaper:
    """The caption names the evaluation data and the pre-training data."""
    table = Table("Table 21: Accuracy on Lindenleaf of features pre-trained on Pixelgrove.",
                  [["Features", "Acc."]],
                  [["Random init", "44.7"], ["Ours", "59.6"]], X3, 560)
    body = prose("We study how gated residual features transfer to new images.", 72, 690)
    return UnseenPaper("pretrained_caption", "training data in the caption",
                       [Page(title="Transfer of Gated Features", lines=body, tables=[table])],
                       _cells(("lindenleaf",), "accuracy", ["44.7", "59.6"]))


def transfer_columns() -> UnseenPaper:
    """The caption names the source data; the columns name the target datasets."""
    table = Table("Table 22: Transfer from Pixelgrove to the Lindenleaf and Brackenmoor "
                  "datasets (accuracy, %).",
                  [["Method", "Lindenleaf", "Brackenmoor"]],
                  [["Fine-tune [9]", "61.4", "55.8"], ["Ours", "66.2", "58.9"]], X3, 560)
    body = prose("We transfer gated residual features to two smaller image datasets.", 72,
                 690)
    truth = (_cells(("lindenleaf",), "accuracy", ["61.4", "66.2"])
             + _cells(("brackenmoor",), "accuracy", ["55.8", "58.9"]))
    return UnseenPaper("transfer_columns", "target datasets as columns, source in caption",
                       [Page(title="Gated Features Transfer", lines=body, tables=[table])],
                       truth)


def trained_on_sentence() -> UnseenPaper:
    """A sentence names the training data and the evaluation data."""
    lines = prose("Trained on Pixelgrove, our model reaches 71.2% accuracy on the Lindenleaf "
                  "dataset, against 66.8% for a network trained from scratch.", 72, 700)
    return UnseenPaper("trained_on_sentence", "training data in the sentence",
                       [Page(title="Transfer by Gates", lines=lines)],
                       _cells(("lindenleaf",), "accuracy", ["71.2", "66.8"]))


def split_rows() -> UnseenPaper:
    """Rows are dev and test sets of one dataset; the caption names the training data."""
    table = Table("Table 23: BLEU of the system trained on Gorsefield.",
                  [["Test set", "BLEU"]],
                  [["Larkspur-dev", "27.4"], ["Larkspur-test", "25.9"]], X3, 560)
    body = prose("We train a translation system with a copy gate.", 72, 690)
    truth = (_cells(("larkspur",), "bleu", ["27.4"], split="validation")
             + _cells(("larkspur",), "bleu", ["25.9"]))
    return UnseenPaper("split_rows", "dev/test rows, training data in the caption",
                       [Page(title="Gated Copying", lines=body, tables=[table])], truth)


def spanning_dev_test() -> UnseenPaper:
    """Datasets span pairs of dev/test columns."""
    table = Table("Table 24: Accuracy of the readers.",
                  [["Model", "", "", "", ""], ["", "Dev", "Test", "Dev", "Test"]],
                  [["Reader [8]", "64.1", "63.3", "57.7", "56.9"],
                   ["Ours", "69.8", "68.4", "61.5", "60.2"]],
                  [72.0, 200.0, 250.0, 320.0, 370.0], 560,
                  spans=[(0, 1, 2, "Finchley"), (0, 3, 4, "Heronsgate")], right=420)
    body = prose("We answer questions on the Finchley and Heronsgate datasets.", 72, 690)
    truth = (_cells(("finchley",), "accuracy", ["64.1", "69.8"], split="validation")
             + _cells(("finchley",), "accuracy", ["63.3", "68.4"])
             + _cells(("heronsgate",), "accuracy", ["57.7", "61.5"], split="validation")
             + _cells(("heronsgate",), "accuracy", ["56.9", "60.2"]))
    return UnseenPaper("spanning_dev_test", "datasets spanning dev/test columns",
                       [Page(title="Readers of Letters", lines=body, tables=[table])], truth)


def baseline_on_other_dataset_sentence() -> UnseenPaper:
    """One sentence compares the paper's result on one dataset with a baseline on another."""
    lines = prose("Compared with the 77.7% of the best earlier system on Heronsgate, our model "
                  "reaches 82.6% on Finchley.", 72, 700)
    truth = (_cells(("heronsgate",), "accuracy", ["77.7"])
             + _cells(("finchley",), "accuracy", ["82.6"]))
    return UnseenPaper("compare_sentence", "a sentence about two datasets",
                       [Page(title="Letters Once More", lines=lines)], truth)


def gain_sentence() -> UnseenPaper:
    """A gain in points beside the result it leads to; then a result on unnamed data."""
    lines = prose("Our model improves accuracy on the Finchley test set by 4.5 points, to "
                  "83.0%. It also reaches 79.1% accuracy on held-out letters of new writers.",
                  72, 700)
    truth = (_cells(("finchley",), "accuracy", ["83.0"])
             + _cells(("heldoutletters", "newwriters"), "accuracy", ["79.1"]))
    return UnseenPaper("gain_sentence", "a gain and a result on unnamed data",
                       [Page(title="Writers and Letters", lines=lines)], truth)


def unheaded_dataset_rows_metric_columns() -> UnseenPaper:
    """Rows name datasets without a header; the columns are metrics of the paper's model."""
    table = Table("Table 25: Results of our model.",
                  [["", "Acc", "F1"]],
                  [["Finchley", "84.2", "80.7"], ["Heronsgate", "76.3", "71.9"]], X3, 560)
    body = prose("We test on the Finchley dataset and on the Heronsgate dataset.", 72, 690)
    truth = (_cells(("finchley",), "accuracy", ["84.2"]) + _cells(("finchley",), "f1", ["80.7"])
             + _cells(("heronsgate",), "accuracy", ["76.3"])
             + _cells(("heronsgate",), "f1", ["71.9"]))
    return UnseenPaper("dataset_rows_metrics", "dataset rows, metric columns",
                       [Page(title="Letters, Measured", lines=body, tables=[table])], truth)


def subset_group_rows() -> UnseenPaper:
    """The caption names one collection; row groups name its subsets."""
    table = Table("Table 26: Mean absolute error on the Drizzle benchmark (lower is better).",
                  [["Model", "MAE"]],
                  [["Hourly series", ""], ["Seasonal naive", "0.533"], ["Ours", "0.468"],
                   ["Daily series", ""], ["Seasonal naive", "1.127"], ["Ours", "0.986"]],
                  X3, 560)
    body = prose("We forecast the Drizzle collection of public series with a small "
                 "convolutional model.", 72, 690)
    truth = (_cells(("drizzlehourly", "drizzlebenchmarkhourly"), "mae", ["0.533", "0.468"])
             + _cells(("drizzledaily", "drizzlebenchmarkdaily"), "mae", ["1.127", "0.986"]))
    return UnseenPaper("subset_groups", "row groups naming subsets of the caption's dataset",
                       [Page(title="Small Forecasters Again", lines=body, tables=[table])],
                       truth)


def clause_turn_sentence() -> UnseenPaper:
    """A sentence gives one result per clause; the second clause names the second dataset."""
    lines = prose("We use the Finchley dataset and the Heronsgate dataset. On Finchley, our "
                  "model reaches 81.3% accuracy, and on Heronsgate it reaches an accuracy of "
                  "76.8%.", 72, 700)
    truth = (_cells(("finchley",), "accuracy", ["81.3"])
             + _cells(("heronsgate",), "accuracy", ["76.8"]))
    return UnseenPaper("clause_turn", "one result per clause, two datasets",
                       [Page(title="Letters by Clause", lines=lines)], truth)


def method_columns_in_caption() -> UnseenPaper:
    """The caption prints the column headers as kinds of networks, not as data; the data is
    an unnamed development set."""
    table = Table("Table 27: Development set WER of stacks of Plain or Gated cells.",
                  [["Architecture", "Plain", "Gated"]],
                  [["Shallow stack", "11.42", "9.06"], ["Deep stack", "10.37", "8.63"],
                   ["Deeper stack", "9.95", "8.41"]], X3, 560)
    body = prose("We compare recurrent cells for speech recognition.", 72, 690)
    truth = _cells(("unnameddevelopmentset",), "wer",
                   ["11.42", "9.06", "10.37", "8.63", "9.95", "8.41"], split="validation")
    return UnseenPaper("method_columns_caption", "method columns printed in the caption",
                       [Page(title="Cells for Speech", lines=body, tables=[table])], truth)


def statistics_beside_method_columns() -> UnseenPaper:
    """Datasets as rows; class and feature counts beside the method columns."""
    table = Table("Table 28: Test accuracy (%) of the classifiers.",
                  [["Dataset", "Classes", "Features", "kNN", "BoostLeaf"]],
                  [["Mallow", "2", "14", "70.6", "76.9"], ["Quince", "5", "36", "61.5", "67.3"],
                   ["Sorrel", "10", "8", "79.8", "84.9"]],
                  [72.0, 200.0, 260.0, 320.0, 390.0], 560)
    body = prose("We present BoostLeaf. We use three public datasets, Mallow, Quince and "
                 "Sorrel.", 72, 690)
    truth = (_cells(("mallow",), "accuracy", ["70.6", "76.9"])
             + _cells(("quince",), "accuracy", ["61.5", "67.3"])
             + _cells(("sorrel",), "accuracy", ["79.8", "84.9"]))
    return UnseenPaper("statistics_columns", "count columns beside method columns",
                       [Page(title="BoostLeaf: Leaves Shared", lines=body, tables=[table])],
                       truth)


BUILDERS: list[Callable[[], UnseenPaper]] = [
    caption_only, section_heading, previous_sentence, method_rows_caption_dataset,
    dataset_rows_method_columns, unheaded_dataset_rows, two_datasets_one_caption, left_right,
    sub_captions, group_rows, language_variants, dev_test_columns, setting_labels,
    non_metric_columns, wide_comparison, section_of_several, two_datasets_one_sentence,
    abstract_vs_table, metric_not_fixed, acronym_task_columns, per_class_columns,
    metric_rows_method_columns, pretrained_on_caption, transfer_columns, trained_on_sentence,
    split_rows, spanning_dev_test, baseline_on_other_dataset_sentence, gain_sentence,
    unheaded_dataset_rows_metric_columns, subset_group_rows, clause_turn_sentence,
    method_columns_in_caption, statistics_beside_method_columns,
]


def papers() -> list[UnseenPaper]:
    """Every invented paper."""
    return [build() for build in BUILDERS]


def read(paper: UnseenPaper) -> list[Claim]:
    """The offline reader's claims on ``paper``."""
    return heuristic_claims(extract_pages(paper.pdf, paper.name), paper.pdf)


_DEV = re.compile(r"(?i)\b(dev|development|validation|val)\b")


def _dataset_ok(claim: Claim, truth: Truth) -> bool:
    key = _key(claim.dataset_name)
    if any(e in key for e in truth.exclude) or not any(k in key for k in truth.keys):
        return False
    dev = claim.split == "validation" or bool(_DEV.search(claim.dataset_name))
    return dev == (truth.split == "validation")


def _metric_ok(claim: Claim, truth: Truth) -> bool:
    if truth.metric == "rouge":
        return claim.metric_name.startswith("rouge")
    return compatible_metrics(claim.metric_name, truth.metric)


def classify(claim: Claim, truth: list[Truth]) -> tuple[str, Truth | None]:
    """``match``, ``wrong_dataset``, ``wrong_metric`` or ``non_result`` (and the truth cell)."""
    cells = [t for t in truth if t.printed == (claim.printed_value or "")]
    if not cells:
        return "non_result", None
    for cell in cells:
        if _dataset_ok(claim, cell) and _metric_ok(claim, cell):
            return "match", cell
    for cell in cells:
        if _dataset_ok(claim, cell):
            return "wrong_metric", cell
    return "wrong_dataset", cells[0]


@dataclass
class Score:
    """The reader on one paper: truth cells found, and claims by class and confidence."""

    paper: str
    family: str
    truth: int
    found: int = 0
    found_confident: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    confident: dict[str, int] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)


def score(paper: UnseenPaper, claims: list[Claim] | None = None) -> Score:
    """Classify the reader's claims on ``paper`` against its truth."""
    claims = read(paper) if claims is None else claims
    result = Score(paper.name, paper.family, len(paper.truth))
    found: set[Truth] = set()
    found_confident: set[Truth] = set()
    for claim in claims:
        kind, cell = classify(claim, paper.truth)
        result.counts[kind] = result.counts.get(kind, 0) + 1
        sure = claim.confidence >= CONFIDENT
        if sure:
            result.confident[kind] = result.confident.get(kind, 0) + 1
        if kind == "match" and cell is not None:
            found.add(cell)
            if sure:
                found_confident.add(cell)
        elif kind != "match":
            result.wrong.append(
                f"{kind}{' (>=0.7)' if sure else ''}: {claim.printed_value} as "
                f"{claim.dataset_name!r}/{claim.metric_name}/{claim.split} "
                f"[{claim.dataset_source} {claim.confidence}]")
    result.found, result.found_confident = len(found), len(found_confident)
    return result


def report(batch: list[UnseenPaper], verbose: bool = False) -> list[Score]:
    """Print the per-paper table and the totals of ``batch`` (and every wrong claim when
    ``verbose``); return the scores."""
    scores = [score(p) for p in batch]
    kinds = ("wrong_dataset", "wrong_metric", "non_result")
    print("| paper | truth | found | found >= 0.7 | " + " | ".join(
        f"{k} (>= 0.7)" for k in kinds) + " |")
    for s in scores:
        print(f"| {s.paper} | {s.truth} | {s.found} | {s.found_confident} | " + " | ".join(
            f"{s.counts.get(k, 0)} ({s.confident.get(k, 0)})" for k in kinds) + " |")
    total = {k: sum(s.counts.get(k, 0) for s in scores) for k in kinds}
    sure = {k: sum(s.confident.get(k, 0) for s in scores) for k in kinds}
    print(f"| total | {sum(s.truth for s in scores)} | {sum(s.found for s in scores)} | "
          f"{sum(s.found_confident for s in scores)} | " + " | ".join(
              f"{total[k]} ({sure[k]})" for k in kinds) + " |")
    if verbose:
        for s in scores:
            for line in s.wrong:
                print(f"{s.paper}: {line}")
    return scores


def main() -> None:
    """Print the per-paper table and the totals."""
    report(papers(), verbose="-v" in sys.argv)


if __name__ == "__main__":
    main()
