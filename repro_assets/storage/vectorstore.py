"""The pgvector store every workflow retrieves from.

Documents from any source (paper PDFs, arXiv, Crossref, web pages) are stored as
``sources -> documents -> sections -> chunks``. A chunk's ``content_hash`` covers its document's
key and text, so re-ingesting never duplicates rows and unchanged chunks are not re-embedded.
The store records the embedding model, dimension and backend (torch, onnx, onnx-int8) and
refuses to mix them (a store changes backend only through :meth:`VectorStore.reembed`);
retrieval is cosine distance (``<=>``) over an HNSW index, optionally fused with full-text BM25
over the chunks (:mod:`repro_assets.storage.lexical`, ``REPRO_SEARCH_MODE``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg

from repro_assets import settings
from repro_assets.embeddings.selection import resolve_backend
from repro_assets.storage import lexical
from repro_assets.storage.database import Database, get_database
from repro_assets.storage.embedder import (
    Embedder,
    configured_backend,
    configured_model,
    get_embedder,
)

META_KEY = "default"


class VectorStoreError(RuntimeError):
    """A vector-store operation failed; ``code`` is the project error code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class DocumentIn:
    """A document to upsert. ``(source_kind, external_id)`` identifies it."""

    source_kind: str
    external_id: str
    title: str | None = None
    url: str | None = None
    paper_id: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChunkIn:
    """A chunk of a document, in document order."""

    ordinal: int
    content: str
    token_count: int
    page_start: int | None = None
    page_end: int | None = None
    section: str | None = None


@dataclass(frozen=True)
class UpsertStats:
    """What an upsert did."""

    document_id: int
    chunks_total: int
    chunks_inserted: int
    chunks_unchanged: int
    chunks_removed: int
    embed_seconds: float
    write_seconds: float


@dataclass(frozen=True)
class SearchHit:
    """A retrieved chunk with its provenance."""

    chunk_id: int
    content: str
    distance: float
    document_id: int
    document_title: str | None
    section: str | None
    page_start: int | None
    page_end: int | None
    source_kind: str
    external_id: str
    url: str | None
    doi: str | None
    year: int | None
    authors: list[str]
    venue: str | None
    paper_id: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return dict(self.__dict__)


