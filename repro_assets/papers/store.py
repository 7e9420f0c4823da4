"""Reading and writing the papers tables (``papers``, ``paper_pages``)."""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from repro_assets.errors import CodedError
from repro_assets.papers.models import PageText, PaperPages
from repro_assets.storage.database import Database


class PaperRecord(BaseModel):
    """A row of the ``papers`` table."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str | None
    source_url: str | None
    pdf_storage_path: str
    pdf_sha256: str
    page_count: int | None
    byte_size: int | None
    status: str
    created_at: datetime


class PaperNotFound(CodedError, LookupError):
    """No paper with that id (``E_PLAN_NOT_READY`` for later stages)."""

    code = "E_PAPER_NOT_FOUND"


_PAPER_COLUMNS = (
    "id, title, source_url, pdf_storage_path, pdf_sha256, page_count, byte_size, status, created_at"
)


def get_paper(db: Database, paper_id: str) -> PaperRecord:
    """Return the ``papers`` row of ``paper_id``.

    Raises:
        PaperNotFound: when the paper was never ingested.
    """
    with db.connection() as conn:
        row = conn.execute(
            f"SELECT {_PAPER_COLUMNS} FROM papers WHERE id = %s", (paper_id,)
        ).fetchone()
    if row is None:
        raise PaperNotFound(f"paper {paper_id} has not been ingested")
    return PaperRecord(**dict(zip(_PAPER_COLUMNS.split(", "), row, strict=True)))


def find_paper_by_sha256(db: Database, sha256: str) -> PaperRecord | None:
    """Return the paper with this checksum, if any."""
    with db.connection() as conn:
        row = conn.execute(
            f"SELECT {_PAPER_COLUMNS} FROM papers WHERE pdf_sha256 = %s", (sha256,)
        ).fetchone()
    return PaperRecord(**dict(zip(_PAPER_COLUMNS.split(", "), row, strict=True))) if row else None


def save_pages(db: Database, pages: PaperPages) -> None:
    """Replace the stored pages of a paper (one transaction, upserts).

    Pages are upserted by ``(paper_id, page_no)`` and pages past the new last page deleted,
    so two concurrent saves of the same paper never collide on the primary key (a
    DELETE-then-INSERT pair did: the second INSERT hit the first one's rows).
    """
    with db.connection() as conn, conn.transaction():
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO paper_pages (paper_id, page_no, text, blocks, section_titles,"
                " has_text_layer) VALUES (%s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (paper_id, page_no) DO UPDATE SET text = EXCLUDED.text,"
                " blocks = EXCLUDED.blocks, section_titles = EXCLUDED.section_titles,"
                " has_text_layer = EXCLUDED.has_text_layer",
                [
                    (
                        pages.paper_id,
                        page.page_no,
                        page.text,
                        json.dumps([block.model_dump() for block in page.blocks]),
                        json.dumps(page.section_titles),
                        page.has_text_layer,
                    )
                    for page in pages.pages
                ],
            )
        conn.execute("DELETE FROM paper_pages WHERE paper_id = %s AND page_no > %s",
                     (pages.paper_id, max((p.page_no for p in pages.pages), default=0)))
        if pages.title:
            conn.execute(
                "UPDATE papers SET title = COALESCE(title, %s), updated_at = now() WHERE id = %s",
                (pages.title, pages.paper_id),
            )


def load_pages(db: Database, paper_id: str) -> PaperPages:
    """Return the stored pages of a paper.

    Raises:
        PaperNotFound: when the paper or its pages are missing (materialize paper_pages first).
    """
    paper = get_paper(db, paper_id)
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT page_no, text, blocks, section_titles, has_text_layer FROM paper_pages"
            " WHERE paper_id = %s ORDER BY page_no",
            (paper_id,),
        ).fetchall()
    if not rows:
        raise PaperNotFound(f"paper {paper_id} has no stored pages; materialize paper_pages")
    pages = [
        PageText(page_no=r[0], text=r[1], blocks=r[2], section_titles=r[3], has_text_layer=r[4])
        for r in rows
    ]
    return PaperPages(paper_id=paper_id, title=paper.title, pages=pages)
