"""Polite HTTP for scholarly APIs: User-Agent with contact, request spacing, retries.

arXiv asks for one request every 3 seconds across a client's whole traffic, Crossref asks for a
``mailto`` (the "polite pool") and both answer 429/503 under load. :class:`MinIntervalLimiter`
spaces requests process-wide and :func:`request_with_retries` retries 429, 5xx and transport
errors with tenacity (honouring ``Retry-After``), raising :class:`ScholarlyError` at the end.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Self

import httpx
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from repro_assets import settings
from repro_assets.scholarly.models import ScholarlyError

log = logging.getLogger(__name__)

PRODUCT = "repro-assets/0.1"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 60.0


def contact_email() -> str | None:
    """The operator's contact address (``REPRO_CONTACT_EMAIL``), or None when unset."""
    return settings.current().fetch.contact_email or None


def user_agent() -> str:
    """User-Agent naming the tool and, when configured, a contact (``mailto:``)."""
    email = contact_email()
    return f"{PRODUCT} (mailto:{email})" if email else PRODUCT


class MinIntervalLimiter:
    """At most one request per ``interval`` seconds, shared by every thread using it.

    Args:
        interval: minimum seconds between the starts of two requests.
        clock: monotonic clock (injectable for tests).
        sleep: sleep function (injectable for tests).
    """

    def __init__(
        self,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next_allowed: float | None = None

    def acquire(self) -> float:
        """Block until a request may start; return the seconds waited."""
        with self._lock:
            now = self._clock()
            waited = 0.0
            if self._next_allowed is not None and now < self._next_allowed:
                waited = self._next_allowed - now
                self._sleep(waited)
                now = self._clock()
            self._next_allowed = max(now, self._next_allowed or now) + self.interval
            return waited


class RetryableStatus(Exception):
    """An HTTP answer worth retrying (429 or 5xx)."""

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(f"HTTP {response.status_code}")
        self.response = response

    @property
    def retry_after(self) -> float | None:
        """Seconds from a numeric ``Retry-After`` header, if any."""
        raw = self.response.headers.get("retry-after", "").strip()
        try:
            return min(float(raw), MAX_RETRY_AFTER_S) if raw else None
        except ValueError:
            return None


def _is_retryable(exc: BaseException) -> bool:
    return isinstance(exc, RetryableStatus | httpx.TransportError)


class _WaitRetryAfterOrExponential:
    """tenacity wait: ``Retry-After`` when the server sent one, else exponential backoff."""

    def __init__(self, base: float, maximum: float) -> None:
        self._exp = wait_exponential(multiplier=base, min=base, max=maximum)

    def __call__(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, RetryableStatus) and exc.retry_after is not None:
            return exc.retry_after
        return self._exp(state)


def request_with_retries(
    client: httpx.Client,
    url: str,
    *,
    params: Mapping[str, Any] | None,
    limiter: MinIntervalLimiter | None,
    attempts: int,
    backoff_s: float,
    error_prefix: str,
    sleep: Callable[[float], None] = time.sleep,
) -> httpx.Response:
    """GET ``url``; retry 429/5xx/transport errors; return the final response (any status).

    Every attempt first waits for ``limiter``. Non-retryable statuses (400, 404 ...) are
    returned to the caller, which knows how to read the API's error body.

    Raises:
        ScholarlyError: ``{prefix}_RATE_LIMITED`` after repeated 429s, ``{prefix}_HTTP`` after
            repeated 5xx, ``{prefix}_UNREACHABLE`` after repeated transport errors.
    """

    def attempt() -> httpx.Response:
        if limiter is not None:
            limiter.acquire()
        response = client.get(url, params=params)
        if response.status_code in RETRY_STATUSES:
            log.warning("%s answered %s; will retry", url, response.status_code)
            raise RetryableStatus(response)
        return response

    retrying = Retrying(
        retry=retry_if_exception(_is_retryable),
        stop=stop_after_attempt(max(1, attempts)),
        wait=_WaitRetryAfterOrExponential(backoff_s, 30.0) if backoff_s > 0 else (lambda _s: 0),
        sleep=sleep,
        reraise=True,
    )
    try:
        return retrying(attempt)
    except RetryableStatus as exc:
        status = exc.response.status_code
        code = f"{error_prefix}_RATE_LIMITED" if status == 429 else f"{error_prefix}_HTTP"
        raise ScholarlyError(
            f"{url} answered HTTP {status} after {attempts} attempts", code, status
        ) from exc
    except httpx.TransportError as exc:
        raise ScholarlyError(
            f"{url} unreachable after {attempts} attempts: {exc}", f"{error_prefix}_UNREACHABLE"
        ) from exc


class PoliteClient:
    """What every scholarly API client shares: one ``httpx.Client`` with the project's
    User-Agent (and contact), process-wide request spacing and retries with backoff.

    Args:
        base_url: the API endpoint.
        timeout_s: per-request timeout.
        attempts: tries per request (429/5xx/transport errors are retried).
        backoff_s: base of the exponential backoff (0 disables waiting, for tests).
        limiter: request spacing (None: no spacing).
        sleep: sleep used between retries (injectable for tests).
        http_client: a ready client (tests); default: a new one with the User-Agent.
    """

    #: Prefix of the codes of :func:`request_with_retries`' errors (``E_ARXIV`` ...).
    error_prefix = "E_SCHOLARLY"

    def __init__(
        self,
        base_url: str,
        timeout_s: float,
        attempts: int,
        backoff_s: float,
        limiter: MinIntervalLimiter | None,
        sleep: Callable[[float], None] = time.sleep,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.limiter = limiter
        self._sleep = sleep
        self._client = http_client or httpx.Client(
            timeout=timeout_s, headers={"User-Agent": user_agent()}, follow_redirects=True
        )

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, url: str, params: Mapping[str, Any] | None) -> httpx.Response:
        """GET ``url`` spaced and retried (see :func:`request_with_retries`)."""
        return request_with_retries(
            self._client, url, params=params, limiter=self.limiter, attempts=self.attempts,
            backoff_s=self.backoff_s, error_prefix=self.error_prefix, sleep=self._sleep,
        )
