"""The one gate every outbound page fetch of the research agent passes (HTTP and browser).

:func:`check_outbound_url` is called before every provider API request
(:meth:`HttpProvider.request`), before the page fetcher requests a URL (robots.txt included) and,
in the browser crawler, for every request the page makes (its scripts, images, frames): one
place to refuse what must not be fetched. Today it accepts only ``http`` and
``https`` URLs with a host; an address policy (refusing loopback or private networks unless
allowed) belongs here too, so the fetcher and the crawler get it at once.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from repro_assets.research.errors import OutboundURLRejected

ALLOWED_SCHEMES = ("http", "https")


def check_outbound_url(url: str) -> str:
    """Return ``url`` when it may be fetched.

    Raises:
        OutboundURLRejected: not an http(s) URL with a host.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() not in ALLOWED_SCHEMES or not parts.hostname:
        raise OutboundURLRejected(f"refusing to fetch {url[:200]!r}: only http(s) URLs")
    return url
