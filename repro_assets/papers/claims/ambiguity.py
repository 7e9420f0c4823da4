"""When a table-wide name or metric does not fix a cell's dataset or metric (issue #23).

A caption, a table title, the referencing text or the section names *one* dataset or metric for
a whole table. That holds for every cell only when the columns do not themselves say that they
hold different data or different quantities. Two structural cases say they do:

* **Under-specified dataset**: the cell's dataset came from a table-wide source, and the value
  columns sharing its metric are headed by different words that are neither metric nor split
  words ("English" / "German", "Pinto" / "Roan", "Coarse" / "Fine"), none of which the dataset
  name carries. The table-wide name is then the family, not the dataset of the cell; the claim
  keeps the family name but is recorded as ``context_ambiguous``, below the plan threshold.
* **Unfixed metric**: the cell's column names no metric, its row names none, and another value
  column of the same table does name one ("Top-1 err." beside "Crops", "Models", "Hours"). The
  caption's metric then belongs to the columns that name it, not to this column: no claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from repro_assets.papers.claims.datasets import (
    clean_name,
    normalize_key,
    training_data,
    without_split,
)
from repro_assets.papers.claims.metrics import find_metric_mentions
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.provenance import WEAK_SOURCES as WEAK

#: Dataset sources that name one dataset for the whole table rather than for the cell.
TABLE_WIDE = frozenset({"caption", "table_title", "reference", "section", "paper"})
#: Header words that qualify how a value is reported, not which data it is on.
_REPORTING = re.compile(
    r"(?i)\b(?:results?|scores?|ours|mean|median|avg\.?|average|overall|all|total|best|"
    r"single|ensemble|std|±|relative|abs(?:olute)?|raw|norm(?:alized)?|w/o|with|without)\b")
_TASK = re.compile(
    r"(?i)\b(?:retrieval|classification|detection|segmentation|recognition|tracking|parsing|"
    r"tagging|translation|summarization|generation|prediction|ranking|regression|"
    r"localization|estimation|completion|matching|search)\b")
_UNIT = re.compile(r"\(\s*%\s*\)|%|\[[^\]]*\]|[↑↓*∗†‡§¶]")


def column_residue(header: str, caption: str = "") -> str:
    """What a column header says about the data besides its metric, units, counts, split and
    reporting words ("German F1" -> "German", "Top-1 err. (%)" -> "", "Dev" -> "",
    "Monthly (48k)" -> "Monthly"). A header that names a task ("Image Retrieval R@1") or data
    the caption trains on ("NLX" under 'trained on NLX data') says nothing about which data
    the value is on: ""."""
    text = header
    for _, start, end in sorted(find_metric_mentions(text), key=lambda m: -m[1]):
        text = text[:start] + " " + text[end:]
    text = _UNIT.sub(" ", text)
    text = re.sub(r"(?i)\btop[-\s]?\d+\b", " ", text)  # 'Top 1': a metric without its word
    text = re.sub(r"\([^()]*\d[^()]*\)", " ", text)  # '(23k)', '(100,000)': sizes
    text = _REPORTING.sub(" ", without_split(text))
    text = re.sub(r"[()\[\],;:/]+", " ", text)
    text = re.sub(r"\s+", " ", text).strip(" .-–")
    if not re.search(r"[A-Za-z]", text) or _TASK.search(text):
        return ""
    if caption and training_data(text, caption):
        return ""
    return text


def underspecified(source: str, dataset: str | None, metric: str | None, residue: str,
                   siblings: list[tuple[str | None, str]]) -> bool:
    """True when a table-wide dataset does not fix this cell's dataset.

    Args:
        source: what named the cell's dataset (see :mod:`.provenance`).
        dataset: the dataset the cell was given (already qualified by its header).
        metric: the cell's metric.
        residue: :func:`column_residue` of the cell's column header.
        siblings: (metric, residue) of every value column of the table, this one included.
    """
    if source not in TABLE_WIDE or not dataset or not residue:
        return False
    if normalize_key(residue) in normalize_key(dataset):
        return False  # the header's words were carried into the name ('ZB Coarse')
    same = {normalize_key(r) for m, r in siblings if r and (m == metric or m is None)}
    return len(same) > 1


def unfixed_metric(header_metric: str | None, row_metric: str | None, dataset_column: bool,
                   metric_columns: int) -> str | None:
    """The reason a column's values take no table-wide metric, or None.

    Args:
        header_metric: the metric the column header names (None: none).
        row_metric: the metric the row label names (None: none).
        dataset_column: the column header is a dataset (its metric may come from the caption).
        metric_columns: how many value columns of the table name a metric in their header.
    """
    if header_metric or row_metric or dataset_column or not metric_columns:
        return None
    return ("the column names no metric while other columns of the table do: the caption's "
            "metric is not fixed for it")


_METHOD_NOUN = (r"(?:networks?|models?|cells?|architectures?|methods?|systems?|encoders?|"
                r"decoders?|layers?|units?|classifiers?|variants?)")


def caption_calls_method(name: str, caption: str) -> bool:
    """True when a caption prints ``name`` as a kind of method, not as data: 'networks with
    either plain RNN or X', 'stacks of A or B cells', 'the X model', or as a component that is
    ablated ('with and without X', 'with or without the X')."""
    n = re.escape(name)
    return bool(re.search(
        rf"(?i)\bwith(?:out)?\s+(?:and|or)\s+with(?:out)?\s+(?:the\s+|an?\s+)?{n}(?![\w-])"
        rf"|\b{_METHOD_NOUN}\s+(?:with|of|using|based on)\s+(?:either\s+)?"
        rf"(?:[\w\-]+\s+){{0,4}}?{n}(?![\w-])"
        rf"|(?<![\w-]){n}\s+(?:(?:or|and|/|,)\s*[\w\-]+\s+)?{_METHOD_NOUN}\b", caption))


def caption_measures(name: str, caption: str) -> bool:
    """True when a caption prints ``name`` among the things it measures, before the data they
    are measured on: 'error of A, B and C on the X data', 'comparison between A and B on X'.
    Such a column header is a method compared on the caption's data, not a dataset."""
    n = re.escape(name)
    return bool(re.search(
        rf"(?i)\b(?:of|between|by)\s+(?:[^.;:]*?[\s,])?{n}(?![\w-])[^.;:]*?\s(?:on|at)\s+\S",
        caption))


