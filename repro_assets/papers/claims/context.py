"""What the whole paper tells the claims reader: its method names, datasets and references.

* The paper's own method names: the title's name before a colon ("X: A ..."), acronyms of
  the title's capitalised phrases, names the abstract introduces ("we propose X", "Momentum
  Contrast (MoCo)") and names a caption or sentence assigns ("our method is denoted as X").
* Dataset names: rows of dataset tables (a "Dataset"/"Data"/"Name" label column, or a caption
  about datasets), names presented as datasets in the text, and the registry's names; the most
  mentioned one is the paper's main dataset when it clearly dominates.
* Per-dataset metrics and tasks from dataset tables ("Metric"/"Task" columns).
* Sentences that reference a table or figure ("Table 2 reports test accuracy").
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from repro_assets.papers.claims.datasets import (
    clean_name,
    graded_name_phrases,
    is_generic,
    known_as_registry,
    looks_like_name,
    name_phrases,
    normalize_key,
)
from repro_assets.papers.claims.metrics import find_metric_mentions, resolve_metric
from repro_assets.papers.claims.text import _collapse, iter_sentences, section_at, section_index
from repro_assets.papers.models import PaperPages
from repro_assets.papers.tables.model import ParsedTable

_DATASET_HEADER = re.compile(r"(?i)^(data\s?sets?|data|name|task|tasks|benchmark|corpus)$")
_MODEL_LABEL = re.compile(r"(?i)^(?:models?|methods?|systems?|approach(?:es)?)$")
#: A row label naming the paper's own method ('Ours', 'Our tagger', 'X (ours)', 'Proposed'):
#: its table compares methods, and its rows are never datasets.
_OWN_ROW = re.compile(r"(?i)^\s*(?:ours|our|proposed)\b|\(ours\)")
_DATASET_CAPTION = re.compile(r"(?i)\b(datasets?|data sets?|statistics|corpora|benchmarks)\b")
_INTRODUCE = re.compile(
    r"(?i)\b(?:we|this paper|this work)\s+(?:propose|present|introduce|call|name|dub|term|"
    r"develop|describe)\b")
_ACRONYM_IN_PARENS = re.compile(r"\(([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*)\)")
_DENOTED = re.compile(
    r"(?i)\b(?:our|the proposed)\s+(?:method|model|approach|models|system|network)s?\s+"
    r"(?:is|are)\s+(?:denoted|referred to|called|labell?ed)\s+(?:as\s+|by\s+)?[“\"']?"
    r"([\w\-+]+)")
_CALLED = re.compile(r"\b(?i:we call (?:it|them|this|our \w+)|called|dubbed|named)\s+[“\"']?"
                     r"([A-Z][\w\-+]*[A-Z0-9][\w\-+]*|[a-z]+[A-Z][\w\-+]*)")
_USE_COMPOUND = re.compile(
    r"(?i)\bwe (?:use|propose|introduce|present)\s+an?\s+(?:hybrid\s+|novel\s+|new\s+|simple\s+)?"
    r"([a-z]+(?:-[a-z]+)+)\s+(?:network|model|architecture|mechanism|approach|method)")
_OUR_MODEL = re.compile(r"(?i:\bour (?:\w+ )?(?:model|method|system|network|approach)),?\s+"
                        r"([A-Z][\w\-]*[A-Z0-9][\w\-]*)")
_PROPOSE_WORD = re.compile(r"(?i)\bwe (?:propose|present|introduce)\s+([a-z]+[A-Za-z]*|[A-Z]"
                           r"[\w\-]*),")
_STAMP = re.compile(r"(?i)^arxiv:|^\s*published as|^\s*preprint|^\d+$")
_ABBREVIATION = re.compile(
    r"(?<![\w-])([A-Za-z][\w\-@]{0,10})\s*[=:]\s*([A-Za-z][A-Za-z '\-]{2,40}?)(?=\s*[,;)]|$)")


#: A plural dataset noun after a name: the name is a collection of datasets, not one.
_COLLECTION_AFTER = re.compile(r"(?i)\s*(?:data\s?sets|benchmarks|corpora|tasks|collections)\b")


@dataclass
class PaperContext:
    """Paper-level facts the table and sentence readers share."""

    title: str
    abstract: str
    own_names: list[str]
    dataset_counts: Counter[str]
    dataset_names: dict[str, str]
    dataset_metric: dict[str, str] = field(default_factory=dict)
    dataset_task: dict[str, str] = field(default_factory=dict)
    sentences: list[tuple[int, int, str]] = field(default_factory=list)
    sections: list[tuple[int, int, str]] = field(default_factory=list)
    #: per results table ('table 1'), per metric, the datasets its read claims name
    table_datasets: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    #: keys of the names the paper presents as datasets with a cue (see :meth:`presents`)
    presented: set[str] = field(default_factory=set)
    #: keys of the names the paper presents as models with a cue (see :meth:`is_model`)
    modelled: set[str] = field(default_factory=set)
    #: the last :attr:`main_dataset` with the state it was read from (it is asked per cell)
    _main_memo: tuple[object, ...] = field(default=(), init=False, repr=False, compare=False)

    @property
    def classification(self) -> bool:
        """True when the paper is about classification (accuracy is then the implied metric
        of a results table that names none)."""
        return bool(re.search(r"(?i)\bclassif(?:y|ication|ier)", f"{self.title} {self.abstract}"))

    @property
    def main_dataset(self) -> str | None:
        """The paper's only dataset: the abstract names exactly one (family of) dataset and the
        paper mentions it most (read again only when the names or counts changed: read per
        cell, a wide table took minutes)."""
        state = (self.abstract, tuple(self.dataset_counts.items()),
                 tuple(self.dataset_names.items()))
        if not self._main_memo or self._main_memo[0] != state:
            self._main_memo = (state, self._find_main_dataset())
        return self._main_memo[1]  # type: ignore[return-value]

    def _find_main_dataset(self) -> str | None:
        abstract = re.sub(r"(\w)- (\w)", r"\1\2", self.abstract)
        named = {normalize_key(n) for n, _ in name_phrases(abstract)}
        named |= {k for k, n in self.dataset_names.items()
                  if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", abstract)}
        named = {k for k in named if k in self.dataset_names}
        best = self._dominant()
        if best is None or not named:
            return None
        key = normalize_key(best)
        related = all(k.startswith(key) or key.startswith(k) for k in named)
        return best if related else None

    def _dominant(self) -> str | None:
        """The most mentioned dataset family, when it dominates the paper's mentions."""
        keys = sorted(self.dataset_counts, key=len)
        family = {k: next((p for p in keys if len(p) >= 3 and k.startswith(p)), _family(k))
                  for k in keys}
        families: Counter[str] = Counter()
        for key, count in self.dataset_counts.items():
            families[family[key]] += count
        if not families:
            return None
        top, n1 = families.most_common(1)[0]
        if n1 < 4 or n1 < 0.75 * sum(families.values()):
            return None
        members = [k for k in self.dataset_counts if family[k] == top]
        best = max(members, key=lambda k: (self.dataset_counts[k], -len(k)))
        return self.dataset_names.get(best, best)

    def is_dataset(self, name: str) -> bool:
        """True when the paper uses ``name`` as a dataset."""
        key = normalize_key(clean_name(name))
        return bool(key) and key in self.dataset_names

    def presents(self, name: str) -> bool:
        """True when the paper presents ``name`` as a dataset: a dataset cue around it in the
        body or a caption ('on the X dataset', 'results on X', 'X benchmark'), a row of a
        dataset table, or the registry's alias resolution. A table label that only looks like
        a name (a method, a setting, a model size) is not presented."""
        cleaned = clean_name(name)
        key = normalize_key(cleaned)
        return bool(key) and (key in self.presented or known_as_registry(cleaned))

    def is_model(self, name: str) -> bool:
        """True when the paper presents ``name`` as a model and never as a dataset: '20-layer
        ZNet (denoted as ZNet-20)', 'we use ZNet-20 and ZNet-56 as baselines'. A column
        headed by it holds that model's results, on data named elsewhere."""
        key = normalize_key(clean_name(name))
        return bool(key) and key in self.modelled and not self.presents(name)

    def names_dataset(self, name: str) -> bool:
        """True when ``name`` is a dataset of the paper or a word of one ("Citation" when the
        text presents "the Alpha and Beta data")."""
        if self.is_dataset(name):
            return True
        key = normalize_key(clean_name(name))
        if len(key) < 3:
            return False
        return any(re.search(rf"(?<![a-z0-9]){re.escape(key)}(?![a-z0-9])", " ".join(
            re.findall(r"[a-z0-9]+", printed.lower()))) for printed in self.dataset_names.values())

    def add_dataset(self, name: str) -> None:
        """Record a name the tables use as a dataset."""
        key = normalize_key(name)
        if key and not is_generic(name) and not self.is_own(name):
            self.dataset_names.setdefault(key, name)
            self.dataset_counts[key] += 1

    def add_table_claim(self, label: str, metric: str, dataset: str) -> None:
        """Record that the table ``label`` ('Table 2') gives ``metric`` on ``dataset``."""
        metrics = self.table_datasets.setdefault(label.lower(), {})
        metrics.setdefault(metric, {}).setdefault(normalize_key(dataset), dataset)

    def table_dataset(self, label: str, metric: str) -> str | None:
        """The one dataset the table ``label`` gives ``metric`` on (None: not one, or no such
        table or metric)."""
        datasets = self.table_datasets.get(label.lower(), {}).get(metric, {})
        return next(iter(datasets.values())) if len(datasets) == 1 else None

    def is_own(self, text: str) -> bool:
        """True when ``text`` names the paper's own method."""
        return _names_own(text, self.own_names)  # 'ZNet512': ZNet at input size 512

    def section_dataset(self, kind: str, number: str | None) -> str | None:
        """The one dataset the text around the table's first reference presents.

        The scope is the section that first references the table plus the introductions of
        its enclosing sections ("4 Classification experiments ... on the X dataset" before
        "4.1"), never sibling or sub-sections: a sub-section about other data does not name
        the table's dataset. None when that text names no dataset or several.
        """
        refs = self.references(kind, number)
        section = section_at(self.sections, refs[0][0], refs[0][1]) if refs else None
        if not section:
            return None
        scope = {section} | set(_ancestors(section, self.sections))
        texts = [sentence for page, offset, sentence in self.sentences
                 if section_at(self.sections, page, offset) in scope]
        texts += sorted(scope)  # 'Results on X': the heading itself names the section's data
        inside = [normalize_key(n) for text in texts
                  for n, _ in name_phrases(text) if normalize_key(n) in self.dataset_names]
        if len({_edition_of(k) for k in inside}) != 1:  # CIFAR-10 and CIFAR-100: two datasets
            return None
        return self.dataset_names[Counter(inside).most_common(1)[0][0]]

    def references(self, kind: str, number: str | None) -> list[tuple[int, int, str]]:
        """Sentences that mention 'Table N' (or 'Figure/Fig. N')."""
        if not number:
            return []
        word = r"(?:Table|Tab\.)" if kind == "table" else r"(?:Figure|Fig\.)"
        pattern = re.compile(rf"\b{word}\s*{re.escape(number)}(?![\d])", re.IGNORECASE)
        return [s for s in self.sentences if pattern.search(s[2])]


