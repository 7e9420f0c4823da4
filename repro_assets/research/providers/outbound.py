"""The one gate every outbound page fetch of the research agent passes (HTTP and browser).

:func:`check_outbound_url` is called before every provider API request
(:meth:`HttpProvider.request`), before the page fetcher requests a URL (robots.txt included) and,
in the browser crawler, for every request the page makes (its scripts, images, frames): one
place to refuse what must not be fetched: only ``http`` and ``https`` URLs with a host.

The address policy (loopback, private, link-local ... refused unless
``REPRO_ALLOW_PRIVATE_FETCH`` / ``REPRO_FETCH_ALLOWLIST`` allow them) is
:mod:`repro_assets.net`'s: the page fetcher connects through its guarded transport (the
resolved address is checked at connect time, every redirect hop too), and the browser crawler
checks every request of a page with :func:`check_outbound_address`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from repro_assets import net
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


async def check_outbound_address(url: str) -> str:
    """:func:`check_outbound_url` plus the address policy (the host is resolved).

    A host that does not resolve is left to fail on its own connection.

    Raises:
        OutboundURLRejected: not an http(s) URL, or it resolves to a refused address.
    """
    check_outbound_url(url)
    try:
        return await net.check_url_async(url)
    except net.FetchBlocked as exc:
        raise OutboundURLRejected(str(exc)) from exc
    except net.FetchError:
        return url
