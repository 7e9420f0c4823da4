"""Obstacle handling per the seed's decision tree (seed 4.3; anti-pattern 6: never silent).

=================  ===========================================================  ==========
obstacle           decision                                                     action
=================  ===========================================================  ==========
rate limit         exponential backoff, then retry (5 attempts at most)         retry
timeout            retry with a longer timeout (3 timeouts at most)             retry
access denied      record the failure (Postgres), try the next source           skip
paywall / CAPTCHA  same as access denied                                        skip
robots.txt         same as access denied                                        skip
binary content     record that it is not a page or PDF, skip (never decoded)    skip
URL rejected       record the refused outbound URL, skip                        skip
circuit open       record, fall back to the next provider                       fallback
config error       stop the session: it cannot succeed                          abort
unknown            log with the error, record it, skip                          skip
=================  ===========================================================  ==========

Once retries are exhausted a rate limit or timeout is recorded and skipped as well.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Protocol

from repro_assets.research.errors import (
    AccessDeniedError,
    CircuitOpenError,
    OutboundURLRejected,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitError,
    ResearchConfigError,
    UnsupportedContentError,
)
from repro_assets.research.models import AccessFailure

log = logging.getLogger(__name__)


class Action(StrEnum):
    """What the caller does next."""

    RETRY = "retry"
    SKIP = "skip"
    FALLBACK = "fallback"
    ABORT = "abort"


class FailureRecorder(Protocol):
    """Where access failures are persisted (Postgres in production)."""

    def record_access_failure(self, session_id: str, failure: AccessFailure) -> None:
        """Persist one failure."""


def classify(error: BaseException) -> str:
    """The obstacle type of an error (``rate_limit``, ``timeout``, ``paywall`` ...)."""
    if isinstance(error, RateLimitError):
        return "rate_limit"
    if isinstance(error, ProviderTimeoutError | TimeoutError):
        return "timeout"
    if isinstance(error, AccessDeniedError | UnsupportedContentError | OutboundURLRejected):
        return error.error_type
    if isinstance(error, CircuitOpenError):
        return "circuit_open"
    if isinstance(error, ProviderUnavailableError):
        return "unavailable"
    if isinstance(error, ResearchConfigError):
        return "config_error"
    return "unknown"


def decide(error_type: str, retries_exhausted: bool) -> Action:
    """The decision tree, as a pure function."""
    if error_type in ("rate_limit", "timeout"):
        return Action.SKIP if retries_exhausted else Action.RETRY
    if error_type in ("circuit_open", "unavailable"):
        return Action.FALLBACK
    if error_type == "config_error":
        return Action.ABORT
    return Action.SKIP


class ObstacleHandler:
    """Handle obstacles per the decision tree and keep an audit of every one.

    Args:
        session_id: research session the failures belong to.
        recorder: persists access failures (None: kept only in the returned records).
    """

    def __init__(self, session_id: str, recorder: FailureRecorder | None = None) -> None:
        self.session_id = session_id
        self.recorder = recorder

    def handle(
        self,
        error: BaseException,
        source_name: str,
        url: str,
        *,
        cycle: int = 0,
        retries_exhausted: bool = True,
    ) -> tuple[Action, AccessFailure | None]:
        """Handle one obstacle and return ``(action, recorded failure or None)``.

        A retry decision is only logged (the retry policy waits and tries again); every other
        decision is recorded as an :class:`AccessFailure` and persisted.
        """
        error_type = classify(error)
        action = decide(error_type, retries_exhausted)
        message = f"{type(error).__name__}: {error}"
        if action is Action.RETRY:
            log.info("obstacle %s from %s (%s): backing off and retrying", error_type,
                     source_name, getattr(error, "retry_after", None) or "")
            return action, None
        if error_type == "unknown":
            log.error("unknown_obstacle source=%s url=%s error=%s", source_name, url, message)
        else:
            log.warning("obstacle %s from %s for %s: %s -> %s", error_type, source_name, url,
                        message, action.value)
        failure = AccessFailure(
            url=url,
            source_name=source_name,
            error_type=error_type,
            error_message=message[:1000],
            action=action.value,
            cycle=cycle,
        )
        if self.recorder is not None:
            self.recorder.record_access_failure(self.session_id, failure)
        return action, failure
