"""The process node's work: entities and facts with provenance from collected results.

Two paths: the LLM extractor (structured output, every fact tied to result indices and a quote
that must occur in the cited result) and an offline heuristic extractor (whole sentences with
claims or figures become facts; noun phrases from :mod:`repro_assets.research.entities` and
author names become entities). Both produce the same records; :func:`merge_extraction` adds
them to the session's entities and facts, merging facts that state the same finding (by meaning:
embedding similarity, with the same figures and polarity) so cross-verification can count their
independent sources.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import LLMClient, LLMError, Role
from repro_assets.research import prompts
from repro_assets.research.entities import extract_entities
from repro_assets.research.models import Entity, Fact, Provenance, SourceResult, utcnow
from repro_assets.research.text import content_tokens, figures, jaccard, negated, split_sentences

log = logging.getLogger(__name__)

CLAIM_WORDS = re.compile(
    r"\b(show|shows|showed|shown|improv\w*|reduc\w*|increas\w*|decreas\w*|outperform\w*|"
    r"achiev\w*|propos\w*|introduc\w*|demonstrat\w*|found|find|finds|enabl\w*|requir\w*|"
    r"caus\w*|associated|results? in|leads? to|is|are|was|were|can|consists?|solv\w*|"
    r"predict\w*|estimat\w*|indicat\w*|suggest\w*|reveal\w*|yield\w*|provid\w*|"
    r"allow\w*|perform\w*|remain\w*|has|have|had|depend\w*|affect\w*|lower\w*)\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"\d+(?:[.,]\d+)?\s*%?")


@dataclass
class RawFact:
    """A fact before merging: one statement from one result."""

    statement: str
    result_index: int
    quote: str
    entities: list[str] = field(default_factory=list)


@dataclass
class RawEntity:
    """An entity mention in one result."""

    name: str
    entity_type: str
    result_index: int


@dataclass
class Extraction:
    """What one extraction pass produced over a batch of results."""

    facts: list[RawFact]
    entities: list[RawEntity]
    method: str
    note: str = ""


# -- heuristic path -------------------------------------------------------------------------
def _fact_score(sentence: str, query_tokens: set[str]) -> float:
    score = 0.0
    if NUMBER.search(sentence):
        score += 1.0
    if CLAIM_WORDS.search(sentence):
        score += 1.0
    score += 2.0 * jaccard(content_tokens(sentence), query_tokens) + 0.5 * bool(
        content_tokens(sentence) & query_tokens
    )
    return score


def heuristic_extract(
    results: Sequence[SourceResult], query: str, facts_per_result: int = 3
) -> Extraction:
    """Offline extraction: claim-like sentences become facts, names become entities."""
    query_tokens = content_tokens(query)
    facts: list[RawFact] = []
    entities: list[RawEntity] = []
    for index, result in enumerate(results):
        text = result.full_content or result.snippet or ""
        if result.title and text.startswith(result.title):
            text = text[len(result.title):].lstrip(" .:\n")  # chunk text repeats the title
        candidates = []
        for sentence in split_sentences(text):
            if not 40 <= len(sentence) <= 400 or sentence.endswith("?"):
                continue
            if not CLAIM_WORDS.search(sentence):
                continue
            candidates.append((_fact_score(sentence, query_tokens), sentence))
        candidates.sort(key=lambda c: -c[0])
        for _, sentence in candidates[:facts_per_result]:
            names = [e.name for e in extract_entities(sentence)]
            facts.append(RawFact(statement=sentence, result_index=index, quote=sentence,
                                 entities=names))
        for found in extract_entities(text, title=result.title):
            entities.append(RawEntity(name=found.name, entity_type=found.entity_type,
                                      result_index=index))
        for author in (result.metadata.get("authors") or [])[:6]:
            if isinstance(author, str) and author.strip():
                entities.append(RawEntity(name=author.strip(), entity_type="person",
                                          result_index=index))
    return Extraction(facts=facts, entities=entities, method="heuristic")


# -- LLM path -------------------------------------------------------------------------------
class ExtractedEntity(BaseModel):
    """An entity the model found."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Entity name as written in the result.")
    entity_type: str = Field(description="person, organization, product, method, dataset, concept")
    source_index: int = Field(description="Index of a result that mentions it.")


class ExtractedFact(BaseModel):
    """A fact the model found."""

    model_config = ConfigDict(extra="forbid")

    statement: str = Field(description="One self-contained declarative sentence.")
    source_indices: list[int] = Field(description="Indices of the results stating it.")
    quote: str = Field(description="Verbatim sentence from the first cited result.")
    entities: list[str] = Field(description="Entity names the fact mentions.")