_LANGUAGE = re.compile(
    r"^(?:English|German|French|Spanish|Dutch|Italian|Portuguese|Chinese|Mandarin|Japanese|"
    r"Korean|Russian|Czech|Romanian|Finnish|Turkish|Arabic|Hindi)$")
#: A header naming a test set by its year or number ('newstest2014', 'tst2013', 'dev10').
_TEST_SET = re.compile(r"(?i)^[a-z]*(?:test|tst|dev|eval)[-_]?(?:19|20)?\d{2}$")
_COLUMN_SOURCES = frozenset({"column_header", "column_caption", "column_cue",
                             "column_unconfirmed"})


_METHOD_GROUP = re.compile(
    r"(?i)\b(?:models?|systems?|methods?|approach(?:es)?|networks?|baselines?|ensembles?|"
    r"ours|our|proposed|existing|previous|prior|published|reported|supervised|unsupervised|"
    r"semi-supervised|pre-?trained|fine-?tuned|trained|training|variants?|ablations?|"
    r"architectures?|et al\.?)|\[\d|\((?:19|20)\d\d")


def data_groups(groups: list[str], labels: list[str]) -> frozenset[str]:
    """Keys of the row groups of a table that hold the same methods on other data.

    A table whose row labels repeat under different group titles ('Seasonal naive' and 'Ours'
    under 'Hourly series' and again under 'Daily series') reports each method more than once
    with the same columns: the groups are different data (or protocols), and one table-wide
    dataset cannot be the dataset of both. Rows before the first title form a group of their
    own (key ''; their title may have been read into the header). Titles that name methods,
    training or a citation ('Our models', 'Trained on X', '(Z et al., 2019)') split nothing.
    """
    seen: dict[str, set[str]] = {}
    for group, label in zip(groups, labels, strict=False):
        if group.strip() and _METHOD_GROUP.search(group):
            return frozenset()
        seen.setdefault(normalize_key(label), set()).add(normalize_key(group))
    repeated = [keys for label, keys in seen.items() if label and len(keys) > 1]
    return frozenset(k for keys in repeated for k in keys)