def _tabular(sentence: str) -> bool:
    """Table text that the page's reading order made look like a sentence."""
    tokens = sentence.split()
    numbers = [t for t in tokens if re.fullmatch(r"[(\[]?[-+±]?\d[\d.,]*%?[)\]]?[,;]?", t)]
    return len(numbers) >= 3 and len(numbers) >= 0.2 * len(tokens)


def _ancestors(section: str, sections: list[tuple[int, int, str]]) -> list[str]:
    """Headings of the sections enclosing a numbered section ("4 X" for "4.1 Y")."""
    number = re.match(r"(\d+(?:\.\d+)*)\.?\s", section)
    if not number:
        return []
    parts = number.group(1).split(".")
    prefixes = {".".join(parts[:i]) for i in range(1, len(parts))}
    return [title for _, _, title in sections
            if (m := re.match(r"(\d+(?:\.\d+)*)\.?\s", title)) and m.group(1) in prefixes]


def _edition_of(key: str) -> str:
    """Yearly editions of one dataset share a key ('ilsvrc2012', 'ilsvrc2014' -> 'ilsvrc');
    other trailing numbers name other datasets ('cifar10', 'cifar100')."""
    return re.sub(r"(?<=[a-z])(?:19|20)\d\d$", "", key)


def _family(key: str) -> str:
    """Versions of a dataset share a family ('ilsvrc2012', 'ilsvrc2014' -> 'ilsvrc')."""
    match = re.match(r"[a-z]{3,}", key)
    return match.group(0) if match else key