class ExtractionOutput(BaseModel):
    """Structured output of the extractor."""

    model_config = ConfigDict(extra="forbid")

    entities: list[ExtractedEntity] = Field(description="Entities found.")
    facts: list[ExtractedFact] = Field(description="Facts found.")


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def llm_extract(
    llm: LLMClient, results: Sequence[SourceResult], question: str, max_chars: int = 1500
) -> Extraction:
    """Extraction through the LLM; facts with unknown indices or invented quotes are dropped.

    Raises:
        LLMError: the call failed (callers fall back to the heuristic path).
    """
    blocks = [
        f"[{i}] {r.title}\nURL: {r.url}\n{(r.full_content or r.snippet or '')[:max_chars]}"
        for i, r in enumerate(results)
    ]
    user = f"Research question: {question}\n\nResults:\n\n" + "\n\n".join(blocks)
    out = llm.structured(
        role=Role.EXTRACTOR, system=prompts.EXTRACT_SYSTEM, user=user, schema=ExtractionOutput
    ).value
    facts: list[RawFact] = []
    dropped = 0
    for fact in out.facts:
        indices = [i for i in fact.source_indices if 0 <= i < len(results)]
        if not indices or not fact.statement.strip():
            dropped += 1
            continue
        for i in indices:
            source_text = _normalise(f"{results[i].title}. {results[i].full_content or ''} "
                                     f"{results[i].snippet or ''}")
            quote_ok = bool(fact.quote.strip()) and _normalise(fact.quote) in source_text
            facts.append(RawFact(statement=fact.statement.strip(), result_index=i,
                                 quote=fact.quote if quote_ok else "", entities=fact.entities))
    entities = [
        RawEntity(name=e.name.strip(), entity_type=e.entity_type or "concept",
                  result_index=e.source_index)
        for e in out.entities
        if e.name.strip() and 0 <= e.source_index < len(results)
    ]
    note = f"dropped {dropped} facts citing unknown results" if dropped else ""
    return Extraction(facts=facts, entities=entities, method="llm", note=note)


def extract(
    llm: LLMClient | None, use_llm: bool, results: Sequence[SourceResult], question: str
) -> Extraction:
    """LLM extraction when allowed and available, else (or on failure) the heuristic path."""
    if use_llm and llm is not None and llm.available and results:
        try:
            return llm_extract(llm, results, question)
        except LLMError as exc:
            log.warning("LLM extraction failed (%s: %s); using heuristic extraction",
                        exc.code, exc)
            fallback = heuristic_extract(results, question)
            fallback.note = f"LLM extraction failed ({exc.code}); heuristic fallback"
            return fallback
    return heuristic_extract(results, question)


# -- merging --------------------------------------------------------------------------------
#: Cosine similarity (all-MiniLM-L6-v2) at which two statements are the same finding. Calibrated
#: on pairs written for it: restatements of one finding scored 0.74-0.98, different findings on
#: the same subject 0.57-0.79 (the closest pair of different findings in the sample corpus:
#: 0.786). Precision first: a finding merged wrongly would count as verified.
MERGE_SIMILARITY = 0.80


class Encoder(Protocol):
    """What fact merging needs of the embedder: ``encode(texts) -> (n, dim)`` normalized."""

    def encode(self, texts: list[str], kind: Any = "passage") -> np.ndarray:
        """Embed texts."""


def same_finding(a: str, b: str, similarity: float) -> bool:
    """Whether two statements state one finding: close in meaning, same figures and polarity."""
    return (similarity >= MERGE_SIMILARITY and figures(a) == figures(b)
            and negated(a) == negated(b))


def default_encoder() -> Encoder:
    """The project's configured embedder (loaded once per process)."""
    from repro_assets.storage.embedder import configured_model, get_embedder

    return get_embedder(configured_model())  # type: ignore[return-value]


def merge_extraction(
    entities: list[Entity],
    facts: list[Fact],
    extraction: Extraction,
    results: Sequence[SourceResult],
    cycle: int,
    embedder: Encoder | None = None,
) -> tuple[list[Entity], list[Fact]]:
    """Add an extraction to the session's entities and facts (new lists are returned).

    Entities merge by case-insensitive name. A new fact merges into the most similar existing
    one when :func:`same_finding` holds, collecting every supporting source and its quote
    (provenance); otherwise it is a new fact.
    """
    by_name = {e.name.lower(): e.model_copy(deep=True) for e in entities}
    for raw in extraction.entities:
        url = results[raw.result_index].url
        key = raw.name.lower()
        entity = by_name.get(key)
        if entity is None:
            by_name[key] = Entity(name=raw.name, entity_type=raw.entity_type, sources=[url],
                                  first_seen=utcnow(), first_cycle=cycle)
        else:
            entity.mention_count += 1
            if url not in entity.sources:
                entity.sources.append(url)
    merged = [f.model_copy(deep=True) for f in facts]
    if not extraction.facts:
        return list(by_name.values()), merged
    encoder = embedder or default_encoder()
    vectors = list(encoder.encode([f.statement for f in merged])) if merged else []
    new_vectors = encoder.encode([raw.statement for raw in extraction.facts])
    next_id = len(merged) + 1
    for raw_fact, vector in zip(extraction.facts, new_vectors, strict=True):
        result = results[raw_fact.result_index]
        provenance = Provenance(url=result.url, source_name=result.source_name,
                                title=result.title, quote=raw_fact.quote)
        match, best = None, -1.0
        for i, existing in enumerate(vectors):
            similarity = float(np.dot(vector, existing))
            if similarity > best and same_finding(raw_fact.statement, merged[i].statement,
                                                  similarity):
                match, best = i, similarity
        if match is None:
            merged.append(Fact(id=f"F{next_id}", statement=raw_fact.statement, sources=[result.url],
                               entities=sorted(set(raw_fact.entities)), provenance=[provenance],
                               first_cycle=cycle, method=extraction.method))
            vectors.append(vector)
            next_id += 1
            continue
        fact = merged[match]
        if result.url not in fact.sources:
            fact.sources.append(result.url)
            fact.provenance.append(provenance)
        fact.entities = sorted(set(fact.entities) | set(raw_fact.entities))
    return list(by_name.values()), merged
