"""The lexical leg of hybrid retrieval: BM25 over Postgres full-text search, fused by RRF.

Dense MiniLM search misses questions that hinge on an exact token (a dataset name, a model
size, a table number, a hyperparameter name): the lexical leg finds the chunks that share the
question's rare terms. Each chunk's English ``tsvector`` is stored and GIN-indexed (migration
``003_chunk_text_search.sql``).

A question becomes the OR of its English lexemes (stop words dropped, stems as the chunks'),
each weighted by its inverse chunk frequency; the candidates (chunks holding any of the terms,
found through the index) are ranked by BM25 (term frequency from the tsvector's positions,
chunk length from ``token_count``). A term held by more than :data:`COMMON_SHARE` of the chunks
(or more than :data:`COMMON_CAP`) carries almost no weight and would only widen the candidate
set: it is left out. :func:`fuse` merges the dense and lexical rankings by reciprocal-rank
fusion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

#: BM25 term-frequency saturation and length normalization (the usual defaults).
BM25_K1 = 1.2
BM25_B = 0.75
#: A term in more than this share of the chunks is too common to rank by.
COMMON_SHARE = 0.2
#: ... or in more than this many chunks (bounds the cost of counting a term on a large store).
COMMON_CAP = 20_000
#: Chunks re-ranked by BM25: the best ``max(RERANK_MIN, RERANK_FACTOR * n)`` by summed weight.
RERANK_MIN = 200
RERANK_FACTOR = 10
#: The RRF constant (Cormack et al. 2009): a rank r contributes ``1 / (RRF_K + r)``.
RRF_K = 60


@dataclass(frozen=True)
class Term:
    """A lexeme of the query with the number of chunks holding it and its BM25 weight."""

    lexeme: str
    chunks: int
    idf: float


def _store_size(conn: psycopg.Connection) -> int:
    """Number of chunks: exact on a small store, the planner's estimate on a large one."""
    row = conn.execute(
        "SELECT reltuples::bigint FROM pg_class WHERE oid = 'chunks'::regclass"
    ).fetchone()
    estimate = int(row[0]) if row else -1
    if estimate >= 10 * COMMON_CAP:
        return estimate
    row = conn.execute("SELECT count(*) FROM chunks").fetchone()
    return int(row[0]) if row else 0


def query_terms(conn: psycopg.Connection, query: str) -> list[Term]:
    """The query's rankable lexemes: in at least one chunk, and not too common to rank by.

    Returns:
        Terms, rarest first (an empty list when the query shares no useful term with the store).
    """
    total = _store_size(conn)
    if total == 0:
        return []
    cap = max(1, min(COMMON_CAP, math.ceil(COMMON_SHARE * total)))
    rows = conn.execute(
        "SELECT t.lex, (SELECT count(*) FROM (SELECT 1 FROM chunks c"
        "  WHERE c.content_tsv @@ quote_literal(t.lex)::tsquery LIMIT %s) x)"
        " FROM unnest(tsvector_to_array(to_tsvector('english', %s))) AS t(lex)",
        (cap + 1, query),
    ).fetchall()
    terms = [
        Term(lexeme, int(df), math.log(1.0 + (total - df + 0.5) / (df + 0.5)))
        for lexeme, df in rows
        if 0 < df <= cap and "\\" not in lexeme
    ]
    return sorted(terms, key=lambda t: (t.chunks, t.lexeme))


def lexical_rank(
    conn: psycopg.Connection,
    terms: Sequence[Term],
    n: int,
    joins: str,
    where: Sequence[str] = (),
    params: Sequence[Any] = (),
) -> list[tuple[int, float]]:
    """The ``n`` best chunks for ``terms`` by BM25, as ``(chunk id, score)``, best first.

    Args:
        conn: an open connection.
        terms: the query's terms (:func:`query_terms`).
        n: how many chunks to return.
        joins: ``FROM chunks c JOIN ...`` clause that the filters refer to.
        where: filter conditions over ``joins`` (ANDed), with ``params`` for their ``%s``.
        params: the filters' parameters, in order.
    """
    if not terms or n <= 0:
        return []
    # stage one, through the index: the summed weight of the terms each chunk holds (one GIN
    # lookup per term); stage two: BM25 of the best of those, term frequencies read from the
    # stored tsvector's positions
    sql = (
        "WITH w(lex, idf) AS (SELECT * FROM unnest(%s::text[], %s::float8[])),"
        " coarse AS (SELECT m.id, sum(w.idf) AS weight FROM w CROSS JOIN LATERAL"
        "  (SELECT c.id FROM chunks c WHERE c.content_tsv @@ quote_literal(w.lex)::tsquery) m"
        "  GROUP BY m.id),"
        " cand AS (SELECT c.id, c.content_tsv, c.token_count, coarse.weight"
        f"  {joins} JOIN coarse ON coarse.id = c.id"
        f"  {' WHERE ' + ' AND '.join(where) if where else ''}"
        "  ORDER BY coarse.weight DESC, c.id LIMIT %s),"
        " scored AS (SELECT cand.*, avg(cand.token_count) OVER () AS avgdl FROM cand)"
        " SELECT scored.id, sum(w.idf * cardinality(u.positions) * %s"
        "  / (cardinality(u.positions) + %s * (1 - %s + %s * scored.token_count"
        "     / greatest(scored.avgdl, 1)))) AS score"
        " FROM scored CROSS JOIN LATERAL unnest(scored.content_tsv) AS u"
        " JOIN w ON w.lex = u.lexeme"
        " GROUP BY scored.id ORDER BY score DESC, scored.id LIMIT %s"
    )
    rows = conn.execute(sql, [
        [t.lexeme for t in terms], [t.idf for t in terms], *params,
        max(RERANK_MIN, RERANK_FACTOR * n), BM25_K1 + 1.0, BM25_K1, BM25_B, BM25_B, n,
    ]).fetchall()
    return [(int(chunk_id), float(score)) for chunk_id, score in rows]


def fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Reciprocal-rank fusion of ranked id lists: ids by ``sum(1 / (k + rank))``, best first.

    Ties keep the order of first appearance (the first ranking wins a tie).
    """
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))
