"""Crossref ``/works`` client: journal and proceedings articles as :class:`ScholarlyRecord`s.

Only ``journal-article`` and ``proceedings-article`` works are kept (asked for with a type
filter and checked again on the response). Titles and abstracts arrive with JATS/HTML markup
(``<jats:p>``, ``<scp>``, entities); :func:`strip_markup` turns them into plain text. Requests
carry a User-Agent with a contact and Crossref's ``mailto`` parameter (the polite pool).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any
from urllib.parse import quote

import httpx
import lxml.etree
import lxml.html

from repro_assets import settings
from repro_assets.scholarly.http import (
    MinIntervalLimiter,
    PoliteClient,
    contact_email,
)
from repro_assets.scholarly.models import Author, ScholarlyError, ScholarlyRecord

log = logging.getLogger(__name__)

API_URL = "https://api.crossref.org/works"
ARTICLE_TYPES = ("journal-article", "proceedings-article")
#: Process-wide spacing for Crossref (well under the public pool's rate limit).
CROSSREF_LIMITER = MinIntervalLimiter(0.2)

_BLOCK_TAGS = frozenset({"p", "sec", "title", "list", "list-item", "li", "ul", "ol", "div",
                         "br", "abstract", "trans-abstract", "caption", "table", "tr"})
_LEADING_HEADINGS = frozenset({"abstract", "summary", "graphical abstract"})
_TITLE_MARK = "\x00"
_WS_RE = re.compile(r"\s+")


def _local(tag: object) -> str:
    return tag.rsplit(":", 1)[-1].lower() if isinstance(tag, str) else ""


def strip_markup(text: str | None, *, block: bool = True) -> str:
    """Plain text from a JATS/HTML fragment.

    Args:
        text: markup such as ``<jats:title>Abstract</jats:title><jats:p>...</jats:p>``.
        block: keep paragraph breaks (one paragraph per line) and render section titles as
            ``"Aim: ..."``; False collapses everything onto one line (titles, venues).

    A leading "Abstract"/"Summary" heading is dropped; entities are decoded.
    """
    if not text or not text.strip():
        return ""
    try:
        root = lxml.html.fragment_fromstring(text, create_parent="div")
    except (lxml.etree.ParserError, ValueError):
        return _WS_RE.sub(" ", text).strip()
    parts = _MarkupText()
    parts.walk(root)
    lines = [_WS_RE.sub(" ", line).strip() for line in "".join(parts.parts).split("\n")]
    lines = [line for line in lines if line]
    if not block:
        return " ".join(line.replace(_TITLE_MARK, ":") for line in lines)
    return _merge_titles(lines)


class _MarkupText:
    """The text pieces of a markup tree: blocks on lines of their own, titles marked."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.seen_content = False

    def _title(self, element: Any) -> None:
        heading = _WS_RE.sub(" ", element.text_content()).strip()
        if heading and not (not self.seen_content and heading.lower() in _LEADING_HEADINGS):
            self.parts.append(f"\n{heading}{_TITLE_MARK}\n")
        if element.tail:
            self.parts.append(element.tail)

    def _text(self, value: str | None) -> None:
        if value:
            self.parts.append(value)
            self.seen_content = self.seen_content or bool(value.strip())

    def walk(self, element: Any) -> None:
        """Append ``element``'s text, its children's and its tail."""
        tag = _local(element.tag)
        if tag == "title":
            self._title(element)
            return
        is_block = tag in _BLOCK_TAGS
        if is_block:
            self.parts.append("\n")
        self._text(element.text)
        for child in element:
            self.walk(child)
        if is_block:
            self.parts.append("\n")
        self._text(element.tail)


def _merge_titles(lines: list[str]) -> str:
    """Lines with each title line joined to the next as ``"Title: text"``."""
    merged: list[str] = []
    pending = ""
    for line in lines:
        if line.endswith(_TITLE_MARK):
            pending += line[: -len(_TITLE_MARK)] + ": "
            continue
        merged.append(pending + line)
        pending = ""
    if pending:
        merged.append(pending.rstrip(": "))
    return "\n".join(merged)


def _date_parts(item: Mapping[str, Any]) -> tuple[int | None, date | None]:
    for key in ("published", "issued", "published-print", "published-online", "created"):
        parts = ((item.get(key) or {}).get("date-parts") or [[None]])[0]
        if parts and parts[0]:
            year = int(parts[0])
            month = int(parts[1]) if len(parts) > 1 and parts[1] else None
            day = int(parts[2]) if len(parts) > 2 and parts[2] else None
            return year, date(year, month, day) if month and day else None
    return None, None


def _authors(item: Mapping[str, Any]) -> list[Author]:
    authors = []
    for raw in item.get("author") or []:
        family = strip_markup(raw.get("family"), block=False)
        given = strip_markup(raw.get("given"), block=False) or None
        if family:
            authors.append(Author(family=family, given=given,
                                  suffix=raw.get("suffix") or None, orcid=raw.get("ORCID")))
        elif raw.get("name"):
            authors.append(Author(family=strip_markup(raw["name"], block=False)))
    return authors


def _first(values: Any) -> str | None:
    if isinstance(values, list):
        values = values[0] if values else None
    return strip_markup(values, block=False) or None if isinstance(values, str) else None


_DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>?#]+)", re.IGNORECASE)


