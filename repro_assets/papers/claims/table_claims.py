"""Candidate claims from results tables.

For every value cell the reader decides its dataset, metric and method:

* **layout**: methods as rows and datasets as columns (the common case), or datasets as rows
  (a "Dataset"/"Task" label column, or row labels the paper uses as datasets) with methods or
  metrics as columns; a label column of datasets groups the rows (a dataset printed once per
  group).
* **metric**, in order: the column header (including a second header row and abbreviations
  the caption defines, "(mc)"), a row label that is a metric, the caption's per-dataset metric
  ("accuracy for SNLI; F1 for SQuAD"), the caption's single metric, the body text that
  references the table ("Table 2 reports test accuracy"), the dataset table's metric column.
* **dataset**, in order: the column header (when it names a dataset), the row (datasets as
  rows), the group label, the sub-table title, the caption, the body text that references the
  table, the paper's main dataset.
* **plausibility**: columns of sizes, depths, epochs, timings, counts, hyper-parameters and
  differences (gains, "relative change") are not results; a value with a unit ("15.3M",
  "4s"), a bound ("<0.01") or outside the metric's range is rejected with a reason.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from repro_assets.papers.claims.ambiguity import (
    TableColumns,
    caption_measures,
    check_cell,
    column_residue,
    constant_columns,
    count_columns,
    data_groups,
    inverted_top_k,
    metric_row,
    signed_columns,
    size_row,
    unfixed_row,
)
from repro_assets.papers.claims.context import (
    PaperContext,
    caption_abbreviations,
    caption_aliases,
    caption_metric_map,
    headed_columns,
)
from repro_assets.papers.claims.datasets import (
    STRONG_NOUN,
    clean_name,
    is_generic,
    looks_like_name,
    metric_of_one_dataset,
    name_phrases,
    normalize_key,
    on_names,
    other_datasets_in,
    split_from,
    training_data,
    training_header,
    without_legend,
    without_split,
)
from repro_assets.papers.claims.metrics import (
    find_metric_mentions,
    implausible,
    is_percent_metric,
    lower_is_better,
    to_decimal,
)
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.provenance import table_layout
from repro_assets.papers.claims.quotes import row_quote, value_context
from repro_assets.papers.claims.roles import role_of
from repro_assets.papers.claims.underspecified import code_pair, is_language_code, named_pairs
from repro_assets.papers.models import PaperPages
from repro_assets.papers.tables import ParsedTable
from repro_assets.papers.tables.cells import CellValue, column_decimals, parse_cell_values
from repro_assets.papers.tables.reader import SUBCAPTION_MARK

_NON_RESULT = re.compile(
    r"(?i)(?:^|[\s(])(depth|params?|parameters|#\s*\w*|size|layers?|epochs?|iterations?|steps|"
    r"time|seconds?|secs?|speed|throughput|flops|gflops|memory|year|count|examples|samples|"
    r"tokens|vocab(?:ulary)?|dim(?:ension)?s?|batch|learning rate|lr|ratio|scale|image side|"
    r"train \(s\)|test \(q\)|delta|change|improvement|increase|decrease|gain|relative|diff|"
    r"difference|Δ|rank|ranking|#params|params \(m\)|probability|overlap|cost|improv\.?|"
    r"impr\.?|rel\.?|p[-\s]?values?|significance|t[-\s]?stat(?:istic)?s?)(?:$|[\s).:,/])")
#: A row of costs beside result rows ('Latency (ms)', 'decode rate (s/img)', 'Params').
_COST_ROW = re.compile(
    r"(?i)(?<![\w-])(?:time|latency|speed|throughput|memory|seconds?|flops|params|parameters|"
    r"rate\s*\((?:s|ms|sec)\b)(?![\w-])|\((?:ms|s|sec|s/im(?:age)?|ms/im(?:age)?|GB|MB)\)")
#: A row label that only names a difference ('∆', 'Gain', 'Improvement (%)'): the gap between
#: two rows above it, not a result.
_DIFFERENCE_ROW = re.compile(
    r"(?i)^\s*(?:[\u2206\u0394\u03b4]|delta|diff\.?|difference|gains?|improvements?|impr\.?)"
    r"\s*(?:\([^()]*\))?\s*:?\s*$")
#: A row label that is only a split ('dev', 'Test set'): the split of the row's cells.
_SPLIT_ROW = re.compile(r"(?i)^\s*(?:dev|development|val|validation|test)(?:\s+set)?\s*$")
#: A row label that cites a paper or marks the paper's own method: a method, never a cost row.
_CITED_ROW = re.compile(r"(?i)\[\d+(?:\s*[,–-]\s*\d+)*\]|\(ours\)")
#: A body row labelled like a label column's heading ('Method | 0.5 | 0.75'): a header row
#: read as a body row (IoU thresholds, training sets), not results.
_HEADING_ROW = re.compile(r"(?i)^\s*(?:models?|methods?|systems?|approach(?:es)?|algorithms?)\s*$")
_DATASET_HEADER = re.compile(
    r"(?i)^(data\s?sets?|data|task|tasks|benchmark|corpus|games?|environments?|envs?)$")
_DATASETS_CAPTION = re.compile(
    r"(?i)\b(datasets|data sets|tasks|benchmarks|corpora|environments|games|collections)\b")
_TASK_WORDS = re.compile(
    r"(?i)\b(instance|semantic|keypoint|pose|dense|object|seg\.?|segmentation|detection|"
    r"estimation|classification|recognition|tracking|parsing|tagging|translation|"
    r"summarization|task|results?)\b")
_NON_RESULT_TABLE = re.compile(
    r"(?i)\b(?:training|running|inference|wall[- ]clock)?\s*(?:time cost|run(?:ning)? time|"
    r"training time|seconds|speed|memory|throughput|latency|hyper-?parameters?|statistics|"
    r"(?:summary|description|details|overview|properties|characteristics)\s+of\s+(?:the\s+)?"
    r"(?:\w+\s+)?(?:data\s?sets|datasets|corpora|benchmarks)|number of (?:classes|categories|"
    r"labels|examples|instances|samples|sentences|documents|images))\b")
_OTHER_NAME = re.compile(r"(?<![\w-])(?:[A-Z]{2,}[\w\-]*|[A-Z][\w\-]*\d[\w\-]*)(?![\w-])")
_CAPTION_PREFIX = re.compile(r"^\s*(?:Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)\s*\w+\s*[:.]\s*")
_SPLIT_ID = re.compile(r"(?i)^(?:train|val|test|dev|trainval|minival)[\w+\-]*\d")
_TOPK = re.compile(r"(?i)^\s*top[-\s]?([15])(?:\s*\(\s*(?:val|test|dev)\.?\s*\))?\s*$")
_AGGREGATE = re.compile(r"(?i)^\s*(?:avg\.?|average|mean|overall|all|total)\s*$")
_STAT = re.compile(r"(?i)^\s*(mean|median)\s*:?\s*$")
_UNITS_ON = re.compile(
    r"\bon\s+(?:the\s+)?(?:\d+\s+)?(?P<name>[A-Z][\w\-]*(?:\s+\d{2,4})?)\s+"
    r"(?:games|environments|tasks|domains|levels)\b")
_DEV_WORD = re.compile(r"(?i)\b(?:dev|development|validation)\b")
_SET_HEADER = re.compile(r"(?i)\b(?:test\s?sets?|data\s?sets?|benchmarks?)$")
#: A header naming one dataset by its noun ('Zeta Dataset', 'QX-7 benchmark'): what precedes
#: the noun is the name.
_NAMED_SET = re.compile(r"(?i)^(?P<name>.+?)\s+(?:data\s?set|benchmark|corpus)$")


def _named_set(header: str) -> str | None:
    """The name a header gives with a dataset noun after it ('Zeta Dataset' -> 'Zeta'): the
    corner of a block on that dataset, not the heading of a column of datasets ('Test set',
    'Data sets'). None when the header names none."""
    match = _NAMED_SET.match(header.strip())
    name = without_split(match.group("name")).strip(" .,:-") if match else ""
    return name if name and looks_like_name(name) and not is_generic(name) else None
_TRAIN_DATA = re.compile(r"(?i)^(?:train|trainval|\d\d\+|[\w\-]*\+\d\d)")


@dataclass
class _Column:
    """What a value column's header says."""

    metric: str | None
    name: str
    split: str
    skip: str | None
    percent: bool
    topk: str | None = None
    qualifier: str = ""
    blank: bool = False
    placeholder: bool = False
    fragment: bool = False


_TOPK_MENTION = re.compile(r"(?i)\btop[-\s]?[15]\b")
_TOPK_FAMILY = re.compile(r"(?i)\b(?:(error)s?|(acc)(?:uracy|uracies|\.)?)\b")