@dataclass
class TableColumns:
    """What the value columns (and the row groups) of one table say, for the checks of its
    cells."""

    residues: dict[int, str]
    metrics: dict[int, str | None]
    methods_as_columns: bool = False
    #: keys of the row groups that repeat methods on other data (see :func:`data_groups`)
    groups: frozenset[str] = frozenset()
    caption: str = ""
    #: value columns of whole numbers beside columns of decimals (see :func:`count_columns`)
    counts: frozenset[int] = frozenset()
    #: value columns of one repeated whole number (see :func:`constant_columns`)
    constants: frozenset[int] = frozenset()

    @property
    def siblings(self) -> list[tuple[str | None, str]]:
        """(metric, residue) of every value column."""
        return [(self.metrics[c], self.residues[c]) for c in self.residues]

    @property
    def metric_columns(self) -> int:
        """How many value columns name a metric in their header."""
        return sum(1 for m in self.metrics.values() if m)


_WHOLE = re.compile(r"^\s*\d{1,3}(?:,\d{3})*\s*$|^\s*\d+\s*$")
_DECIMAL = re.compile(r"\d\.\d")


def constant_columns(rows: list[list[str]], columns: list[int]) -> frozenset[int]:
    """Value columns that print one and the same whole number in three rows or more ('16',
    '16', '16' under 'OS'): a setting shared by the rows, not a result of each."""
    out = set()
    for col in columns:
        cells = [r[col].strip() for r in rows if col < len(r) and r[col].strip()]
        if len(cells) >= 3 and len(set(cells)) == 1 and _WHOLE.match(cells[0]):
            out.add(col)
    return frozenset(out)


_SIGNED = re.compile(r"^\s*[+\-\u2212]\s*\d")


def signed_columns(rows: list[list[str]], columns: list[int]) -> frozenset[int]:
    """Value columns whose every cell prints an explicit sign, a '+' among them ('+0.1',
    '−0.5'): the difference of the value beside it from a reference row, not a result."""
    out = set()
    for col in columns:
        cells = [r[col].strip() for r in rows if col < len(r) and r[col].strip()]
        cells = [c for c in cells if re.search(r"\d", c)]
        if cells and all(_SIGNED.match(c) for c in cells) and any(
                c.lstrip().startswith("+") for c in cells):
            out.add(col)
    return frozenset(out)


def count_columns(rows: list[list[str]], columns: list[int]) -> frozenset[int]:
    """Value columns whose every cell is a whole number ('2', '14', '1,200') while another of
    ``columns`` prints decimals: class counts, feature counts, sizes beside the results."""
    def cells(col: int) -> list[str]:
        return [r[col] for r in rows if col < len(r) and r[col].strip()]

    whole = {c for c in columns if cells(c) and all(_WHOLE.match(v) for v in cells(c))}
    decimal = any(_DECIMAL.search(v) for c in columns if c not in whole for v in cells(c))
    return frozenset(whole) if decimal else frozenset()


_AGGREGATE_ROW = re.compile(r"(?i)\s*(?:avg\.?|average|mean|median|overall|total|all)\b")
_DATA_TOKEN = re.compile(r"[A-Z0-9][\w.\-+’']*")


def metric_row(label: str) -> str | None:
    """The metric a row label names when the row is a quantity of a transposed table ('mAP',
    'ZQ-12 mAP', 'Test err.'): the label is the metric and at most one name token (its data
    or split). A method row that mentions a metric among other words ('F1-tuned tagger')
    names none."""
    mentions = find_metric_mentions(label)
    if not mentions or _AGGREGATE_ROW.match(label):
        return None
    residue = without_split(clean_name(label))
    if residue and not (_DATA_TOKEN.fullmatch(residue) and (
            re.search(r"\d", residue) or len(re.findall(r"[A-Z]", residue)) >= 2)):
        return None
    return mentions[0][0]