def build_context(pages: PaperPages, tables: list[ParsedTable]) -> PaperContext:
    """Collect the paper-level facts from its pages and tables."""
    title = _nfkc(_title(pages))
    first = _nfkc(_collapse(pages.pages[0].text)) if pages.pages else ""
    abstract = _abstract(first)
    sentences = [(p, o, re.sub(r"(\w)- (\w)", r"\1\2", _nfkc(s)))
                 for p, o, s in iter_sentences(pages) if not _tabular(s)]
    own = _own_names(title, abstract, [s for _, _, s in sentences],
                     [t.caption or "" for t in tables])
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    presented: set[str] = set()
    own_keys = {normalize_key(o) for o in own}
    sections = section_index(pages)
    headings = [_nfkc(title) for _, _, title in sections]
    texts = ([s for _, _, s in sentences] + headings
             + [_nfkc(t.caption or "") for t in tables])
    for k, text in enumerate(texts):
        caption = k >= len(sentences) + len(headings)
        heading = len(sentences) <= k < len(sentences) + len(headings)
        for name, offset, cued in graded_name_phrases(text, caption=caption):
            if heading and _COLLECTION_AFTER.match(text, offset + len(name)):
                continue  # '121 X datasets': a heading over a collection names no dataset
            key = normalize_key(name)
            if key and key not in own_keys and not any(
                    re.match(rf"{re.escape(o)}\d", key) for o in own_keys):
                names.setdefault(key, name)  # 'ZNet300' is the paper's ZNet, not a dataset
                if cued:
                    presented.add(key)
    metric_map: dict[str, str] = {}
    task_map: dict[str, str] = {}
    for table in tables:
        _read_dataset_table(table, counts, names, metric_map, task_map, presented,
                            lambda h: _names_own(h, own))
    for _, _, sentence in sentences:
        _read_metric_sentence(sentence, names, metric_map)
    body = " ".join(texts)
    for key, name in names.items():  # every mention of an established name counts
        flags = 0 if len(key) <= 4 else re.IGNORECASE
        tokens = [re.escape(t) for t in re.split(r"[\s/\-–]+", name) if t]
        pattern = r"[\s/\-–]*".join(tokens)
        counts[key] += len(re.findall(rf"(?<![\w-]){pattern}(?![\w-])", body, flags))
    return PaperContext(title=title, abstract=abstract, own_names=own, dataset_counts=counts,
                        dataset_names=names, dataset_metric=metric_map, dataset_task=task_map,
                        sentences=sentences, sections=sections,
                        presented=presented, modelled=model_names(texts))