def topk_family(texts: list[str]) -> str | None:
    """'error' or 'accuracy': what the paper calls its top-1/top-5 figures ('two error rates:
    top-1 and top-5', an axis 'Top 1 Accuracy'), when it calls them only one of the two."""
    families = set()
    for text in texts:
        text = re.sub(r"\s+", " ", text)
        for match in _TOPK_MENTION.finditer(text):
            window = text[max(0, match.start() - 30):match.end() + 30]
            for error, acc in _TOPK_FAMILY.findall(window):
                families.add("error" if error else "accuracy" if acc else "")
    families.discard("")
    return families.pop() if len(families) == 1 else None


_SYMBOL_AFTER = re.compile(
    r"^(?:['’]s)?(?:\s+(?:rank|correlations?|coefficients?))*\s*\(?\s*"
    r"(?P<symbol>[A-Za-z]{1,2}|[\u03b1-\u03c9])\s*\)?(?=[\s,.;:)]|$)")
_NOT_SYMBOL = {"a", "an", "as", "at", "be", "by", "in", "is", "it", "of", "on", "or", "to", "we"}
#: the letter a statistic is conventionally printed as, used only when the caption names it
_CONVENTIONAL = {"pearson_corr": ("r",), "spearman_corr": ("ρ", "rho")}
_REMAINING = re.compile(
    r"(?i)\b(?:the\s+)?(?:remaining|other|rest\s+of\s+the)\s+(?:\w+\s+)?(?:columns?\s+)?"
    r"(?:indicate|are|show|report|give|denote|list)s?\s+(?P<what>[^.;]+)")


def caption_symbols(caption: str) -> dict[str, str]:
    """Metric symbols a caption defines ('agreement as Pearson's r and Spearman's ρ'), and the
    conventional letters of the correlations it names (r, ρ), lower case."""
    out: dict[str, str] = {}
    mentions = find_metric_mentions(caption)
    for metric, _, _ in mentions:
        for symbol in _CONVENTIONAL.get(metric, ()):
            out.setdefault(symbol, metric)
    for metric, _, end in mentions:
        match = _SYMBOL_AFTER.match(caption[end:end + 40])
        if match and match.group("symbol").lower() not in _NOT_SYMBOL:
            out[match.group("symbol").lower()] = metric
    return out


def remaining_metric(caption: str) -> str | None:
    """The metric of the columns a caption describes as the rest ('... then MSE; the other
    columns are accuracy'), after naming what the first columns hold."""
    match = _REMAINING.search(caption)
    mentions = find_metric_mentions(match.group("what")) if match else []
    return mentions[0][0] if len({m for m, _, _ in mentions}) == 1 else None


def _metric_of(text: str, abbreviations: dict[str, str]) -> str | None:
    mentions = find_metric_mentions(text)
    if mentions:
        return mentions[0][0]
    for token in re.findall(r"[\w@\-]+", text):
        if token.lower() in abbreviations:
            return abbreviations[token.lower()]
    return None


def _column(table: ParsedTable, col: int, abbreviations: dict[str, str],
            caption_metric: str | None, context: PaperContext | None = None,
            aliases: dict[str, str] | None = None, prose_topk: str | None = None) -> _Column:
    parts = table.column_header(col)
    text = " ".join(parts)
    skip = None
    match = _NON_RESULT.search(text)
    if match and not re.search(r"(?i)\btest\b", match.group(1)):
        skip = f"column '{text}' is not a result ({match.group(1).strip()})"
    metric = _metric_of(text, abbreviations)
    topk = _TOPK.match(text)
    if topk and caption_metric in {"error_rate", "accuracy", "top1_error", "top5_error",
                                   "top1_accuracy", "top5_accuracy"}:
        family = "error" if "error" in caption_metric else "accuracy"
        metric = f"top{topk.group(1)}_{family}"
    elif topk and metric is None and prose_topk:
        metric = f"top{topk.group(1)}_{prose_topk}"  # what the paper's prose calls top-k
    parts = [aliases.get(normalize_key(p), p) for p in parts] if aliases else parts
    parts = _closed(parts)
    qualifier = " ".join(re.findall(r"\(([^()]{2,40})\)", re.sub(r"-\s+", "-", text)))
    outside = re.sub(r"\([^()]*\)", " ", text)  # 'Error rate (Fine-grained)', not 'DQN (tuned)'
    qualifier = qualifier if qualifier and not find_metric_mentions(qualifier) and not (
        is_generic(without_split(qualifier))) and find_metric_mentions(outside) else ""
    parts = [re.sub(r"\(([^()]{1,12})\)", lambda m: " " if _metric_of(  # 'Set(r)': a metric
        m.group(1), abbreviations) else m.group(0), p) for p in parts]
    names = [without_split(clean_name(p)) for p in parts]
    names = [_TASK_WORDS.sub(" ", n) for n in names]
    names = [re.sub(r"\s+", " ", n).strip(" .,-") for n in names]
    names = [n for n in names if n and not is_generic(n)]
    # a spanning header over a qualifier ("Citation" over "Unsup. F1"): the dataset level wins
    strict = [n for n in names if context is not None and context.is_dataset(n)]
    loose = [n for n in names if context is not None and context.names_dataset(n)]
    last = names[-1] if names else ""
    name = (strict[-1] if strict else last if last in loose or _acronym(last)
            else loose[-1] if loose else last)
    if parts and training_header(parts[-1]):
        name = ""  # 'Train: X', 'X-pretrained': what the models were trained on, not tested on
    dev = _DEV_WORD.search(text)
    if name and dev and normalize_key(dev.group(0)) not in normalize_key(name):
        name = f"{name} {dev.group(0)}"  # 'Regular Dev': a dev result is not a test result
    return _Column(metric, name, split_from(text), skip, "%" in text or "percent" in text.lower(),
                   topk=topk.group(1) if topk else None, qualifier=qualifier,
                   fragment=bool(re.search(r"[,:]\s*$", parts[-1] if parts else "")),
                   blank=not re.search(r"\w", text), placeholder=bool(text.strip()) and not (
                       re.search(r"\w", text)))


def _in_caption(label: str, caption: str) -> bool:
    """True when a row label with a digit ('32x32:', '4-shot') is printed in the caption: it
    names a setting or subset of the caption's dataset, not a method."""
    def flat(text: str) -> str:
        return re.sub(r"\s*[×x]\s*", "x", unicodedata.normalize("NFKC", text).lower())

    key = flat(label).strip(" :")
    return bool(re.search(r"\d", key)) and len(key) >= 2 and bool(
        re.search(rf"(?<![\w.-]){re.escape(key)}(?![\w.-])", flat(caption)))


def _corner_datasets(table: ParsedTable, context: PaperContext) -> list[str]:
    """The dataset a sub-table names in its top-left header cell ('ZetaSet' over a column of
    methods): a known dataset name, with split words and counts removed."""
    headers = table.label_headers()
    corner = headers[0].strip() if headers else ""
    named = _named_set(corner) if table.label_cols == 1 else None
    if named and not context.is_own(named):
        return [named]  # 'Zeta Dataset' over a column of methods: the noun presents it
    name = without_split(clean_name(re.sub(r"\([\d,.\s]*\)", " ", corner)))
    name = re.sub(r"(?i)\b(?:average|mean|overall)\b", " ", name)
    name = re.sub(r"\s+", " ", name).strip(" .,-")
    return [name] if name and context.is_dataset(name) and not context.is_own(name) else []


_KIND_OF_ROWS = re.compile(  # 'ABC methods' over a block: what the rows are, not the data
    r"(?i)\b(?:methods?|models?|baselines?|approach(?:es)?|systems?|variants?|ours|results?|"
    r"settings?|configurations?)\b")


_POINTER = re.compile(r"\b(?:Tables?|Tab\.|Figures?|Fig\.)\s*(?P<id>[A-Z]{0,2}\d+[a-z]?)\b")


def _labels_name_metrics(table: ParsedTable, abbreviations: dict[str, str]) -> bool:
    """True when a column header or a row label of the table names a metric ('AP', 'Zentrix
    mAP'): the table reports results, whatever cost (speed, time, memory) its caption also
    remarks on ('the wider model is slower to run')."""
    labels = [" ".join(table.column_header(c)) for c in range(table.label_cols, max(
        (len(r) for r in table.rows), default=0))]
    labels += [table.row_label(r) for r in range(len(table.rows))]
    return any(_metric_of(text, abbreviations) and not _NON_RESULT.search(text)
               for text in labels if text)


def _own_caption_text(caption: str, number: str | None) -> str:
    """The caption without its later sentences about another table or figure ('... Table S3
    shows the raw scores'): their metrics are that table's, not this one's."""
    sentences = re.split(r"(?<=[.;])\s+(?=[A-Z])", _CAPTION_PREFIX.sub("", caption))
    kept = [s for k, s in enumerate(sentences) if k == 0 or not any(
        m.group("id") != (number or "") for m in _POINTER.finditer(s))]
    return " ".join(kept)


