"""Models of the ingest stage (seed 000, stage 1): papers, pages, chunks."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TextBlock(BaseModel):
    """A PyMuPDF text block with its bounding box (PDF points, origin top-left)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="Block text, lines joined with newlines.")
    bbox: tuple[float, float, float, float] = Field(description="x0, y0, x1, y1 in points.")
    font_size: float = Field(default=0.0, description="Largest font size in the block.")
    bold: bool = Field(default=False, description="True if the block's first span is bold.")


class PageText(BaseModel):
    """The text layer of one page."""

    model_config = ConfigDict(extra="forbid")

    page_no: int = Field(description="1-based page number.", ge=1)
    text: str = Field(description="Page text in reading order (PyMuPDF 'text' output).")
    blocks: list[TextBlock] = Field(default_factory=list, description="Text blocks with bboxes.")
    section_titles: list[str] = Field(
        default_factory=list, description="Section headings detected on this page, in order."
    )
    has_text_layer: bool = Field(description="False when the page has no extractable text.")


class PaperPages(BaseModel):
    """All pages of a paper plus what was detected about its structure."""

    model_config = ConfigDict(extra="forbid")

    paper_id: str = Field(description="Partition key: the paper id.")
    title: str | None = Field(default=None, description="Detected or given title.")
    pages: list[PageText] = Field(description="Pages in order.")

    @property
    def has_text_layer(self) -> bool:
        """True if any page has text."""
        return any(page.has_text_layer for page in self.pages)

    @property
    def full_text(self) -> str:
        """All page texts joined with form feeds."""
        return "\f".join(page.text for page in self.pages)


class Chunk(BaseModel):
    """A token-based chunk that keeps its pages and section."""

    model_config = ConfigDict(extra="forbid")

    ordinal: int = Field(description="0-based position in the paper.")
    text: str = Field(description="Chunk text.")
    token_count: int = Field(description="Tokens (cl100k_base).")
    page_start: int = Field(description="First page (1-based).")
    page_end: int = Field(description="Last page (1-based).")
    section: str | None = Field(default=None, description="Section the chunk starts in.")