_MODEL_NAME = r"[A-Z][\w\-+]*(?:[A-Z0-9][\w\-+]*)?"
#: Words that say a phrase describes a model: its kind or its size ('110-layer', 'network').
_MODEL_WORD = (r"(?:\d+[- ]?layers?|layers?|models?|networks?|nets?|architectures?|"
               r"classifiers?|encoders?|decoders?|baselines?|backbones?|variants?)")
_MODEL_CUES = (
    # '32-layer ZNet (denoted as ZNet-32)': a name given to a described model
    re.compile(rf"(?i:\b{_MODEL_WORD}\b[^().;]{{0,40}}?\(\s*(?:denoted|referred\s+to|"
               rf"abbreviated|called)\s+(?:as|by)?\s*)[“\"']?(?P<name>{_MODEL_NAME})[”\"']?\s*\)"),
    # 'we use ZNet-20 and ZNet-56 as (two) baselines'
    re.compile(rf"\b(?i:use|choose|employ|adopt|take)\s+(?P<names>{_MODEL_NAME}"
               rf"(?:\s*(?:,|and|or)\s*{_MODEL_NAME})*)\s+as\s+(?i:(?:the\s+|our\s+|a\s+|"
               rf"an\s+)?(?:\w+\s+)?(?:baselines?|backbones?|base\s+models?|models?))\b"),
)


def model_names(texts: list[str]) -> set[str]:
    """Keys of the names ``texts`` present as models: a name given to a model a phrase
    describes ('110-layer ZNet (denoted as ZNet-110)'), or names used 'as baselines'."""
    out: set[str] = set()
    for text in texts:
        for pattern in _MODEL_CUES:
            for match in pattern.finditer(text):
                found = match.groupdict().get("name") or match.group("names")
                for name in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", found):
                    key = normalize_key(name)
                    if key and looks_like_name(name) and not is_generic(name):
                        out.add(key)
    return out


