"""Does the retrieved evidence address the question? Whole sentences against a calibrated floor.

Retrieval always returns the nearest chunks, even when nothing in the corpus is about the
question. Each chunk is therefore split into its *whole* sentences (fragments cut by chunking,
such as ``Delay Neural Network) with randomly ini-``, are never quoted) and every sentence is
compared with the question itself (not the turn query, which carries the previous conclusion)
by cosine similarity of the store's embedding model. A chunk *addresses* the question when its
best sentence reaches the relevance floor of that model.

The floor is calibrated per embedding model on questions the sample corpus can and cannot answer
(``benchmarks/debate_relevance_floor.py`` prints the sweep); ``DEBATE_RELEVANCE_FLOOR``
overrides it, and a model without a calibrated floor must be given one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from repro_assets import settings
from repro_assets.debate.models import DebateError, EvidenceAssessment, EvidenceChunk
from repro_assets.scholarly.ingest import split_sentences
from repro_assets.storage.embedder import Embedder

#: Calibrated floors (cosine similarity of question and sentence) per embedding model. MiniLM:
#: 10 answerable questions score 0.564-0.869, 10 unanswerable 0.165-0.522 (midpoint 0.543,
#: rounded up: precision first).
CALIBRATED_FLOORS: dict[str, float] = {
    "all-MiniLM-L6-v2": 0.55,
    "sentence-transformers/all-MiniLM-L6-v2": 0.55,
}
FLOOR_ENV = "DEBATE_RELEVANCE_FLOOR"
MIN_WORDS = 6
_URL_RE = re.compile(r"https?://|www\.", re.IGNORECASE)
_OPENERS = "\"'\u201c\u2018"
_CLOSERS = "\"'\u201d\u2019)]"
_PAIRS = (("(", ")"), ("[", "]"))


def relevance_floor(model_name: str) -> float:
    """The floor for ``model_name``: ``DEBATE_RELEVANCE_FLOOR``, else the calibrated one.

    Raises:
        DebateError: ``E_RELEVANCE_FLOOR`` when the variable is not a number in (0, 1), or the
            model has no calibrated floor and none is set.
    """
    raw = settings.current().debate.relevance_floor
    if raw:
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if not 0.0 < value < 1.0:
            raise DebateError(f"{FLOOR_ENV} must be a number between 0 and 1, got {raw!r}",
                              "E_RELEVANCE_FLOOR")
        return value
    if model_name in CALIBRATED_FLOORS:
        return CALIBRATED_FLOORS[model_name]
    raise DebateError(
        f"no calibrated relevance floor for embedding model {model_name!r}: run "
        f"benchmarks/debate_relevance_floor.py and set {FLOOR_ENV}", "E_RELEVANCE_FLOOR")


def is_whole_sentence(sentence: str) -> bool:
    """True for a complete prose sentence: capitalised start, terminal end, balanced brackets.

    Chunk boundaries cut sentences (``...with randomly ini-``) and PDF layout leaves fragments
    (``Network) with``, ``(CNN) trained on``); those, link-only lines and very short pieces are
    not whole sentences.
    """
    text = sentence.strip()
    if len(text.split()) < MIN_WORDS or _URL_RE.search(text):
        return False
    start = text.lstrip(_OPENERS)[:1]
    if not (start.isupper() or start.isdigit()):
        return False
    if not text.rstrip(_CLOSERS).endswith((".", "?", "!")):
        return False
    return all(text.count(left) == text.count(right) for left, right in _PAIRS)


_HYPHEN_BREAK_RE = re.compile(r"(?<=[a-z])-\s*\n\s*(?=[a-z])")
#: a printed line this short, followed by a capitalised line, is a heading or byline line
SHORT_LINE_WORDS = 8


def unwrap(text: str) -> str:
    """Join hard-wrapped lines (PDF text) into paragraphs.

    ``convolu-\ntional`` becomes ``convolutional``; a line joins the next one when the next
    starts in lower case or with a bracket or comma, or the line is body text (at least
    ``SHORT_LINE_WORDS`` words).
    Blank lines, and short lines before a capitalised one (headings such as "Abstract" or
    "5 Conclusion", byline and affiliation lines), stay paragraph breaks.
    """
    lines = [line.strip() for line in _HYPHEN_BREAK_RE.sub("", text).split("\n")]
    out: list[str] = []
    previous = ""
    for line in lines:
        if out and previous and line and (
                line[0].islower() or line[0] in "([,;" or
                len(previous.split()) >= SHORT_LINE_WORDS):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
        previous = line
    return "\n".join(out)


def whole_sentences(content: str, title: str | None = None) -> list[str]:
    """The whole sentences of a chunk (its leading title line is not a sentence).

    Hard-wrapped lines are joined first, so a sentence that runs over several PDF lines is one
    sentence, quoted verbatim as the reader sees it (de-hyphenated, single-spaced).
    """
    body = content.strip()
    if title and body.startswith(title.strip()):
        body = body[len(title.strip()):]
    return [s for s in split_sentences(unwrap(body.strip())) if is_whole_sentence(s)]


class SentenceMatch(BaseModel):
    """The chunk sentence closest to the question."""

    model_config = ConfigDict(extra="forbid")

    sentence: str = Field(description="A whole sentence of the chunk, verbatim.")
    similarity: float = Field(description="Cosine similarity to the question.")


def best_sentences(
    embedder: Embedder, question: str, chunks: Sequence[tuple[str, str | None]]
) -> list[SentenceMatch | None]:
    """For each ``(content, title)`` chunk, its whole sentence closest to ``question``.

    None for a chunk without a whole sentence (nothing in it can be quoted).
    """
    per_chunk = [whole_sentences(content, title) for content, title in chunks]
    flat = [s for sentences in per_chunk for s in sentences]
    if not flat:
        return [None] * len(chunks)
    query = embedder.encode([question], kind="query")[0]
    scores = embedder.encode(flat, kind="passage") @ query
    matches: list[SentenceMatch | None] = []
    at = 0
    for sentences in per_chunk:
        if not sentences:
            matches.append(None)
            continue
        window = scores[at: at + len(sentences)]
        best = int(np.argmax(window))
        matches.append(SentenceMatch(sentence=sentences[best],
                                     similarity=round(float(window[best]), 4)))
        at += len(sentences)
    return matches


def addresses(chunk: EvidenceChunk, floor: float) -> bool:
    """True when the chunk's best whole sentence reaches ``floor``."""
    return chunk.relevance is not None and chunk.relevance >= floor


def assess(evidence: Sequence[EvidenceChunk], floor: float) -> EvidenceAssessment:
    """Which retrieved chunks address the question (see :func:`addresses`)."""
    addressing = [c for c in evidence if addresses(c, floor)]
    scored = [c.relevance for c in evidence if c.relevance is not None]
    return EvidenceAssessment(
        floor=floor,
        best_similarity=max(scored) if scored else None,
        addressing=[c.index for c in addressing],
        documents=len({c.document_id for c in addressing}),
    )