def transposed(labels: list[str]) -> bool:
    """True when a row label of the table is a metric (see :func:`metric_row`): the table
    runs its quantities along the rows, so its columns are methods or settings."""
    return any(metric_row(label) for label in labels)


def unfixed_row(header_metric: str | None, label: str, metric_rows: int) -> str | None:
    """The reason a row of a transposed table takes no metric, or None: its label names
    none, its column header names none, and other rows do ('crops | 1 | 5' above
    'mAP | 61.4 | 62.0'): a setting, not a result."""
    if header_metric or metric_row(label) or not metric_rows:
        return None
    return "the row names no metric while other rows of the table do: a setting, not a result"


_PARENTHESIZED_WHOLE = re.compile(r"^\(\s*\d{1,3}(?:,\d{3})*\s*\)$|^\(\s*\d+\s*\)$")


def size_row(cells: list[str]) -> bool:
    """True for a row whose every value is a whole number in parentheses ('| (412) | (87) |
    (1,530) |', usually under the header with no label of its own): the number of series,
    items or examples of each column's data, not results."""
    values = [c.strip() for c in cells if c.strip()]
    return len(values) >= 2 and all(_PARENTHESIZED_WHOLE.match(v) for v in values)


def common_words(name: str) -> bool:
    """True for a header that is only lower-case words ('matched', 'clean', 'held out'): no
    capital and no digit, so it names a condition of the data (a split, a subset, a noise
    level) rather than the data itself. A column headed so is no dataset the reader may be
    sure of: the dataset it is a part of is printed elsewhere, if at all."""
    text = name.strip()
    return bool(re.fullmatch(r"[a-z][a-z\s\-]*", text))


_TOP_K = re.compile(r"^top(\d+)_(error|accuracy)$")


def inverted_top_k(cands: list[Candidate]) -> None:
    """Record the top-k values of one table row as ``context_ambiguous`` (in place) when the
    columns' headers contradict their values: a top-5 error above the top-1 error of the same
    row and dataset (or a top-5 accuracy below the top-1 accuracy) cannot be what the headers
    say; the headers are misprinted or the reader mis-aligned them, so no metric is sure."""
    groups: dict[tuple[str, str], list[tuple[int, float, Candidate]]] = {}
    for cand in cands:
        match = _TOP_K.match(cand.metric_name or "")
        if cand.reason or not match or cand.metric_value is None:
            continue
        key = (normalize_key(cand.dataset_name or ""), match.group(2))
        groups.setdefault(key, []).append((int(match.group(1)), cand.metric_value, cand))
    for (_, kind), items in groups.items():
        wrong = [(a, b) for a in items for b in items if a[0] < b[0] and (
            b[1] > a[1] if kind == "error" else b[1] < a[1])]
        for a, b in wrong:
            for _, _, cand in (a, b):
                if cand.dataset_source not in WEAK:
                    cand.dataset_source = "context_ambiguous"


