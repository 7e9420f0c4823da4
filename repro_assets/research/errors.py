"""Typed errors of the research agent (each carries a project error code).

The obstacle handler (:mod:`repro_assets.research.obstacles`) dispatches on these types; a
provider never swallows an error, it raises one of these.
"""

from __future__ import annotations

from repro_assets.errors import CodedError


class ResearchError(CodedError, RuntimeError):
    """Base class of research errors; ``code`` is the project error code."""

    code = "E_RESEARCH"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)


class ProviderError(ResearchError):
    """A provider call failed for a reason not covered by a more specific class."""

    code = "E_PROVIDER_ERROR"


class RateLimitError(ProviderError):
    """The provider answered 429 (or equivalent). ``retry_after`` is in seconds, if given."""

    code = "E_RATE_LIMITED"

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ProviderTimeoutError(ProviderError):
    """The request timed out."""

    code = "E_PROVIDER_TIMEOUT"


class AccessDeniedError(ProviderError):
    """The provider or page refused access (401/403, robots.txt disallow)."""

    code = "E_ACCESS_DENIED"
    error_type = "access_denied"


class PaywallError(AccessDeniedError):
    """The content is behind a paywall (HTTP 402 or a paywall page)."""

    code = "E_PAYWALL"
    error_type = "paywall"


class CaptchaError(AccessDeniedError):
    """The page answered with a CAPTCHA / bot challenge."""

    code = "E_CAPTCHA"
    error_type = "captcha"


class RobotsDisallowedError(AccessDeniedError):
    """robots.txt disallows fetching this URL for our user agent."""

    code = "E_ROBOTS_DISALLOWED"
    error_type = "robots_disallowed"


class UnsupportedContentError(ProviderError):
    """A fetched response is neither a page nor a PDF (an image, an archive ...): skipped."""

    code = "E_UNSUPPORTED_CONTENT"
    error_type = "unsupported_content"


class OutboundURLRejected(ProviderError):
    """An outbound fetch was refused before it was made (scheme or address not allowed)."""

    code = "E_URL_REJECTED"
    error_type = "url_rejected"


class ProviderUnavailableError(ProviderError):
    """The provider is not configured (missing key) or not allowed in this privacy mode."""

    code = "E_PROVIDER_UNAVAILABLE"


class CircuitOpenError(ProviderError):
    """The provider's circuit breaker is open: calls are rejected without being made."""

    code = "E_CIRCUIT_OPEN"


class ResearchConfigError(ResearchError):
    """Invalid research configuration (unknown domain, privacy mode ...)."""

    code = "E_RESEARCH_CONFIG"
