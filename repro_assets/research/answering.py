"""Does a source *state* the asked fact? The answer check of a question against its sources.

Retrieval finds near-topic text for any question; finding the answer is another matter. The
question is read for its own terms (:mod:`repro_assets.research.question_terms`); candidate
passages (:mod:`repro_assets.research.passages`: sentences and table rows) are checked
against them (:mod:`repro_assets.research.term_match`, :mod:`repro_assets.research.table_rows`).
A passage answers only when it holds a number of the asked kind next to the question's words
(:mod:`repro_assets.research.stated_numbers`); the number is quoted with its passage. A
comparison is answered from each side's own number; a name question goes to
:mod:`repro_assets.research.name_answer`.

Everything here is pure: the caller hands in document texts (see
:mod:`repro_assets.research.corpus_answer` for the corpus side).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

from repro_assets.research.answer_models import AnswerCheck, GroundedAnswer, SourceText
from repro_assets.research.asked_task import task_contradicted
from repro_assets.research.name_answer import check_name
from repro_assets.research.passages import (
    NUM_RE,
    Passage,
    caption_style,
    local_context,
    passages,
    table_captions,
)
from repro_assets.research.question_terms import (
    COMPARATIVE_RE,
    GREEK_NAMES,
    METRIC_WORDS,
    STOPWORDS,
    UNNAMED_VALUE,
    Anchor,
    QuestionTerms,
    fold,
    looks_like_model,
    question_terms,
    squeeze,
    states_number,
    stemmed_words,
    symbol_name,
)
from repro_assets.research.row_names import own_method_keys
from repro_assets.research.stated_numbers import NumberToken, kind_fits, numbers_in
from repro_assets.research.table_rows import (
    ROW_VARIANT_PENALTY,
    label_names,
    label_negated,
    row_value,
    spelled_initials,
    unasked_label_words,
)
from repro_assets.research.term_match import (
    GENERIC_HEAD,
    MIN_COVERAGE,
    OPENING_CHARS,
    anchor_positions,
    asks_head,
    keyword_coverage,
    metric_anchor_in,
    metric_named,
    names_a_metric,
    paper_anchors,
    qualified,
    row_surroundings,
    variant_only,
)

#: Another reader of the sources for one asked number (the paper's extracted claims): called
#: with the question's terms when no passage states the number, its answer is then taken.
Fallback = Callable[[QuestionTerms], GroundedAnswer | None]


def check_answer(question: str, sources: Sequence[SourceText],
                 today: _dt.date | None = None, fallback: Fallback | None = None,
                 names: frozenset[str] = frozenset()) -> AnswerCheck:
    """Find the passage that states the asked fact, or say why no source does.

    Args:
        question: the user's question.
        sources: candidate documents (already retrieved for the question).
        today: the current date (tests fix it).
        fallback: read when no passage states an asked number (each side of a comparison
            alone); it must apply the same terms (see :mod:`repro_assets.research.claim_answer`).
        names: lower-case words of the question the corpus writes as names (anchors too).
    """
    terms = question_terms(question, today, names)
    related = [s.key for s in sources]
    if terms.future_years:
        return AnswerCheck(None, f"asks about the future ({', '.join(map(str, terms.future_years))}"
                           "): no source can state it", terms, related=related)
    if terms.kind == "none":
        return AnswerCheck(None, "the question asks for no number", terms, related=related)
    if terms.kind == UNNAMED_VALUE:
        return AnswerCheck(None, "the question asks for a quantity but names no model or "
                           "method it belongs to", terms, related=related)
    if terms.kind == "entity":
        return check_name(terms, sources, related)
    if terms.compare:
        return _check_comparison(question, terms, sources, related, fallback)
    return _check_terms(terms, sources, related, fallback)


def _check_terms(terms: QuestionTerms, sources: Sequence[SourceText],
                 related: list[str], fallback: Fallback | None = None) -> AnswerCheck:
    """The answer check for already read question terms (one asked number); ``fallback`` is
    asked when no passage states it."""
    terms, sources = _named_sources(terms, sources)
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
            # the paper's own names (its method, its authors) hold for its every window
            present = [a for a in terms.anchors if a.found_in(window_fold)
                       or metric_anchor_in(a, f"{window} {source.title}") or a.key in paper]
            for a in present:
                seen_anchor[a.key] = True
            if len(present) < len(terms.anchors):
                continue
            for passage in passages(window, style):
                found = _grounded(passage, terms, source, paper)
                if found is not None:
                    found_answers.append(found)
        if source.full_text and all(a.found_in(fold(source.full_text) + title_fold)
                                    or metric_anchor_in(a, source.full_text)
                                    for a in terms.anchors):
            # tables whose header and rows fall in chunks far apart: read in one piece
            for passage in passages(source.full_text, style):
                if not passage.table:
                    continue
                passage.context = local_context(source.full_text, passage.text)
                found = _grounded(passage, terms, source, paper)
                if found is not None:
                    found_answers.append(found)
    missing = [a.text for a in terms.anchors if not seen_anchor[a.key]]
    best_score = max((f.score for f in found_answers), default=0.0)
    if not found_answers and fallback is not None:
        claimed = fallback(terms)
        if claimed is not None:
            return AnswerCheck(claimed, "an extracted claim of the paper states the asked "
                               "quantity with the question's terms", terms,
                               best_score=claimed.score, related=related)
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


def _named_sources(terms: QuestionTerms, sources: Sequence[SourceText]
                   ) -> tuple[QuestionTerms, list[SourceText]]:
    """A question that names the document it reads ("according to the X paper"): only the
    documents that name it in their title or as their own method are read, and the name
    is no longer asked of the row or sentence (the other anchors are). A question naming
    nothing but the document, or a document no source is known as, is left as it is."""
    named = [a for a in terms.anchors if a.key in terms.sources]
    rest = tuple(a for a in terms.anchors if a.key not in terms.sources)
    if not named or not rest:
        return terms, list(sources)
    kept = [s for s in sources if all(
        a.found_in(fold(s.title)) or a.key in own_method_keys(
            s.title, (s.identity or s.title) + "\n" + s.full_text[:OPENING_CHARS])
        for a in named)]
    if not kept:
        return terms, list(sources)  # no document is known as that paper: read as before
    return replace(terms, anchors=rest), kept


#: Where a comparison names its second side: "... than Y", "between X and Y".
_THAN_RE = re.compile(r"\bthan\b", re.IGNORECASE)


_BETWEEN_RE = re.compile(r"\bbetween\b(?P<a>.+?)\band\b", re.IGNORECASE)
#: Where a question offers two alternatives ("which is lower, X or Y").
_OR_RE = re.compile(r"\bor\b", re.IGNORECASE)
#: A possessive ending right after a name ("X's", "X\u2019s").
_POSSESSIVE_RE = re.compile(r"['\u2019]s\b")
#: What opens the clause of two alternatives ("which is lower on Z, X or Y").
_CLAUSE_RE = re.compile(r"[,;:]\s")


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
    either = _OR_RE.search(question)
    if not between and not than and either:
        # "which is lower, X or Y": the name just before "or" against the first after it;
        # the names before the clause's opening comma ("which has the lower Z error, X or
        # Y") are what both alternatives share, never an alternative themselves
        opening = max((m.end() for m in _CLAUSE_RE.finditer(question, 0, either.start())),
                      default=0)
        before = [a for a in terms.anchors if opening <= positions[a.key] < either.start()
                  and a.key not in METRIC_WORDS]
        after = [a for a in terms.anchors if positions[a.key] >= either.end()
                 and a.key not in METRIC_WORDS]
        if not before or not after:
            return None
        side_a = max(before, key=lambda a: positions[a.key])
        side_b = min(after, key=lambda a: positions[a.key])
        shared = tuple(a for a in terms.anchors if a.key not in (side_a.key, side_b.key))
        kind = "value" if terms.kind == "count" else terms.kind
        return (replace(terms, anchors=(side_a, *shared), compare=False, kind=kind),
                replace(terms, anchors=(side_b, *shared), compare=False, kind=kind))
    if between:
        first = [a for a in terms.anchors if between.start("a") <= positions[a.key]
                 < between.end("a")]
        second = [a for a in terms.anchors if positions[a.key] >= between.end()]
    elif than:
        first = [a for a in terms.anchors if positions[a.key] < than.start()]
        second = [a for a in terms.anchors if positions[a.key] >= than.end()]
    else:
        return None
    first = [a for a in first if a.key not in METRIC_WORDS]  # a metric is shared
    second = [a for a in second if a.key not in METRIC_WORDS]
    if not first or not second:
        return None
    cue = COMPARATIVE_RE.search(question) if not between else None
    after_cue = [a for a in first if cue and positions[a.key] >= cue.end()]
    sides_a = after_cue or first[:1]
    # "how much lower is X's Z error than Y": the name written as the owner is the side, what
    # it owns (the collection Z) is asked of both sides
    owners = [a for a in sides_a if _POSSESSIVE_RE.match(question, positions[a.key]
                                                          + len(a.text))]
    sides_a = owners or sides_a
    nearest_b = min(second, key=lambda a: positions[a.key])
    if nearest_b.key in {a.key for a in sides_a}:
        return None
    own = {a.key for a in sides_a} | {nearest_b.key}
    shared = tuple(a for a in terms.anchors if a.key not in own)
    kind = "value" if terms.kind == "count" else terms.kind  # "how many points better"
    return (replace(terms, anchors=(*sides_a, *shared), compare=False, kind=kind),
            replace(terms, anchors=(nearest_b, *shared), compare=False, kind=kind))


def _decimals(value: str) -> int:
    match = NUM_RE.search(value.replace(",", ""))
    text = match.group(0) if match else ""
    return len(text.split(".")[1]) if "." in text else 0


def _number(value: str) -> float | None:
    match = NUM_RE.search(value.replace(",", "").replace("\u2212", "-"))
    return float(match.group(0).replace("\u2212", "-")) if match else None


def _check_comparison(question: str, terms: QuestionTerms, sources: Sequence[SourceText],
                      related: list[str], fallback: Fallback | None = None) -> AnswerCheck:
    """Answer a comparison only when each side's number is answered with its own quote.

    Each sub-ask goes through the full answer check (names, metric, dataset and split tied
    to the number's own sentence or row); the answer is the difference, rounded to the
    precision of the inputs, with both numbers and both sources. One side missing: no answer.
    """
    sides = comparison_sides(question, terms)
    if sides is None:
        return AnswerCheck(None, "the comparison's two sides cannot be told apart", terms,
                           related=related)
    checks = [_check_terms(side, sources, related, fallback) for side in sides]
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


def _surroundings(passage: Passage, terms: QuestionTerms) -> str:
    """The text just around a table row whose caption and header name no metric (empty
    when the row's own caption cannot be told from a neighbouring table's and the question
    asks for a metric: the text around it may be that other table's, "Use AUC" under it)."""
    if passage.caption == "" and any(a.key in METRIC_WORDS for a in terms.anchors):
        return ""
    around = row_surroundings(passage.context, passage.text, passage.values)
    # no further than the captions before and after the row: beyond them is another table
    first = next((v for v in passage.values if re.search(r"\d", v)), passage.label)
    at = around.find(first)
    if at < 0:
        return around
    starts = [m.start() for m in _CAPTION_START_RE.finditer(around)]
    lo = max((p for p in starts if p <= at), default=0)
    hi = min((p for p in starts if p > at), default=len(around))
    return around[lo:hi]


#: Where a table caption starts.
_CAPTION_START_RE = re.compile(r"(?m)^Table\s+\d+[.:]")


def _local_text(passage: Passage) -> str:
    """The text that stands with the passage's number: the passage and its headers, and for a
    table row its caption."""
    local = passage.text + " " + " ".join(passage.headers)
    if passage.table:
        # the row's own caption; when none is found, the caption around the row if there is
        # only one (several: the row's cannot be told)
        around = list(dict.fromkeys(table_captions(passage.context)))
        local += " " + (passage.caption if passage.caption is not None
                        else around[0] if len(around) == 1 else "")
    return local


def _covered(terms: QuestionTerms, in_passage: list[Anchor], coverage: float) -> bool:
    """Whether the passage says enough of the question: its keywords (``coverage``), or all
    its names."""
    complete = bool(terms.anchors) and len(in_passage) == len(terms.anchors)
    if terms.anchors and not in_passage and coverage < 0.5:
        return False
    if not terms.anchors and coverage < 0.5:
        return False
    return not (coverage < MIN_COVERAGE and not complete)


def _grounded(passage: Passage, terms: QuestionTerms, source: SourceText,
              paper: frozenset[str] = frozenset()) -> GroundedAnswer | None:
    """The passage's answer to the question, when it states the asked quantity.

    ``paper``: keys of the anchors that stand for the source itself (its own method, its
    cited authors, see :func:`paper_anchors`): they hold for every passage of the source.
    """
    local = _local_text(passage)
    local_fold = fold(local) if passage.table else fold(passage.text)
    # a sentence's entity may be named by the sentence before or after it (one name at most)
    # the document's title names what its every sentence is about, as do its own method's
    # name and its authors' names
    near = (local if passage.table else passage.text) + " " + source.title + " " + " ".join(
        a.text for a in terms.anchors if a.key in paper)
    # a metric named in words ("mean opinion score") is the asked abbreviation ("MOS"), as
    # capitalised words are an all-capitals name ("Neural Machine Translation", "NMT")
    spelled = [a.text for a in terms.anchors
               if not a.found_in(fold(near)) and metric_anchor_in(a, near)]
    around = ""
    if passage.table and not names_a_metric(local):
        # a table whose caption and header name no metric: the text just around it must
        # name the asked one (and then stands for the table's metric)
        around = _surroundings(passage, terms)
        if not metric_named(terms, around):
            return None
        spelled += [a.text for a in terms.anchors if a.key in METRIC_WORDS
                    and not metric_anchor_in(a, near) and metric_anchor_in(a, around)]
    if spelled:
        near += " " + " ".join(spelled)
        local_fold += fold(" ".join(spelled))
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
    if not passage.table and not _sentence_speaks_for(passage.text, terms,
                                                      borrowed=len(own) < len(terms.anchors)):
        return None
    if not meets_condition(terms, passage.text if not passage.table else local,
                           "" if passage.table else f"{passage.nearby} {passage.context} "
                           f"{source.full_text or ' '.join(source.windows)}"):
        return None  # "if X is given the right article, ...": a passage on that setting
    if not passage.table and any(
            a.key not in paper and variant_only(a, f"{passage.text} {passage.nearby} "
                                                f"{source.title}") for a in terms.anchors):
        return None  # the sentence names "X-11", a variant of the asked "X", never "X"
    coverage = keyword_coverage(terms.keywords, passage.text + " " + " ".join(passage.headers))
    if not passage.table and not metric_named(terms, passage.text):
        return None
    if not _covered(terms, in_passage, coverage):
        return None
    # names the passage itself states weigh more than names its title or neighbour gives
    score = coverage + (len(stated) / len(terms.anchors) if terms.anchors else 0.0)
    # the asked metric is named where the number stands: the sentence, or the row's table
    if any(not a.found_in(near_fold) for a in terms.anchors if a.key in METRIC_WORDS):
        return None
    if not qualified(terms, local if passage.table else passage.text):
        return None
    if passage.table:
        return _row_answer(passage, terms, source, paper, local, score)
    return _sentence_answer(passage, terms, source, in_passage, score)


def _sentence_speaks_for(sentence: str, terms: QuestionTerms, borrowed: bool) -> bool:
    """The sentence names the asked attribute, and (when an asked name is only in the sentence
    beside it, ``borrowed``) no other model: "RockNet reaches 5.0" after a sentence on the
    asked X states RockNet's number, not X's."""
    if borrowed and _names_another(sentence, terms):
        return False
    return asks_head(terms, sentence)


def _counts_another(label: str, terms: QuestionTerms) -> bool:
    """The question counts its entity ("a single model", "one network") and the row label
    opens with another count ("2 medium Xs", "5 nets") the question does not give."""
    m = re.match(r"\s*(\d+)\s+[A-Za-z]", label)
    return bool(terms.counts) and m is not None and m.group(1) not in terms.counts \
        and m.group(1) not in terms.qualifiers


def _names_another(sentence: str, terms: QuestionTerms) -> bool:
    """The sentence names a model, variant or dataset the question does not ask about (a word
    spelled as a model's name, "RockNet-9", not a metric nor a word in capitals such as
    "SGD"): a number it states is that name's."""
    for token in sentence.split():
        core = token.strip(".,;:()[]\"'“”").removesuffix("'s")
        key = squeeze(core)
        if not key or not looks_like_model(core) or any(key.startswith(m) for m in METRIC_WORDS
                                                        if len(m) > 2):
            continue  # a metric ("BLEU-4") is no model; a word in capitals may be a tool
        if not any(k in key or key in k for a in terms.anchors for k in (a.key, *a.variants)):
            return True
    return False


def _row_answer(passage: Passage, terms: QuestionTerms, source: SourceText,
                paper: frozenset[str], local: str, score: float) -> GroundedAnswer | None:
    """A table row's answer: the asked metric's column of the row that names the asked
    entity (``local``: the row with its headers and caption; ``score``: its match so far)."""
    if not metric_named(terms, local) and names_a_metric(local):
        return None  # the row's header or caption reports another metric than the asked
    if terms.kind in ("ratio", "duration") and not any(
            k in fold(passage.context) for k in ("second", "time", "hour")):
        return None
    if not _row_names_attribute(terms, local):
        return None  # "what batch size": a results row names no batch size
    if not _nearest_cut_asked(terms.question, " ".join(passage.headers) or local,
                              passage.text):
        return None  # "top-1 error" asked: the row's nearest header/caption says "top-5 err."
    if task_contradicted(terms.question, local):
        return None  # "on image caption generation" asked: the caption's "on the X task" differs
    if terms.anchors and not label_names(passage.label, terms, paper):
        return None  # a row answers only for the entity its label names (not a variant)
    if _counts_another(passage.label, terms):
        return None  # "2 medium Xs" is an ensemble, not the asked single X
    if label_negated(passage.label, terms) or _states_the_excluded(terms.question, local):
        return None  # the question rules this row out ("the loud (not quiet) recordings")
    picked = row_value(passage, terms, paper)
    if picked is None:
        return None
    value, column = picked
    score -= ROW_VARIANT_PENALTY * len(unasked_label_words(passage.label, terms))
    if any(states_number(c, passage.label) for c in terms.counts):
        score += ROW_VARIANT_PENALTY / 2  # "one network": the "(1 net)" row of its siblings
    return GroundedAnswer(value=value, quote=passage.text, source=source.key,
                          title=source.title, score=round(score, 3), column=column)


def _sentence_answer(passage: Passage, terms: QuestionTerms, source: SourceText,
                     in_passage: list[Anchor], score: float) -> GroundedAnswer | None:
    """A sentence's answer: the number of the asked kind nearest the asked names (or the
    asked size, or the question's keywords)."""
    words = passage.text.split()
    numbers = [n for n in numbers_in(passage.text) if _fits(n, terms)
               and n.text not in terms.qualifiers  # "300 layers" fixes the fact, not answers
               and not _assigned_elsewhere(words, n.position, terms)]
    # "70.0% exact match and 79.0% F1": 79.0 is the F1, never the asked exact match
    numbers = [n for n in numbers if not _labelled_with_another_metric(words, n.position, terms)]
    if not _BEFORE_RE.search(terms.question):
        # "X cuts Y's error from 6.1 to 5.2": 6.1 is Y's before X, not the asked one
        numbers = [n for n in numbers if not _starting_value(words, n.position)]
    greek = _asked_symbol(terms.question)
    if greek is not None:
        # "X beta?": the number the sentence gives that letter ("\u03b2 = 0.25"), no other
        numbers = [n for n in numbers if n.position >= 2 and words[n.position - 1] == "="
                   and greek in (symbol_name(words[n.position - 2]),
                                 words[n.position - 2].lower())]
    if terms.kind == "count":
        # "how many epochs": "6 residual stages" or "minibatches of 96" count something else
        numbers = [n for n in numbers if _counts_the_asked_noun(words, n.position, terms)]
    if terms.kind in ("count", "duration") and not _PERIOD_ASKED_RE.search(terms.question):
        # "decayed every 8 epochs": how often something happens, not how many in all
        numbers = [n for n in numbers if not _a_period(words, n.position)]
    if not numbers:
        return None
    targets = [p for a in in_passage for p in anchor_positions(a, words)]
    sized = [i for i, w in enumerate(words) if any(
        states_number(q, w) for q in terms.qualifiers)]
    head = [w for w in terms.head if w not in GENERIC_HEAD and w not in _METRIC_HEAD
            and not any(w in stemmed_words(a.text) for a in terms.anchors)]
    attribute = [i for i, w in enumerate(words) if head and stemmed_words(w)[:1]
                 and stemmed_words(w)[0] == head[-1]]
    after = [n for n in numbers if attribute and n.position > attribute[0]]
    if after:
        numbers = after  # "... 75 epochs; their batch size is 128": what follows the attribute
    if sized:
        targets = sized  # "the 1.5 billion parameter X reaches ...": the number of that size
    if not targets:
        keyword_set = set(terms.keywords)
        targets = [i for i, w in enumerate(words)
                   if stemmed_words(w) and stemmed_words(w)[0] in keyword_set]
    if not targets:
        return None
    chosen = min(numbers, key=lambda n: (min(abs(n.position - t) for t in targets),
                                         n.position))
    if min(abs(chosen.position - t) for t in targets + attribute) > 25 and not (
            len(numbers) == 1 and terms.kind in ("duration", "ratio", "count")):
        return None  # far from the question's words, and not the only number of its kind
    if not terms.compare and _states_a_difference(words, chosen.position):
        return None  # "the gap ... fell from 0.4 to 0.1": a difference, not the asked value
    return GroundedAnswer(value=chosen.text, quote=passage.text, source=source.key,
                          title=source.title, score=round(score, 3))


#: A rank cut of a metric: "top-1", "top 5", "top1".
_RANK_CUT_RE = re.compile(r"\btop[\s\-]?(\d+)\b", re.IGNORECASE)


def _nearest_cut_asked(question: str, local: str, row: str) -> bool:
    """False when the question asks a rank cut ("top-1") and the cut named nearest the row
    in its surroundings (its header or caption: "top-5 err.") is another one."""
    asked = set(_RANK_CUT_RE.findall(question))
    cuts = list(_RANK_CUT_RE.finditer(local))
    if not asked or not cuts:
        return True
    at = local.find(row)
    if at < 0:  # headers read apart from the row: one of them must name the asked cut
        return bool(asked & {m.group(1) for m in cuts})
    end = at + len(row)
    nearest = min(cuts, key=lambda m: at - m.end() if m.end() <= at else max(0, m.start() - end))
    return nearest.group(1) in asked


#: A question asking how often something happens ("every how many epochs", "per step").
_PERIOD_ASKED_RE = re.compile(r"\b(?:every|each|per|how often|interval|period)\b",
                              re.IGNORECASE)


def _asked_symbol(question: str) -> str | None:
    """The Greek letter the question names by its name ("smoothing beta?"), or None
    ("delta" also says a difference: never read as the letter)."""
    names = set(GREEK_NAMES.values()) - {"delta"}
    return next((w for w in re.findall(r"[a-z]+", question.lower()) if w in names), None)


def _a_period(words: list[str], position: int) -> bool:
    """The number at ``position`` says how often ("every 8 epochs", "each 2 steps")."""
    return position > 0 and words[position - 1].lower() in ("every", "each")


#: Words of a question asking for the state before a change ("the baseline error").
_BEFORE_RE = re.compile(r"\b(?:baseline|before|original|originally|initial|initially|"
                        r"without|vanilla|plain|unmodified|starting)\b", re.IGNORECASE)


def _starting_value(words: list[str], position: int) -> bool:
    """The number at ``position`` is where a change starts: "from 6.1 to 5.2" (another
    number follows "to" within three words)."""
    if position < 1 or words[position - 1].lower() != "from":
        return False
    for at in range(position + 1, min(len(words) - 1, position + 4)):
        if words[at].lower() == "to" and numbers_in(words[at + 1]):
            return True
    return False


#: Head words of a setting counted in whole units ("batch size", "hidden dimension"): any
#: whole number but a year may be its value ("batches of size 4096", "size 8").
_SIZE_HEADS = frozenset({"size", "dimension", "width", "depth", "length"})


def _fits(token: NumberToken, terms: QuestionTerms) -> bool:
    """The number is of the asked kind; a size setting also takes any whole number."""
    if kind_fits(token, terms.kind):
        return True
    return terms.kind == "value" and any(w in _SIZE_HEADS for w in terms.head) and \
        token.text.replace(",", "").isdigit() and token.unit not in ("x", "\u00d7", "time", "%")


#: Head words that name a training setting, never a metric ("dropout rate", "decay rate"):
#: a row answers only when its headers or caption name the setting.
SETTING_WORDS = frozenset({"dropout", "momentum", "decay", "learning", "batch", "minibatch",
                           "mini-batch", "clipping", "warmup", "mask", "masking", "sampling",
                           "smoothing", "temperature"})

#: Head words of a metric phrase ("which phone error rate"): the metric checks read those.
_METRIC_HEAD = frozenset({"score", "rate", "accuracy", "error", "precision", "recall",
                          "perplexity"})


def _row_names_attribute(terms: QuestionTerms, local: str) -> bool:
    """A table row (with its headers and caption) names the asked attribute: the question's
    head words ("batch size") beside its names and metric words."""
    if any(w in _METRIC_HEAD or squeeze(w) in METRIC_WORDS for w in terms.head) and \
            not any(w in SETTING_WORDS for w in terms.head):
        return True  # a metric phrase ("word error rate"): the metric checks read it
    head = [w for w in terms.head if w not in GENERIC_HEAD
            and not any(w in stemmed_words(a.text) for a in terms.anchors)]
    if not head:
        return True
    return asks_head(replace(terms, head=tuple(head)), local)


def counted_nouns(terms: QuestionTerms) -> list[str]:
    """The words a "how many ..." question counts ("how many training epochs" -> training,
    epoch), up to its verb."""
    m = re.search(r"\bhow many\s+((?:[\w\-]+\s+){0,3}?[\w\-]+)\s+(?:is|are|was|were|do|does|"
                  r"did|has|have|had|can|could|will|would|should|in|of|for|on)\b",
                  terms.question, re.IGNORECASE)
    if not m:
        return []
    return [w for w in stemmed_words(m.group(1)) if w not in STOPWORDS and len(w) > 2]


#: Words that end the noun phrase after a counted number.
_PHRASE_STOPS = frozenset({"of", "for", "in", "on", "with", "and", "or", "to", "from", "by",
                           "which", "that", "is", "are", "was", "were", "per", "at", "each",
                           "than", "as", "while", "where", "since", "but"})


def _counts_the_asked_noun(words: list[str], position: int, terms: QuestionTerms) -> bool:
    """The number counts what the question asks: a counted word ends the noun phrase after
    it ("90 epochs", "30 training images"), or ends the two words before it ("epochs:
    90"), with no other number in between."""
    nouns = set(counted_nouns(terms))
    if not nouns:
        return True

    def named(word: str) -> bool:
        return any(w in nouns or any(len(n) >= 4 and (w.startswith(n) or n.startswith(w))
                                     for n in nouns) for w in stemmed_words(word))

    # the noun phrase after the number ends at a function word, a bracket, a number or a
    # punctuation mark: its last word is what the number counts ("1000 most frequent
    # question words" counts words, not questions)
    phrase: list[str] = []
    for word in words[position + 1: position + 5]:
        if numbers_in(word) or word.startswith(("(", "[")) or \
                word.lower().strip(",;:.") in _PHRASE_STOPS:
            break
        phrase.append(word)
        if word.endswith((",", ";", ":", ".", ")")):
            break
    if phrase and named(phrase[-1]):
        return True
    before = words[max(0, position - 2): position]
    return any(named(w) for w in before) and not any(numbers_in(w) for w in before)


#: Nouns that make a number a difference between two others ("the gap", "an improvement").
_DIFFERENCE_NOUNS = frozenset({"gap", "difference", "margin", "improvement", "reduction", "gain",
                               "drop", "degradation", "decline"})


#: Words between "by" and a difference ("outperforms X by more than 2.0").
_BY_HEDGES = frozenset({"more", "than", "over", "about", "nearly", "almost", "up", "to",
                        "roughly", "around", "approximately", "at", "least", "a", "an",
                        "further", "another", "only", "just"})
#: Verb stems that make "by N" a difference ("improves by", "outperforms ... by").
_BY_VERBS = ("outperform", "improv", "exceed", "surpass", "beat", "better", "higher",
             "lower", "reduc", "increas", "decreas", "gain", "lead", "drop", "cut", "boost",
             "advanc", "raise", "fell", "fall", "rose", "rise", "worse")


def _by_difference(words: list[str], position: int) -> bool:
    """"... beats all earlier systems by over 2.0 BLEU": a number after "by" (and hedges) in a
    sentence with a verb of change or comparison before it; or after "within" ("within 0.5
    points of")."""
    at = position - 1
    while at >= 0 and words[at].lower().strip(",;:()") in _BY_HEDGES:
        at -= 1
    if at >= 0 and words[at].lower() == "within":
        return True  # "within 0.5 points of the best result": a gap to another number
    if at < 0 or words[at].lower() != "by":
        return False
    return any(w.lower().startswith(_BY_VERBS) for w in words[max(0, at - 25):at])


def _states_a_difference(words: list[str], position: int) -> bool:
    """The number at ``position`` is a difference: a difference noun stands before it in its
    clause (back to a comma or semicolon), or within two words after it ("2.1 points gain"),
    or it is the "by N" of a comparison ("outperforms X by 2.0")."""
    if _by_difference(words, position):
        return True
    for word in reversed(words[:position]):
        if word.endswith((",", ";", ":")):
            break
        if stemmed_words(word)[:1] and stemmed_words(word)[0] in _DIFFERENCE_NOUNS:
            return True
    for word in words[position + 1: position + 3]:
        if stemmed_words(word)[:1] and stemmed_words(word)[0] in _DIFFERENCE_NOUNS:
            return True
        if word.endswith((",", ";", ":", ".")):
            break
    return False


#: A question's condition: "If X is handed ..., what ..." (up to the comma or question word).
_CONDITION_RE = re.compile(r"(?:\bif\b|(?<=\w )\bwhen\b)(?P<clause>[^,?]*?)"
                           r"(?:,|\bwhat\b|\bhow\b|\?|$)",
                           re.IGNORECASE)


#: A condition the question excludes: "without data augmentation", "w/o dropout".
_WITHOUT_RE = re.compile(r"\b(?:without|w/o)\s+(?:any\s+|the\s+)?"
                         r"([a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)", re.IGNORECASE)


def _states_the_excluded(question: str, text: str) -> bool:
    """The text states the condition the question excludes: the question asks "without X",
    the text says "with (up to three words) X" and never "without X" / "no X"."""
    for m in _WITHOUT_RE.finditer(question):
        words = [w for w in stemmed_words(m.group(1)) if w not in STOPWORDS and len(w) > 2]
        if not words:
            continue
        last = re.escape(words[-1])
        if re.search(rf"\b(?:without|w/o|no)\s+(?:[\w\-]+\s+){{0,2}}{last}", text,
                     re.IGNORECASE):
            continue
        if re.search(rf"\bwith\s+(?:[\w\-]+\s+){{0,3}}{last}", text, re.IGNORECASE):
            return True
    return False


#: Verbs of a condition clause that name no condition of their own ("when using X").
_CONDITION_VERBS = frozenset({"use", "using", "used", "given", "applied", "apply", "run",
                              "trained", "training", "evaluated", "tested", "measured"})


def meets_condition(terms: QuestionTerms, text: str, setting: str = "") -> bool:
    """Every content word of the question's "if" clause (beside its names) is in the text:
    the number is stated for the asked condition, not for the usual setting. A "when" clause
    ("... when used for X") may be met by ``setting``, the text the passage stands in (for a
    sentence: its document), and no passage stating the excluded condition ("without X"
    asked, "with X" stated) meets the question."""
    if _states_the_excluded(terms.question, text):
        return False  # "without augmentation" asked, "with standard augmentation" stated
    match = _CONDITION_RE.search(terms.question)
    if not match:
        return True
    if not match.group(0).lower().startswith("if"):
        text = f"{text} {setting}"
    names = {w for a in terms.anchors for w in stemmed_words(a.text)}
    wanted = [w for w in stemmed_words(match.group("clause"))
              if w not in STOPWORDS and w not in names and w not in terms.negated and len(w) > 2
              and w not in _CONDITION_VERBS]
    words = set(stemmed_words(text))
    return all(w in words or any(len(v) >= 4 and (v.startswith(w) or w.startswith(v))
                                 for v in words) for w in wanted)


def _labelled_with_another_metric(words: list[str], position: int, terms: QuestionTerms
                                  ) -> bool:
    """The words right after the number name a metric the question does not ask for
    ("79.0% F1" when the question asks for the exact match)."""
    after: list[str] = []
    for word in words[position + 1: position + 3]:
        if numbers_in(word):
            break
        after.append(word)
        if word.endswith((",", ";", ":", ".", ")")):
            break
    named = {squeeze(w) for w in after} & METRIC_WORDS
    named |= {"em"} if re.search(r"\bexact[- ]match", " ".join(after).lower()) else set()
    if not named:
        return False
    # the question may spell the metric out ("phone error rate" is "PER")
    asked = {a.key for a in terms.anchors} | {squeeze(k) for k in terms.keywords} | \
        spelled_initials(terms.question)
    return not named & asked


def _assigned_elsewhere(words: list[str], position: int, terms: QuestionTerms) -> bool:
    """The number is given to a name the question does not ask about ("OWA = 1.0")."""
    if position < 2 or words[position - 1] not in ("=", "of=", ":="):
        return False
    name = fold(words[position - 2])
    greek = symbol_name(words[position - 2])
    if greek is not None:
        # a Greek letter ("\u03b2 = 0.25"): the question names it by its name ("beta") or not
        asked = set(re.findall(r"[a-z]+", terms.question.lower()))
        return bool(asked & set(GREEK_NAMES.values())) and greek not in asked
    if not squeeze(words[position - 2]):
        return False  # a symbol ("\u03c1 = 0.4"): the question's words cannot name it
    head = {w for w in terms.head if w not in GENERIC_HEAD}
    if len(squeeze(words[position - 2])) <= 2 and head and any(
            stemmed_words(w)[:1] and stemmed_words(w)[0] in head
            for w in words[max(0, position - 6): position - 2]):
        return False  # "Dropout with p = 0.3": the asked attribute's own symbol
    return not any(a.found_in(name) for a in terms.anchors) and not any(
        k in name for k in terms.keywords)