def _names_own(text: str, own: list[str]) -> bool:
    """True when ``text`` names one of the paper's ``own`` method names."""
    low = text.lower()
    return any(re.search(rf"(?<![a-z0-9]){re.escape(n)}(?![a-z])", low) for n in own)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _title(pages: PaperPages) -> str:
    if pages.title and not _STAMP.search(pages.title):
        return pages.title
    if not pages.pages:
        return ""
    blocks = [b for b in pages.pages[0].blocks if b.bbox[1] < 350 and 3 <= len(b.text) <= 250
              and not _STAMP.search(b.text.strip())]
    if not blocks:
        return pages.title or ""
    best = max(blocks, key=lambda b: (b.font_size, -b.bbox[1]))
    return " ".join(best.text.split())


def _abstract(first_page: str) -> str:
    low = first_page.lower()
    start = low.find("abstract")
    end = low.find("introduction", start + 1)
    if start < 0:
        return first_page[:2000]
    return first_page[start: end if end > start else start + 2500]


def _own_names(title: str, abstract: str, sentences: list[str], captions: list[str]
               ) -> list[str]:
    names: list[str] = []
    prefix = title.split(":", 1)[0].strip() if ":" in title else ""
    if not prefix and 1 <= len(title.split()) <= 2 and re.search(r"[A-Z].*[A-Z]|\d", title):
        prefix = title.strip()  # a title that is only a name ('Fast Z-Net') names the method
    if prefix and len(prefix.split()) <= 2:
        names.append(prefix)
    words = re.findall(r"[A-Za-z][\w\-]*", title)
    run: list[str] = []
    for word in [*words, "."]:
        if word[0].isupper() and word.lower() not in {"for", "of", "the", "and", "with", "a"}:
            run.append(word)
            continue
        if len(run) >= 2:
            initials = "".join(w[0] for w in run if not w.isupper() or len(w) == 1)
            if len(initials) >= 2:
                names.append(initials.upper())
        run = []
    body = " ".join(sentences)
    names = [n for n in names if n == prefix or len(re.findall(
        rf"(?<![\w-]){re.escape(n)}(?![\w-])", body)) >= 2]
    # a CamelCase word of the title names the method, not one the title says the work is at,
    # on or in ('Question Answering at ZetaQA 4B'): the data or the challenge it took part in
    names += [w for w in words if re.fullmatch(r"[A-Z]?[a-z]+[A-Z]\w*", w) and not re.search(
        rf"(?i)\b(?:at|on|in)\s+(?:the\s+)?{re.escape(w)}(?![\w-])", title)]
    for sentence in re.split(r"(?<=[.!?])\s+", abstract):
        names += _USE_COMPOUND.findall(sentence)
        if _INTRODUCE.search(sentence):
            names += _ACRONYM_IN_PARENS.findall(sentence)
            names += [m for m in _PROPOSE_WORD.findall(sentence) if not is_generic(m)
                      and m.lower() not in {"a", "an", "two", "three", "new", "novel"}]
    for text in [abstract, *captions, *sentences]:
        names += _DENOTED.findall(text)
        names += _CALLED.findall(text)
        names += _OUR_MODEL.findall(text)
    out: list[str] = []
    for name in names:
        name = name.strip("“”\"'.,; ").lower()
        if len(name) >= 2 and name not in out and not is_generic(name):
            out.append(name)
    return out


