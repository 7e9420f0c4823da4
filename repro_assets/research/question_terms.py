"""What a question asks: its names, keywords, asked quantity and the numbers that fix it.

* **anchors**: the names a question pins its fact to (a model, variant, dataset, benchmark,
  metric: words written with capitals or digits, such as ``FlareNet-50``, ``QuokkaQA`` or ``F1``,
  and runs of capitalised words). Every anchor must be found in the passage's local context
  (the passage, the lines around it, a table's header and caption, the document's title); a
  variant or dataset no source names is evidence that the corpus does not hold the fact.
* **a year in the future** is a forecast: no source can state it.
* **the asked quantity**: the kind of number the question wants (a ratio such as ``8x``, a
  count, a duration, a score), or a name (``entity``), or none.
* **qualifiers, split and head**: numbers that fix the fact ("a model with 300 layers"), the
  data split asked about, and the asked attribute's words ("minibatch size").
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from repro_assets.papers.claims.underspecified import LANGUAGE_NAMES
from repro_assets.research.row_names import cited_authors

# IMPORTS


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


YEAR_RE = re.compile(r"\b(19\d\d|20\d\d|21\d\d)\b")


_TOKEN_RE = re.compile(r"[^\s,;:?!()\[\]{}\"\u201c\u201d]+")


TIME_UNITS = ("second", "sec", "minute", "min", "hour", "hr", "day", "week", "month")


_METRIC_HINT = re.compile(
    r"\b(accuracy|error|f1|bleu|rouge|auc|wer|per|cer|map|ap|mos|smape|mase|score|perplexity|"
    r"ndcg|recall|precision|hit|rate|em|exact|top-1|top-5|loss|reward)\b", re.IGNORECASE)


_COMPARATIVE = r"(better|worse|lower|higher|more|less|fewer|smaller|larger|bigger|faster|slower)"


_COMPARE_RE = re.compile(
    rf"\b{_COMPARATIVE}\s+than\b|\bhow (?:much|many)\b[^?]*\b{_COMPARATIVE}\b[^?]*\bthan\b|"
    r"\bdifference\b|"
    r"\bby how (?:much|many)\b|"  # "which is lower, X or Y, and by how much?"
    r"\bgap\b", re.IGNORECASE)


COMPARATIVE_RE = re.compile(rf"\b{_COMPARATIVE}\b|\bdifference\b|\bgap\b", re.IGNORECASE)


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


def stemmed_words(text: str) -> list[str]:
    """The words of ``text``, lower case and stemmed (``"Layers"`` -> ``"layer"``)."""
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
        negated: words the question rules out ("the loud (not quiet) recordings"): a row
            labelled with one of them is not the asked row.
        counts: numbers the question gives in words ("one network"): a row label stating
            one of them is preferred over its siblings.
        sources: keys of the anchors that name the document the fact is read in, not the
            asked entity ("according to the X paper", "the X authors report"): the answer
            comes from that document, and its rows and sentences need not repeat the name.
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
    negated: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()


#: Nouns that make the name before them a document ("the X paper", "X's authors").
_SOURCE_NOUN = r"(?:['\u2019]s)?\s+(?:paper|papers|article|authors|publication)\b"


def source_anchors(question: str, anchors: Sequence[Anchor]) -> tuple[str, ...]:
    """Keys of the anchors the question uses to name a document: the name stands right
    before "paper" / "authors" ("in the X paper's table", "the X authors themselves")."""
    # where a source noun starts (before and after an "'s"), read once: a search of the
    # whole question per anchor was quadratic in a long text of many names
    starts: set[int] = set()
    for match in re.finditer(r"(?<!\s)" + _SOURCE_NOUN, question, re.IGNORECASE):
        starts |= {match.start(), match.start() + 2 * (match.group(0)[:1] in "'\u2019")}
    texts = {a.text.lower() for a in anchors}
    lengths = {len(text) for text in texts}
    low = question.lower()
    ending = {low[start - n:start] for start in starts for n in lengths if n <= start}
    return tuple(a.key for a in anchors if a.text.lower() in ending)


#: Number words a question may fix a row with ("one network", "a single model").
_NUMBER_WORDS = {"one": "1", "single": "1", "two": "2", "three": "3", "four": "4",
                 "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}


METRIC_WORDS = frozenset({"f1", "bleu", "auc", "ap", "wer", "per", "cer", "mos", "em", "map",
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


def looks_like_model(core: str) -> bool:
    """A word spelled as a model's or dataset's name: two letters or more, then digits
    (``Orca-11``, ``GPT-2``) or a capital right after a lower-case letter (``QuokkaQA``), never a
    capitalised word with a hyphenated part ("Non-regularized") or a word in capitals."""
    if core[:1].isalpha() and any(ch.isdigit() for ch in core) and \
            sum(ch.isalpha() for ch in core) >= 2:
        return True  # "Orca-11", "GPT-2"; never "1st", "10-crop" or "L2"
    return re.search(r"[a-z][A-Z]", core) is not None


def _title_word(core: str, first: bool) -> bool:
    if not core[:1].isupper() or not core[1:].islower() or not core.isalpha():
        return False
    if first and (_TEST_RE.fullmatch(core) or VALIDATION_RE.fullmatch(core)
                  or _METRIC_HINT.fullmatch(core)):
        return False  # "Test perplexity of ...": a split or metric word capitalised to open
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


#: A translation direction between two language codes.
LANGUAGE_PAIR_RE = re.compile(r"^([A-Za-z]{2})\s*(?:-|->|\u2192|\u2013|/)\s*([A-Za-z]{2})$")


def _language_pair(text: str) -> tuple[str, str] | None:
    m = LANGUAGE_PAIR_RE.match(text)
    if not m:
        return None
    source, target = LANGUAGE_NAMES.get(m.group(1).lower()), LANGUAGE_NAMES.get(m.group(2).lower())
    return (source, target) if source and target else None


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
    glued = re.fullmatch(r"([a-z]{2,})(\d\d)", key)
    if glued and not year:
        # "wmt14", "conll03": a name with its short year glued on, also written "WMT 2014"
        short = int(glued.group(2))
        variants.append(glued.group(1) + ("20" if short <= _dt.date.today().year % 100
                                          else "19") + glued.group(2))
    pair = _language_pair(text)
    if pair:
        variants += [pair[0] + pair[1], pair[0] + "to" + pair[1]]
    if key.endswith("s") and len(key) > 4:
        variants.append(key[:-1])  # "Answers" / "Answer"
    parts = re.findall(r"[a-z0-9]+", unicodedata.normalize("NFKC", text).lower())
    if len(key) <= SHORT_KEY and len(parts) > 1:
        variants.append(" ".join(parts))  # "L+F": the spaced form " l f " of the text
    if "-" in text:
        head, _, tail = text.partition("-")
        if tail.lower() in ("large", "base", "small", "big", "tiny"):
            variants.append(squeeze(head) + squeeze(tail))
    return Anchor(text=text, key=key, variants=tuple(variants))


def question_terms(question: str, today: _dt.date | None = None,
                   names: frozenset[str] = frozenset()) -> QuestionTerms:
    """Read ``question`` for its anchors, keywords, future years and asked quantity.

    A name spelled with digits or inner capitals is one anchor; a run of capitalised words
    (``North Sea Herald``, with a trailing number: ``Rapid Parse 3``) is another. ``names``:
    runs of lower-case words that name a document (its title typed in lower case), one anchor
    each.
    """
    year_now = (today or _dt.date.today()).year
    years = tuple(int(y) for y in YEAR_RE.findall(question) if int(y) > year_now)
    tokens = _TOKEN_RE.findall(question)
    anchors: list[Anchor] = []
    run: list[str] = []
    chain: list[str] = []  # consecutive name tokens, for a year that follows them
    chain_anchors = 0
    skip = 0

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
        if core and YEAR_RE.fullmatch(core):
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
        if i < skip:
            continue  # inside a named run
        run_end = _named_run(tokens, i, names)
        if run_end:
            flush()
            end_chain()
            anchors.append(_anchor(" ".join(_clean(t) for t in tokens[i:run_end])))
            skip = run_end
            continue
        if _strong(core) or _language_pair(core):  # "en-fr" names a direction as "En-Fr"
            flush()
            following = tokens[i + 1].strip(".,;:") if i + 1 < len(tokens) else ""
            if re.fullmatch(r"\d+(\.\d+)?", following) and not YEAR_RE.fullmatch(following):
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
    anchor_words = {w for a in anchors for w in stemmed_words(a.text)}
    negated = set(negated_words(question))
    keywords = tuple(dict.fromkeys(
        w for w in stemmed_words(question)
        if w not in STOPWORDS and w not in anchor_words and len(w) > 2 and not w.isdigit()
        and w not in negated))
    kind = _named_kind(_asked_kind(question), anchors)
    # "how many times faster than" asks for a stated ratio, not a difference of two numbers
    return QuestionTerms(anchors=tuple(dict.fromkeys(anchors)), keywords=keywords,
                         future_years=years, kind=kind,
                         compare=kind != "ratio" and bool(_COMPARE_RE.search(question)),
                         qualifiers=_qualifiers(question, anchors),
                         # "on the test set (not validation)": a split ruled out is not asked
                         split=asked_split(_NEGATION.sub(" ", question)),
                         head=tuple(head_words(question, kind in _NUMBER_KINDS)),
                         authors=cited_authors(question), question=question,
                         negated=negated_words(question),
                         sources=source_anchors(question, anchors),
                         counts=tuple(dict.fromkeys(
                             _NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", question.lower())
                             if w in _NUMBER_WORDS)))


def _named_run(tokens: list[str], start: int, names: frozenset[str]) -> int:
    """The end of the run of ``tokens`` from ``start`` that is one of ``names`` (0: none)."""
    for name in names:
        words = name.split()
        if [_clean(t).lower() for t in tokens[start:start + len(words)]] == words:
            return start + len(words)
    return 0


#: Asked quantities that are numbers.
_NUMBER_KINDS = frozenset({"value", "count", "ratio", "duration"})


#: Words naming a held-out split used for model selection, and the final test split.
VALIDATION_RE = re.compile(r"\b(validation|valid|val|dev|development|held[- ]out)\b",
                            re.IGNORECASE)


#: "test" names the split; "testing" only as "testing set/data", and "test time" (a protocol:
#: "single-crop testing", "test-time augmentation") names none.
_TEST_RE = re.compile(r"\btest\b(?![- ]time)|\btesting\s+(?:set|data|split)s?\b",
                      re.IGNORECASE)


def asked_split(text: str) -> str | None:
    """The data split a text names: ``validation`` (also dev, held-out), ``test`` or None.

    A text naming both is about neither in particular (None).
    """
    validation, test = bool(VALIDATION_RE.search(text)), bool(_TEST_RE.search(text))
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
        if YEAR_RE.fullmatch(value):
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


#: Head words of a "which ..." question that ask for a number, not a name.
_QUANTITY_HEADS = frozenset({"proportion", "ratio", "rate", "size", "number", "value",
                             "percentage", "fraction", "probability", "threshold",
                             "coefficient", "length", "average", "total", "dimension",
                             "depth", "width", "momentum", "dropout", "decay",
                             "temperature", "epsilon"})


#: A metric taken at a cut-off ("prec@1", "recall@10", "hits@5", "p@1"): a number.
_AT_K_RE = re.compile(r"\b[a-z]+@\d+\b", re.IGNORECASE)
#: A symbol's name written out ("beta", "lambda"): a parameter, asked for its value.
_SYMBOL_RE = re.compile(r"\b(alpha|beta|gamma|delta|epsilon|lambda|sigma|theta|kappa|rho|tau)\b",
                        re.IGNORECASE)
#: Greek letters a paper writes as symbols, by the names a user types for them.
GREEK_NAMES = {"\u03b1": "alpha", "\u03b2": "beta", "\u03b3": "gamma", "\u03b4": "delta",
               "\u03b5": "epsilon", "\u03f5": "epsilon", "\u03b7": "eta", "\u03b8": "theta",
               "\u03ba": "kappa", "\u03bb": "lambda", "\u03bc": "mu", "\u03c1": "rho",
               "\u03c3": "sigma", "\u03c4": "tau"}


def symbol_name(token: str) -> str | None:
    """The name of the Greek letter ``token`` is ("\u03b2" -> "beta"), or None."""
    return GREEK_NAMES.get(token.strip(".,;:()[]$_{}").lower())


#: Metric words long enough that one typed letter off ("acuracy") still names them.
_LONG_METRICS = ("accuracy", "precision", "perplexity", "recall")


def _one_edit(word: str, target: str) -> bool:
    """True when ``word`` is ``target`` with one letter dropped, added or replaced."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        return sum(a != b for a, b in zip(word, target, strict=True)) == 1
    short, long_ = sorted((word, target), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def long_metric(word: str) -> str | None:
    """The long metric word ``word`` is, as written or typed one letter off ("acuracy" ->
    "accuracy"), or None."""
    word = word.lower()
    return next((m for m in _LONG_METRICS if word == m or _one_edit(word, m)), None)


def _metric_hint(q: str) -> bool:
    """True when lower-case ``q`` names a metric: a metric word, one at a cut-off ("prec@1"),
    or a long metric word typed one letter off ("acuracy")."""
    if _METRIC_HINT.search(q) or _AT_K_RE.search(q):
        return True
    return any(_one_edit(w, m) for w in re.findall(r"[a-z]{5,}", q) for m in _LONG_METRICS)


def _asked_kind(question: str) -> str:
    q = question.lower()
    if re.search(r"\bby how much\b", q):
        return "value"  # "which is higher, X or Y, and by how much": a difference, a number
    if re.search(r"\bhow many times\b|\btimes (fewer|smaller|larger|faster|slower|more|less)",
                 q):
        return "ratio"
    if re.search(r"\bhow long\b|\bhow many (" + "|".join(TIME_UNITS) + r")", q) or \
            re.search(r"\b(" + "|".join(TIME_UNITS) + r")s?\b", q):
        return "duration"
    if re.search(r"\bhow many\b", q):
        return "count"
    if re.search(r"\bhow (well|good|badly)\b.*\b(do|does|did|perform\w*)\b", q):
        return "value"  # "How well does X do on Y?": its result on Y, a number
    if re.search(r"\b(what|how much|how accurate|how (well|did|does)|which value|"
                 r"what value|how (high|low|large|big|small|good))\b", q) and (
                     _metric_hint(q) or re.search(
                     r"\b(proportion|ratio|size|number|rate|value|accurate|score|length|average|"
                     r"median|total|amount|percentage|dimension|dimensionality|depth|width)\b", q)):
        return "value"
    m = re.match(r"\s*(?:which|what)\s+([a-z][\w\-]*)", q)
    if m and (squeeze(m.group(1)) in METRIC_WORDS or m.group(1) in _SCORE_WORDS or
              re.match(r"\s*(?:which|what)\s+[a-z][\w\-]*\s+(score|rate|accuracy|error)\b",
                       q)):
        return "value"  # "which F1 score ...": a metric's value, not a name ("which loss")
    if m and set(head_words(question)) & _QUANTITY_HEADS:
        return "value"  # "which mask proportion was chosen ...": a number, not a name
    if m and m.group(1) not in _AUXILIARIES:
        return "entity"  # "Which optimizer ...", "What dataset ...": a name, not a number
    fragment = not re.match(
        r"\s*(what|which|how|who|when|where|why|is|are|was|were|do|does|did|can|"
        r"could|should|would|will|has|have|had|list|describe|explain|compare|"
        r"summari[sz]e|tell|give)\b", q)
    if fragment and (_metric_hint(q) or _SYMBOL_RE.search(q)):
        return "value"  # a fragment naming a metric ("X top-1 error, single-crop?") asks for it
        # or a parameter by its symbol's name ("X smoothing beta?"): its value
    if fragment and _head_quantity(question):
        # a fragment ending in a quantity's name ("X batch size?", a keyword query "x memory
        # size" without its mark too): read as asking no number, the descriptive answer took
        # near-topic sentences that state none for it
        return _FRAGMENT_VALUE
    return "none"


#: The kind of a fragment ending in a quantity's name: a value when it names its entity.
_FRAGMENT_VALUE = "fragment-value"
#: The kind of a fragment asking a quantity of nobody it names ("shelf memory size"): it asks
#: a number no passage can be tied to, so it is never answered (not a descriptive answer).
UNNAMED_VALUE = "unnamed-value"


def _named_kind(kind: str, anchors: list[Anchor]) -> str:
    """The asked kind, a fragment's ("X batch size?") read as a value when it names X: a
    fragment naming nobody ("batch size?") would take any paper's number for it, and read as
    asking no number a summary of near-topic sentences answered it, stating no size at all."""
    if kind == _FRAGMENT_VALUE:
        return "value" if anchors else UNNAMED_VALUE
    return kind


def _head_quantity(question: str) -> bool:
    """The fragment's last words name a quantity ("... batch size?", "... warmup steps?")."""
    words = re.findall(r"[a-z]+", question.lower())
    return bool(words) and words[-1] in _QUANTITY_HEADS


_NEGATION = re.compile(r"\b(?:not|rather than|instead of|excluding|other than)\s+"
                       r"((?:the\s+)?[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)", re.IGNORECASE)


def negated_words(question: str) -> tuple[str, ...]:
    """Content words the question rules out: up to two words after "not", "rather than",
    "instead of", "excluding", "other than" ("loud (not quiet)" -> ``quiet``)."""
    out: list[str] = []
    for m in _NEGATION.finditer(question):
        out += [w for w in stemmed_words(m.group(1)) if w not in STOPWORDS and len(w) > 2]
    return tuple(dict.fromkeys(out))


def head_words(question: str, numeric: bool = False) -> list[str]:
    """The asked attribute: content words between "what"/"which" and the first verb.

    "What minibatch size was X trained with?" -> ``["minibatch", "size"]``.
    """
    # a run of spaces read as one (the words are the same): over a long run the patterns
    # below backtracked in cubic time
    question = re.sub(r"[^\S\n]{2,}", " ", question)
    # the question word may follow a leading phrase ("For the large X, what dropout rate ...")
    m = re.match(r"(?:[^,?]*,\s*)?(?:what|which)\s+(.*?)\s+(?:is|are|was|were|does|do|did|has|"
                 r"have|had|can|will|would|should)\b", question, re.IGNORECASE)
    if numeric and (not m or not m.group(1).strip()):
        # a number question "What is the average session length of X?": the words
        # between the verb and "of"
        # ("For the X experiment, what is Y's vocabulary size?": after a leading phrase, up
        # to the question mark)
        m = re.match(r"(?:[^,?]*,\s*)?what\s+(?:is|are|was|were)\s+(?:the\s+|an?\s+)?(.*?)"
                     r"(?:\s+(?:of|for|in|on|at|with|that|when|used|reported)\b|\s*\?\s*$)",
                     question, re.IGNORECASE)
    if numeric and not m and _head_quantity(question):
        # a fragment ending in a quantity's name ("X batch size?"): that name, its last two
        # words when the fragment has a word before them (the entity)
        words = [w for w in stemmed_words(question) if w not in STOPWORDS]
        return words[-2:] if len(words) >= 3 else words[-1:]
    if not m or len(m.group(1).split()) > 4:
        return []
    return [w for w in stemmed_words(m.group(1)) if w not in STOPWORDS and len(w) > 2]