def doi_from_url(url: str) -> str | None:
    """The DOI in a doi.org (or any) URL, or None."""
    match = _DOI_RE.search(url or "")
    return match.group(1).rstrip(".") if match else None


def parse_work(item: Mapping[str, Any]) -> ScholarlyRecord | None:
    """One Crossref work as a record, or None when it is not a journal/proceedings article."""
    work_type = item.get("type")
    doi = (item.get("DOI") or "").strip()
    if work_type not in ARTICLE_TYPES or not doi:
        return None
    title = _first(item.get("title"))
    if not title:
        return None
    year, published = _date_parts(item)
    pdf_url = next(
        (link.get("URL") for link in item.get("link") or []
         if link.get("content-type") == "application/pdf"),
        None,
    )
    return ScholarlyRecord(
        source="crossref",
        external_id=doi.lower(),
        title=title,
        authors=_authors(item),
        abstract=strip_markup(item.get("abstract")),
        year=year,
        published=published,
        venue=_first(item.get("container-title")),
        doi=doi,
        url=item.get("URL") or f"https://doi.org/{doi}",
        pdf_url=pdf_url,
        categories=[s for s in item.get("subject") or [] if isinstance(s, str)],
        work_type=work_type,
        publisher=item.get("publisher"),
        volume=item.get("volume"),
        issue=item.get("issue"),
        pages=item.get("page") or item.get("article-number"),
    )


def parse_works(payload: Mapping[str, Any]) -> list[ScholarlyRecord]:
    """Parse a ``/works`` (work-list) or ``/works/{doi}`` (work) response body.

    Non-article types (posted-content, dataset, reference-entry ...) are dropped.

    Raises:
        ScholarlyError: ``E_CROSSREF_BAD_RESPONSE`` when the body is not a Crossref message.
    """
    kind = payload.get("message-type")
    message = payload.get("message")
    if payload.get("status") != "ok" or not isinstance(message, Mapping):
        raise ScholarlyError(f"unexpected Crossref response (status={payload.get('status')!r})",
                             "E_CROSSREF_BAD_RESPONSE")
    if kind == "work-list":
        items = message.get("items", [])
    elif kind == "work":
        items = [message]
    else:
        raise ScholarlyError(f"unexpected Crossref message-type {kind!r}",
                             "E_CROSSREF_BAD_RESPONSE")
    records = []
    for item in items:
        record = parse_work(item)
        if record is None:
            log.debug("skipping Crossref %s %s", item.get("type"), item.get("DOI"))
            continue
        records.append(record)
    return records


class CrossrefClient(PoliteClient):
    """Search Crossref politely.

    Args:
        base_url: the ``/works`` endpoint.
        timeout_s: per-request timeout.
        attempts: tries per request (429/5xx/transport errors are retried).
        backoff_s: base of the exponential backoff (0 disables waiting, for tests).
        limiter: request spacing; default is the process-wide Crossref limiter.
        sleep: sleep used between retries (injectable for tests).
    """

    def __init__(
        self,
        base_url: str = API_URL,
        timeout_s: float = 30.0,
        attempts: int = 4,
        backoff_s: float = 2.0,
        limiter: MinIntervalLimiter | None = CROSSREF_LIMITER,
        sleep: Callable[[float], None] = time.sleep,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(base_url.rstrip("/"), timeout_s, attempts, backoff_s, limiter, sleep,
                         http_client)

    error_prefix = "E_CROSSREF"

    def _get(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
        email = contact_email()
        if email:
            params = {**params, "mailto": email}
        response = self._request(url, params)
        if response.status_code == 404:
            raise ScholarlyError(f"Crossref: not found ({url})", "E_CROSSREF_NOT_FOUND", 404)
        if response.status_code != 200:
            raise ScholarlyError(
                f"Crossref answered HTTP {response.status_code}: {response.text[:200]}",
                "E_CROSSREF_HTTP", response.status_code,
            )
        try:
            return response.json()
        except ValueError as exc:
            raise ScholarlyError("Crossref returned invalid JSON", "E_CROSSREF_BAD_RESPONSE",
                                 response.status_code) from exc

    def search(self, query: str, rows: int | None = None) -> list[ScholarlyRecord]:
        """Bibliographic search over journal and proceedings articles.

        Args:
            query: free text (``query`` parameter, relevance-ranked by Crossref).
            rows: default ``DEBATE_CROSSREF_RESULTS`` (5).

        Raises:
            ScholarlyError: E_CROSSREF_HTTP, E_CROSSREF_RATE_LIMITED, E_CROSSREF_UNREACHABLE,
                E_CROSSREF_BAD_RESPONSE, E_CROSSREF_EMPTY_QUERY.
        """
        limit = rows if rows is not None else settings.env_int("DEBATE_CROSSREF_RESULTS", 5)
        if limit <= 0:
            return []
        if not query.strip():
            raise ScholarlyError("empty Crossref query", "E_CROSSREF_EMPTY_QUERY")
        params = {
            "query": " ".join(query.split())[:500],
            "rows": limit,
            "filter": ",".join(f"type:{t}" for t in ARTICLE_TYPES),
        }
        return parse_works(self._get(self.base_url, params))[:limit]

    def work(self, doi: str) -> ScholarlyRecord | None:
        """One work by DOI (None when it is not a journal/proceedings article)."""
        records = parse_works(self._get(f"{self.base_url}/{quote(doi.strip(), safe='/')}", {}))
        return records[0] if records else None
