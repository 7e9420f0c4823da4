"""Does a source *state* the asked fact? Question terms, grounded passages and the asked number.

Retrieval finds near-topic text for any question; finding the answer is another matter. This
module reads a question for its own terms and checks candidate passages against them:

* **anchors**: the names a question pins its fact to (a model, variant, dataset, benchmark,
  metric: words written with capitals or digits, such as ``FlareNet-50``, ``QuokkaQA`` or ``F1``,
  and runs of capitalised words). Every anchor must be found in the passage's local context
  (the passage, the lines around it, a table's header and caption, the document's title); a
  variant or dataset no source names is evidence that the corpus does not hold the fact.
* **a year in the future** is a forecast: no source can state it.
* **the asked quantity**: the kind of number the question wants (a ratio such as ``8x``, a
  count, a duration, a score). A passage answers only when it holds a number of that kind next
  to the question's words; the number is quoted with its passage.

Passages are sentences of running text and table rows. PDF text puts table cells on lines of
their own, so a row is a label line followed by value lines; its columns are named by the run
of short header lines above the first row when their count matches the row's values.

Everything here is pure: the caller hands in document texts (see
:mod:`repro_assets.research.corpus_answer` for the corpus side).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from repro_assets.research.row_names import (
    asks_combination,
    cited_authors,
    combined_parts,
    is_own_row,
    own_method_keys,
)

#: Words that never make a question term.
STOPWORDS = frozenset("""
a an the of on in at to for from by with without and or but not no is are was were be been
being do does did doing done has have had having get gets got reach reaches reached achieve
achieves achieved obtain obtains obtained score scores scored what which who whom whose when
where why how many much long large small big its it this that these those there their they them
than then into over under per each any all some one ones end up ended use used using uses if
handed given give gives right whole both either own reported report reports paper papers
according say says said set about as so such can could will would should may might must
model models method methods approach network networks
""".split())
#: Question words that open a sentence (a capital there is no name).
_OPENERS = frozenset({"what", "which", "how", "who", "when", "where", "why", "if", "on", "in",
                      "for", "during", "over", "the", "a", "an", "is", "are", "does", "do",
                      "did", "at", "by", "with", "from", "after", "under", "to", "of"})
_YEAR_RE = re.compile(r"\b(19\d\d|20\d\d|21\d\d)\b")
_TOKEN_RE = re.compile(r"[^\s,;:?!()\[\]{}\"\u201c\u201d]+")
#: A value cell or token: a number, optionally signed, with a percent, ratio or +/- part.
_NUMBER_RE = re.compile(
    r"(?<![\w.\-/])([-\u2212]?\d+(?:[.,]\d+)?)(\s?(?:%|x|\u00d7|times\b))?(?![\w\-/]*[A-Za-z])")
_TIME_UNITS = ("second", "sec", "minute", "min", "hour", "hr", "day", "week", "month")
_RATIO_WORDS = ("times",)
_METRIC_HINT = re.compile(
    r"\b(accuracy|error|f1|bleu|rouge|auc|wer|per|cer|map|ap|mos|smape|mase|score|perplexity|"
    r"ndcg|recall|precision|hit|rate|em|exact|top-1|top-5|loss|reward)\b", re.IGNORECASE)
_COMPARATIVE = r"(better|worse|lower|higher|more|less|fewer|smaller|larger|bigger|faster|slower)"
_COMPARE_RE = re.compile(
    rf"\b{_COMPARATIVE}\s+than\b|\bhow (?:much|many)\b[^?]*\b{_COMPARATIVE}\b[^?]*\bthan\b|"
    r"\bdifference\b|"
    r"\bgap\b", re.IGNORECASE)
_COMPARATIVE_RE = re.compile(rf"\b{_COMPARATIVE}\b|\bdifference\b|\bgap\b", re.IGNORECASE)


#: Names this short match whole words only.
SHORT_KEY = 3


def fold(text: str) -> str:
    """Text for term matching: NFKC (ligatures unfolded), lower case, letters and digits only.

    The squeezed form (``resnet50``) is followed by a spaced form (`` resnet 50 ``) in which
    short names are matched as whole words.
    """
    text = unicodedata.normalize("NFKC", text).lower()
    spaced = " ".join(re.findall(r"[a-z0-9]+", text))
    return re.sub(r"[^a-z0-9]+", "", text) + "\u0000 " + spaced + " "


def squeeze(text: str) -> str:
    """Letters and digits only, lower case (an anchor's key)."""
    return re.sub(r"[^a-z0-9]+", "", unicodedata.normalize("NFKC", text).lower())


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    return [_stem(w) for w in re.findall(r"[a-z][a-z0-9\-']*[a-z0-9]|[a-z]", text)]


def _stem(word: str) -> str:
    word = word.strip("'-").removesuffix("'s")
    for suffix in ("ies", "es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@dataclass(frozen=True)
class Anchor:
    """A name the question pins its fact to: as written, and folded for matching."""

    text: str
    key: str
    variants: tuple[str, ...] = ()

    def found_in(self, folded_text: str) -> bool:
        """True when the anchor (or one of its variants) occurs in folded text.

        A short name (``EM``, ``AP``) is looked up as a whole word of the spaced form that
        :func:`fold` appends (see :func:`fold`), never inside another word.
        """
        if len(self.key) <= SHORT_KEY:
            return any(f" {v} " in folded_text for v in (self.key, *self.variants))
        return any(v in folded_text for v in (self.key, *self.variants))


@dataclass(frozen=True)
class QuestionTerms:
    """What a question asks about.

    Attributes:
        anchors: names (entities, variants, datasets, metrics) the fact is pinned to.
        keywords: the question's other content words (stemmed).
        future_years: years after the current one (a forecast: unanswerable from sources).
        kind: the asked quantity: ``ratio``, ``duration``, ``count``, ``value``, ``entity``
            (a name or detail: "which optimizer ...", never confirmed offline) or ``none``
            (an open question).
        compare: the question asks for a difference between two reported numbers.
        qualifiers: numbers the question fixes its fact with ("a model with 300 layers",
            "2.7 billion parameters"): the evidence must state each of them.
        split: the data split the question asks about (``validation`` or ``test``), if any.
        head: the asked attribute's words ("minibatch size"): a sentence must name them.
        authors: keys of the authors the question cites ("X et al."): they stand for the
            paper whose opening text names them.
        counts: numbers the question gives in words ("one network"): a row label stating
            one of them is preferred over its siblings.
    """

    anchors: tuple[Anchor, ...]
    keywords: tuple[str, ...]
    future_years: tuple[int, ...]
    kind: str
    compare: bool
    qualifiers: tuple[str, ...] = ()
    split: str | None = None
    head: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    counts: tuple[str, ...] = ()
    question: str = ""


#: Number words a question may fix a row with ("one network", "a single model").
_NUMBER_WORDS = {"one": "1", "single": "1", "two": "2", "three": "3", "four": "4",
                 "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}

_METRIC_WORDS = frozenset({"f1", "bleu", "auc", "ap", "wer", "per", "cer", "mos", "em", "map",
                           "smape", "mase", "ndcg", "top1", "top5", "rouge", "rougel",
                           "rouge1", "rouge2", "accuracy", "error"})


def _strong(core: str) -> bool:
    """A name by its spelling: digits, inner capitals or all capitals (``QuokkaQA``, ``B7``)."""
    if not any(ch.isalpha() for ch in core):
        return False
    if any(ch.isdigit() for ch in core):
        return True
    if core[:1].isupper() and "-" in core.strip("-"):
        return True  # "Bagnet-attn": a capitalised name with a hyphenated part
    return sum(ch.isupper() for ch in core) >= 2 or any(ch.isupper() for ch in core[1:])


def _title_word(core: str, first: bool) -> bool:
    if not core[:1].isupper() or not core[1:].islower() or not core.isalpha():
        return False
    return not (first and core.lower() in _OPENERS) and core.lower() not in STOPWORDS \
        and core.lower() not in _OPENERS


#: Words glued to a name that describe how it is used rather than name a variant.
_DESCRIPTIVE_SUFFIXES = frozenset({"based", "enhanced", "feature", "features", "style", "like",
                                   "augmented", "driven", "powered", "inspired", "type"})


def _clean(token: str) -> str:
    core = re.sub(r"['\u2019]s$", "", token.strip(".,;:'\u2019"))
    # "Wombat-feature", "Quillnet-enhanced": a descriptive word glued to a name is not the name
    # ("Net-static", "Net-large" name variants and stay whole)
    head, sep, tail = core.rpartition("-")
    if sep and head and tail in _DESCRIPTIVE_SUFFIXES and _strong(head):
        core = head
    return core


def _anchor(text: str, year: str | None = None) -> Anchor:
    """An anchor with the other spellings of its name.

    ``Answers`` is also ``Answer``; ``Quill-Large`` also ``QuillLarge``; a name with a year
    (``HTC 2019``) also its first word with the short year (``HTC19``); a run of capitalised
    words ending in a number (``Rapid Parse 3``) also its initials (``RP3``).
    """
    key = squeeze(text)
    variants: list[str] = []
    words = text.split()
    if year:
        variants += [squeeze(words[0]) + year[2:], squeeze(words[0]) + year,
                     squeeze(" ".join(words[:-1])) + year[2:]]
    elif len(words) >= 3 and re.fullmatch(r"\d+(\.\d+)?", words[-1]) and all(
            w[:1].isupper() for w in words[:-1]):
        variants.append("".join(w[0].lower() for w in words[:-1]) + squeeze(words[-1]))
    if key.endswith("s") and len(key) > 4:
        variants.append(key[:-1])  # "Answers" / "Answer"
    if "-" in text:
        head, _, tail = text.partition("-")
        if tail.lower() in ("large", "base", "small", "big", "tiny"):
            variants.append(squeeze(head) + squeeze(tail))
    return Anchor(text=text, key=key, variants=tuple(variants))


def question_terms(question: str, today: _dt.date | None = None) -> QuestionTerms:
    """Read ``question`` for its anchors, keywords, future years and asked quantity.

    A name spelled with digits or inner capitals is one anchor; a run of capitalised words
    (``North Sea Herald``, with a trailing number: ``Rapid Parse 3``) is another.
    """
    year_now = (today or _dt.date.today()).year
    years = tuple(int(y) for y in _YEAR_RE.findall(question) if int(y) > year_now)
    tokens = _TOKEN_RE.findall(question)
    anchors: list[Anchor] = []
    run: list[str] = []
    chain: list[str] = []  # consecutive name tokens, for a year that follows them
    chain_anchors = 0

    def flush() -> None:
        nonlocal chain_anchors
        if run:
            anchors.append(_anchor(" ".join(run)))
            chain_anchors += 1
            run.clear()

    def end_chain() -> None:
        nonlocal chain_anchors
        chain.clear()
        chain_anchors = 0

    for i, token in enumerate(tokens):
        core = _clean(token)
        if core and _YEAR_RE.fullmatch(core):
            flush()
            if chain and chain_anchors:
                # "ABC Cup 2019", "HTC 2019": one name, also written "ABC19", "HTC19"
                del anchors[len(anchors) - chain_anchors:]
                anchors.append(_anchor(" ".join([*chain, core]), year=core))
            end_chain()
            continue
        if not core:
            flush()
            end_chain()
            continue
        if _strong(core):
            flush()
            following = tokens[i + 1].strip(".,;:") if i + 1 < len(tokens) else ""
            if re.fullmatch(r"\d+(\.\d+)?", following) and not _YEAR_RE.fullmatch(following):
                core = f"{core} {following}"  # a version: "QuokkaQA 2.0"
            anchors.append(_anchor(core))
            chain.append(core)
            chain_anchors += 1
        elif _title_word(core, first=i == 0):
            run.append(core)
            chain.append(core)
            if token.rstrip(",;:").endswith((".", "'s", "\u2019s")):
                flush()
                end_chain()
        elif run and re.fullmatch(r"\d+(\.\d+)?", core):
            run.append(core)
            flush()
            end_chain()
        else:
            flush()
            end_chain()
    flush()
    anchors = [a for a in anchors if len(a.key) >= 2 and a.key not in ("et", "al", "etal")]
    anchor_words = {w for a in anchors for w in _words(a.text)}
    keywords = tuple(dict.fromkeys(
        w for w in _words(question)
        if w not in STOPWORDS and w not in anchor_words and len(w) > 2 and not w.isdigit()))
    kind = _asked_kind(question)
    # "how many times faster than" asks for a stated ratio, not a difference of two numbers
    return QuestionTerms(anchors=tuple(dict.fromkeys(anchors)), keywords=keywords,
                         future_years=years, kind=kind,
                         compare=kind != "ratio" and bool(_COMPARE_RE.search(question)),
                         qualifiers=_qualifiers(question, anchors), split=asked_split(question),
                         head=tuple(head_words(question)),
                         authors=cited_authors(question), question=question,
                         counts=tuple(dict.fromkeys(
                             _NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", question.lower())
                             if w in _NUMBER_WORDS)))


#: Words naming a held-out split used for model selection, and the final test split.
_VALIDATION_RE = re.compile(r"\b(validation|valid|val|dev|development|held[- ]out)\b",
                            re.IGNORECASE)
_TEST_RE = re.compile(r"\btest(ing)?\b", re.IGNORECASE)


def asked_split(text: str) -> str | None:
    """The data split a text names: ``validation`` (also dev, held-out), ``test`` or None.

    A text naming both is about neither in particular (None).
    """
    validation, test = bool(_VALIDATION_RE.search(text)), bool(_TEST_RE.search(text))
    if validation and not test:
        return "validation"
    if test and not validation:
        return "test"
    return None


def _qualifiers(question: str, anchors: Sequence[Anchor]) -> tuple[str, ...]:
    """Standalone numbers of a question that fix its fact (not years, not part of a name).

    "a network with 25 weight layers", "the 2.7 billion parameter model": the asked fact holds
    for that size only, so the evidence must state the number.
    """
    anchor_text = " ".join(a.text for a in anchors)
    out = []
    for m in re.finditer(r"(?<![\w.@\-/])(\d+(?:\.\d+)?)(?![\w.\-/]*\d)", question):
        value = m.group(1)
        if _YEAR_RE.fullmatch(value):
            continue
        if re.search(r"(?<![\d.])" + re.escape(value) + r"(?![\d.])", anchor_text):
            continue  # a version or size inside a name ("QuokkaQA 2.0", "Rapid Parse 3")
        out.append(value)
    return tuple(dict.fromkeys(out))


def states_number(value: str, text: str) -> bool:
    """True when ``text`` holds the number ``value`` as a token ("2.7B", "300-layer", "25")."""
    return re.search(r"(?<![\d.,])" + re.escape(value) + r"(?![\d]|[.,]\d)", text) is not None


#: Words after "which" that ask for a metric's value ("which score ...").
_SCORE_WORDS = frozenset({"score", "precision", "recall", "perplexity", "accuracy"})
_AUXILIARIES = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could",
                          "should", "would", "will", "has", "have", "had", "about", "if",
                          "kind", "kinds", "type", "types", "role", "roles"})


def _asked_kind(question: str) -> str:
    q = question.lower()
    if re.search(r"\bhow many times\b|\btimes (fewer|smaller|larger|faster|slower|more|less)",
                 q):
        return "ratio"
    if re.search(r"\bhow long\b|\bhow many (" + "|".join(_TIME_UNITS) + r")", q) or \
            re.search(r"\b(" + "|".join(_TIME_UNITS) + r")s?\b", q):
        return "duration"
    if re.search(r"\bhow many\b", q):
        return "count"
    if re.search(r"\b(what|how much|how accurate|how (well|did|does)|which value|"
                 r"what value)\b", q) and (_METRIC_HINT.search(q) or re.search(
                     r"\b(proportion|ratio|size|number|rate|value|accurate|score)\b", q)):
        return "value"
    m = re.match(r"\s*(?:which|what)\s+([a-z][\w\-]*)", q)
    if m and (squeeze(m.group(1)) in _METRIC_WORDS or m.group(1) in _SCORE_WORDS):
        return "value"  # "which F1 score ...": a metric's value, not a name ("which loss")
    if m and m.group(1) not in _AUXILIARIES:
        return "entity"  # "Which optimizer ...", "What dataset ...": a name, not a number
    return "none"


# -- passages ---------------------------------------------------------------------------------

@dataclass
class Passage:
    """A candidate statement: a sentence or a table row, with its local context."""

    text: str
    values: list[str]
    context: str
    table: bool = False
    headers: list[str] = field(default_factory=list)
    label: str = ""
    nearby: str = ""
    caption: str | None = None


@dataclass(frozen=True)
class SourceText:
    """One document's text the answer may come from.

    Attributes:
        key: the document's citation key (URL or corpus id).
        title: its title.
        windows: passages of its text (a chunk with its neighbours, in reading order).
        full_text: the whole text, read for table rows only (empty: not given).
        identity: what names the document itself (title, authors, opening text): a name
            found there holds for every window (``Q-Net``, an author's name).
    """

    key: str
    title: str
    windows: tuple[str, ...]
    identity: str = ""
    full_text: str = ""


@dataclass(frozen=True)
class GroundedAnswer:
    """The asked number, the passage that states it and its source."""

    value: str
    quote: str
    source: str
    title: str
    score: float
    column: str | None = None
    parts: tuple[GroundedAnswer, ...] = ()


@dataclass
class AnswerCheck:
    """The verdict on a question: a grounded answer, or why there is none."""

    answer: GroundedAnswer | None
    reason: str
    terms: QuestionTerms
    best_score: float = 0.0
    related: list[str] = field(default_factory=list)
    missing_anchors: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        """True when a grounded answer was found."""
        return self.answer is not None


#: A cell's note with a unit, such as a run time ("70.3 (7s)"): part of the cell before it.
_NOTE = r"\(\d+(?:\.\d+)?[a-z]{1,3}\)"
_CELL_TOKEN = re.compile(r"[-\u2212]?\d+(?:[.,]\d+)?(?:e[-+]?\d+)?[%x\u00d7*]?|[\u00b1/]|OOM|N/?A|"
                         r"[\u2013\-]{1,2}|\([-\u2212]?\d+(?:\.\d+)?\)|" + _NOTE)
_NUM = re.compile(r"[-\u2212]?\d+(?:\.\d+)?")


def _is_value_line(line: str, continuing: bool = False) -> bool:
    """A line of value cells only (``continuing``: a row's placeholder such as ``OOM``)."""
    cells = line.split()
    return bool(cells) and all(_CELL_TOKEN.fullmatch(c) for c in cells) and (
        continuing or any(_NUM.match(c) for c in cells))


def _group(tokens: list[str]) -> list[str]:
    """Cells of value tokens: ``a / b`` and ``a \u00b1 b`` are one cell."""
    cells: list[str] = []
    i = 0
    while i < len(tokens):
        if cells and re.fullmatch(_NOTE, tokens[i]):
            cells[-1] = f"{cells[-1]} {tokens[i]}"
            i += 1
            continue
        if tokens[i] in ("/", "\u00b1") and cells and i + 1 < len(tokens):
            cells[-1] = f"{cells[-1]} {tokens[i]} {tokens[i + 1]}"
            i += 2
            continue
        cells.append(tokens[i])
        i += 1
    return cells


def _cells(line: str) -> list[str]:
    """Cells of a value line."""
    return _group(line.split())


def _one_line_row(line: str) -> tuple[str, list[str]] | None:
    """``label v1 v2 ...`` printed on one line: the label and its value cells."""
    tokens = line.split()
    k = len(tokens)
    while k > 0 and _CELL_TOKEN.fullmatch(tokens[k - 1]):
        k -= 1
    label, values = " ".join(tokens[:k]), tokens[k:]
    numbers = [v for v in values if _NUM.fullmatch(v.rstrip("%x*"))]
    if (not label or not re.search(r"[A-Za-z]", label) or len(tokens[:k]) > 10
            or not numbers or all(_YEAR_RE.fullmatch(v) for v in numbers)):
        return None  # no values, or only a year (a cited work: "Smith et al., 2015")
    if _heading_or_sentence_end(label, values):
        return None
    return label, _group(values)


def _heading_or_sentence_end(label: str, values: list[str]) -> bool:
    """A label that ends a sentence ("... on the test set." then a footnote mark) or a running
    head in capitals with its page number is no table row."""
    return label.rstrip().endswith(".") or (
        len(values) == 1 and re.fullmatch(r"\d{1,3}", values[0]) is not None
        and label.isupper())


def cell_values(cell: str) -> list[str]:
    """The numbers of a cell (``22.15 / 20.80`` -> both; ``4.21 \u00b1 0.08`` -> ``4.21``)."""
    if "\u00b1" in cell:
        cell = cell.split("\u00b1")[0]
    cell = re.sub(_NOTE, " ", cell)
    return [m.replace("\u2212", "-") for m in _NUM.findall(cell)]


def _table_passages(lines: list[str], context: str, style: str | None = None
                    ) -> list[Passage]:
    """Rows (a label line then value lines, or one line) with the header run above them."""
    out: list[Passage] = []
    i = 0
    header_run: list[str] = []
    frozen = False  # after a table's first row, short lines are group labels, not headers
    style = style or caption_style(lines)
    while i < len(lines):
        line = lines[i]
        j = i + 1
        values: list[str] = []
        while j < len(lines) and _is_value_line(lines[j], continuing=True):
            values += _cells(lines[j])
            j += 1
        if not any(cell_values(v) for v in values):
            values = []
        if not _is_value_line(line) and len(line.split()) <= 12 and values \
                and not _heading_or_sentence_end(line, values):
            out.append(Passage(text=f"{line} {' '.join(values)}".strip(), values=values,
                               context=context, table=True, headers=list(header_run),
                               label=line, caption=_own_caption(lines, i, j - 1, style)))
            frozen = True
            i = j
            continue
        row = None if _is_value_line(line) else _one_line_row(line)
        if row is not None and len(row[1]) >= 1 and len(line.split()) <= 16:
            out.append(Passage(text=line, values=row[1], context=context, table=True,
                               headers=list(header_run), label=row[0],
                               caption=_own_caption(lines, i, i, style)))
            frozen = True
        elif (len(line.split()) <= 4 or len(_split_header_line(line)) >= 2) \
                and not _is_value_line(line):
            if not frozen:
                header_run = [*header_run, line][-12:]
        elif not _is_value_line(line):
            header_run, frozen = [], False
        i += 1
    return out


_CAPTION_START = re.compile(r"Table\s+\d+[.:]")
#: Lines a scan for a row's caption crosses at most.
CAPTION_REACH = 60


def _tabular(line: str, following: str = "") -> bool:
    """A line of a table: value cells, a short label or header, a row's label (value cells
    follow it), a one-line row, or a header line naming several columns with their units."""
    words = line.split()
    return (_is_value_line(line, continuing=True) or len(words) <= 6
            or (len(words) <= 12 and _is_value_line(following))
            or (len(words) <= 16 and _one_line_row(line) is not None)
            or (len(words) <= 16 and len(_split_header_line(line)) >= 2))


def caption_style(lines: list[str]) -> str | None:
    """Where a text's captions stand: ``above`` their tables, ``below`` them, or None.

    A caption after running text and before table lines opens its table (above); one after
    table lines and before running text closes it (below). The majority decides.
    """
    above = below = 0
    for k, line in enumerate(lines):
        if not _CAPTION_START.match(line):
            continue
        end = k + len(_caption_lines(lines, k))
        before = k > 0 and _tabular(lines[k - 1], lines[k])
        after = end < len(lines) and _tabular(lines[end], lines[end + 1] if end + 1 < len(
            lines) else "")
        above += int(not before and after)
        below += int(before and not after)
    return "above" if above > below else "below" if below > above else None


def _caption_lines(lines: list[str], k: int) -> list[str]:
    """The caption starting at line ``k`` with its continuation lines (long lines)."""
    out = [lines[k]]
    for line in lines[k + 1: k + 5]:
        if len(line) < 40 or _CAPTION_START.match(line):
            break
        out.append(line)
    return out


def _own_caption(lines: list[str], first: int, last: int, style: str | None = None
                 ) -> str | None:
    """The caption of the table a row (lines ``first``..``last``) belongs to, or None.

    Only table lines (cells, labels, headers, rows) may stand between a row and its own
    caption: the first caption below the row (captions printed under their tables), or the
    last caption above it (captions over their tables, perhaps over several lines). The
    text's ``style`` (:func:`caption_style`) says which; when it is unknown and both are
    found, the row's caption cannot be told (empty: no caption ties the row). A sentence
    ends a search: the caption of a neighbouring table is not the row's.
    """
    below = above = None
    for j in range(last + 1, min(len(lines), last + 1 + CAPTION_REACH)):
        if _CAPTION_START.match(lines[j]):
            below = " ".join(_caption_lines(lines, j))
            break
        if not _tabular(lines[j], lines[j + 1] if j + 1 < len(lines) else ""):
            break
    for j in range(first - 1, max(-1, first - 1 - CAPTION_REACH), -1):
        if _CAPTION_START.match(lines[j]):
            above = " ".join(_caption_lines(lines, j))
            break
        if not _tabular(lines[j], lines[j + 1] if j + 1 < len(lines) else ""):
            for k in range(j - 1, max(-1, j - 4), -1):
                if _CAPTION_START.match(lines[k]):
                    above = " ".join(_caption_lines(lines, k))
                    break
                if len(lines[k]) < 40:
                    break
            break
    if style == "below":
        return below
    if style == "above":
        return above
    return "" if below and above else below or above


def _prose(text: str) -> str:
    """Running text of a window: short lines (cells, headings) become paragraph breaks."""
    kept: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if len(line.split()) >= 4 and not _is_value_line(line):
            kept.append(line)
        else:
            kept.append("")
    joined = "\n".join(kept)
    joined = re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", joined)
    return re.sub(r"(?<!\n)\n(?!\n)", " ", joined)


def _sentences(text: str) -> list[str]:
    out = []
    for paragraph in _prose(text).split("\n"):
        flat = re.sub(r"\s+", " ", paragraph).strip()
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(\[])", flat) if s.strip()]
    return out


def passages(window: str, style: str | None = None) -> list[Passage]:
    """Sentences and table rows of a text window, each with the window as context."""
    window = unicodedata.normalize("NFKC", window)
    lines = [ln.strip() for ln in window.split("\n") if ln.strip()]
    out = _table_passages(lines, window, style)
    sentences = _sentences(window)
    for i, sentence in enumerate(sentences):
        words = sentence.split()
        numeric = sum(1 for w in words if _NUM.fullmatch(w.strip(",.;:%")))
        if len(words) >= 5 and numeric <= len(words) * 0.3:
            nearby = " ".join(sentences[max(0, i - 1): i] + sentences[i + 1: i + 2])
            out.append(Passage(text=sentence, values=[], context=window, nearby=nearby))
    return out


# -- numbers ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class NumberToken:
    """A number in a passage: its text, position (in words) and unit cue."""

    text: str
    position: int
    unit: str


def numbers_in(text: str) -> list[NumberToken]:
    """Numbers of a passage that can be answers (not years, references, names or labels)."""
    out: list[NumberToken] = []
    words = text.split()
    for position, word in enumerate(words):
        bare = word.strip(",;:.)(")
        if word.startswith(("[", "(")) and word.rstrip(",;:.").endswith(("]", ")")):
            continue  # citations and equation numbers
        m = re.fullmatch(r"([-\u2212]?\d+(?:\.\d+)?)(%|x|\u00d7)?", bare)
        if not m:
            continue
        value = m.group(1)
        if _YEAR_RE.fullmatch(value):
            continue
        prev = words[position - 1].lower().strip(".,") if position else ""
        if prev in ("table", "tab", "figure", "fig", "section", "sec", "eq", "equation",
                    "appendix", "chapter", "step", "layer"):
            continue
        after = words[position + 1] if position + 1 < len(words) else ""
        if position == 0 and after[:1].isupper() and "." not in value:
            continue  # a section number before a heading ("4 Experiments")
        following = after.lower()
        unit = m.group(2) or ""
        if not unit and following.startswith("times"):
            unit = "x"
        if not unit and any(following.startswith(u) for u in _TIME_UNITS):
            unit = "time"
        if not unit and following.startswith("%"):
            unit = "%"
        if not unit and re.match(r"(million|billion|thousand|[mbk]\b)", following):
            unit = "size"  # "350 million parameters": a model's size, not a score
        out.append(NumberToken(text=value.replace("\u2212", "-"), position=position,
                               unit=unit))
    return out


def _kind_fits(token: NumberToken, kind: str) -> bool:
    if kind == "ratio":
        return token.unit in ("x", "\u00d7")
    if kind == "duration":
        return token.unit == "time"
    if kind == "count":
        return "." not in token.text and token.unit not in ("x", "\u00d7", "%")
    if kind == "value":
        return token.unit not in ("x", "\u00d7", "time", "size") and (
            "." in token.text or token.unit == "%" or 10 <= abs(float(token.text)) < 1000)
    return False


# -- scoring ---------------------------------------------------------------------------------

def _coverage(keywords: Sequence[str], text: str) -> float:
    if not keywords:
        return 0.0
    words = set(_words(text))
    folded = fold(text)

    def found(k: str) -> bool:
        if k in words or (len(k) > 5 and squeeze(k) in folded):
            return True
        return len(k) >= 4 and any(len(w) >= 4 and (w.startswith(k) or k.startswith(w))
                                   for w in words)

    return sum(1 for k in keywords if found(k)) / len(keywords)


def _anchor_positions(anchor: Anchor, words: list[str]) -> list[int]:
    size = max(1, len(anchor.text.split()))
    found = []
    for i in range(len(words)):
        raw = " ".join(words[i: i + size])
        piece = squeeze(raw)
        # a plural "s" is written lower case right after the name ("Nets"), never "Net-S"
        plural = piece == anchor.key + "s" and re.search(r"[A-Za-z0-9]s\W*$", raw) is not None
        if piece and (piece == anchor.key or plural
                      or any(v == piece for v in anchor.variants)):
            found.append(i)
    return found


def _subvalue(cell: str, terms: QuestionTerms, context: str) -> str | None:
    """The asked number of a cell; ``a / b`` cells pick the side the question names."""
    values = cell_values(cell)
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    asked = set(terms.keywords) | {a.key for a in terms.anchors} | {
        part for k in terms.keywords for part in k.split("-") if len(part) > 2}
    for m in re.finditer(r"([A-Za-z][\w\-]*)\s*/\s*([A-Za-z0-9][\w\-]*)", context):
        left, right = (set(_words(m.group(1))) | {squeeze(m.group(1))},
                       set(_words(m.group(2))) | {squeeze(m.group(2))})
        if asked & left and not asked & right:
            return values[0]
        if asked & right and not asked & left:
            return values[1]
    return None


_GROUP_LABEL = re.compile(r"\bet al\b|\b(19|20)\d\d\b")


def _split_header_line(line: str) -> list[str]:
    """A header line holding several column names, each ending in a unit in parentheses.

    "top-1 err. (%) top-5 err. (%)" -> ``["top-1 err. (%)", "top-5 err. (%)"]``; any other
    line is one name.
    """
    parts = [p.strip() for p in re.findall(r"[^()\s][^()]*?\([^()]*\)", line)]
    if len(parts) >= 2 and "".join(parts).replace(" ", "") == line.replace(" ", ""):
        return parts
    return [line]


def _column_headers(run: list[str], n: int) -> list[str]:
    """The header lines that name a row's ``n`` value columns (empty: cannot tell).

    The run above the first row may end with group labels (a cited work: "Smith et al.,
    2015"), which are dropped; the last ``n`` lines of what remains name the columns (lines
    before them are the label column's header, a section heading or a table beside it).
    A line naming several columns on its own (each with its unit, "top-1 err. (%) top-5
    err. (%)") is read as those names.
    """
    run = list(run)
    while run and _GROUP_LABEL.search(run[-1]):
        run.pop()
    run = [name for line in run for name in _split_header_line(line)]
    return run if len(run) >= n else []


def _asked_column(names: list[str], terms: QuestionTerms, column_anchors: list[Anchor],
                  paper: frozenset[str] = frozenset()) -> tuple[list[int], bool]:
    """Indexes of the columns the question asks for, and whether its own terms picked them.

    The columns a question's names (not found in the row label) name; among them, those of
    the asked split (a "Dev" / "Test" header is the split); among several left, the one
    header that is a word of the question ("Average"). A question naming no split where
    the columns differ by split is not narrowed (no guess).
    """
    columns = list(range(len(names)))
    picked = False
    hits = [sum(a.found_in(fold(name)) or (a.key in paper and is_own_row(name))
                for a in column_anchors) for name in names]
    if max(hits, default=0) > 0:
        columns = [i for i in columns if hits[i] == max(hits)]
        picked = True
    splits = [asked_split(names[i]) for i in columns]
    if terms.split and any(splits):
        columns = [i for i, split in zip(columns, splits, strict=True) if split == terms.split]
        picked = bool(columns)
    if len(columns) > 1:
        asked = set(terms.keywords) | {a.key for a in terms.anchors}
        worded = [i for i in columns if (set(_words(names[i])) | {squeeze(names[i])}) & asked]
        if len(worded) == 1:
            columns, picked = worded, True
    return columns, picked


def _row_value(passage: Passage, terms: QuestionTerms, paper: frozenset[str] = frozenset()
               ) -> tuple[str, str | None] | None:
    """The asked cell of a table row: the one column the question's terms name, else the
    only value (never a guess between columns)."""
    cells = passage.values
    if not any(cell_values(c) for c in cells):
        return None
    label_fold = fold(passage.label)
    headers = _column_headers(passage.headers, len(cells))
    column_anchors = [a for a in terms.anchors if not a.found_in(label_fold)]
    if headers:
        names = headers[-len(cells):]
        columns, picked = _asked_column(names, terms, column_anchors, paper)
        if picked and len(columns) == 1:
            value = _subvalue(cells[columns[0]], terms, passage.context)
            return (value, names[columns[0]]) if value is not None else None
        if picked:
            return None  # the asked terms name several columns (or none left): no guess
    if column_anchors and any(a.found_in(fold(" ".join(passage.headers)))
                              for a in column_anchors):
        return None  # the asked column is named but cannot be aligned: no guess
    if terms.kind != "value":
        return None
    numeric = [c for c in cells if cell_values(c)]
    if len(numeric) > 1:
        return None  # several columns, none named by the question
    first = _subvalue(numeric[0], terms, passage.context)
    return (first, None) if first is not None else None


def check_answer(question: str, sources: Sequence[SourceText],
                 today: _dt.date | None = None) -> AnswerCheck:
    """Find the passage that states the asked fact, or say why no source does.

    Args:
        question: the user's question.
        sources: candidate documents (already retrieved for the question).
        today: the current date (tests fix it).
    """
    terms = question_terms(question, today)
    related = [s.key for s in sources]
    if terms.future_years:
        return AnswerCheck(None, f"asks about the future ({', '.join(map(str, terms.future_years))}"
                           "): no source can state it", terms, related=related)
    if terms.kind == "none":
        return AnswerCheck(None, "the question asks for no number", terms, related=related)
    if terms.kind == "entity":
        from repro_assets.research.name_answer import check_name

        return check_name(terms, sources, related)
    if terms.compare:
        return _check_comparison(question, terms, sources, related)
    return _check_terms(terms, sources, related)


def _check_terms(terms: QuestionTerms, sources: Sequence[SourceText],
                 related: list[str]) -> AnswerCheck:
    """The answer check for already read question terms (one asked number)."""
    found_answers: list[GroundedAnswer] = []
    seen_anchor: dict[str, bool] = {a.key: False for a in terms.anchors}
    for source in sources:
        title_fold = fold(source.title) + fold(source.identity)
        paper = paper_anchors(terms, source)
        # where the document's captions stand, read once from its whole text
        style = caption_style([ln.strip() for ln in unicodedata.normalize(
            "NFKC", source.full_text or "\n".join(source.windows)).split("\n") if ln.strip()])
        for window in source.windows:
            window_fold = fold(window) + title_fold
            present = [a for a in terms.anchors if a.found_in(window_fold)]
            for a in present:
                seen_anchor[a.key] = True
            if len(present) < len(terms.anchors):
                continue
            for passage in passages(window, style):
                found = _grounded(passage, terms, source, paper)
                if found is not None:
                    found_answers.append(found)
        if source.full_text and all(a.found_in(fold(source.full_text) + title_fold)
                                    for a in terms.anchors):
            # tables whose header and rows fall in chunks far apart: read in one piece
            for passage in passages(source.full_text, style):
                if not passage.table:
                    continue
                passage.context = _local_context(source.full_text, passage.text)
                found = _grounded(passage, terms, source, paper)
                if found is not None:
                    found_answers.append(found)
    missing = [a.text for a in terms.anchors if not seen_anchor[a.key]]
    best_score = max((f.score for f in found_answers), default=0.0)
    if not found_answers:
        reason = (f"no source names {', '.join(missing)}" if missing else
                  "no retrieved passage states the asked quantity with the question's terms")
        return AnswerCheck(None, reason, terms, best_score=best_score, related=related,
                           missing_anchors=missing)
    top = [f for f in found_answers if abs(f.score - best_score) < 1e-9]
    values = list(dict.fromkeys(f.value for f in top))
    if len(values) > 1:
        return AnswerCheck(None, "passages state different numbers equally well ("
                           + ", ".join(values[:4]) + "): no single answer", terms,
                           best_score=best_score, related=related)
    return AnswerCheck(top[0], "a passage states the asked quantity", terms,
                       best_score=best_score, related=related)


def paper_anchors(terms: QuestionTerms, source: SourceText) -> frozenset[str]:
    """Keys of the question's anchors that stand for ``source`` itself.

    An author the question cites ("X et al.") whose name is in the paper's opening text, and
    the paper's own method (the name its title or abstract gives it): every sentence and row
    of the paper speaks for them.
    """
    identity = fold(source.identity or source.title)
    own = own_method_keys(source.title, source.identity or source.title)
    out = {a.key for a in terms.anchors if a.key in terms.authors and a.found_in(identity)}
    out |= {a.key for a in terms.anchors if a.key in own or any(v in own for v in a.variants)}
    return frozenset(out)


#: Where a comparison names its second side: "... than Y", "between X and Y".
_THAN_RE = re.compile(r"\bthan\b", re.IGNORECASE)
_BETWEEN_RE = re.compile(r"\bbetween\b(?P<a>.+?)\band\b", re.IGNORECASE)


def comparison_sides(question: str, terms: QuestionTerms
                     ) -> tuple[QuestionTerms, QuestionTerms] | None:
    """Split a comparison into its two sub-asks (None: the sides cannot be told apart).

    "difference between X and Y ...": X is the first anchor after "between", Y the first
    after "and". "... X ... than Y ...": Y is the first anchor after "than", X the anchors
    between the comparative word ("higher") and "than" (else the first anchor before it).
    A metric name is never a side; every other anchor (metric, dataset) is shared by both.
    """
    positions = {a.key: question.lower().find(a.text.lower()) for a in terms.anchors}
    if any(p < 0 for p in positions.values()):
        return None
    between = _BETWEEN_RE.search(question)
    than = _THAN_RE.search(question)
    if between:
        first = [a for a in terms.anchors if between.start("a") <= positions[a.key]
                 < between.end("a")]
        second = [a for a in terms.anchors if positions[a.key] >= between.end()]
    elif than:
        first = [a for a in terms.anchors if positions[a.key] < than.start()]
        second = [a for a in terms.anchors if positions[a.key] >= than.end()]
    else:
        return None
    first = [a for a in first if a.key not in _METRIC_WORDS]  # a metric is shared
    second = [a for a in second if a.key not in _METRIC_WORDS]
    if not first or not second:
        return None
    cue = _COMPARATIVE_RE.search(question) if not between else None
    after_cue = [a for a in first if cue and positions[a.key] >= cue.end()]
    side_a = after_cue or first[:1]
    side_b = min(second, key=lambda a: positions[a.key])
    if side_b.key in {a.key for a in side_a}:
        return None
    own = {a.key for a in side_a} | {side_b.key}
    shared = tuple(a for a in terms.anchors if a.key not in own)
    kind = "value" if terms.kind == "count" else terms.kind  # "how many points better"
    return (replace(terms, anchors=(*side_a, *shared), compare=False, kind=kind),
            replace(terms, anchors=(side_b, *shared), compare=False, kind=kind))


def _decimals(value: str) -> int:
    match = _NUM.search(value.replace(",", ""))
    text = match.group(0) if match else ""
    return len(text.split(".")[1]) if "." in text else 0


def _number(value: str) -> float | None:
    match = _NUM.search(value.replace(",", "").replace("\u2212", "-"))
    return float(match.group(0).replace("\u2212", "-")) if match else None


def _check_comparison(question: str, terms: QuestionTerms, sources: Sequence[SourceText],
                      related: list[str]) -> AnswerCheck:
    """Answer a comparison only when each side's number is answered with its own quote.

    Each sub-ask goes through the full answer check (names, metric, dataset and split tied
    to the number's own sentence or row); the answer is the difference, rounded to the
    precision of the inputs, with both numbers and both sources. One side missing: no answer.
    """
    sides = comparison_sides(question, terms)
    if sides is None:
        return AnswerCheck(None, "the comparison's two sides cannot be told apart", terms,
                           related=related)
    checks = [_check_terms(side, sources, related) for side in sides]
    missing = [m for c in checks for m in c.missing_anchors]
    best_score = min(c.best_score for c in checks)
    if not all(c.answered for c in checks):
        unanswered = [", ".join(a.text for a in side.anchors[:1])
                      for side, c in zip(sides, checks, strict=True) if not c.answered]
        return AnswerCheck(None, "no source states the asked number for "
                           + " and ".join(unanswered), terms, best_score=best_score,
                           related=related, missing_anchors=missing)
    parts = tuple(c.answer for c in checks if c.answer is not None)
    numbers = [_number(p.value) for p in parts]
    if any(n is None for n in numbers) or any(p.value.endswith("%") != parts[0].value.endswith(
            "%") for p in parts):
        return AnswerCheck(None, "the two numbers are not of one kind", terms,
                           best_score=best_score, related=related)
    places = max(_decimals(p.value) for p in parts)
    difference = round(abs(numbers[0] - numbers[1]), places)  # type: ignore[operator]
    value = f"{difference:.{places}f}"
    answer = GroundedAnswer(
        value=value, quote=" || ".join(p.quote for p in parts), source=parts[0].source,
        title=" / ".join(dict.fromkeys(p.title for p in parts)),
        score=min(p.score for p in parts), parts=parts)
    return AnswerCheck(answer, f"each side's number is stated: {parts[0].value} and "
                       f"{parts[1].value}, difference {value}", terms,
                       best_score=best_score, related=related)




def head_words(question: str) -> list[str]:
    """The asked attribute: content words between "what"/"which" and the first verb.

    "What minibatch size was X trained with?" -> ``["minibatch", "size"]``.
    """
    m = re.match(r"\s*(?:what|which)\s+(.*?)\s+(?:is|are|was|were|does|do|did|has|have|had|"
                 r"can|will|would|should)\b", question, re.IGNORECASE)
    if not m or len(m.group(1).split()) > 4:
        return []
    return [w for w in _words(m.group(1)) if w not in STOPWORDS and len(w) > 2]


def _asks_head(terms: QuestionTerms, sentence: str) -> bool:
    """The sentence names the asked attribute ("batch size", "accuracy") of the question."""
    head = [w for w in terms.head if not any(w in _words(a.text) for a in terms.anchors)]
    words = set(_words(sentence))
    if len(head) > 1 and f" {''.join(w[0] for w in head)} " in fold(sentence):
        return True  # "phone error rate" written "PER"
    return all(w in words or any(len(v) >= 4 and (v.startswith(w) or w.startswith(v))
                                 for v in words) for w in head)


#: A passage must cover this share of the question's keywords (beside its anchors).
MIN_COVERAGE = 0.34


def _grounded(passage: Passage, terms: QuestionTerms, source: SourceText,
              paper: frozenset[str] = frozenset()) -> GroundedAnswer | None:
    """The passage's answer to the question, when it states the asked quantity.

    ``paper``: keys of the anchors that stand for the source itself (its own method, its
    cited authors, see :func:`paper_anchors`): they hold for every passage of the source.
    """
    words = passage.text.split()
    local = passage.text + " " + " ".join(passage.headers)
    if passage.table:
        # the row's own caption; when none is found, the caption around the row if there is
        # only one (several: the row's cannot be told)
        around = list(dict.fromkeys(_captions(passage.context)))
        local += " " + (passage.caption if passage.caption is not None
                        else around[0] if len(around) == 1 else "")
    local_fold = fold(local) if passage.table else fold(passage.text)
    # a sentence's entity may be named by the sentence before or after it (one name at most)
    # the document's title names what its every sentence is about, as do its own method's
    # name and its authors' names
    near = (local if passage.table else passage.text) + " " + source.title + " " + " ".join(
        a.text for a in terms.anchors if a.key in paper)
    own_fold = fold(near)
    own = [a for a in terms.anchors if a.found_in(own_fold)]
    stated = [a for a in terms.anchors if a.found_in(local_fold)]
    if len(terms.anchors) - len(own) > 1:
        return None  # the asked names stand where the number stands, not elsewhere
    if not passage.table:
        near += " " + passage.nearby
    near_fold = fold(near)
    in_passage = [a for a in terms.anchors if a.found_in(near_fold)]
    if len(in_passage) < len(terms.anchors):
        return None
    if not passage.table and not _asks_head(terms, passage.text):
        return None
    coverage = _coverage(terms.keywords, passage.text + " " + " ".join(passage.headers))
    if not passage.table and not _metric_named(terms, passage.text):
        return None
    complete = bool(terms.anchors) and len(in_passage) == len(terms.anchors)
    if terms.anchors and not in_passage and coverage < 0.5:
        return None
    if not terms.anchors and coverage < 0.5:
        return None
    if coverage < MIN_COVERAGE and not complete:
        return None
    # names the passage itself states weigh more than names its title or neighbour gives
    score = coverage + (len(stated) / len(terms.anchors) if terms.anchors else 0.0)
    # the asked metric is named where the number stands: the sentence, or the row's table
    if any(not a.found_in(near_fold) for a in terms.anchors if a.key in _METRIC_WORDS):
        return None
    if not _qualified(terms, local if passage.table else passage.text):
        return None
    if passage.table:
        if not _metric_named(terms, local) and _names_a_metric(local):
            return None  # the row's header or caption reports another metric than the asked
        if terms.kind in ("ratio", "duration") and not any(
                k in fold(passage.context) for k in ("second", "time", "hour")):
            return None
        if terms.anchors and not _label_names(passage.label, terms, paper):
            return None  # a row answers only for the entity its label names (not a variant)
        picked = _row_value(passage, terms, paper)
        if picked is None:
            return None
        value, column = picked
        score -= ROW_VARIANT_PENALTY * len(_unasked_label_words(passage.label, terms))
        if any(states_number(c, passage.label) for c in terms.counts):
            score += ROW_VARIANT_PENALTY / 2  # "one network": the "(1 net)" row of its siblings
        return GroundedAnswer(value=value, quote=passage.text, source=source.key,
                              title=source.title, score=round(score, 3), column=column)
    numbers = [n for n in numbers_in(passage.text) if _kind_fits(n, terms.kind)
               and n.text not in terms.qualifiers  # "300 layers" fixes the fact, not answers
               and not _assigned_elsewhere(words, n.position, terms)]
    if not numbers:
        return None
    targets = [p for a in in_passage for p in _anchor_positions(a, words)]
    sized = [i for i, w in enumerate(words) if any(
        states_number(q, w) for q in terms.qualifiers)]
    if sized:
        targets = sized  # "the 1.5 billion parameter X reaches ...": the number of that size
    if not targets:
        keyword_set = set(terms.keywords)
        targets = [i for i, w in enumerate(words) if _words(w) and _words(w)[0] in keyword_set]
    if not targets:
        return None
    chosen = min(numbers, key=lambda n: (min(abs(n.position - t) for t in targets),
                                         n.position))
    if min(abs(chosen.position - t) for t in targets) > 25 and not (
            len(numbers) == 1 and terms.kind in ("duration", "ratio", "count")):
        return None  # far from the question's words, and not the only number of its kind
    return GroundedAnswer(value=chosen.text, quote=passage.text, source=source.key,
                          title=source.title, score=round(score, 3))


def _label_names(label: str, terms: QuestionTerms, paper: frozenset[str]) -> bool:
    """The row label names one of the question's anchors.

    As written ("Quillnet-24"), as the paper's own method in words ("Ours", "Proposed
    method") when the question names that method or the paper's authors, or as a combined
    label ("Quillnet-A+B") when the question asks for those parts together.
    """
    label_words = label.replace("(", " ").replace(")", " ").split()
    if any(_anchor_positions(a, label_words) for a in terms.anchors):
        return True
    if paper and is_own_row(label):
        return True
    for word in label_words:
        parts = combined_parts(word)
        if parts and any(a.key == squeeze(parts[0]) for a in terms.anchors) and \
                asks_combination(terms.question, parts[1]):
            return True
    return False


#: Score taken off a row per label word the question does not ask for ("X (random splits)"
#: is a variant of the row "X"): the plainest row naming the asked entity wins.
ROW_VARIANT_PENALTY = 0.05


def _unasked_label_words(label: str, terms: QuestionTerms) -> list[str]:
    """Words of a row label that are neither the question's names nor its keywords."""
    asked = set(terms.keywords) | {w for a in terms.anchors for w in _words(a.text)}
    keys = {a.key for a in terms.anchors}
    # a short plural counts as its singular here ("2 nets" and "1 net" differ by no word)
    words = [w[:-1] if len(w) == 4 and w.endswith("s") and not w.endswith("ss") else w
             for w in _words(label)]
    return [w for w in words if w not in asked and squeeze(w) not in keys
            and w not in STOPWORDS and not any(squeeze(w) in k for k in keys)]


def _assigned_elsewhere(words: list[str], position: int, terms: QuestionTerms) -> bool:
    """The number is given to a name the question does not ask about ("OWA = 1.0")."""
    if position < 2 or words[position - 1] not in ("=", "of=", ":="):
        return False
    name = fold(words[position - 2])
    if not squeeze(words[position - 2]):
        return False  # a symbol ("\u03c1 = 0.4"): the question's words cannot name it
    return not any(a.found_in(name) for a in terms.anchors) and not any(
        k in name for k in terms.keywords)


def _qualified(terms: QuestionTerms, evidence: str) -> bool:
    """The evidence (a sentence, or a row with its headers and caption) states every number
    the question fixes its fact with, and the asked split.

    A question for the validation split is not answered by a number that is not said to be
    one; a question for the test split is not answered by a number said to be a validation one.
    """
    if any(not states_number(q, evidence) for q in terms.qualifiers):
        return False
    if terms.split == "validation":
        return bool(_VALIDATION_RE.search(evidence))
    if terms.split == "test":
        return asked_split(evidence) != "validation"
    return True


#: Metric words a sentence must name (or abbreviate) when the question asks for that metric.
METRIC_KEYWORDS = frozenset({"accuracy", "error", "exact-match", "precision", "recall",
                             "perplexity", "bleu", "rouge", "auc", "f1"})


def _metric_named(terms: QuestionTerms, text: str) -> bool:
    """The question's metric words are in ``text``, or the initials of its metric phrase.

    "phone error rate" is also written "PER"; "exact-match" also "exact match" or "EM".
    """
    asked = [k for k in terms.keywords if k in METRIC_KEYWORDS]
    if not asked:
        return True
    words = set(_words(text))
    spaced = fold(text)
    for metric in asked:
        parts = metric.split("-")
        if metric in words or all(p in words for p in parts):
            continue
        initials = "".join(p[0] for p in parts)
        if len(parts) > 1 and f" {initials} " in spaced:
            continue
        phrase = [k for k in terms.keywords]
        at = phrase.index(metric)
        window = phrase[max(0, at - 1): at + 2]
        if len(window) >= 2 and f" {''.join(w[0] for w in window)} " in spaced:
            continue
        return False
    return True


def _names_a_metric(text: str) -> bool:
    """``text`` names a metric (accuracy, F1, BLEU ...)."""
    words = set(_words(text))
    spaced = fold(text)
    return bool(words & METRIC_KEYWORDS) or any(f" {m} " in spaced for m in _METRIC_WORDS)


#: Characters around a row of a whole-document table that make its context (captions).
TABLE_CONTEXT = 2500


def _local_context(text: str, row: str) -> str:
    """The text around ``row``'s first line in ``text`` (its table, caption and header)."""
    at = text.find(row.split(" ")[0])
    if at < 0:
        return text[:TABLE_CONTEXT]
    return text[max(0, at - TABLE_CONTEXT): at + TABLE_CONTEXT]


def _captions(context: str) -> list[str]:
    """Table captions of a window (``Table 3: ...`` up to the next blank or short line)."""
    return re.findall(r"(?:^|\n)(Table\s+\d+[.:][^\n]*(?:\n[^\n]{40,})*)", context)


def number_in_quotes(number: str, quotes: Sequence[str]) -> bool:
    """True when ``number`` occurs as a whole number token in one of ``quotes``.

    ``85.3`` is in "85.30%", ``30`` is not in "300".
    """
    try:
        target = float(number.replace(",", ""))
    except ValueError:
        return False
    for quote in quotes:
        for match in re.finditer(r"(?<![\d.])\d+(?:,\d{3})*(?:\.\d+)?(?![\d])", quote):
            try:
                if float(match.group(0).replace(",", "")) == target:
                    return True
            except ValueError:
                continue
    return False


def answer_check_dict(check: AnswerCheck, related: list[dict] | None = None) -> dict:
    """The check as stored in the session state and the report (JSON-friendly)."""
    answer = check.answer
    return {
        "answer": None if answer is None else {
            "value": answer.value, "quote": answer.quote, "source": answer.source,
            "title": answer.title, "score": answer.score, "column": answer.column,
            "parts": [{"value": p.value, "quote": p.quote, "source": p.source,
                       "title": p.title} for p in answer.parts]},
        "reason": check.reason,
        "asks_number": check.terms.kind != "none",
        "asked_kind": check.terms.kind,
        "anchors": [a.text for a in check.terms.anchors],
        "missing_anchors": list(check.missing_anchors),
        "future_years": list(check.terms.future_years),
        "best_score": check.best_score,
        "related": related or [],
    }


def answer_given(value: str, text: str) -> bool:
    """``text`` gives the checked answer ``value``: the same number (85.3 ~ "85.30"), or for
    a name ("Adagrad") the name as a whole word."""
    if re.fullmatch(r"[-\u2212]?\d[\d,]*(?:\.\d+)?%?", value.strip()):
        return number_in_quotes(value.rstrip("%"), [text])
    return re.search(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", text,
                     re.IGNORECASE) is not None


def numbers_stated(text: str) -> list[str]:
    """Numbers a text presents as findings (not citation marks, years or list labels)."""
    cleaned = re.sub(r"\[[\d,;\s\-\u2013]+\]", " ", text)
    return [n.text for n in numbers_in(cleaned)]