def _read_dataset_table(
    table: ParsedTable, counts: Counter[str], names: dict[str, str],
    metric_map: dict[str, str], task_map: dict[str, str], presented: set[str],
    own: Callable[[str], bool] = lambda _: False,
) -> None:
    """Rows of a dataset table name datasets (``presented`` as such); its Metric/Task columns
    map them."""
    headers = [h.strip() for h in table.label_headers()]
    about_datasets = bool(_DATASET_CAPTION.search(table.caption or ""))
    no_metric = not find_metric_mentions(" ".join([table.caption or "", *table.column_labels()]))
    dataset_rows = any(_DATASET_HEADER.match(h) for h in headers[:1]) and (
        not headers[0].lower().startswith("name") or about_datasets) or (
        about_datasets and no_metric)
    if not dataset_rows or _results_columns(table):
        return
    levels = table.column_header(0) if table.label_cols else []
    lowest = levels[-1].strip() if levels else ""  # 'Method' under a group title over the table
    if headers and (_MODEL_LABEL.match(headers[0]) or _MODEL_LABEL.match(lowest) or (
            _OWN_ROW.search(headers[0]))):
        return  # 'Method' / 'Our results' over the label column: the rows are methods
    if _dataset_columns(table, presented):
        return  # 'Method | A | B' under 'Results for the X datasets': the columns are the data
    if _DATASET_HEADER.match(headers[0] if headers else "") and headed_columns(
            table, lambda n: normalize_key(n) in names, own):
        return  # 'Datasets | A | B' over method rows: the value columns are the datasets
    if any(_MODEL_LABEL.match(r[0].strip()) for r in table.rows if r):
        return  # a header row read as a body row ('Model | 1 | 2 | All'): the rows are models
    if any(_OWN_ROW.search(r[0]) for r in table.rows if r):
        return  # 'Plain [3]' beside 'Ours': the rows are methods, whatever the caption says
    labels = table.column_labels()
    for index, row in enumerate(table.rows):
        label = clean_name(row[0] if row else "")
        if not label or not looks_like_name(label):
            continue
        key = normalize_key(label)
        counts[key] += 2
        names.setdefault(key, label)
        presented.add(key)
        for col, text in enumerate(row):
            head = labels[col].lower() if col < len(labels) else ""
            if head.startswith("metric"):
                metric = resolve_metric(re.sub(r"\[\d+\]", "", text))
                if metric:
                    metric_map[key] = metric
            elif head in {"task", "type", "task type"} and text.strip():
                task_map[key] = text.strip().lower()
        del index


def _dataset_columns(table: ParsedTable, presented: set[str]) -> bool:
    """True when two value columns or more are headed by names the paper already presents as
    datasets (a cue in the text or an earlier dataset table) and no row label is one: the
    columns run over the datasets, so the rows are methods, not datasets."""
    width = max((len(r) for r in table.rows), default=0)
    heads = {normalize_key(clean_name(" ".join(table.column_header(c))))
             for c in range(table.label_cols, width)}
    rows = {normalize_key(clean_name(r[0])) for r in table.rows if r and r[0].strip()}
    return len({h for h in heads if h and h in presented}) >= 2 and not rows & presented


def headed_columns(table: ParsedTable, known: Callable[[str], bool],
                   method: Callable[[str], bool] = lambda _: False) -> bool:
    """True when a 'Dataset(s)' / 'Task' cell over the label column names what the value
    columns beside it are ('Datasets | QX-9 | Pell | QX-12' over method rows): every value
    column's header is a name (a ``known`` dataset, or two capitals or a digit: 'QX-9'), none
    a metric, a count or a ``method`` (the paper's own system: 'Set | S1 | Ours-2' runs its
    datasets along the rows), no row label is a ``known`` dataset, and the dataset cell heads
    the only label column."""
    if table.label_cols != 1:
        return False  # 'Datasets | Metric | A | B': the rows pair a dataset and a metric
    width = max((len(r) for r in table.rows), default=0)
    heads = [" ".join(table.column_header(c)).strip() for c in range(table.label_cols, width)]
    names = [clean_name(h) for h in heads]
    if not heads or not all(names) or any(find_metric_mentions(h) or method(h) for h in heads):
        return False
    if not all(known(n) or _NAME_SHAPE.fullmatch(n) for n in names) or not any(
            known(n) for n in names) and len(names) < 2:
        return False
    rows = {r[0].strip() for r in table.rows if r and r[0].strip()}
    return not any(known(clean_name(v)) for v in rows)


#: A printed dataset name's shape: two capitals or a digit ('QX-9', 'CoRe2', 'Pell-7').
_NAME_SHAPE = re.compile(r"(?=[\w.’'\- ]*(?:\d|[A-Z][\w.’'\- ]*[A-Z]))[A-Z0-9][\w.’'\- ]{0,30}")


#: A sentence giving a dataset its metric: 'The evaluation metric of the X is the F1 measure',
#: 'X is evaluated with macro-F1'.
_METRIC_SENTENCE = re.compile(
    r"(?i:\b(?:evaluation\s+)?(?:metric|measure)\s+(?:of|for|on)\s+(?:the\s+)?)"
    r"(?P<name>[A-Z0-9][\w\-.’']*)\s+(?:is|was)\s+(?P<rest>[^.;]{1,40})"
    # bounded: unbounded, every start in a long run ('1111...') scanned to its end (quadratic)
    r"|(?P<subject>[A-Z0-9][\w\-.’']{0,60})\s+(?:is|was)\s+evaluated\s+(?:by|with|using|in)\s+"
    r"(?P<what>[^.;]{1,40})")


