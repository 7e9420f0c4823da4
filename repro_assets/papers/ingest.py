"""Stage 1 (ingest): read a PDF from a path or URL, validate, dedup, store, record.

Used by the ``paper_pdf`` asset, the drop-folder sensor, the CLI and the HTTP API, so every
entry point applies the same rules and error codes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import fsspec
import psycopg

from repro_assets import settings
from repro_assets.papers.pdf import MAX_PDF_BYTES, PaperIngestError, PdfInfo, validate_pdf
from repro_assets.papers.store import find_paper_by_sha256
from repro_assets.storage.blobstore import BlobStore, paper_pdf_key
from repro_assets.storage.database import Database

log = logging.getLogger(__name__)

#: The total deadline of a PDF download (connect, headers and body): ``REPRO_FETCH_TIMEOUT_S``.
FETCH_TIMEOUT_S = 30.0
USER_AGENT = "repro-assets/0.1 (+paper ingest)"
_FLIGHTS_LOCK = threading.Lock()
#: checksum -> (its lock, callers holding or waiting for it)
_FLIGHTS: dict[str, tuple[threading.Lock, int]] = {}


@dataclass(frozen=True)
class IngestResult:
    """The outcome of storing a PDF."""

    paper_id: str
    already_exists: bool
    storage_path: str
    sha256: str
    page_count: int
    byte_size: int
    title: str | None


def fetch_timeout() -> float:
    """The download deadline in seconds (``REPRO_FETCH_TIMEOUT_S``, default 30)."""
    return float(max(1, settings.env_int("REPRO_FETCH_TIMEOUT_S", int(FETCH_TIMEOUT_S))))


def fetch_pdf(url: str, timeout: float | None = None, max_bytes: int = MAX_PDF_BYTES) -> bytes:
    """Download a PDF over HTTP(S) through the outbound guard (:mod:`repro_assets.net`).

    One total deadline (``timeout``, default :func:`fetch_timeout`) covers connect, headers
    and body: a server that trickles bytes is cut off at the deadline.

    Private, loopback and link-local addresses are refused (each redirect hop too) unless
    allowed by ``REPRO_ALLOW_PRIVATE_FETCH`` / ``REPRO_FETCH_ALLOWLIST``; the body is streamed
    and cut at ``max_bytes``.

    Raises:
        PaperIngestError: E_FETCH_BLOCKED for a refused address, E_FETCH_FAILED on
            network/HTTP errors, E_FILE_TOO_LARGE past the limit.
    """
    from repro_assets import net  # the HTTP client: only a URL source pays its import

    try:
        return net.fetch(url, max_bytes=max_bytes, timeout=timeout or fetch_timeout(),
                         headers={"User-Agent": USER_AGENT}).body
    except net.FetchError as exc:
        code = {"E_FETCH_BLOCKED": "E_FETCH_BLOCKED",
                "E_FILE_TOO_LARGE": "E_FILE_TOO_LARGE"}.get(exc.code, "E_FETCH_FAILED")
        raise PaperIngestError(code, str(exc)) from exc


def is_http_source(source: str) -> bool:
    """True when ``source`` is fetched over HTTP (``http(s)://``, any case)."""
    return urlsplit(source.strip()).scheme.lower() in ("http", "https")


def read_source(source: str, max_bytes: int = MAX_PDF_BYTES) -> bytes:
    """Read a PDF from an http(s) URL, a local path or any fsspec URL.

    Raises:
        PaperIngestError: E_FETCH_FAILED when it cannot be read, E_FILE_TOO_LARGE past the limit.
    """
    if is_http_source(source):
        return fetch_pdf(source.strip(), max_bytes=max_bytes)
    if "::" in source and any(is_http_source(part) for part in source.split("::")):
        raise PaperIngestError("E_FETCH_BLOCKED",
                               "chained fsspec URLs over HTTP are not fetched; give the URL")
    try:
        fs, path = fsspec.core.url_to_fs(source)
        size = fs.size(path)
        if size is not None and size > max_bytes:
            raise PaperIngestError(
                "E_FILE_TOO_LARGE", f"{Path(path).name} is {size:,} bytes; limit {max_bytes:,}"
            )
        return fs.cat_file(path)
    except PaperIngestError:
        raise
    except (OSError, ValueError) as exc:
        raise PaperIngestError("E_FETCH_FAILED", f"cannot read {source}: {exc}") from exc


def store_paper(
    db: Database,
    blobs: BlobStore,
    data: bytes,
    title: str | None = None,
    source_url: str | None = None,
    info: PdfInfo | None = None,
) -> IngestResult:
    """Validate, dedup by sha256, store the blob and insert the ``papers`` row.

    The same bytes always map to the same paper id; a second call returns
    ``already_exists=True`` (and restores the blob if it went missing). A failed insert removes
    a blob this call wrote, so nothing is half-written.

    Raises:
        PaperIngestError: validation codes, or E_DB_INSERT_FAILED.
    """
    info = info or validate_pdf(data)
    existing = find_paper_by_sha256(db, info.sha256)
    if existing is not None:
        if not blobs.exists(existing.pdf_storage_path):
            blobs.write_bytes(existing.pdf_storage_path, data)
            log.warning("restored missing blob %s", existing.pdf_storage_path)
        return IngestResult(
            paper_id=existing.id, already_exists=True, storage_path=existing.pdf_storage_path,
            sha256=existing.pdf_sha256, page_count=existing.page_count or info.page_count,
            byte_size=info.byte_size, title=existing.title,
        )
    key = paper_pdf_key(info.paper_id)
    wrote = not blobs.exists(key)
    blobs.write_bytes(key, data)
    final_title = title or info.metadata_title
    try:
        with db.connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO papers (id, title, source_url, pdf_storage_path, pdf_sha256,"
                " page_count, byte_size, status) VALUES (%s, %s, %s, %s, %s, %s, %s, 'ingested')"
                " ON CONFLICT (id) DO NOTHING",
                (info.paper_id, final_title, source_url, key, info.sha256, info.page_count,
                 info.byte_size),
            )
    except psycopg.Error as exc:
        if wrote:
            blobs.delete(key)
        raise PaperIngestError("E_DB_INSERT_FAILED", f"could not record the paper: {exc}") from exc
    return IngestResult(
        paper_id=info.paper_id, already_exists=False, storage_path=key, sha256=info.sha256,
        page_count=info.page_count, byte_size=info.byte_size, title=final_title,
    )


@contextmanager
def single_flight(db: Database, sha256: str) -> Iterator[None]:
    """Serialize every ingest of the same content (one PDF checksum).

    In this process a lock per checksum; across processes a Postgres advisory lock on the
    checksum, held on a connection of its own (not one of the pool, which the ingest itself
    needs). The first caller validates, stores and runs; the others find its result.
    """
    with _FLIGHTS_LOCK:
        lock, waiting = _FLIGHTS.get(sha256, (threading.Lock(), 0))
        _FLIGHTS[sha256] = (lock, waiting + 1)
    try:
        with lock, psycopg.connect(db.url, autocommit=True) as conn:
            key = "repro_assets:paper:" + sha256
            conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))
    finally:
        with _FLIGHTS_LOCK:
            lock, waiting = _FLIGHTS[sha256]
            if waiting <= 1:
                del _FLIGHTS[sha256]
            else:
                _FLIGHTS[sha256] = (lock, waiting - 1)
