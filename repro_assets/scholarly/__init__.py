"""Scholarly sources shared by the debate and research workflows.

``arxiv`` and ``crossref`` are polite HTTP clients that return :class:`ScholarlyRecord`s;
``apa`` formats APA 7 references; ``ingest`` chunks, embeds and upserts records into the shared
vector store; ``samples`` seeds the offline sample corpus from recorded API payloads.
"""

from repro_assets.scholarly.models import Author, ScholarlyError, ScholarlyRecord

__all__ = ["Author", "ScholarlyError", "ScholarlyRecord"]
