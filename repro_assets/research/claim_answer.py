"""A paper's extracted claims as candidate answers to a table-fact question.

The passage reader (:mod:`repro_assets.research.answering`) reads table rows from chunk text;
a table whose rows the chunker cut, or whose header sits far from its rows, is missed there.
The papers workflow reads the same tables from the PDF's layout into claims (dataset, split,
metric, value, the row's method and the verbatim row). A claim answers a question only when
each of the question's own terms has its place in the claim:

* the asked metric (read from the question's words) is the claim's metric;
* the asked split, when the question names one, is the claim's split;
* every name of the question is the claim's dataset (not a variant printed with a mark the
  question does not carry: "X+" is the set with augmentation), its row's method (as the whole
  label, not a variant with words the question does not ask for), a metric name, or the paper
  itself (its own method or authors, for a claim of the paper's own rows);
* the question's qualifiers ("300 layers") and its condition ("when using X", not "with X"
  when it asks "without X") are in the claim's row.

Several claims with different values that fit equally: no answer. Everything here is pure;
:mod:`repro_assets.research.corpus_answer` hands in the claims.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from repro_assets.papers.claims.metrics import compatible_metrics, find_metric_mentions
from repro_assets.research.answer_models import GroundedAnswer
from repro_assets.research.answering import meets_condition
from repro_assets.research.question_terms import (
    Anchor,
    QuestionTerms,
    fold,
    states_number,
)
from repro_assets.research.table_rows import label_names, label_negated, unasked_label_words
from repro_assets.research.term_match import anchor_positions

#: Claim confidence at or above which the claim's dataset is trusted without the row naming it
#: (the papers workflow caps weak dataset sources below it).
TRUSTED_DATASET = 0.7
#: Roles of a claim that report the paper's own method.
OWN_ROLES = frozenset({"own", "headline"})


class ClaimLike(Protocol):
    """The fields of :class:`repro_assets.papers.claims.Claim` read here (read-only)."""

    @property
    def dataset_name(self) -> str: ...
    @property
    def split(self) -> str: ...
    @property
    def metric_name(self) -> str: ...
    @property
    def printed_value(self) -> str | None: ...
    @property
    def method_snippet(self) -> str | None: ...
    @property
    def role(self) -> str: ...
    @property
    def confidence(self) -> float: ...


@dataclass(frozen=True)
class ClaimSource:
    """One document's claims.

    Attributes:
        key: the document's citation key.
        title: its title.
        paper: keys of the question's anchors that stand for the document itself.
        claims: its claims, each with ``quote`` (the verbatim row or sentence).
    """

    key: str
    title: str
    paper: frozenset[str]
    claims: tuple[tuple[ClaimLike, str], ...]


#: "How accurate is X": the question asks for X's accuracy.
_HOW_ACCURATE_RE = re.compile(r"\bhow accurate(?:ly)?\b", re.IGNORECASE)
#: Label words beside the asked names a claim's row may hold ("X (1 net)"); more make the row
#: a variant of the asked entity.
MAX_UNASKED = 1


def asked_metrics(question: str) -> set[str]:
    """The canonical metrics a question names (empty: it names none)."""
    found = {m[0] for m in find_metric_mentions(question)}
    if _HOW_ACCURATE_RE.search(question):
        found.add("accuracy")
    return found


def _metric_spans(question: str) -> list[tuple[int, int]]:
    return [(m[1], m[2]) for m in find_metric_mentions(question)]


def _metric_fits(asked: set[str], metric: str) -> bool:
    return any(a == metric or compatible_metrics(a, metric) for a in asked)


def _is_metric_anchor(anchor: Anchor, question: str) -> bool:
    """The anchor is (part of) the question's metric phrase ("top-1" of "top-1 error")."""
    at = question.lower().find(anchor.text.lower())
    return at >= 0 and any(s <= at < e for s, e in _metric_spans(question))


#: A mark printed after a dataset's name that makes it a variant of the dataset: "X+" (the
#: set with augmentation), "X*", "X†" (a footnoted setting).
_VARIANT_MARK_RE = re.compile(r"[+*†‡]+\s*$")


def _unasked_variant(dataset: str, question: str) -> bool:
    """The claim's dataset is printed as a variant ("X+") that the question does not ask
    for: folded to letters and digits it would pass for "X" ("X without augmentation")."""
    mark = _VARIANT_MARK_RE.search(dataset)
    return mark is not None and mark.group().strip() not in question


