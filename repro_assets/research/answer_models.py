"""The answer check's data: a source's text, a grounded answer and the verdict on a question."""

from __future__ import annotations

from dataclasses import dataclass, field

from repro_assets.research.question_terms import QuestionTerms


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