def _read_metric_sentence(sentence: str, names: dict[str, str], metric_map: dict[str, str]
                          ) -> None:
    """The metric a body sentence gives a dataset, for its name and for the paper's names one
    is a shortening of ('X-news' for 'X-newsgroups'), unless a dataset table gave one."""
    for match in _METRIC_SENTENCE.finditer(sentence):
        name = match.group("name") or match.group("subject")
        mentions = find_metric_mentions(match.group("rest") or match.group("what"))
        key = normalize_key(name)
        if not mentions or len(key) < 3:
            continue
        for other in list(names):
            if len(other) >= 4 and (other.startswith(key) or key.startswith(other)):
                metric_map.setdefault(other, mentions[0][0])


def _results_columns(table: ParsedTable) -> bool:
    """True when most value columns are headed by a metric ("Alpha F1", "AUC"): the rows
    are then methods with results, not datasets (a dataset table has at most a "Metric"
    column whose cells name metrics)."""
    heads = [" ".join(table.column_header(c))
             for c in range(table.label_cols, len(table.column_labels()))]
    if not heads or any(h.strip().lower().startswith("metric") for h in heads):
        return False
    with_metric = [h for h in heads if find_metric_mentions(h)]
    return len(with_metric) >= max(1, 0.5 * len(heads))


#: Words bounded: unbounded, each start in a long run of letters scanned to its end (quadratic).
_ALIAS = re.compile(
    r"(?P<long>(?:[A-Z][\w\-]{0,60}|[a-z]{1,60}\d[\w\-]{0,60})(?:\s+[A-Z][\w\-]{0,60}){0,3})\s+"
    r"\((?P<short>[A-Za-z][\w\-']{0,15})\)")


def caption_aliases(caption: str) -> dict[str, str]:
    """Short names a caption defines for column headers: 'evalset2031 (Ev31)' maps the
    header 'Ev31' to 'evalset2031' (keys are normalized short names). A name hyphenated over
    a line break ('eval- set2031 (Ev31)') is joined again first."""
    out = {}
    caption = re.sub(r"(?<=[a-z])-\s+(?=[a-z]+\d)", "", caption)
    for match in _ALIAS.finditer(caption):
        long, short = match.group("long"), match.group("short")
        if find_metric_mentions(long) or find_metric_mentions(short) or is_generic(long):
            continue
        if normalize_key(short) != normalize_key(long):
            out[normalize_key(short)] = long
    return out


def caption_abbreviations(caption: str) -> dict[str, str]:
    """Metric abbreviations a caption defines: '(mc= Mathews correlation, acc=Accuracy)'."""
    out = {}
    for abbr, meaning in _ABBREVIATION.findall(caption):
        metric = resolve_metric(meaning)
        if metric:
            out[abbr.lower()] = metric
    return out


def caption_metric_map(caption: str) -> list[tuple[str, list[str]]]:
    """'accuracy for SNLI and SST-5; F1 for SQuAD, SRL and NER' -> [(accuracy, [SNLI, SST-5]),
    (f1, [SQuAD, SRL, NER])]; 'Use AUC for classification task and NDCG@10 for ranking task'
    -> [(auc, [classification task]), (ndcg@10, [ranking task])]."""
    out = []
    for clause in re.split(r"[;.–—]\s|\s-\s|[;–—]", caption):
        mentions = find_metric_mentions(clause)
        for i, (metric, _, end) in enumerate(mentions):
            tail = clause[end:mentions[i + 1][1] if i + 1 < len(mentions) else len(clause)]
            match = re.match(r"\s*(?:is used\s+)?(?:for|on)\s+(.+)$", tail)
            if not match:
                continue
            listed = re.sub(r"\s+(?:and|or)\s*$", "", match.group(1).strip(" ,"))
            items = [i.strip(" ,") for i in re.split(r",|\band\b", listed)]
            items = [i for i in items if i and len(i.split()) <= 4]
            if items:
                out.append((metric, items))
    return out