def _places(anchor: Anchor, claim: ClaimLike, quote: str, label_ok: bool,
            own: bool, question: str) -> bool:
    """Whether ``anchor`` has its place in the claim."""
    if _is_metric_anchor(anchor, question):
        return True
    dataset = fold(claim.dataset_name or "")
    if dataset and anchor.found_in(dataset) and not _unasked_variant(
            claim.dataset_name or "", question) and (
            claim.confidence >= TRUSTED_DATASET or anchor.found_in(fold(quote))):
        return True
    label = claim.method_snippet or ""
    if label_ok and anchor_positions(anchor, label.replace("(", " ").replace(")", " ").split()):
        return True
    return own


#: A rank cut of a metric: "top-1", "top 5", "top1" (also "top5_error" as a metric name).
_RANK_CUT_RE = re.compile(r"(?<![a-z])top[\s\-_]?(\d+)(?!\d)", re.IGNORECASE)


def _rank_cut_recorded(question: str, metric: str, quote: str) -> bool:
    """False when the question asks a rank cut ("top-1 error") that neither the claim's
    metric nor its verbatim row records: the row's number may be of another cut."""
    asked = set(_RANK_CUT_RE.findall(question))
    if not asked:
        return True
    return bool(asked & set(_RANK_CUT_RE.findall(f"{metric} {quote}")))


def _fits(terms: QuestionTerms, asked: set[str], source: ClaimSource,
          claim: ClaimLike, quote: str) -> int | None:
    """Every term of the question has its place in the claim: the count of the row label's
    words the question does not ask for (None: the claim does not fit)."""
    if not claim.printed_value or not _metric_fits(asked, claim.metric_name):
        return None
    if terms.split and claim.split != terms.split:
        return None
    if not _rank_cut_recorded(terms.question, claim.metric_name or "", quote):
        return None  # a claim of "error" alone does not say it is the asked "top-1 error"
    if any(not states_number(q, quote) for q in terms.qualifiers + terms.counts):
        return None
    if not meets_condition(terms, f"{quote} {claim.method_snippet or ''}"):
        return None  # "when using X" / "without X": the row must be of that condition
    label = claim.method_snippet or ""
    own_claim = claim.role in OWN_ROLES
    # the row's label names the asked entity, not a variant of it ("X-large", "X + Y")
    unasked = len(unasked_label_words(label, terms))
    label_ok = bool(label) and label_names(label, terms, source.paper if own_claim
                                           else frozenset()) \
        and unasked <= MAX_UNASKED and not label_negated(label, terms)
    entity = False
    for anchor in terms.anchors:
        own = own_claim and anchor.key in source.paper and (not label or label_ok)
        if not _places(anchor, claim, quote, label_ok, own, terms.question):
            return None
        entity = entity or own or (label_ok and bool(anchor_positions(
            anchor, label.replace("(", " ").replace(")", " ").split())))
    # the row's method is the asked one (named, or the paper's own)
    return unasked if entity else None


def claim_answer(terms: QuestionTerms, sources: Sequence[ClaimSource]) -> GroundedAnswer | None:
    """The one value the claims state for the question's terms, or None.

    Only a question asking for a metric's value is answered (``kind == "value"`` with a
    metric named in its words); a comparison is answered side by side by the caller.
    """
    if terms.kind != "value" or terms.compare or terms.future_years or not terms.anchors:
        return None
    asked = asked_metrics(terms.question)
    if not asked:
        return None
    found: list[tuple[int, GroundedAnswer]] = []
    for source in sources:
        for claim, quote in source.claims:
            unasked = _fits(terms, asked, source, claim, quote)
            if unasked is not None:
                found.append((unasked, GroundedAnswer(
                    value=str(claim.printed_value), quote=quote, source=source.key,
                    title=source.title, score=1.0, column=claim.metric_name)))
    if not found:
        return None
    # the plainest rows naming the asked entity ("X" before "X (2 nets)")
    fewest = min(u for u, _ in found)
    best = [f for u, f in found if u == fewest]
    if len({f.value for f in best}) != 1:
        return None  # several rows fit equally: no single answer
    return best[0]