def _spanning_title(table: ParsedTable) -> str | None:
    """The top header cell printed once over every value column, above header rows that split
    them ('ZetaSet' over 'Text search | Image search'), or None."""
    if len(table.header) < 2:
        return None
    top = table.header[0]
    values = {t.strip() for t in top[table.label_cols:]}
    if len(values) != 1 or any(t.strip() for t in top[:table.label_cols]) or "" in values:
        return None
    return values.pop()


def _acronym(name: str) -> bool:
    """Two capitals or a digit ('ABCD', 'XyZ', 'Q7'): a name, not a qualifier word."""
    return bool(re.search(r"\d", name)) or len(re.findall(r"[A-Z]", name)) >= 2


def _measured_on(caption: str, offset: int) -> bool:
    """True when the name at ``offset`` follows a metric or an evaluation verb and 'on'
    ('Exact match on X', 'tested on X'): what the caption measures is on it."""
    before = caption[:offset]
    on = re.search(r"\s+on\s+(?:the\s+)?$", before)
    if on is None:
        return False
    head = before[:on.start()]
    return bool(re.search(r"(?i)\b(?:tested|evaluated|measured)$", head)) or any(
        end == len(head) for _, _, end in find_metric_mentions(head))


def _caption_datasets(caption: str, context: PaperContext) -> list[str]:
    """Dataset names a caption gives ("on the ZetaSet dataset"), not the names its
    legend glosses a code with (:func:`without_legend`)."""
    caption = without_legend(caption)
    found = [n for n, _ in name_phrases(caption, caption=True)]
    if not found:
        found = [p for n, o in on_names(caption) for p in re.split(r"\s*(?:,|\band\b)\s*", n)
                 if context.is_dataset(p) or (_OTHER_NAME.fullmatch(p.split()[0]) and re.search(
                     r"\bon\s+(?:the\s+)?$", caption[max(0, o - 12):o])) or (
                     _measured_on(caption, o) and looks_like_name(p))]
    if len(found) > 1:  # 'Tagging results (ZetaBank test set)': the set named as a set wins
        strong = [n for n in found if any(  # 'the X and Y datasets' names both: no winner
            not re.search(r"(?<!u)s$", m.group(1)) for m in re.finditer(
                rf"(?<![\w-]){re.escape(n)}\s+({STRONG_NOUN})\b", caption))]
        found = strong if len(strong) == 1 else found
    if len(found) > 1:  # 'ZetaSet test set ... fine-tuned on the ZS dataset': the test set
        tested = [n for n in found if re.search(
            rf"(?<![\w-]){re.escape(n)}\s+(?:test|evaluation)\b", caption)]
        found = tested if len(tested) == 1 else found
    if not found:  # 'on 12 arcade games': the suite the units of evaluation belong to
        found = [m.group("name") for m in _UNITS_ON.finditer(caption)]
    if not found:  # names the paper uses as datasets elsewhere, printed in the caption
        text = _CAPTION_PREFIX.sub("", caption)
        found = [n for n in context.dataset_names.values() if looks_like_name(n) and re.search(
            rf"(?<![\w-]){re.escape(n)}(?![\w-])", text) and not training_data(n, text)]
        found = [n for n in found if not any(n != o and n in o for o in found)]
    out: list[str] = []
    for name in found:
        name = " ".join(t for t in without_split(name).split() if not _SPLIT_ID.match(t))
        name = name.strip(" .,-")
        if name and not is_generic(name) and not context.is_own(name) and clean_name(
                name) and all(normalize_key(name) != normalize_key(o) for o in out):
            out.append(name)
    if len(out) == 1:  # 'on X. The last two columns report Y': two readings, neither sure
        out += [n for n in other_datasets_in(caption, out, context.dataset_names.values())
                if not context.is_own(n)]
    return out


_SUBCAPTION_MARK = re.compile(rf"^\s*{SUBCAPTION_MARK}\s+")


def _title_datasets(table: ParsedTable, context: PaperContext) -> tuple[list[str], str]:
    """The datasets the table's own title names (its sub-caption, top-left cell or a header
    printed once over every value column), and their source ('' for table_title)."""
    title_datasets = _caption_datasets(table.title or "", context) if table.title else []
    if not title_datasets:
        title_datasets = _corner_datasets(table, context)
    if title_datasets:
        return title_datasets, ""
    spanning = _spanning_title(table)
    if spanning and _acronym(spanning) and not find_metric_mentions(spanning) and not (
            context.is_own(spanning)) and not _KIND_OF_ROWS.search(spanning):
        # 'ZetaSet' printed once over every value column
        return [spanning], ("table_title" if context.is_dataset(spanning) or context.presents(
            spanning) else "column_unconfirmed")
    named = _subcaption_name(table.title or "", context)
    if named:  # '(a) ZetaSet' under (or over) its panel: a name alone
        return [named], "table_title" if context.presents(named) else "subcaption_unconfirmed"
    return [], ""


def _subcaption_name(title: str, context: PaperContext) -> str | None:
    """The name a panel's sub-caption prints alone ('(a) ZetaSet-10'), not a metric, the
    paper's own method or a phrase (a method or a setting may be printed so too: the caller
    trusts it only when the paper presents it as a dataset)."""
    mark = _SUBCAPTION_MARK.match(title)
    name = title[mark.end():].strip(" .:") if mark else ""
    if not name or len(name.split()) > 3 or find_metric_mentions(name) or context.is_own(name):
        return None
    return name if looks_like_name(name) and not is_generic(name) and clean_name(name) else None