def check_cell(cand: Candidate, col: int, columns: TableColumns, row_metric: str | None,
               group: str = "") -> None:
    """Apply the rules to a table cell's candidate, in place: an unfixed metric sets its
    ``reason``; an under-specified table-wide dataset is narrowed by a language header
    ('TagBank German') or recorded as ``context_ambiguous`` (below the plan threshold). Over row
    groups that repeat the same methods ('Hourly' / 'Daily') a table-wide dataset takes the
    group's title; rows before the first title stay ``context_ambiguous``."""
    if cand.reason:
        return
    reason = unfixed_metric(columns.metrics.get(col), row_metric,
                            cand.dataset_source in _COLUMN_SOURCES, columns.metric_columns)
    if reason:
        cand.reason = reason
        return
    key = normalize_key(group)
    if (cand.dataset_source in TABLE_WIDE and key in columns.groups and cand.dataset_name
            and (not key or key not in normalize_key(cand.dataset_name))):
        if key:  # the group's title names the condition: 'AB Cross-topic', 'Q7 Daily series'
            cand.dataset_name = f"{cand.dataset_name} {group.strip()}"
        else:  # rows before the first title: their condition is not printed
            cand.dataset_source = "context_ambiguous"
        return
    if cand.dataset_source == "column_caption" and cand.dataset_name and caption_calls_method(
            cand.dataset_name, columns.caption):
        cand.dataset_source = "column_unconfirmed"  # printed in the caption as a method
    if cand.dataset_source in _COLUMN_SOURCES and cand.dataset_name and common_words(
            cand.dataset_name):
        cand.dataset_source = "column_unconfirmed"  # 'matched', 'clean': a condition, no name
    if (col in columns.counts and not columns.metrics.get(col) and not row_metric
            and cand.dataset_source not in _COLUMN_SOURCES):
        cand.reason = ("the column holds whole numbers beside columns of decimals and names no "
                       "metric: counts or sizes, not results")
        return
    if col in columns.constants and not columns.metrics.get(col) and not row_metric:
        cand.reason = ("the column prints one whole number in every row and names no metric: "
                       "a shared setting, not results")
        return
    residue = columns.residues.get(col, "")
    if columns.methods_as_columns or not underspecified(
            cand.dataset_source, cand.dataset_name, cand.metric_name, residue,
            columns.siblings):
        return
    if _LANGUAGE.match(residue) and cand.dataset_name:
        cand.dataset_name = f"{cand.dataset_name} {residue}"  # one benchmark per language
        return
    if _TEST_SET.match(residue) and cand.dataset_name and not any(
            _TEST_SET.match(t) for t in cand.dataset_name.split()):
        # 'X English-German' over 'newstest2014 | newstest2015': one test set per column
        cand.dataset_name = f"{cand.dataset_name} {residue}"
        return
    cand.dataset_source = "context_ambiguous"


#: Where a sentence turns to another clause: a result across it is another result.
_CLAUSE_TURN = re.compile(
    r"(?i),\s*(?:and|but|while|whereas|compared|against|versus|vs\.?)\b|;|\bwhile\b|"
    r"\bwhereas\b|\bversus\b|\bagainst\b|\bcompared (?:with|to)\b")


def _offsets(name: str, text: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]


def sentence_ambiguous(sentence: str, printed: str, dataset: str, names: set[str]) -> bool:
    """True when a sentence names several datasets and a clause turn ('..., and on Y',
    'whereas', 'against') separates the number from the dataset it was given: 'On X, ours
    reaches 81.9% accuracy, and on Y it reaches 77.4%' does not put 81.9 on Y."""
    printed_in = {normalize_key(n) for n in names if _offsets(n, sentence)}
    if len(printed_in) < 2:
        return False
    numbers = [m.start() for m in re.finditer(
        rf"(?<![\w.]){re.escape(printed)}(?![\w]|\.\d)", sentence)]
    places = _offsets(dataset, sentence)
    if not numbers or not places:
        return False
    number = numbers[0]
    nearest = min(places, key=lambda p: abs(p - number))
    between = sentence[min(number, nearest):max(number, nearest)]
    return bool(_CLAUSE_TURN.search(between))


def cap_ambiguous_sentences(candidates: list[Candidate], datasets: Iterable[str]) -> None:
    """Record sentence candidates whose dataset lies across a clause turn in a sentence
    naming several datasets as ``context_ambiguous`` (in place; see
    :func:`sentence_ambiguous`). The datasets are the paper's dataset names and the names any
    candidate was given."""
    names = {c.dataset_name for c in candidates if c.dataset_name and not c.reason}
    names |= {n for n in datasets if n}
    for cand in candidates:
        if (cand.source == "sentence" and cand.dataset_name and not cand.reason
                and cand.dataset_source == "sentence" and sentence_ambiguous(
                    cand.quoted_text, cand.printed_value or "", cand.dataset_name, names)):
            cand.dataset_source = "context_ambiguous"
