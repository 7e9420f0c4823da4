"""arXiv API client: Atom search results as :class:`ScholarlyRecord`s.

Calls ``https://export.arxiv.org/api/query`` sorted by relevance, with arXiv's requested
3-second spacing between requests (process-wide), a User-Agent naming a contact, and retries
on 429/5xx. Parsing is :func:`parse_feed`, a pure function over the response bytes (feedparser).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from datetime import date

import feedparser
import httpx

from repro_assets import settings
from repro_assets.scholarly.http import MinIntervalLimiter, PoliteClient
from repro_assets.scholarly.models import Author, ScholarlyError, ScholarlyRecord

log = logging.getLogger(__name__)

API_URL = "https://export.arxiv.org/api/query"
SPACING_S = 3.0
#: Shared by every ArxivClient of the process: arXiv's limit is per client machine.
ARXIV_LIMITER = MinIntervalLimiter(SPACING_S)

_ID_RE = re.compile(r"arxiv\.org/abs/(?P<id>.+?)(?P<version>v\d+)?$")
_WS_RE = re.compile(r"\s+")
_FIELD_RE = re.compile(r"\b(ti|au|abs|co|jr|cat|rn|id|all):", re.IGNORECASE)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9\-]{2,}")
_STOPWORDS = frozenset(
    """about above after again against also among and any are because been before being below
    between both but can could did does doing down during each few for from further had has have
    having her here hers him his how into its itself just more most not now off once only other
    our out over own same she should some such than that the their them then there these they
    this those through too under until very was were what when where which while who whom why
    will with would you your yes use used using may might must shall whether within without
    based show shows work works paper approach propose proposed new one two three""".split()
)


def _clean(text: str | None) -> str:
    return _WS_RE.sub(" ", text or "").strip()


def _date(parsed: time.struct_time | None) -> date | None:
    return date(parsed.tm_year, parsed.tm_mon, parsed.tm_mday) if parsed else None


_URL_ID_RE = re.compile(
    r"arxiv\.org/(?:abs|pdf|html)/(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?",
    re.IGNORECASE,
)


def arxiv_id_from_url(url: str) -> str | None:
    """The versionless arXiv id in an abs/pdf/html URL, or None."""
    match = _URL_ID_RE.search(url or "")
    return match.group("id") if match else None


def keyword_query(text: str, max_terms: int = 6) -> str:
    """Turn free text into an arXiv ``search_query`` over its first distinctive words.

    Text that already uses arXiv field prefixes (``ti:``, ``all:`` ...) is passed through.
    Otherwise the first ``max_terms`` distinct non-stopword terms are OR-ed over ``all:``;
    relevance sorting then ranks works matching more terms first.
    """
    if _FIELD_RE.search(text):
        return text.strip()
    terms: list[str] = []
    for word in _WORD_RE.findall(text):
        lowered = word.lower().strip("-")
        if lowered in _STOPWORDS or lowered in terms or len(lowered) < 3:
            continue
        terms.append(lowered)
        if len(terms) >= max_terms:
            break
    if not terms:
        raise ScholarlyError(f"no searchable terms in query {text!r}", "E_ARXIV_EMPTY_QUERY")
    return " OR ".join(f"all:{term}" for term in terms)


def parse_feed(content: bytes | str) -> list[ScholarlyRecord]:
    """Parse an arXiv Atom response into records (in feed order).

    Raises:
        ScholarlyError: ``E_ARXIV_QUERY_INVALID`` for arXiv's error feed (an entry whose id is
            under ``/api/errors``), ``E_ARXIV_BAD_FEED`` when the body is not a feed.
    """
    feed = feedparser.parse(content)
    if feed.bozo and not feed.entries:
        raise ScholarlyError(f"arXiv returned an unreadable feed: {feed.bozo_exception}",
                             "E_ARXIV_BAD_FEED")
    records: list[ScholarlyRecord] = []
    for entry in feed.entries:
        entry_id = entry.get("id", "")
        if "/api/errors" in entry_id:
            raise ScholarlyError(f"arXiv rejected the query: {_clean(entry.get('summary'))}",
                                 "E_ARXIV_QUERY_INVALID", 400)
        match = _ID_RE.search(entry_id)
        if not match:
            log.warning("skipping arXiv entry with unexpected id %r", entry_id)
            continue
        arxiv_id = match.group("id")
        links = entry.get("links", [])
        abs_url = next((lk["href"] for lk in links if lk.get("rel") == "alternate"), None)
        pdf_url = next(
            (lk["href"] for lk in links if lk.get("title") == "pdf"
             or lk.get("type") == "application/pdf"),
            None,
        )
        published = _date(entry.get("published_parsed"))
        primary = (entry.get("arxiv_primary_category") or {}).get("term")
        categories = [tag["term"] for tag in entry.get("tags", []) if tag.get("term")]
        journal_ref = _clean(entry.get("arxiv_journal_ref")) or None
        records.append(
            ScholarlyRecord(
                source="arxiv",
                external_id=arxiv_id,
                version=match.group("version"),
                title=_clean(entry.get("title")),
                authors=[Author.from_full_name(a["name"]) for a in entry.get("authors", [])
                         if a.get("name")],
                abstract=_clean(entry.get("summary")),
                year=published.year if published else None,
                published=published,
                updated=_date(entry.get("updated_parsed")),
                venue=journal_ref,
                doi=_clean(entry.get("arxiv_doi")) or None,
                url=(abs_url or f"https://arxiv.org/abs/{arxiv_id}").replace("http://", "https://"),
                pdf_url=pdf_url,
                categories=categories,
                primary_category=primary,
                work_type="preprint",
                comment=_clean(entry.get("arxiv_comment")) or None,
            )
        )
    return records


class ArxivClient(PoliteClient):
    """Search arXiv politely.

    Args:
        base_url: API endpoint (tests point it anywhere; respx intercepts the default).
        timeout_s: per-request timeout.
        attempts: tries per request (429/5xx/transport errors are retried).
        backoff_s: base of the exponential backoff (0 disables waiting, for tests).
        limiter: request spacing; default is the process-wide 3-second limiter.
        sleep: sleep used between retries (injectable for tests).
    """

    def __init__(
        self,
        base_url: str = API_URL,
        timeout_s: float = 30.0,
        attempts: int = 4,
        backoff_s: float = 3.0,
        limiter: MinIntervalLimiter | None = ARXIV_LIMITER,
        sleep: Callable[[float], None] = time.sleep,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(base_url, timeout_s, attempts, backoff_s, limiter, sleep, http_client)

    error_prefix = "E_ARXIV"

    def _get_feed(self, params: dict[str, object]) -> list[ScholarlyRecord]:
        response = self._request(self.base_url, params)
        if response.status_code == 400:
            parse_feed(response.content)  # raises E_ARXIV_QUERY_INVALID with arXiv's message
        if response.status_code != 200:
            raise ScholarlyError(f"arXiv answered HTTP {response.status_code}", "E_ARXIV_HTTP",
                                 response.status_code)
        return parse_feed(response.content)

    def fetch_pdf(self, url: str) -> bytes:
        """Download a PDF (spaced like API calls; size-limited by the paper ingest path).

        Raises:
            PaperIngestError: E_FETCH_FAILED, E_FILE_TOO_LARGE.
        """
        from repro_assets.papers.ingest import fetch_pdf

        if self.limiter is not None:
            self.limiter.acquire()
        return fetch_pdf(url)

    def fetch(self, ids: list[str]) -> list[ScholarlyRecord]:
        """Records for arXiv ids (``id_list``), e.g. ``["2202.12139"]``."""
        if not ids:
            return []
        return self._get_feed({"id_list": ",".join(ids), "start": 0, "max_results": len(ids)})

    def search(self, query: str, max_results: int | None = None) -> list[ScholarlyRecord]:
        """Search by relevance and return up to ``max_results`` records.

        Args:
            query: free text (turned into OR-ed ``all:`` terms, see :func:`keyword_query`) or an
                arXiv query using field prefixes.
            max_results: default ``ARXIV_MAX_RESULTS`` (5).

        Raises:
            ScholarlyError: E_ARXIV_QUERY_INVALID, E_ARXIV_HTTP, E_ARXIV_RATE_LIMITED,
                E_ARXIV_UNREACHABLE, E_ARXIV_BAD_FEED, E_ARXIV_EMPTY_QUERY.
        """
        limit = max_results if max_results is not None else settings.env_int(
            "ARXIV_MAX_RESULTS", 5)
        if limit <= 0:
            return []
        params = {
            "search_query": keyword_query(query),
            "start": 0,
            "max_results": limit,
            "sortBy": "relevance",
            "sortOrder": "descending",
        }
        return self._get_feed(params)[:limit]