def _caption_order(table: ParsedTable, columns: dict[int, _Column],
                   datasets: list[str]) -> dict[int, str]:
    """Value columns mapped to the caption's datasets in order, when the caption names N >= 2
    datasets, no column header names anything, and the column headers are one block of
    metrics printed N times ('Method | P | R | F1 | P | R | F1' under 'on X and Y')."""
    cols = [c for c, info in sorted(columns.items()) if not info.skip]
    heads = [normalize_key(" ".join(table.column_header(c))) for c in cols]
    n = len({normalize_key(d) for d in datasets})
    if n < 2 or n != len(datasets) or not cols or len(cols) % n or not any(
            columns[c].metric for c in cols) or any(columns[c].name for c in cols):
        return {}
    size = len(cols) // n
    blocks = [heads[i * size:(i + 1) * size] for i in range(n)]
    if any(block != blocks[0] for block in blocks):
        return {}
    return {c: datasets[i // size] for i, c in enumerate(cols)}


def _single(values: list[str]) -> str | None:
    keys = {normalize_key(v) for v in values}
    return values[0] if len(keys) == 1 else None


def _reference_facts(table: ParsedTable, context: PaperContext
                     ) -> tuple[list[str], list[str], dict[str, str]]:
    """Metrics and dataset names in the sentences that reference the table, and the metrics
    such a sentence gives one dataset ('the AUC achieved on the zelda dataset': that dataset's,
    not the table's), by the dataset's key."""
    metrics: list[str] = []
    datasets: list[str] = []
    tied: dict[str, str] = {}
    for _, _, sentence in context.references(table.kind, table.number)[:4]:
        for metric, _, end in find_metric_mentions(sentence):
            name = metric_of_one_dataset(sentence, end, context.is_dataset)
            if name is None:
                metrics.append(metric)
            else:
                tied.setdefault(normalize_key(name), metric)
        datasets += [n for n, _ in name_phrases(sentence) if not context.is_own(n)]
    return list(dict.fromkeys(metrics)), list(dict.fromkeys(datasets)), tied


def _dataset_header(table: ParsedTable, col: int) -> bool:
    """True when the label column ``col`` is headed as datasets ('Dataset', 'Task', 'Test
    set'; not 'Name', which also heads method rows)."""
    headers = table.label_headers()
    header = headers[col].strip() if col < len(headers) else ""
    return bool(_DATASET_HEADER.match(header) or (
        _SET_HEADER.search(header) and not _named_set(header))) and not (
        header.lower().startswith("name"))


def _dataset_label_columns(table: ParsedTable, context: PaperContext) -> list[int]:
    """Label columns that hold dataset names (header 'Dataset', or known dataset names)."""
    out = []
    headers = table.label_headers()
    for col in range(table.label_cols):
        values = {r[col].strip() for r in table.rows if col < len(r) and r[col].strip()}
        if values and sum(bool(_TRAIN_DATA.match(v)) for v in values) >= 0.5 * len(values):
            continue  # training data ('trainval', '07+12'), not what the results are on
        header = headers[col].strip() if col < len(headers) else ""
        if _DATASET_HEADER.match(header) and headed_columns(
                table, context.presents, lambda h: role_of(h, "", context) != "unknown"):
            continue  # 'Datasets | A | B' over method rows: the columns are the datasets
        if _DATASET_HEADER.match(header) or (_SET_HEADER.search(header) and not (
                _named_set(header))):
            out.append(col)
            continue
        if any(context.is_own(v) for v in values):
            continue  # the paper's own method is a row: the rows are methods
        known = [v for v in values if context.is_dataset(v)]
        if values and len(known) >= max(1, 0.5 * len(values)) and (
                len(values) >= 2 or table.label_cols > 1):
            out.append(col)
        elif col == 0 and known and not header and _keys_method_rows(table, values, context):
            out.append(col)
        elif col == 0 and not header and table.label_cols == 1 and _names_beside_own_column(
                table, values, context):
            out.append(col)
    first = {r[0].strip() for r in table.rows if r and r[0].strip()}
    parts = {r[1].strip() for r in table.rows if len(r) > 1 and r[1].strip()}
    if table.label_cols == 2 and len(first) >= 2 and all(is_language_code(v) for v in first) and (
            parts and all(role_of(v, "", context) == "unknown" for v in parts)):
        # 'EN | Semantic', 'EN | Syntactic': a language's parts are the datasets, the value
        # columns the methods
        return [0, 1]
    return out


_IOU = re.compile(r"^\s*(0?\.\d+)(?:\s*:\s*(0?\.\d+))?\s*$")
_IOU_AP = {"0.5": "ap50", ".5": "ap50", "0.75": "ap75", ".75": "ap75"}


def _threshold_metrics(table: ParsedTable, columns: dict[int, _Column]) -> None:
    """IoU thresholds in a header row read as a body row ('Method | 0.5:0.95 | 0.5 | 0.75'
    under one header, beside a range or 'IoU'): each column's AP at its threshold (AP over the
    range, AP50, AP75), in place. Without them the columns under one header share one metric.
    A header whose columns all print one threshold keeps its metric (mAP at 0.5 is mAP)."""
    rows = [r for r in table.rows if r and _HEADING_ROW.match(r[0])]
    text = " ".join([table.caption or "", *(" ".join(table.column_header(c)) for c in columns)])
    for row in rows:
        cells = {c: m for c in columns if c < len(row) and (m := _IOU.match(row[c]))}
        ranged = any(m.group(2) for m in cells.values())
        if len(cells) < 2 or not (ranged or re.search(r"(?i)\biou\b", text)):
            continue
        groups: dict[str, set[str]] = {}  # the thresholds printed under each header
        for col, match in cells.items():
            groups.setdefault(" ".join(table.column_header(col)), set()).add(match.group(0))
        for col, match in cells.items():
            info = columns[col]
            if len(groups[" ".join(table.column_header(col))]) > 1 and info.metric in (
                    None, "ap", "map"):
                info.metric = "ap" if match.group(2) else _IOU_AP.get(match.group(1),
                                                                       info.metric)


_KINDS_OF = re.compile(
    r"(?i)\b(?:types?|kinds?|variants?|versions?|flavou?rs?)\s+of\s+(?:the\s+)?"
    r"([\w()-]+)(?:\s+([\w()-]+))?")
_DATA_WORDS = re.compile(r"(?i)^(?:data(?:sets?)?|tasks?|benchmarks?|corp(?:us|ora)|"
                         r"problems?|domains?|languages?|splits?|sets?)$")


def _columns_are_kinds(caption: str, names: list[str]) -> bool:
    """True when the caption says what the columns are: kinds of a model ('the four types of
    ZNets', 'three variants of ZNet') whose name two or more column headers print
    ('ZNet', 'D-ZNet', 'qZNet'). Such columns hold the results of those models, on data named
    elsewhere (the rows, the section), never datasets."""
    for match in _KINDS_OF.finditer(caption):
        for word in filter(None, match.groups()):  # 'kinds of ZNets', 'kinds of deep ZNets'
            kind = re.sub(r"(?<=[A-Za-z0-9)])'?s$", "", word)
            if len(kind) < 3 or _DATA_WORDS.match(kind) or _DATA_WORDS.match(word):
                continue
            if sum(1 for n in names if kind.lower() in n.lower()) >= 2:
                return True
    return False


_SERIES_CODE = re.compile(r"^([A-Za-z]{1,3})(\d{1,2})$")


def _series_codes(table: ParsedTable, columns: dict[int, _Column],
                  abbreviations: dict[str, str]) -> None:
    """Headers that number a series ('r0 | r1 | R2': three settings of a retrieval step) are
    no metric, even when one of them spells one ('R2', the coefficient of determination): three
    or more columns whose last header level is the same letters followed by consecutive
    numbers enumerate settings (two when one of them names no metric: 'r1 | R2' repeated under
    each dataset). Such a column reads its metric from its other levels only (in
    place); the caption's metric then applies as to its siblings."""
    series: dict[str, dict[int, int]] = {}
    for col in columns:
        parts = table.column_header(col)
        match = _SERIES_CODE.match(parts[-1].strip()) if parts else None
        if match:
            series.setdefault(match.group(1).lower(), {})[col] = int(match.group(2))
    for members in series.values():
        numbers = sorted(set(members.values()))
        if len(numbers) < 2 or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            continue
        if len(numbers) == 2 and all(_metric_of(table.column_header(col)[-1], abbreviations)
                                     for col in members):
            continue  # 'R1 | R2' both spell a metric; 'r1 | R2' (repeated per group) number
            # two settings, one of which names no metric
        for col in members:
            rest = " ".join(table.column_header(col)[:-1])
            columns[col].metric = _metric_of(rest, abbreviations) if rest.strip() else None


def _names_beside_own_column(table: ParsedTable, values: set[str], context: PaperContext
                             ) -> bool:
    """A header-less label column of names ('Quorvex', 'Harlow-2') whose value columns are
    methods, the paper's own among them ('kNN | SVM | Ours') or kinds of one model the caption
    names ('the three types of ZNets' over 'ZNet | D-ZNet | qZNet', one row at least presented
    as a dataset): the rows are the datasets the methods are compared on (a layout link: below
    the plan threshold)."""
    heads = [" ".join(table.column_header(c)) for c in range(
        table.label_cols, max((len(r) for r in table.rows), default=0))]
    if len(values) < 2 or not (any(role_of(h, "", context) == "own" for h in heads) or (
            # kinds of a model as columns: one row at least the paper presents as a dataset
            _columns_are_kinds(table.caption or "", heads)
            and any(context.presents(v) for v in values))):
        return False
    return all(looks_like_name(v) and role_of(v, "", context) == "unknown"
               and not find_metric_mentions(v) for v in values)


def _keys_method_rows(table: ParsedTable, values: set[str], context: PaperContext) -> bool:
    """A first label column without a header, beside a column of method names that include the
    paper's own, under a caption about datasets ('Results on transfer datasets': 'Quorvex |
    Ours-S', 'Harlow | Ours-L'): each row is the pair (dataset, method), so the first
    column names the datasets, the known and the unknown ones alike."""
    if table.label_cols < 2 or not _DATASETS_CAPTION.search(table.caption or ""):
        return False
    methods = {r[1].strip() for r in table.rows if len(r) > 1 and r[1].strip()}
    return all(looks_like_name(v) and not context.is_own(v) for v in values) and any(
        context.is_own(m) for m in methods)


def table_candidates(
    tables: list[ParsedTable], pages: PaperPages, context: PaperContext
) -> tuple[list[Candidate], list[str]]:
    """Candidates for every value cell of every results table, and their table group ids."""
    texts = {p.page_no: p.text for p in pages.pages}
    out: list[Candidate] = []
    groups: list[str] = []
    prose_topk = topk_family([p.text for p in pages.pages])
    reported = reported_families(tables)
    above: _Neighbour | None = None
    for index, table in enumerate(tables):
        near = above if above and 0 <= table.page_no - above.page <= 1 else None
        cands = _table(table, texts.get(table.page_no, ""), context, prose_topk, near, reported)
        out += cands
        groups += [f"t{index}"] * len(cands)
        named = _caption_datasets(table.caption or "", context)
        if len(named) == 1 and table.caption != (above.caption if above else None):
            above = _Neighbour(named[0], table.caption or "", table.page_no, frozenset(
                c.metric_name for c in cands if c.metric_name and not c.reason))
        elif table.caption != (above.caption if above else None):
            above = None  # the table above names no one dataset: it breaks the chain
    return out, groups


def _unnamed_below(above: _Neighbour | None, named: list[str], caption: str,
                   context: PaperContext) -> _Neighbour | None:
    """The table above, for a table whose caption and title name no data at all."""
    return above if not named and not _other_names(caption, context) else None


@dataclass(frozen=True)
class _Neighbour:
    """The table printed before a table: the one dataset its caption names, its caption, page
    and the metrics its cells were read under."""

    dataset: str
    caption: str
    page: int
    metrics: frozenset[str]


def _table(table: ParsedTable, page_text: str, context: PaperContext,
           prose_topk: str | None = None, above: _Neighbour | None = None,
           reported: frozenset[str] = frozenset()) -> list[Candidate]:
    caption = table.caption or ""
    abbreviations = {**caption_symbols(caption), **caption_abbreviations(caption)}
    metric_map = caption_metric_map(caption)
    caption_metrics = list(dict.fromkeys(
        m for m, _, _ in find_metric_mentions(_own_caption_text(caption, table.number))))
    caption_metric = caption_metrics[0] if len(caption_metrics) == 1 else None
    ref_metrics, ref_datasets, tied_metrics = _reference_facts(table, context)
    caption_datasets = _caption_datasets(caption, context)
    title_datasets, title_source = _title_datasets(table, context)
    percent_table = bool(re.search(r"%|\bpercent", caption))
    table_skip = None
    non_result = _NON_RESULT_TABLE.search(caption)
    if non_result and re.search(r"(?i)\b(?:last|first|right(?:most)?|left(?:most)?|this)\s+"
                                r"columns?\b[^.]*$", caption[:non_result.start()]):
        non_result = None  # 'in the last column we report running time': one column, not all
    if non_result and re.search(r"(?i)hyper|statistic", non_result.group(0)) is None and (
            _labels_name_metrics(table, abbreviations)):
        non_result = None  # costs printed beside results: refused row by row, column by column
    if non_result and not caption_metrics:
        table_skip = f"{table.label} reports {non_result.group(0).strip()}, not results"
    width = max(len(r) for r in table.rows)
    signed = signed_columns(table.rows, list(range(table.label_cols, width)))
    implied = _implied_metric(table, context, caption_metrics, ref_metrics, signed)
    section_dataset = context.section_dataset(table.kind, table.number)
    trained_on = _trained_and_tested_on(caption, context) if not (
        caption_datasets or title_datasets) else None
    dataset_cols = _dataset_label_columns(table, context)
    headed_cols = [c for c in dataset_cols if _dataset_header(table, c)]
    rows_are_datasets = 0 in dataset_cols and table.label_cols == len(dataset_cols)
    aliases = caption_aliases(caption)
    columns = {c: _column(table, c, abbreviations, caption_metric, context, aliases, prose_topk)
               for c in range(table.label_cols, width)}
    if table_skip:
        for info in columns.values():
            info.skip = info.skip or table_skip
    for col in signed:  # '+0.1' / '−0.5' beside each value: its gain over a reference row
        columns[col].skip = columns[col].skip or "a column of signed differences, not results"
    _threshold_metrics(table, columns)
    _series_codes(table, columns, abbreviations)
    rest = remaining_metric(caption)
    if rest and any(i.metric for i in columns.values()):  # 'the remaining indicate accuracy'
        for info in columns.values():
            info.metric = info.metric or (None if info.skip or info.blank else rest)
    says_datasets = bool(_DATASETS_CAPTION.search(caption))
    name_cols = [c for c, info in columns.items() if info.name and not info.skip]
    known_cols = [c for c in name_cols if context.is_dataset(columns[c].name)]
    presented_cols = [c for c in known_cols if context.presents(columns[c].name)]
    methods_as_columns = rows_are_datasets or any(
        context.is_own(columns[c].name) or role_of(columns[c].name, "", context) != "unknown"
        for c in name_cols) or _columns_are_kinds(caption, [columns[c].name for c in name_cols])
    shape = TableColumns(  # what the columns say, for the ambiguity rules (claims.ambiguity)
        residues={c: column_residue(" ".join(table.column_header(c)), caption)
                  for c, i in columns.items() if not i.skip},
        metrics={c: i.metric for c, i in columns.items() if not i.skip},
        methods_as_columns=methods_as_columns, groups=data_groups(
            table.groups, [table.row_label(r) for r in range(len(table.rows))]), caption=caption,
        counts=count_columns(table.rows, [c for c, i in columns.items() if not i.skip]),
        constants=constant_columns(table.rows, [c for c, i in columns.items() if not i.skip]))
    transposed = not dataset_cols and any(
        metric_row(table.row_label(r)) for r in range(len(table.rows)))
    cues = _TableCues(
        metric_map=metric_map, caption_metric=caption_metric, caption_metrics=caption_metrics,
        ref_metrics=ref_metrics, tied_metrics=tied_metrics, implied=implied,
        caption_datasets=caption_datasets,
        section_dataset=section_dataset, title_datasets=title_datasets, trained_on=trained_on,
        ref_datasets=ref_datasets, title_source=title_source, percent_table=percent_table,
        methods_as_columns=methods_as_columns, says_datasets=says_datasets or bool(known_cols),
        caption_says_datasets=says_datasets, context=context, n_columns=len(columns),
        n_dataset_columns=0 if methods_as_columns else len(known_cols),
        dataset_axis=len({normalize_key(columns[c].name) for c in presented_cols}) >= 2,
        above=_unnamed_below(above, caption_datasets + title_datasets, caption, context),
        caption_order=_caption_order(table, columns, caption_datasets),
        caption_family=_caption_family(caption_datasets, columns),
        transposed=transposed, reported=reported,
        layout=table_layout(bool(dataset_cols), methods_as_columns, transposed, len(known_cols)))
    metric_rows = 0 if dataset_cols else sum(
        1 for r in range(len(table.rows)) if metric_row(table.row_label(r)))
    out: list[Candidate] = []
    wrapped = _wrapped_labels(table, dataset_cols, context)
    # per column, read once (read per row, it was quadratic in the rows)
    decimals_of = {col: column_decimals([x[col] for x in table.rows if col < len(x)])
                   for col in columns}
    for r, row in enumerate(table.rows):
        label_cells = [wrapped.get((r, c), cell) for c, cell in enumerate(row[: table.label_cols])]
        row_dataset = " ".join(label_cells[c] for c in dataset_cols if c < len(label_cells))
        row_presented = bool(row_dataset.strip()) and (
            any(c < len(label_cells) and label_cells[c].strip() for c in headed_cols)
            or context.presents(row_dataset)
            or any(context.presents(label_cells[c]) for c in dataset_cols
                   if c < len(label_cells) and label_cells[c].strip()))
        method_cells = [c for i, c in enumerate(label_cells) if i not in dataset_cols and c]
        method = " ".join(dict.fromkeys(method_cells))
        group = table.groups[r] if r < len(table.groups) else ""
        label = table.row_label(r)
        row_metric = None
        named = method if dataset_cols and method else label  # 'SetA | HR@10': the metric cell
        if find_metric_mentions(named) and not clean_name(named):
            row_metric = find_metric_mentions(named)[0][0]
            method = "" if named == method else method
        elif metric_rows and not row_dataset.strip():
            row_metric = metric_row(label)  # 'ZQ-12 mAP' in a transposed table
        printed_row = [v.printed for c in row[table.label_cols:] for v in parse_cell_values(c)]
        row_headed = any(c < len(label_cells) and label_cells[c].strip() for c in headed_cols)
        row_cues = _RowCues(row_dataset, method, group, label, row_metric, row_presented,
                            row_headed)
        start = len(out)
        for col, info in columns.items():
            if col >= len(row) or not row[col].strip():
                continue
            decimals = decimals_of[col]
            for k, value in enumerate(parse_cell_values(row[col], decimals)):
                cand = _cell(table, col, k, value, info, cues, row_cues)
                quote = (row_quote(page_text, label, printed_row, value.printed)
                         or value_context(page_text, value.printed, [label, info.name]))
                cand.quoted_text = quote or f"{label} {value.printed}"
                check_cell(cand, col, shape, row_metric, group)
                cand.reason = cand.reason or _row_refusal(
                    row[table.label_cols:], info, row_cues, metric_rows)
                out.append(cand)
        inverted_top_k(out[start:])
    return out


def _wrapped_labels(table: ParsedTable, dataset_cols: list[int], context: PaperContext
                    ) -> dict[tuple[int, int], str]:
    """A dataset label wrapped over two lines beside a block of rows ('ALPHA' on one row,
    'LONG' on the next, the rows around filled from the nearer line) reads as two labels: when
    the two words joined name a dataset the paper uses and the second alone does not, both
    labels' rows take the joined name. Returns (row, column) -> label."""
    out: dict[tuple[int, int], str] = {}
    for col in dataset_cols:
        cells = [row[col] if col < len(row) else "" for row in table.rows]
        runs: list[tuple[int, int, str]] = []  # (first row, end row, label)
        for r, cell in enumerate(cells):
            if runs and cells[r - 1] == cell:
                runs[-1] = (runs[-1][0], r + 1, cell)
            else:
                runs.append((r, r + 1, cell))
        for (a0, _, first), (_, b1, second) in zip(runs, runs[1:], strict=False):
            joined = f"{first} {second}"
            if first.strip() and second.strip() and context.is_dataset(
                    joined) and not context.is_dataset(second):
                out.update({(r, col): joined for r in range(a0, b1)})
    return out


def _row_refusal(cells: list[str], info: _Column, row: _RowCues,
                 metric_rows: int) -> str | None:
    """Why a row's values are no results: it prints the sizes of the columns' data, or it is
    a setting of a transposed table (other rows name metrics, it names none)."""
    if size_row(cells):
        return ("a row of whole numbers in parentheses: the sizes of the columns' data, "
                "not results")
    if metric_rows and not row.dataset.strip():
        return unfixed_row(info.metric, row.label, metric_rows)
    return None


@dataclass(frozen=True)
class _TableCues:
    """What a table as a whole says about its cells: the metrics and datasets of its caption,
    title, the text that references it and the paper, and its layout."""

    metric_map: list[tuple[str, list[str]]]
    caption_metric: str | None
    caption_metrics: list[str]
    ref_metrics: list[str]
    #: dataset key -> the metric a sentence citing the table gives that dataset alone
    tied_metrics: dict[str, str]
    implied: str | None
    caption_datasets: list[str]
    section_dataset: str | None
    title_datasets: list[str]
    ref_datasets: list[str]
    title_source: str
    percent_table: bool
    methods_as_columns: bool
    says_datasets: bool
    caption_says_datasets: bool
    context: PaperContext
    n_columns: int
    n_dataset_columns: int
    #: most name columns are datasets the paper presents: the columns run over datasets
    dataset_axis: bool = False
    #: value column -> the caption dataset of its block, when the caption names N datasets and
    #: the unnamed metric columns repeat one block N times ('P R F1 | P R F1')
    caption_order: dict[int, str] = field(default_factory=dict)
    #: the table printed just before, when this one's caption names no data (an ablation
    #: under the main table: its cells are on the main table's dataset, weakly)
    above: _Neighbour | None = None
    #: the caption's one dataset when no column header names it: headers the caption prints
    #: beside it ('Hourly: 1-8, Daily: 1-14') are its parts, not other datasets
    caption_family: str | None = None
    #: a row label is a metric ('ZQ-12 mAP'): the columns are methods or settings
    transposed: bool = False
    #: the kinds of classification figures the paper's tables report ('accuracy', 'error')
    reported: frozenset[str] = frozenset()
    #: the one dataset the caption names only as training data, when it reports test figures
    #: and names no other data ('test BPC of models trained on the X dataset')
    trained_on: str | None = None
    #: the table's layout (see claims.provenance.TableLayout)
    layout: str = "one_dataset"


#: A caption reporting figures on a test split ('Test set BPC', 'test error').
_TEST_FIGURES = re.compile(r"(?i)\btest(?:\s+set|\s+sequences?)?\b")


def _trained_and_tested_on(caption: str, context: PaperContext) -> str | None:
    """The one dataset a caption names only as the training data of its models, when the
    caption reports test figures and names no other data: 'Test BPC of the models trained on
    the X dataset' reports X's test split (a context link, below the plan threshold)."""
    text = _CAPTION_PREFIX.sub("", caption)
    if not _TEST_FIGURES.search(text):
        return None
    named = [n for n in context.dataset_names.values() if looks_like_name(n) and re.search(
        rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
    named = [n for n in named if not any(n != o and n in o for o in named)]
    if len({normalize_key(n) for n in named}) != 1 or not training_data(named[0], text):
        return None
    return named[0]


def _caption_family(caption_datasets: list[str], columns: dict[int, _Column]) -> str | None:
    """The caption's only dataset, unless a column header names it (then the headers are
    datasets of their own: 'on A' over columns 'A | B')."""
    if len(caption_datasets) != 1:
        return None
    key = normalize_key(caption_datasets[0])
    if not key or any(info.name and (key in normalize_key(info.name) or normalize_key(
            info.name) in key) for info in columns.values()):
        return None
    return caption_datasets[0]


@dataclass(frozen=True)
class _RowCues:
    """What a row's label cells say: its dataset, method, group, label and metric, and
    whether the paper presents its dataset label as a dataset."""

    dataset: str
    method: str
    group: str
    label: str
    metric: str | None
    presented: bool
    headed: bool = False


#: Highest confidence of a value whose column has no header and whose row names no metric.
_HEADERLESS_CAP = 0.65
#: Highest confidence of a value whose metric neither its headers, its row nor the caption
#: name, when the paper reports the metric's rival too (see :func:`_untied_rival`).
_UNTIED_METRIC_CAP = 0.65


@dataclass
class _Reading:
    """A cell's reading as it is built: dataset (and where it came from), metric, confidence
    and the reason it is not a claim."""

    confidence: float
    reason: str | None
    dataset: str | None = None
    source: str = "unknown"
    metric: str | None = None
    metric_source: str = "unknown"


def _cell(
    table: ParsedTable, col: int, k: int, value: CellValue, info: _Column, cues: _TableCues,
    row: _RowCues,
) -> Candidate:
    reading = _Reading(confidence=0.9 if table.method != "given" else 0.85, reason=info.skip)
    # --- dataset -------------------------------------------------------------------------
    reading.dataset, reading.source = _labelled_dataset(table, info, cues, row)
    if reading.dataset is None and col in cues.caption_order:
        # 'on X and Y' over 'P R F1 | P R F1': the caption's order, a guess no header confirms
        reading.dataset, reading.source = cues.caption_order[col], "caption_order"
        reading.confidence -= 0.2
    _fallback_dataset(reading, table, cues)
    if reading.dataset is None and not reading.reason and cues.above and (
            info.metric in cues.above.metrics):
        reading.dataset, reading.source = cues.above.dataset, "neighbour_table"
        reading.confidence -= 0.2
    _narrow_dataset(reading, table, col, info, cues, row)
    _pair_of_column(reading, table, col)
    reading.reason = reading.reason or _column_refusal(table, col, info, cues)
    if reading.dataset and not row.dataset.strip() and reading.dataset != info.name:
        reading.dataset = _qualified(reading.dataset, info, table.caption or "",
                                     cues.methods_as_columns)
    # --- metric --------------------------------------------------------------------------
    reading.metric = info.metric or row.metric
    reading.metric_source = "column_header" if info.metric else "row_label"
    if reading.metric is None and reading.dataset:
        reading.metric = _mapped_metric(reading.dataset, cues)
        reading.metric_source = "caption_map"
    _fallback_metric(reading, info, cues)
    if info.blank and not row.metric and reading.metric:
        # a column with no header: nothing printed over it ties the table-wide metric to it
        reading.confidence = min(reading.confidence, _HEADERLESS_CAP)
    reading.metric = _specific_metric(reading.metric, reading.dataset, table, col, info,
                                      row.label, cues.context)
    # --- plausibility --------------------------------------------------------------------
    percent = value.percent or info.percent or cues.percent_table
    if row.metric is None and not row.dataset.strip() and _COST_ROW.search(row.label) and not (
            _CITED_ROW.search(row.label)):  # 'Gated memory [11]' is a cited method, not a cost
        reading.reason = reading.reason or f"row '{row.label}' is a cost, not a result"
    if not row.dataset.strip() and _HEADING_ROW.match(row.label):
        reading.reason = reading.reason or (
            f"row '{row.label}' is a header row read as a body row, not results")
    if _DIFFERENCE_ROW.match(row.label):
        reading.reason = reading.reason or (
            f"row '{row.label}' is the difference of two rows, not a result")
    reading.reason = reading.reason or _not_a_result(value, reading.metric, percent)
    return _candidate(table, col, k, value, info, cues, row, reading, percent)


def _closed(parts: list[str]) -> list[str]:
    """Header levels with a parenthesis wrapped over lines joined again: 'Error rate',
    '(Two-', 'Way)' -> 'Error rate', '(Two- Way)' (a level 'Way)' alone is no
    name)."""
    out: list[str] = []
    depth = 0
    for part in parts:
        if depth > 0 and out:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
        depth = max(depth + part.count("(") - part.count(")"), 0)
    return out


def _labelled_dataset(table: ParsedTable, info: _Column, cues: _TableCues,
                      row: _RowCues) -> tuple[str | None, str]:
    """The dataset the row's labels or the column's header name, and its source."""
    context = cues.context
    caption = table.caption or ""
    if row.dataset.strip():
        # the columns could be datasets too: the row's reading is one of two
        source = "row_label_ambiguous" if info.name and not cues.methods_as_columns and (
            context.is_dataset(info.name)) else "row_header" if row.headed else (
            "row_label" if row.presented  # else a label the paper never presents as a dataset
            else "row_label_unconfirmed")
        return clean_name(row.dataset), source
    if info.name and not cues.methods_as_columns and not info.fragment and not training_data(
            info.name, caption) and not context.is_model(info.name) and not (
            _printed_in(info.name, caption) and caption_measures(info.name, caption)) and (
            context.is_dataset(info.name) or (cues.says_datasets and looks_like_name(info.name))
            or _printed_in(info.name, caption)):
        if cues.caption_family and not context.is_dataset(info.name) and not (
                cues.caption_says_datasets or cues.dataset_axis):
            return None, "unknown"  # a part of the caption's dataset: qualified below
        if cues.transposed and not context.presents(info.name):
            return info.name, "column_unconfirmed"  # a method or setting of a transposed table
        source = (("column_header" if context.presents(info.name) or cues.dataset_axis
                   else "column_unconfirmed")
                  if context.is_dataset(info.name) else "column_caption"
                  if _printed_in(info.name, caption) else "column_cue"
                  if cues.caption_says_datasets or cues.dataset_axis else "column_unconfirmed")
        if source == "column_header" and _caption_names_other(cues.caption_datasets, info.name,
                                                              caption):
            source = "column_unconfirmed"  # 'Accuracy on X' over columns 'Y | Z': two readings
        return info.name, source
    return None, "unknown"


#: A caption speaking of the data models were trained on ('trained on', 'pre-training corpus',
#: 'source data', 'transferred from'), not of how long ('trained for 1M iterations').
_TRAINING_DATA_CUE = re.compile(
    r"(?i)\b(?:(?:pre-?)?train(?:ed|ing)\s+(?:on|with|from)|(?:pre-?)?training\s+(?:data|sets?|"
    r"corp(?:us|ora))|source\s+(?:data|domains?|corp(?:us|ora)|sets?)|transferred\s+from|"
    r"fine-?tun(?:ed|ing)\s+on)\b")


def _caption_names_other(caption_datasets: list[str], name: str, caption: str) -> bool:
    """True when the caption gives its cells one dataset that is not the column's, nor a part
    or a whole of it ('X' over 'X-hard'), and speaks of training data ('Accuracy on X of models
    trained on the set of each column' over 'Y | Z'): the header may name training data as
    well as test data. (A caption naming a collection, 'results on the Q challenge' over its
    datasets 'Y | Z', speaks of none.)"""
    if len(caption_datasets) != 1 or not _TRAINING_DATA_CUE.search(caption):
        return False
    a, b = normalize_key(caption_datasets[0]), normalize_key(name)
    return bool(a and b) and a not in b and b not in a


def _fallback_dataset(reading: _Reading, table: ParsedTable, cues: _TableCues) -> None:
    """When no label names it: the dataset of the table's title, caption, referencing text,
    section, or the paper's only dataset (each less sure)."""
    for fallback, cost, name in ((cues.title_datasets, 0.05, cues.title_source or "table_title"),
                                 (cues.caption_datasets, 0.05, "caption"),
                                 (cues.ref_datasets, 0.15, "reference")):
        if reading.dataset is None and fallback:
            reading.dataset = _single(fallback)
            reading.confidence -= cost
            reading.source = name
            if reading.dataset is None:
                reading.reason = reading.reason or (
                    f"several datasets could apply: {', '.join(fallback[:4])}")
    if reading.dataset is None and cues.section_dataset and not reading.reason:
        # the one dataset the text around the table's reference names
        reading.dataset = cues.section_dataset
        reading.confidence -= 0.15
        reading.source = "section"
    if reading.dataset is None and cues.trained_on and not reading.reason:
        # the test split of the data the caption's models were trained on
        reading.dataset = cues.trained_on
        reading.confidence -= 0.25
        reading.source = "caption_training"
    if reading.dataset is None and cues.context.main_dataset and not reading.reason and not (
            _other_names(table.caption or "", cues.context)):
        # the paper's only dataset; the caption names no other
        reading.dataset = cues.context.main_dataset
        reading.confidence -= 0.2
        reading.source = "paper"


def _narrow_dataset(reading: _Reading, table: ParsedTable, col: int, info: _Column,
                    cues: _TableCues, row: _RowCues) -> None:
    """A dataset from outside the row, narrowed by the row label (a subset) or the levels
    under a spanning title."""
    dataset, label = reading.dataset, row.label
    if dataset and not row.dataset.strip() and label and normalize_key(dataset) != (
            normalize_key(label)) and re.match(rf"(?i){re.escape(dataset)}\b", label.strip()):
        dataset = clean_name(label)  # 'VoxForge Indian' under a VoxForge table: a subset
    if dataset and not row.dataset.strip() and label and _in_caption(
            label, table.caption or "") and role_of(label, "", cues.context) == "unknown":
        dataset = f"{dataset} {label.strip(' :')}"  # rows '32x32:' of '32x32 and 64x64 ZetaSet'
    if cues.title_source and dataset and reading.source == cues.title_source:
        # the levels under a spanning title narrow it ('Text search')
        extra = [p for p in table.column_header(col)[1:]
                 if not find_metric_mentions(p) and normalize_key(p) not in normalize_key(dataset)]
        dataset = " ".join([dataset, *extra])
    reading.dataset = dataset


def _pair_of_column(reading: _Reading, table: ParsedTable, col: int) -> None:
    """A column headed by a language pair ('EN-FR') is on that pair: a table-wide dataset that
    names another pair ('X English-to-German') gives way to the caption's phrase for the
    column's pair ('... and English-to-French newstest2014'), else the cell has no dataset."""
    pair = code_pair(" ".join(table.column_header(col)))
    if pair is None or not reading.dataset or reading.source.startswith(("column", "row")):
        return
    named = named_pairs(reading.dataset)
    if not named or named[0][0] == pair:
        return
    caption = table.caption or ""
    for found, start, end in named_pairs(caption):
        if found == pair:
            tail = re.match(r"\s+[\w’'\-]*\d[\w’'\-]*", caption[end:])
            reading.dataset = caption[start:end + (tail.end() if tail else 0)]
            reading.source = "column_caption"
            return
    reading.reason = reading.reason or (
        f"the column's language pair is not the one of '{reading.dataset}'")
    reading.dataset = None


def _column_refusal(table: ParsedTable, col: int, info: _Column, cues: _TableCues) -> str | None:
    """Why the column's values are no claim: it aggregates the other columns' datasets, its
    header is a fragment, or it has none."""
    if cues.n_dataset_columns and _AGGREGATE.match(" ".join(table.column_header(col))):
        return "the column aggregates the datasets of the other columns"
    if info.fragment:
        return f"the header '{' '.join(table.column_header(col))}' is a fragment of a "\
            "wrapped header"
    if info.blank and (cues.n_columns > 1 or info.placeholder):
        return "the column has no header: several columns could be several datasets"
    return None


def _mapped_metric(dataset: str, cues: _TableCues) -> str | None:
    """The metric the caption gives the dataset (or its task): 'accuracy for SNLI'."""
    metric = None
    key = normalize_key(dataset)
    for candidate_metric, items in cues.metric_map:
        if any(normalize_key(clean_name(i)) == key for i in items):
            metric = candidate_metric
        task = cues.context.dataset_task.get(key, "")
        if metric is None and task and any(
                _task_match(task, i) for i in items):
            metric = candidate_metric
    return metric


def _fallback_metric(reading: _Reading, info: _Column, cues: _TableCues) -> None:
    """When no header, row or caption map names it: the caption's one metric, the referencing
    text's one metric, or the metric the table implies (each less sure)."""
    if reading.metric is None:
        reading.metric = cues.caption_metric
        reading.metric_source = "caption"
        if reading.metric is not None:
            reading.confidence -= 0.05
        elif len(cues.caption_metrics) > 1:
            reading.reason = reading.reason or (
                f"several metrics could apply: {', '.join(cues.caption_metrics)}")
    if reading.metric is None and not reading.reason and len(cues.ref_metrics) == 1:
        # a sentence elsewhere that cites the table ('better accuracy ... (Table 9)')
        reading.metric = cues.ref_metrics[0]
        reading.metric_source = "reference"
        reading.confidence -= 0.15
        _untied_rival(reading, cues.reported)
    tied = cues.tied_metrics.get(normalize_key(reading.dataset or ""))
    if reading.metric is None and not reading.reason and tied:
        # 'the AUC achieved on the X dataset (see Table 3)': X's cells, from a citing sentence
        reading.metric = tied
        reading.metric_source = "reference"
        reading.confidence -= 0.15
    if reading.metric is None and not reading.reason and cues.implied:
        # a guess from the paper's topic (accuracy for classification)
        reading.metric = cues.implied
        reading.metric_source = "implied"
        reading.confidence -= 0.2
        _untied_rival(reading, cues.reported)
        if info.topk:  # "Top-1" with no metric word: an error or an accuracy
            reading.reason = f"column 'Top-{info.topk}' names no metric (error or accuracy)"


def _untied_rival(reading: _Reading, reported: frozenset[str]) -> None:
    """Refuse a metric nothing at the cell, in its table or its caption names, taken from a
    sentence citing the table or from the paper's topic, when the paper's tables also report
    its rival: an accuracy and an error rate are printed alike ('3.8%'), so the guess may be
    the other one (a miss, not a wrong metric)."""
    family = metric_family(reading.metric)
    if family and ({"accuracy", "error"} - {family}) & reported:
        reading.confidence = min(reading.confidence, _UNTIED_METRIC_CAP)
        reading.reason = reading.reason or (
            f"no header or caption names the metric; '{reading.metric}' is a guess and the "
            "paper's tables report its rival too (accuracy / error)")


def metric_family(metric: str | None) -> str | None:
    """'accuracy' or 'error' for the metrics of either kind ('top1_error', 'accuracy')."""
    if not metric:
        return None
    return "error" if "error" in metric else "accuracy" if "accuracy" in metric else None


def reported_families(tables: list[ParsedTable]) -> frozenset[str]:
    """The kinds of classification figures ('accuracy', 'error') the tables report: what their
    column headers and their captions' first sentences name (a later remark, 'the wider nets
    reach a similar accuracy', is no figure a table reports)."""
    texts = [re.split(r"(?<=[a-z0-9)\]])\.\s+(?=[A-Z])", _CAPTION_PREFIX.sub("", t.caption or ""),
                      maxsplit=1)[0] for t in tables]
    texts += [" ".join(t.column_header(c)) for t in tables
              for c in range(t.label_cols, max((len(r) for r in t.rows), default=0))]
    return frozenset(f for text in texts for m, _, _ in find_metric_mentions(text)
                     if (f := metric_family(m)))


def _specific_metric(metric: str | None, dataset: str | None, table: ParsedTable, col: int,
                     info: _Column, label: str, context: PaperContext) -> str | None:
    """The metric made specific: top-k, the dataset's own metric for a generic 'accuracy' or
    'score', a statistic ('Median') of normalized scores."""
    if info.topk and metric in {"accuracy", "error_rate"} and not info.metric:
        metric = f"top{info.topk}_{'error' if metric == 'error_rate' else 'accuracy'}"
    if dataset and metric in {"accuracy", "score"} and not info.metric:
        mapped = context.dataset_metric.get(normalize_key(dataset))
        if mapped and mapped != metric:
            metric = mapped
    stat = _STAT.match(" ".join(table.column_header(col))) or _STAT.match(label)
    if stat and metric == "normalized_score":  # 'Median' row or column of normalized scores
        metric = f"{stat.group(1).lower()}_{metric}"
    return metric


def _not_a_result(value: CellValue, metric: str | None, percent: bool) -> str | None:
    """Why the value is no result: a size or time, a bound, or implausible for its metric."""
    if value.unit:
        return f"{value.printed}{value.unit} is a size or time, not a result"
    if value.bound:
        return f"{value.printed} is a bound, not a result"
    if metric:
        return implausible(metric, value.number, value.printed, percent)
    return None


def _candidate(table: ParsedTable, col: int, k: int, value: CellValue, info: _Column,
               cues: _TableCues, row: _RowCues, reading: _Reading,
               percent: bool) -> Candidate:
    """The cell's candidate claim: its reading, method, role, split and citation."""
    method, label, metric = row.method, row.label, reading.metric
    method_name = method if not cues.methods_as_columns else " ".join(table.column_header(col))
    if cues.methods_as_columns and method:
        method_name = f"{method_name} ({method})" if method_name else method
    role = role_of(method_name or label, row.group, cues.context)
    citation = (f"{table.label}, row '{label}', column '{table.column_label(col)}'"
                + (" (second value)" if k else "") + f", page {table.page_no}")
    own = table.caption or ""
    if reading.source == "neighbour_table" and cues.above:  # its split too ('... val. set')
        own = f"{cues.above.caption} {own}"
    if _SPLIT_ROW.match(label) and not row.dataset.strip():
        own = f"{own} {label}"  # rows 'dev' / 'test' of the caption's dataset
    split = split_from(" ".join([info.split if info.split != "test" else "", own,
                                 " ".join(table.column_header(col))]))
    number = value.number
    return Candidate(
        dataset_name=reading.dataset, split=split, metric_name=metric,
        metric_value=to_decimal(number, metric, percent) if metric else number,
        printed_value=value.printed,
        units="%" if metric and is_percent_metric(metric) and (percent or number > 1) else None,
        lower_is_better=lower_is_better(metric), method_snippet=(method_name or label)[:200],
        role=role, source_citation=citation, confidence=round(max(reading.confidence, 0.0), 2),
        page=table.page_no, quoted_text="", source="table", reason=reading.reason,
        dataset_source=reading.source, metric_source=reading.metric_source,
        layout=cues.layout,
    )


_LANGUAGES = re.compile(
    r"\b(English|German|French|Spanish|Dutch|Italian|Portuguese|Chinese|Mandarin|Japanese|"
    r"Korean|Russian|Czech|Romanian|Finnish|Turkish|Arabic|Hindi)\b")


#: Header words naming a kind of method or how a run is reported, never a part of the data
#: ('Tree-kernel methods', 'single/ensemble'): no qualifier of a dataset.
_METHOD_KIND = re.compile(
    r"(?i)\b(?:methods?|models?|systems?|approach(?:es)?|baselines?|single|ensembles?)\b")


def _qualified(dataset: str, info: _Column, caption: str, methods_as_columns: bool) -> str:
    """A dataset from the caption or the text, narrowed by what the column header or the
    caption adds: 'ZB' under 'Error rate (Coarse)' is 'ZB Coarse'; 'Q7' over a
    'Monthly' column is 'Q7 Monthly'; 'ZetaBank' in a caption 'French tagging results' is
    'ZetaBank French' (a benchmark reported per language or subset is several datasets)."""
    extra = []
    if not methods_as_columns:
        column = info.name if info.name and looks_like_name(info.name) and not (
            _acronym(info.name)) else ""  # 'Yearly', not a method such as 'DQN'
        for part in (column, info.qualifier):
            if part and normalize_key(part) not in normalize_key(dataset) and not (
                    find_metric_mentions(part)) and not _METHOD_KIND.search(part):
                extra.append(part)
    languages = set(_LANGUAGES.findall(caption))
    if len(languages) == 1 and not _LANGUAGES.search(f"{dataset} {' '.join(extra)}"):
        extra.append(languages.pop())
    return " ".join([dataset, *dict.fromkeys(extra)])


def _implied_metric(table: ParsedTable, context: PaperContext, caption_metrics: list[str],
                    ref_metrics: list[str], signed: frozenset[int] = frozenset()) -> str | None:
    """Accuracy, when a classification paper's results table names no metric at all and all
    its values are percentages (``signed`` columns of differences aside)."""
    if caption_metrics or ref_metrics or not context.classification:
        return None
    if any(find_metric_mentions(" ".join(table.column_header(c)))
           for c in range(table.label_cols, len(table.column_labels()))):
        return None
    values = [v.number for row in table.rows for k, c in enumerate(row)
              if k >= table.label_cols and k not in signed for v in parse_cell_values(c)]
    if values and all(1.0 < v <= 100.0 for v in values):
        return "accuracy"
    return None


def _other_names(caption: str, context: PaperContext) -> list[str]:
    """Acronym-like names in a caption that are neither metrics nor the paper's method."""
    return [m.group(0) for m in _OTHER_NAME.finditer(_CAPTION_PREFIX.sub("", caption))
            if not find_metric_mentions(m.group(0)) and not context.is_own(m.group(0))
            and not is_generic(m.group(0))]


def _printed_in(name: str, text: str) -> bool:
    """True when a column's name is printed in the caption ('on VOC-2007, VOC-2012'), or its
    words are, in another order ('QTB 24' for '... on part 24 of QTB'): two words or three,
    one of them a name (two capitals or more)."""
    if not looks_like_name(name):
        return False
    if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
        return True
    tokens = name.split()
    return 2 <= len(tokens) <= 3 and any(_acronym(t) and not t.isdigit() for t in tokens) and all(
        re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text) for t in tokens)


def _task_match(task: str, item: str) -> bool:
    words = {w for w in re.findall(r"[a-z]+", item.lower()) if w not in {"task", "tasks"}}
    return bool(words) and words <= set(re.findall(r"[a-z]+", task))