def _row(row: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """``row``, which a statement that always returns one row returned."""
    if row is None:
        raise VectorStoreError("the database returned no row", "E_DB_INSERT_FAILED")
    return row


def chunk_hash(source_kind: str, external_id: str, content: str) -> str:
    """Return the dedup key of a chunk: sha256 over its document key and text."""
    digest = hashlib.sha256()
    digest.update(f"{source_kind}\x1f{external_id}\x1f".encode())
    digest.update(content.encode("utf-8"))
    return digest.hexdigest()


_HIT_COLUMNS = """
    c.id, c.content, d.id, d.title, s.title, c.page_start, c.page_end, src.kind,
    src.external_id, d.url, d.doi, d.year, d.authors, d.venue, d.paper_id
"""
#: The FROM clause every search reads hits through (filters refer to ``d`` and ``src``).
_JOINS = (
    "FROM chunks c JOIN documents d ON d.id = c.document_id"
    " JOIN sources src ON src.id = d.source_id"
    " LEFT JOIN sections s ON s.id = c.section_id"
)


def _filters(
    filter_by_document: int | None, paper_id: str | None, source_kinds: Sequence[str] | None
) -> tuple[list[str], list[Any]]:
    """SQL conditions over :data:`_JOINS` (and their parameters) for a search's filters."""
    where: list[str] = []
    params: list[Any] = []
    if filter_by_document is not None:
        where.append("d.id = %s")
        params.append(filter_by_document)
    if paper_id is not None:
        where.append("d.paper_id = %s")
        params.append(paper_id)
    if source_kinds:
        where.append("src.kind = ANY(%s)")
        params.append(list(source_kinds))
    return where, params


def _hit(row: tuple[Any, ...]) -> SearchHit:
    """A search hit from a row of :data:`_HIT_COLUMNS` followed by the distance."""
    return SearchHit(
        chunk_id=row[0], content=row[1], document_id=row[2], document_title=row[3],
        section=row[4], page_start=row[5], page_end=row[6], source_kind=row[7],
        external_id=row[8], url=row[9], doi=row[10], year=row[11],
        authors=list(row[12] or []), venue=row[13], paper_id=row[14], distance=float(row[15]),
    )


class VectorStore:
    """Upsert and search over the shared pgvector tables."""

    def __init__(self, db: Database, embedder: Embedder, ef_search: int | None = None) -> None:
        self.db = db
        self.embedder = embedder
        #: HNSW search breadth (``REPRO_HNSW_EF_SEARCH``): recall vs latency.
        self.ef_search = ef_search or settings.current().database.hnsw_ef_search
        self._dim: int | None = None

    # -- model bookkeeping -------------------------------------------------------------------
    def ensure_model(self, conn: psycopg.Connection, check_backend: bool = True) -> int:
        """Record (or check) the embedding model and backend; make sure the HNSW index exists.

        Raises:
            VectorStoreError: ``E_EMBEDDING_MODEL_MISMATCH`` (another model or dimension) or
                ``E_EMBEDDING_BACKEND_MISMATCH`` (the store was embedded with another backend).
        """
        if self._dim is not None:
            return self._dim
        conn.execute(
            "INSERT INTO vector_store_meta (key, embedding_model, embedding_dim,"
            " embedding_backend) VALUES (%s, %s, %s, %s) ON CONFLICT (key) DO NOTHING",
            (META_KEY, self.embedder.model_name, self.embedder.dimension, self.embedder.backend),
        )
        model, dim, backend = _row(conn.execute(
            "SELECT embedding_model, embedding_dim, embedding_backend FROM vector_store_meta"
            " WHERE key = %s",
            (META_KEY,),
        ).fetchone())
        if model != self.embedder.model_name or dim != self.embedder.dimension:
            raise VectorStoreError(
                f"the vector store holds {model} embeddings ({dim} dims); refusing to mix in "
                f"{self.embedder.model_name} ({self.embedder.dimension} dims). Use another "
                "database or re-embed the corpus.",
                code="E_EMBEDDING_MODEL_MISMATCH",
            )
        if check_backend and backend != self.embedder.backend:
            raise VectorStoreError(
                f"the vector store holds {model} embeddings made with the {backend} backend; "
                f"refusing to mix in {self.embedder.backend} embeddings. Set "
                f"REPRO_EMBEDDING_BACKEND={backend}, or re-embed the store with "
                f"`repro-assets reembed --backend {self.embedder.backend}`.",
                code="E_EMBEDDING_BACKEND_MISMATCH",
            )
        index = settings.current().database  # build parameters of a new index only
        conn.execute(
            f"CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw ON chunks USING hnsw "
            f"((embedding::vector({int(dim)})) vector_cosine_ops) WITH (m = "
            f"{int(index.hnsw_m)}, ef_construction = {int(index.hnsw_ef_construction)})"
        )
        if backend == self.embedder.backend:  # a re-embedding store checks again next time
            self._dim = int(dim)
        return int(dim)

    # -- writes ------------------------------------------------------------------------------
    def upsert_document(self, doc: DocumentIn, chunks: Sequence[ChunkIn]) -> UpsertStats:
        """Insert or update a document with its sections and chunks, in one transaction.

        Chunks whose hash already exists are kept (not re-embedded); chunks of this document
        that are no longer produced are removed.
        """
        hashes = [chunk_hash(doc.source_kind, doc.external_id, c.content) for c in chunks]
        with self.db.connection() as conn:
            dim = self.ensure_model(conn)
            conn.commit()
            existing = {
                row[0]
                for row in conn.execute(
                    "SELECT content_hash FROM chunks WHERE content_hash = ANY(%s)", (hashes,)
                ).fetchall()
            }
        todo = [(c, h) for c, h in zip(chunks, hashes, strict=True) if h not in existing]
        started = time.perf_counter()
        vectors = self.embedder.encode([c.content for c, _ in todo]) if todo else None
        embed_seconds = time.perf_counter() - started
        started = time.perf_counter()
        with self.db.connection() as conn, conn.transaction():
            if vectors is not None and vectors.shape[1] != dim:
                raise VectorStoreError("embedding dimension changed", "E_EMBEDDING_MODEL_MISMATCH")
            source_id = _row(conn.execute(
                "INSERT INTO sources (kind, external_id, url, metadata) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (kind, external_id) DO UPDATE SET url = EXCLUDED.url"
                " RETURNING id",
                (doc.source_kind, doc.external_id, doc.url, json.dumps(doc.metadata)),
            ).fetchone())[0]
            document_id = _row(conn.execute(
                "INSERT INTO documents (source_id, paper_id, title, authors, year, venue, doi,"
                " url, metadata) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (source_id) DO UPDATE SET paper_id = EXCLUDED.paper_id,"
                " title = EXCLUDED.title, authors = EXCLUDED.authors, year = EXCLUDED.year,"
                " venue = EXCLUDED.venue, doi = EXCLUDED.doi, url = EXCLUDED.url,"
                " metadata = EXCLUDED.metadata RETURNING id",
                (
                    source_id,
                    doc.paper_id,
                    doc.title,
                    json.dumps(doc.authors),
                    doc.year,
                    doc.venue,
                    doc.doi,
                    doc.url,
                    json.dumps(doc.metadata),
                ),
            ).fetchone())[0]
            section_ids = self._upsert_sections(conn, document_id, chunks)
            removed = conn.execute(
                "DELETE FROM chunks WHERE document_id = %s AND NOT (content_hash = ANY(%s))",
                (document_id, hashes),
            ).rowcount
            inserted = self._insert_chunks(conn, document_id, section_ids, todo, vectors)
        return UpsertStats(
            document_id=document_id,
            chunks_total=len(chunks),
            chunks_inserted=inserted,
            chunks_unchanged=len(chunks) - len(todo),
            chunks_removed=removed,
            embed_seconds=embed_seconds,
            write_seconds=time.perf_counter() - started,
        )

    def _insert_chunks(
        self,
        conn: psycopg.Connection,
        document_id: int,
        section_ids: dict[str, int],
        todo: list[tuple[ChunkIn, str]],
        vectors: np.ndarray | None,
    ) -> int:
        """COPY new chunks into a temp table, then insert them skipping known hashes."""
        if not todo or vectors is None:
            return 0
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS chunks_incoming (LIKE chunks INCLUDING DEFAULTS)"
            " ON COMMIT DELETE ROWS"
        )
        with conn.cursor() as cur:
            with cur.copy(
                "COPY chunks_incoming (document_id, section_id, ordinal, content, page_start,"
                " page_end, token_count, content_hash, embedding, embedding_model,"
                " embedding_backend) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int8", "int8", "int4", "text", "int4", "int4", "int4", "text",
                                "vector", "text", "text"])
                for i, (chunk, digest) in enumerate(todo):
                    copy.write_row((
                        document_id,
                        section_ids.get(chunk.section) if chunk.section else None,
                        chunk.ordinal, chunk.content, chunk.page_start, chunk.page_end,
                        chunk.token_count, digest, vectors[i], self.embedder.model_name,
                        self.embedder.backend,
                    ))
            cur.execute(
                "INSERT INTO chunks (document_id, section_id, ordinal, content, page_start,"
                " page_end, token_count, content_hash, embedding, embedding_model,"
                " embedding_backend)"
                " SELECT document_id, section_id, ordinal, content, page_start, page_end,"
                " token_count, content_hash, embedding, embedding_model, embedding_backend"
                " FROM chunks_incoming ON CONFLICT (content_hash) DO NOTHING"
            )
            inserted = max(cur.rowcount, 0)
            cur.execute("TRUNCATE chunks_incoming")
        return inserted

    @staticmethod
    def _upsert_sections(
        conn: psycopg.Connection, document_id: int, chunks: Sequence[ChunkIn]
    ) -> dict[str, int]:
        names: list[tuple[str, int | None]] = []
        for chunk in chunks:
            if chunk.section and chunk.section not in {n for n, _ in names}:
                names.append((chunk.section, chunk.page_start))
        ids: dict[str, int] = {}
        for ordinal, (title, page) in enumerate(names):
            ids[title] = _row(conn.execute(
                "INSERT INTO sections (document_id, ordinal, title, page_start)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (document_id, ordinal)"
                " DO UPDATE SET title = EXCLUDED.title, page_start = EXCLUDED.page_start"
                " RETURNING id",
                (document_id, ordinal, title, page),
            ).fetchone())[0]
        conn.execute(
            "DELETE FROM sections WHERE document_id = %s AND ordinal >= %s",
            (document_id, len(names)),
        )
        return ids

    # -- reads -------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 5,
        filter_by_document: int | None = None,
        paper_id: str | None = None,
        source_kinds: Sequence[str] | None = None,
        mode: str | None = None,
    ) -> list[SearchHit]:
        """Return the ``k`` chunks that best answer ``query``.

        ``dense`` (the default, ``REPRO_SEARCH_MODE``): the nearest by cosine distance;
        ``hybrid`` (opt-in): the reciprocal-rank fusion of the ``max(4k, 20)`` nearest chunks by
        cosine distance and as many best by full-text BM25 (:mod:`repro_assets.storage.lexical`).
        Every hit carries its cosine ``distance`` to the query either way.

        Args:
            query: natural-language query.
            k: number of results.
            filter_by_document: restrict to one document id.
            paper_id: restrict to the document of one paper.
            source_kinds: restrict to these source kinds (``paper``, ``arxiv`` ...).
            mode: ``hybrid`` or ``dense`` (default: the setting).
        """
        mode = mode or settings.current().database.search_mode
        if mode not in ("hybrid", "dense"):
            raise VectorStoreError(f"unknown search mode {mode!r}", "E_BAD_ARGUMENTS")
        vector = self.embedder.encode([query], kind="query")[0]
        if mode == "dense":
            return self.search_vector(
                vector, k, filter_by_document=filter_by_document, paper_id=paper_id,
                source_kinds=source_kinds,
            )
        n = max(4 * k, 20)
        dense = self.search_vector(
            vector, n, filter_by_document=filter_by_document, paper_id=paper_id,
            source_kinds=source_kinds,
        )
        where, params = _filters(filter_by_document, paper_id, source_kinds)
        with self.db.connection() as conn:
            dim = self.ensure_model(conn)
            terms = lexical.query_terms(conn, query)
            ranked = lexical.lexical_rank(conn, terms, n, _JOINS, where, params)
            by_id = {hit.chunk_id: hit for hit in dense}
            missing = [chunk_id for chunk_id, _ in ranked if chunk_id not in by_id]
            if missing:
                distance = f"(c.embedding::vector({dim}) <=> %s::vector({dim}))"
                rows = conn.execute(
                    f"SELECT {_HIT_COLUMNS}, {distance} AS distance {_JOINS}"
                    " WHERE c.id = ANY(%s)",
                    [vector, missing],
                ).fetchall()
                by_id.update((hit.chunk_id, hit) for hit in map(_hit, rows))
        order = lexical.fuse([[hit.chunk_id for hit in dense], [i for i, _ in ranked]])
        return [by_id[chunk_id] for chunk_id in order[:k]]

    def search_vector(
        self,
        vector: np.ndarray,
        k: int = 5,
        filter_by_document: int | None = None,
        paper_id: str | None = None,
        source_kinds: Sequence[str] | None = None,
        exact: bool = False,
    ) -> list[SearchHit]:
        """Nearest chunks to an embedding (HNSW unless filtered or ``exact``)."""
        where, params = _filters(filter_by_document, paper_id, source_kinds)
        with self.db.connection() as conn:
            dim = self.ensure_model(conn)
            distance = f"(c.embedding::vector({dim}) <=> %s::vector({dim}))"
            joins = _JOINS
            clause = (" WHERE " + " AND ".join(where)) if where else ""
            if where or exact:
                # Filtered or exact: scan the candidate rows (a fence keeps the planner off the
                # approximate index, which could miss rows under a filter).
                sql = (
                    f"SELECT * FROM (SELECT {_HIT_COLUMNS}, {distance} AS distance {joins}"
                    f"{clause} OFFSET 0) t ORDER BY distance LIMIT %s"
                )
                rows = conn.execute(sql, [vector, *params, k]).fetchall()
            else:
                conn.execute(f"SET LOCAL hnsw.ef_search = {max(self.ef_search, 2 * int(k))}")
                sql = (
                    f"SELECT {_HIT_COLUMNS}, {distance} AS distance {joins}"
                    f" ORDER BY {distance} LIMIT %s"
                )
                rows = conn.execute(sql, [vector, vector, k]).fetchall()
        return [_hit(row) for row in rows]

    def reembed(self, batch_size: int = 256) -> int:
        """Re-embed every chunk not yet embedded with this store's backend, then record it.

        Works in committed batches, so an interrupted call resumes where it stopped; the
        store's recorded backend changes only once every chunk is re-embedded. Only the
        backend may change (same model and dimension).

        Returns:
            The number of chunks re-embedded.
        """
        backend = self.embedder.backend
        done = 0
        with self.db.connection() as conn:
            self.ensure_model(conn, check_backend=False)
        while True:
            with self.db.connection() as conn:
                rows = conn.execute(
                    "SELECT id, content FROM chunks WHERE embedding_backend <> %s"
                    " ORDER BY id LIMIT %s",
                    (backend, batch_size),
                ).fetchall()
                if not rows:
                    conn.execute(
                        "UPDATE vector_store_meta SET embedding_backend = %s WHERE key = %s",
                        (backend, META_KEY),
                    )
                    return done
                vectors = self.embedder.encode([content for _, content in rows])
                with conn.cursor() as cur:
                    cur.executemany(
                        "UPDATE chunks SET embedding = %s, embedding_backend = %s WHERE id = %s",
                        [(vectors[i], backend, row[0]) for i, row in enumerate(rows)],
                    )
                done += len(rows)

    def count_chunks(self, paper_id: str | None = None) -> int:
        """Number of stored chunks (of one paper when given)."""
        with self.db.connection() as conn:
            if paper_id is None:
                return _row(conn.execute("SELECT count(*) FROM chunks").fetchone())[0]
            return _row(conn.execute(
                "SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id"
                " WHERE d.paper_id = %s",
                (paper_id,),
            ).fetchone())[0]


def stored_backend(db: Database, model_name: str) -> str | None:
    """The backend the store's embeddings of ``model_name`` were made with (``None``: empty
    store, or another model, which :meth:`VectorStore.ensure_model` reports)."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT embedding_model, embedding_backend FROM vector_store_meta WHERE key = %s",
            (META_KEY,),
        ).fetchone()
    return row[1] if row and row[0] == model_name else None


def open_store(
    db: Database | None = None, model_name: str | None = None, backend: str | None = None
) -> VectorStore:
    """The vector store with the right embedder.

    The backend is ``backend``, else ``REPRO_EMBEDDING_BACKEND``, else the one the store was
    built with, else the default: an existing store keeps working when the default changes.
    """
    db = db or get_database()
    model_name = model_name or configured_model()
    stored = None if backend or configured_backend() else stored_backend(db, model_name)
    return VectorStore(db, get_embedder(model_name, resolve_backend(backend, stored)))
