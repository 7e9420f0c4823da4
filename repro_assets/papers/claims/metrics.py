"""The metric vocabulary: canonical names, printed aliases, direction, scale and range.

General knowledge about how ML papers name their metrics ("Acc.", "PPL", "R-1", "top-5 val.
error (%)"), which direction is better (error, perplexity, WER: lower), and what values are
possible (an accuracy is 0-1 or 0-100, a perplexity is at least 1). Nothing here is specific to a
paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Scale = Literal["fraction", "score", "count", "unbounded"]


@dataclass(frozen=True)
class MetricSpec:
    """One canonical metric.

    ``scale``: ``fraction`` metrics are printed as 0-1 or as a percentage 0-100 (stored as a
    decimal); ``score`` metrics have their own 0-100 scale (BLEU); ``count`` metrics are whole
    numbers; ``unbounded`` metrics (perplexity, log-likelihood) are stored as printed.
    """

    name: str
    aliases: tuple[str, ...]
    lower_is_better: bool = False
    scale: Scale = "fraction"
    low: float | None = 0.0
    high: float | None = 100.0
    case_sensitive: tuple[str, ...] = ()


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("top1_accuracy", ("top-1 accuracy", "top-1 acc", "top-1 acc.", "top1 accuracy",
                                 "top 1 accuracy", "top-1 classification accuracy")),
    MetricSpec("top5_accuracy", ("top-5 accuracy", "top-5 acc", "top-5 acc.", "top5 accuracy",
                                 "top 5 accuracy")),
    MetricSpec("frame_accuracy", ("frame accuracy", "frame classification accuracy",
                                  "test frame accuracy")),
    MetricSpec("accuracy", ("accuracy", "accuracies", "acc", "acc.", "test accuracy",
                            "classification accuracy", "mean accuracy", "average accuracy")),
    MetricSpec("top1_error", ("top-1 error", "top-1 err", "top1 error", "top 1 error",
                              "top-1 error rate", "top-1 val. error", "top-1 test error"),
               lower_is_better=True),
    MetricSpec("top5_error", ("top-5 error", "top-5 err", "top5 error", "top 5 error",
                              "top-5 error rate", "top-5 val. error", "top-5 test error"),
               lower_is_better=True),
    MetricSpec("top5_localisation_error", ("top-5 localisation error",
                                           "top-5 localization error", "localisation error",
                                           "localization error"), lower_is_better=True),
    MetricSpec("warping_error", ("warping error", "warping-error"), lower_is_better=True),
    MetricSpec("rand_error", ("rand error", "rand-error"), lower_is_better=True),
    MetricSpec("pixel_error", ("pixel error", "pixel-error"), lower_is_better=True),
    MetricSpec("wer", ("wer", "word error rate", "word error rates"), lower_is_better=True),
    MetricSpec("cer", ("cer", "character error rate"), lower_is_better=True),
    MetricSpec("aer", ("aer", "alignment error rate"), lower_is_better=True),
    MetricSpec("per", ("phone error rate", "phoneme error rate", "phone error rates",
                       "phone error", "phoneme error"), lower_is_better=True,
               case_sensitive=("PER",)),
    MetricSpec("error_rate", ("error", "errors", "error rate", "error rates", "test error",
                              "test errors", "err", "err.", "classification error",
                              "classification errors", "misclassification rate",
                              "validation error", "validation errors"),
               lower_is_better=True),
    MetricSpec("f1", ("f1", "f1 score", "f1-score", "f-score", "f-measure", "f1 measure",
                      "macro-f1", "macro f1", "f1-macro", "macro-averaged f1", "micro-f1",
                      "micro f1", "weighted f1", "average f1", "avg. f1", "f1 scores", "f₁")),
    MetricSpec("exact_match", ("exact match", "exact-match"), case_sensitive=("EM",)),
    MetricSpec("precision", ("precision", "prec", "prec.")),
    MetricSpec("recall", ("recall", "rec.", "sensitivity")),
    MetricSpec("mean_class_recall", ("mean class recall", "mean per-class recall",
                                     "mean class accuracy", "mean per-class accuracy",
                                     "per class accuracy", "average class accuracy")),
    MetricSpec("pixel_accuracy", ("pixel accuracy", "per pixel accuracy", "pixelwise accuracy",
                                  "pixel-wise accuracy", "pixel acc.")),
    MetricSpec("auc", ("auc", "roc auc", "roc-auc", "auroc", "area under the curve",
                       "area under the roc curve")),
    MetricSpec("ndcg", ("ndcg",)),
    MetricSpec("hr", ("hit ratio", "hit rate")),
    MetricSpec("mrr", ("mean reciprocal rank",), scale="unbounded", low=0.0, high=100.0,
               case_sensitive=("MRR",)),
    MetricSpec("mean_rank", ("mean rank", "mean r"), lower_is_better=True, scale="unbounded",
               low=0.0, high=None),
    MetricSpec("median_rank", ("median rank", "med r", "median r"), lower_is_better=True,
               scale="unbounded", low=0.0, high=None),
    MetricSpec("logloss", ("log loss", "logloss", "log-loss", "logistic loss"),
               lower_is_better=True, scale="unbounded", low=0.0, high=None),
    MetricSpec("mos", ("mean opinion score", "mean opinion scores"), scale="unbounded",
               low=0.0, high=10.0, case_sensitive=("MOS",)),
    MetricSpec("map", ("mean ap", "mean average precision", "mean avg. precision"),
               case_sensitive=("mAP", "MAP")),
    MetricSpec("ap50", ("ap50", "ap@50", "ap@0.5", "ap_50", "ap 50")),
    MetricSpec("ap75", ("ap75", "ap@75", "ap@0.75", "ap_75", "ap 75")),
    MetricSpec("ap_bbox", ("apbb", "ap bb", "box ap", "bbox ap", "bounding-box ap",
                           "bounding box ap", "ap^bb", "ap box")),
    MetricSpec("ap_mask", ("apmk", "ap mk", "mask ap", "ap^mk", "ap mask")),
    MetricSpec("ap", ("average precision",), case_sensitive=("AP",)),
    MetricSpec("miou", ("miou", "mean iou", "mean intersection over union", "m-iou")),
    MetricSpec("iou", ("iou", "intersection over union", "jaccard index")),
    MetricSpec("bleu", ("bleu", "bleu score", "bleu scores", "bleu-4", "sacrebleu"),
               scale="score"),
    MetricSpec("rouge_1", ("rouge-1", "rouge 1", "rouge1", "r-1", "rg-1", "rouge-1 f1")),
    MetricSpec("rouge_2", ("rouge-2", "rouge 2", "rouge2", "r-2", "rg-2", "rouge-2 f1")),
    MetricSpec("rouge_l", ("rouge-l", "rouge l", "rougel", "r-l", "rg-l", "rouge-l f1")),
    MetricSpec("rouge", ("rouge", "rouge f1")),
    MetricSpec("meteor", ("meteor",)),
    MetricSpec("perplexity", ("perplexity", "perplexities", "ppl", "ppl.", "test perplexity"),
               lower_is_better=True, scale="unbounded", low=1.0, high=None),
    MetricSpec("bits_per_byte", ("bpb", "bits per byte", "bits/byte", "bits-per-byte"),
               lower_is_better=True, scale="unbounded", low=0.0, high=16.0),
    MetricSpec("bits_per_char", ("bpc", "bits per character", "bits/char",
                                 "bits-per-character"),
               lower_is_better=True, scale="unbounded", low=0.0, high=16.0),
    MetricSpec("log_likelihood", ("log-likelihood", "log likelihood", "log-likelihoods",
                                  "log-likelihood estimates"),
               scale="unbounded", low=None, high=None),
    MetricSpec("nll", ("nll", "negative log-likelihood", "negative log likelihood",
                       "negative log-likelihoods", "negative log likelihoods",
                       "bits/dim", "bits per dim", "bits per dimension", "bits/dimension",
                       "bits/pixel", "bits per pixel", "nats", "negative log-probability",
                       "negative log-probabilities", "negative log probabilities"),
               lower_is_better=True, scale="unbounded", low=None, high=None),
    MetricSpec("matthews_corr", ("matthews correlation", "mathews correlation", "mcc",
                                 "matthews corr", "matthews correlation coefficient"),
               low=-100.0),
    MetricSpec("pearson_corr", ("pearson correlation", "pearson", "pearson's r",
                                "pearson r"), low=-100.0),
    MetricSpec("spearman_corr", ("spearman correlation", "spearman", "spearman's rho"),
               low=-100.0),
    MetricSpec("mse", ("mse", "mean squared error", "average squared error", "squared error",
                       "mean square error"), lower_is_better=True, scale="unbounded",
               high=None),
    MetricSpec("rmse", ("rmse", "root mean squared error", "root mean square error",
                        "root-mean-square error"), lower_is_better=True,
               scale="unbounded", high=None),
    MetricSpec("mae", ("mae", "mean absolute error", "average absolute error",
                       "absolute error", "abs. error", "abs error"),
               lower_is_better=True, scale="unbounded", high=None),
    MetricSpec("smape", ("smape", "symmetric mean absolute percentage error"),
               lower_is_better=True, scale="unbounded", high=None),
    MetricSpec("mape", ("mape", "mean absolute percentage error"), lower_is_better=True,
               scale="unbounded", high=None),
    MetricSpec("owa", ("owa", "overall weighted average"), lower_is_better=True,
               scale="unbounded", high=None),
    MetricSpec("nd", ("normalized deviation", "normalised deviation"), lower_is_better=True,
               scale="unbounded", high=None, case_sensitive=("ND",)),
    MetricSpec("r2", ("r2", "r^2", "r²", "coefficient of determination"), low=-100.0),
    MetricSpec("normalized_score", ("human-normalized score", "human-normalized scores",
                                    "human normalized score", "human normalized scores",
                                    "normalized score", "normalized scores"),
               scale="unbounded", low=None, high=None),
    MetricSpec("score", ("overall score", "average score", "avg. score"), scale="fraction"),
    MetricSpec("raw_score", ("raw score", "raw scores", "game score", "game scores",
                             "raw game score", "raw game scores"),
               scale="unbounded", low=None, high=None),
    MetricSpec("return", ("episode return", "episodic return", "average return", "mean return",
                          "mean episode return", "average episode return", "cumulative reward",
                          "average reward", "mean reward", "episode reward",
                          "average episodic return"),
               scale="unbounded", low=None, high=None),
    MetricSpec("las", ("labelled attachment score", "labeled attachment score"),
               case_sensitive=("LAS",)),
    MetricSpec("uas", ("unlabelled attachment score", "unlabeled attachment score"),
               case_sensitive=("UAS",)),
    MetricSpec("test_errors_count", (), lower_is_better=True, scale="count", high=None),
)

SPECS: dict[str, MetricSpec] = {spec.name: spec for spec in METRICS}

#: Metrics printed as a fraction or percentage (stored as a decimal).
PERCENT_METRICS: frozenset[str] = frozenset(s.name for s in METRICS if s.scale == "fraction")

#: Metrics where lower is better.
LOWER_IS_BETTER: frozenset[str] = frozenset(s.name for s in METRICS if s.lower_is_better)

#: Backwards-compatible alias table: canonical name -> printed aliases.
METRIC_ALIASES: dict[str, tuple[str, ...]] = {s.name: s.aliases for s in METRICS}


def _alias_pattern(alias: str) -> str:
    """Regex for a printed alias: spaces, hyphens and dots are interchangeable."""
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", alias) if p]
    return r"[\s\-]*".join(parts)


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    index: dict[str, str] = {}
    for spec in METRICS:
        for alias in (spec.name.replace("_", " "), *spec.aliases):
            index.setdefault(_norm(alias), spec.name)
    aliases = sorted({a for s in METRICS for a in s.aliases}, key=len, reverse=True)
    insensitive = re.compile(
        r"(?<![A-Za-z0-9])(" + "|".join(_alias_pattern(a) for a in aliases)
        + r")(?![A-Za-z0-9])", re.IGNORECASE)
    exact = sorted({a for s in METRICS for a in s.case_sensitive}, key=len, reverse=True)
    sensitive = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(re.escape(a) for a in exact)
                           + r")(?![A-Za-z0-9])")
    return index, insensitive, sensitive


def _norm(text: str) -> str:
    return re.sub(r"[\s\-]+", " ", text.strip().lower())


_CASE_SENSITIVE: dict[str, str] = {a: s.name for s in METRICS for a in s.case_sensitive}
_NDCG_AT = re.compile(r"(?i)\bndcg\s*@\s*(\d+)")
#: Ranking metrics with a cut-off: "HR@10", "Hit Ratio@5", "R@1", "Recall@10", "P@1", "prec@5".
_AT_K = re.compile(
    r"(?<![A-Za-z0-9])(?P<m>(?i:hr|hit\s*ratio|hit\s*rate|hits|recall|prec(?:ision)?|map|mrr|"
    r"acc(?:uracy)?\.?)"
    r"|R|P)\s*@\s*(?P<k>\d+)(?![\d.])")
_AT_K_NAME = {"hr": "hr", "hitratio": "hr", "hitrate": "hr", "hits": "hr", "recall": "recall",
              "r": "recall", "prec": "precision", "precision": "precision", "p": "precision",
              "map": "map", "mrr": "mrr", "acc": "accuracy", "acc.": "accuracy",
              "accuracy": "accuracy", "accuracy.": "accuracy"}
_AP_VARIANT = re.compile(
    r"(?<![A-Za-z0-9])AP\^?_?(bb|mk|kp|dp|box|mask|50|75|S|M|L)?(?![A-Za-z0-9])")
_AP_SUFFIX = {"bb": "ap_bbox", "box": "ap_bbox", "mk": "ap_mask", "mask": "ap_mask",
              "50": "ap50", "75": "ap75"}
_TOPK = re.compile(r"(?i)\btop[\s\-]?([15])\b")
_NOT_A_METRIC = re.compile(
    r"(?i)standard[\s-]+errors?|errors?\s+(?:bars?|analysis|propagation|correction|signal|"
    r"feedback|term|function)")


def find_metric_mentions(text: str) -> list[tuple[str, int, int]]:
    """Metric mentions in ``text`` as (canonical name, start, end), in order.

    Longer aliases win ("top-5 error" over "error"); "top-1"/"top-5" next to a generic
    accuracy or error word makes it specific ("top-1 val. error (%)" -> top1_error);
    "NDCG@10" keeps its cut-off.
    """
    index, insensitive, sensitive = _index()
    out: list[tuple[str, int, int]] = []
    for match in insensitive.finditer(text):
        name = index.get(_norm(match.group(1)))
        if name:
            out.append((name, match.start(), match.end()))
    for match in sensitive.finditer(text):
        if not any(s <= match.start() < e for _, s, e in out):
            out.append((_CASE_SENSITIVE[match.group(1)], match.start(), match.end()))
    for match in _AP_VARIANT.finditer(text):
        if not any(s <= match.start() < e for _, s, e in out):
            suffix = match.group(1) or ""
            name = _AP_SUFFIX.get(suffix.lower(), f"ap_{suffix.lower()}" if suffix else "ap")
            out.append((name, match.start(), match.end()))
    for match in _NDCG_AT.finditer(text):
        out = [m for m in out if not (m[0] == "ndcg" and match.start() <= m[1] < match.end())]
        out.append((f"ndcg@{match.group(1)}", match.start(), match.end()))
    for match in _AT_K.finditer(text):
        base = _AT_K_NAME[re.sub(r"\s+", "", match.group("m").lower())]
        out = [m for m in out if not match.start() <= m[1] < match.end()]
        # 'acc.@10': the share of queries whose answer is in the top 10, a top-k accuracy
        name = f"top{match.group('k')}_accuracy" if base == "accuracy" else (
            f"{base}@{match.group('k')}")
        out.append((name, match.start(), match.end()))
    out = _refine_topk(text, sorted(out, key=lambda m: m[1]))
    out = [m for m in out if not (m[0] == "error_rate" and _NOT_A_METRIC.search(
        text[max(0, m[1] - 12):m[2] + 14]))]
    return sorted(out, key=lambda m: m[1])


def _refine_topk(text: str, mentions: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """'top-5 val. error' -> top5_error when a top-k marker precedes a generic word closely."""
    out = []
    for name, start, end in mentions:
        if name in {"error_rate", "accuracy"}:
            before = text[max(0, start - 16):start]
            topk = list(_TOPK.finditer(before))
            if topk:
                k = topk[-1].group(1)
                name = f"top{k}_{'error' if name == 'error_rate' else 'accuracy'}"
                start = max(0, start - 16) + topk[-1].start()
        out.append((name, start, end))
    return out


def resolve_metric(name: str | None) -> str | None:
    """Canonical metric name for ``name`` ("Acc." -> accuracy, "macro-F1" -> f1)."""
    if not name:
        return None
    index, _, _ = _index()
    key = _norm(name)
    if key in index:
        return index[key]
    if name.strip() in _CASE_SENSITIVE:
        return _CASE_SENSITIVE[name.strip()]
    mentions = find_metric_mentions(name)
    return mentions[0][0] if mentions else None


def canonical_metric(name: str) -> str:
    """The one canonical form of a metric name, for the reader and the evaluation alike.

    Canonical names stay as they are; other spellings map only when they are a whole alias
    ("phone_error_rate" -> per, "Top-1 err." -> top1_error, "HR@10" -> hr@10, "prec@1" ->
    precision@1), never by a word inside them: "test_errors_count" stays a count. F1,
    micro-F1 and macro-F1 all read as ``f1`` (the reader cannot tell them apart from a cell).
    """
    if name in SPECS:
        return name
    spaced = name.replace("_", " ").strip()
    index, _, _ = _index()
    if _norm(spaced) in index:
        return index[_norm(spaced)]
    if spaced in _CASE_SENSITIVE:
        return _CASE_SENSITIVE[spaced]
    bare = spaced.rstrip(" .")
    whole = [m for m in find_metric_mentions(bare) if m[1] == 0 and m[2] == len(bare)]
    return whole[0][0] if len(whole) == 1 else name


def spec_of(metric: str | None) -> MetricSpec | None:
    """The spec of a canonical metric name (``ndcg@10`` -> the ndcg spec)."""
    if not metric:
        return None
    top_k = re.fullmatch(r"top\d+_(accuracy|error)", metric)
    if top_k and metric not in SPECS:  # 'top10_accuracy': scaled as every top-k accuracy
        return SPECS[f"top1_{top_k.group(1)}"]
    return SPECS.get(metric) or SPECS.get(metric.split("@", 1)[0])


def lower_is_better(metric: str | None) -> bool:
    """True when a smaller value of ``metric`` is better (error, perplexity, WER...)."""
    spec = spec_of(metric)
    return bool(spec and spec.lower_is_better)


def is_percent_metric(metric: str | None) -> bool:
    """True for metrics printed as a fraction or a percentage (stored as a decimal)."""
    spec = spec_of(metric)
    return bool(spec and spec.scale == "fraction")


def to_decimal(value: float, metric: str | None, printed_as_percent: bool) -> float:
    """Convert a printed value to the stored decimal (88.1 -> 0.881 for percent metrics)."""
    if is_percent_metric(metric) and (printed_as_percent or value > 1.0) and abs(value) <= 100.0:
        return round(value / 100.0, 8)
    return value


def implausible(metric: str, value: float, printed: str, percent: bool) -> str | None:
    """Why a printed value cannot be a value of ``metric`` (None when it can)."""
    spec = spec_of(metric)
    if spec is None:
        return None
    if spec.scale == "count" and "." in printed:
        return f"{metric} is a count but {printed} is not a whole number"
    if spec.scale == "fraction" and percent and spec.low is not None and spec.low >= 0 > value:
        return f"{printed}% is not a possible {metric}"
    if spec.low is not None and value < spec.low:
        return f"{printed} is below the range of {metric} (>= {spec.low:g})"
    if spec.high is not None and value > spec.high:
        return f"{printed} is above the range of {metric} (<= {spec.high:g})"
    return None


def metric_family(metric: str) -> frozenset[str]:
    """Tokens of a canonical name, for compatibility checks (``top5_error`` -> top5, error)."""
    tokens = re.split(r"[_@]", "error" if metric == "error_rate" else metric)
    return frozenset(t for t in tokens if t)


def compatible_metrics(a: str, b: str) -> bool:
    """True when two metric names can name the same result (one refines the other).

    Both names go through :func:`canonical_metric` first.
    """
    a, b = canonical_metric(a), canonical_metric(b)
    if a == b:
        return True
    fa, fb = metric_family(a), metric_family(b)
    return fa <= fb or fb <= fa
