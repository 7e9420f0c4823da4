"""The corpus side of the answer check (issue #26): which documents and chunks are read.

The lexicon is built by the test from invented documents (no database): many documents cite
the asked authors, one is theirs; its training details sit in a chunk that never names them.
"""

from __future__ import annotations

import datetime as dt

import pytest

from repro_assets.research import corpus_answer
from repro_assets.research.corpus_answer import CorpusLexicon, _Document, check_corpus
from repro_assets.research.question_terms import fold

TODAY = dt.date(2026, 6, 1)

OWN_OPENING = """Span-Gated Recurrent Taggers
Ilse Vandermeer and Tomas Okafor
Abstract
We present recurrent taggers that gate character spans."""

OWN_TRAINING = """4 Training
Every tagger is trained with plain stochastic updates, a learning rate of 0.02 and a
gradient clipping of 3.0. Larger clipping values made training unstable."""

CITING = """2 Related work
Vandermeer et al. (2016) gate character spans; their tagger reaches 81.20 on Heron.
We train with a gradient clipping of 1.0 and a learning rate of 0.1."""


def _doc(doc_id: int, title: str, chunks: list[str], authors: str = "") -> _Document:
    doc = _Document(document_id=doc_id, title=title, key=f"corpus://paper/{doc_id}",
                    paper_id=None, authors=authors,
                    chunks=[(doc_id * 100 + i, c, fold(c)) for i, c in enumerate(chunks)])
    doc.folded = fold(title) + "".join(c[2] for c in doc.chunks)
    return doc


@pytest.fixture
def lexicon(monkeypatch: pytest.MonkeyPatch) -> CorpusLexicon:
    docs = {i: _doc(i, f"Citing study {i}", [f"Opening of study {i} on tagging.",
                                             "1 Introduction\nTagging is hard.", CITING])
            for i in range(1, 11)}  # more citing documents than are read per question
    docs[11] = _doc(11, "Span-Gated Recurrent Taggers",
                    [OWN_OPENING, "3 Model\nThe gates read spans of characters.", OWN_TRAINING],
                    authors="Ilse Vandermeer Tomas Okafor")
    lex = CorpusLexicon(docs)
    monkeypatch.setattr(corpus_answer.CorpusLexicon, "load", classmethod(lambda cls, db: lex))
    return lex


def test_the_cited_authors_own_paper_is_read_and_its_training_chunk_found(
        lexicon: CorpusLexicon) -> None:
    check, _ = check_corpus("What gradient clipping value did Vandermeer et al. use?", None,
                            today=TODAY)
    assert check.answered and check.answer is not None
    assert check.answer.value == "3.0"
    assert check.answer.source == "corpus://paper/11"


def test_an_attribute_the_authors_paper_never_states_gets_no_number(
        lexicon: CorpusLexicon) -> None:
    check, _ = check_corpus("What weight decay did Vandermeer et al. use?", None, today=TODAY)
    assert not check.answered

