"""Invented corpus documents for the corpus answer tests, installed as the corpus lexicon."""

from __future__ import annotations

import pytest

from repro_assets.research import corpus_answer
from repro_assets.research.corpus_answer import CorpusLexicon, _Document
from repro_assets.research.question_terms import fold


def document(doc_id: int, title: str, *chunks: str) -> _Document:
    """A corpus document of ``chunks`` (folded as the lexicon folds them)."""
    doc = _Document(document_id=doc_id, title=title, key=f"corpus://pdf/{doc_id}",
                    paper_id=None, chunks=[(100 * doc_id + i, c, fold(c))
                                           for i, c in enumerate(chunks)])
    doc.folded = fold(doc.title) + "".join(c[2] for c in doc.chunks)
    return doc


def install_corpus(monkeypatch: pytest.MonkeyPatch, *docs: _Document) -> None:
    """Make ``docs`` the corpus the answer check reads (instead of the database's)."""
    lexicon = CorpusLexicon({d.document_id: d for d in docs})
    monkeypatch.setattr(corpus_answer.CorpusLexicon, "load",
                        classmethod(lambda cls, db: lexicon))
