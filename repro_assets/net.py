"""The outbound-fetch guard: what the project may connect to when a user hands it a URL.

Every fetch of a URL that came from outside (paper URL ingest, the research agent's page
fetcher and crawler) goes through this module, so the rules live in one place:

* only ``http`` and ``https`` URLs with a host;
* loopback, private (RFC 1918, unique-local), link-local (cloud metadata at 169.254.169.254),
  shared (100.64/10), multicast, reserved and unspecified addresses are refused, unless
  ``REPRO_ALLOW_PRIVATE_FETCH=1`` or the host / its network is listed in
  ``REPRO_FETCH_ALLOWLIST`` (comma-separated host names and CIDR networks, e.g.
  ``minio,10.20.0.0/16``);
* the check is made on the **resolved addresses, at connect time**: the host name is resolved
  once, every address it resolves to must be allowed, and the connection goes to the address
  that was checked (no second lookup an attacker's DNS could answer differently). IPv4 hidden
  in IPv6 (``::ffff:127.0.0.1``, 6to4, Teredo, NAT64) is unwrapped first;
* redirects are followed by the client, and each hop opens its own checked connection; at most
  :data:`MAX_REDIRECTS`;
* bodies are read as a stream and cut at ``max_bytes`` (a declared ``Content-Length`` over the
  limit is refused before reading);
* one **total deadline** per fetch (:func:`deadline`; :func:`fetch` sets it to its ``timeout``):
  connect, TLS, headers and body together, so a server sending a byte a second cannot hold a
  fetch past it (httpx's own timeouts are per network operation).

Use :func:`fetch` for a whole body, :func:`guarded_client` / :func:`guarded_async_client` for an
``httpx`` client whose every connection is checked, :class:`GuardedTransport` /
:class:`AsyncGuardedTransport` to mount on a client you build, and :func:`check_url` /
:func:`check_url_async` for a check without a request (e.g. a browser's request hook).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx

from repro_assets import settings
from repro_assets.errors import CodedError

log = logging.getLogger(__name__)

ALLOWED_SCHEMES = ("http", "https")
MAX_REDIRECTS = 5
DEFAULT_TIMEOUT_S = 30.0
USER_AGENT = "repro-assets/0.1 (+outbound fetch)"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_HOST_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


class FetchError(CodedError, RuntimeError):
    """An outbound fetch failed; ``code`` says why."""

    code = "E_FETCH_FAILED"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)


class FetchBlocked(FetchError):
    """The URL (or an address it resolves to, or a redirect hop) is not allowed."""

    code = "E_FETCH_BLOCKED"


class FetchTooLarge(FetchError):
    """The body is larger than the caller's limit."""

    code = "E_FILE_TOO_LARGE"


# --------------------------------------------------------------------------- policy
@dataclass(frozen=True)
class FetchPolicy:
    """Which addresses outbound fetches may reach.

    Attributes:
        allow_private: allow every address (a trusted, internal deployment).
        allow_hosts: host names allowed whatever they resolve to (lower case).
        allow_networks: networks allowed even if private (e.g. an internal mirror).
    """

    allow_private: bool = False
    allow_hosts: frozenset[str] = frozenset()
    allow_networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(
        default_factory=tuple)

    @classmethod
    def from_env(cls) -> FetchPolicy:
        """``REPRO_ALLOW_PRIVATE_FETCH`` and ``REPRO_FETCH_ALLOWLIST``.

        Raises:
            ValueError: an allow-list entry is neither a host name nor a network.
        """
        config = settings.current().fetch
        allow = config.allow_private
        hosts: set[str] = set()
        networks = []
        for entry in config.allowlist.split(","):
            entry = entry.strip().lower()
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                if not _HOST_NAME.match(entry.rstrip(".")):
                    raise ValueError(f"REPRO_FETCH_ALLOWLIST: {entry!r} is neither a host "
                                     "name nor a network") from None
                hosts.add(entry.rstrip("."))
        return cls(allow_private=allow, allow_hosts=frozenset(hosts),
                   allow_networks=tuple(networks))

    def address_allowed(self, address: IPAddress) -> bool:
        """True when a connection to ``address`` is allowed."""
        if self.allow_private or any(address in net for net in self.allow_networks):
            return True
        return all(is_public(a) for a in _unwrapped(address))

    def host_allowed(self, host: str) -> bool:
        """True when ``host`` is allow-listed by name."""
        return self.allow_private or host.lower().rstrip(".") in self.allow_hosts


def is_public(address: IPAddress) -> bool:
    """True for a globally routable unicast address."""
    return address.is_global and not address.is_multicast and not address.is_unspecified


def _unwrapped(address: IPAddress) -> list[IPAddress]:
    """The address and any IPv4 address embedded in it (mapped, 6to4, Teredo, NAT64)."""
    found: list[IPAddress] = [address]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            found.append(address.ipv4_mapped)
        if address.sixtofour is not None:
            found.append(address.sixtofour)
        if address.teredo is not None:
            found.extend(address.teredo)
        if address in _NAT64:
            found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (literal addresses resolve to themselves).

    Raises:
        FetchError: the name does not resolve.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"cannot resolve {host!r}: {exc}") from exc
    addresses: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise FetchError(f"{host!r} resolves to no address")
    return addresses


def checked_address(host: str, port: int, policy: FetchPolicy | None = None) -> str:
    """Resolve ``host`` and return the address to connect to, if every address is allowed.

    Raises:
        FetchBlocked: ``host`` resolves to an address the policy refuses.
        FetchError: ``host`` does not resolve.
    """
    policy = policy or FetchPolicy.from_env()
    addresses = resolve(host, port)
    if policy.host_allowed(host):
        return str(addresses[0])
    refused = [a for a in addresses if not policy.address_allowed(a)]
    if refused:
        # the addresses stay in the server's log: an error the caller sees must not tell
        # what an internal name resolves to
        log.info("outbound fetch to %s refused: %s", host, ", ".join(map(str, refused[:3])))
        literal = _is_literal(host)
        raise FetchBlocked(
            f"refusing to connect to {host}: "
            + ("" if literal else "it resolves to ")
            + "a loopback, private, link-local or other non-public address, which is not "
            "fetched; set REPRO_ALLOW_PRIVATE_FETCH=1 or list the host in "
            "REPRO_FETCH_ALLOWLIST to allow it")
    return str(addresses[0])


def _is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


def _split_url(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES or not parts.hostname:
        raise FetchBlocked(f"refusing to fetch {url[:200]!r}: only http(s) URLs with a host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise FetchBlocked(f"refusing to fetch {url[:200]!r}: bad port") from exc
    return parts.hostname, port


def check_url(url: str, policy: FetchPolicy | None = None) -> str:
    """Return ``url`` when its scheme is http(s) and its host resolves to allowed addresses.

    A check without a connection (a browser request hook): the connection itself may resolve
    again, so prefer the guarded clients for HTTP.

    Raises:
        FetchBlocked: scheme or address refused.
        FetchError: the host does not resolve.
    """
    host, port = _split_url(url)
    checked_address(host, port, policy)
    return url


async def check_url_async(url: str, policy: FetchPolicy | None = None) -> str:
    """:func:`check_url` without blocking the event loop on DNS."""
    host, port = _split_url(url)
    await asyncio.to_thread(checked_address, host, port, policy)
    return url


# --------------------------------------------------------------------------- deadline
_DEADLINE: ContextVar[float | None] = ContextVar("repro_fetch_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[float]:
    """One total deadline for every guarded connection, read and write inside the block.

    Nested deadlines keep the earlier end. Past the end, a guarded stream raises httpcore's
    timeout (``httpx.TimeoutException`` to the caller), whatever the per-operation timeouts.

    Yields:
        The deadline (``time.monotonic()`` seconds).
    """
    end = time.monotonic() + seconds
    outer = _DEADLINE.get()
    if outer is not None:
        end = min(end, outer)
    token = _DEADLINE.set(end)
    try:
        yield end
    finally:
        _DEADLINE.reset(token)


def _left(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` shortened to what is left of the current deadline (raises when none is)."""
    end = _DEADLINE.get()
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise error("the fetch's total deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation ends by the current deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _DeadlineStream(self.inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


class _AsyncDeadlineStream(httpcore.AsyncNetworkStream):
    """The async twin of :class:`_DeadlineStream`."""

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self.inner = inner

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self.inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self.inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        return _AsyncDeadlineStream(await self.inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


# --------------------------------------------------------------------------- transports
class _GuardedBackend(httpcore.NetworkBackend):
    """Resolves, checks and connects to the checked address (sync)."""

    def __init__(self, inner: httpcore.NetworkBackend, policy: FetchPolicy | None) -> None:
        self.inner = inner
        self.policy = policy

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        address = checked_address(host, port, self.policy)
        return _DeadlineStream(self.inner.connect_tcp(
            address, port, _left(timeout, httpcore.ConnectTimeout), local_address,
            socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None,
                            ) -> httpcore.NetworkStream:
        raise FetchBlocked("refusing to fetch over a unix socket")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves (in a thread), checks and connects to the checked address (async)."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend, policy: FetchPolicy | None) -> None:
        self.inner = inner
        self.policy = policy

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None,
                          ) -> httpcore.AsyncNetworkStream:
        address = await asyncio.to_thread(checked_address, host, port, self.policy)
        return _AsyncDeadlineStream(await self.inner.connect_tcp(
            address, port, _left(timeout, httpcore.ConnectTimeout), local_address,
            socket_options))

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None,
                                  ) -> httpcore.AsyncNetworkStream:
        raise FetchBlocked("refusing to fetch over a unix socket")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class GuardedTransport(httpx.HTTPTransport):
    """An ``httpx`` transport whose every TCP connection passes :func:`checked_address`.

    Args:
        policy: the address policy (default: read from the environment at each connection).
        **kwargs: ``httpx.HTTPTransport`` arguments.
    """

    def __init__(self, policy: FetchPolicy | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        pool = self._pool
        pool._network_backend = _GuardedBackend(pool._network_backend, policy)


class AsyncGuardedTransport(httpx.AsyncHTTPTransport):
    """The async twin of :class:`GuardedTransport`."""

    def __init__(self, policy: FetchPolicy | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        pool = self._pool
        pool._network_backend = _AsyncGuardedBackend(pool._network_backend, policy)


def _check_request(request: httpx.Request) -> None:
    _split_url(str(request.url))


async def _check_request_async(request: httpx.Request) -> None:
    _split_url(str(request.url))


def guarded_client(*, policy: FetchPolicy | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                   headers: dict[str, str] | None = None, **kwargs: Any) -> httpx.Client:
    """An ``httpx.Client`` that follows at most :data:`MAX_REDIRECTS` checked redirects.

    Proxies from the environment are not used (a proxy would connect for us, unchecked).
    """
    return httpx.Client(transport=GuardedTransport(policy), follow_redirects=True,
                        max_redirects=MAX_REDIRECTS, timeout=timeout, trust_env=False,
                        headers={"User-Agent": USER_AGENT, **(headers or {})},
                        event_hooks={"request": [_check_request]}, **kwargs)


def guarded_async_client(*, policy: FetchPolicy | None = None,
                         timeout: float = DEFAULT_TIMEOUT_S,
                         headers: dict[str, str] | None = None,
                         **kwargs: Any) -> httpx.AsyncClient:
    """The async twin of :func:`guarded_client`."""
    return httpx.AsyncClient(transport=AsyncGuardedTransport(policy), follow_redirects=True,
                             max_redirects=MAX_REDIRECTS, timeout=timeout, trust_env=False,
                             headers={"User-Agent": USER_AGENT, **(headers or {})},
                             event_hooks={"request": [_check_request_async]}, **kwargs)


# --------------------------------------------------------------------------- whole bodies
@dataclass(frozen=True)
class Fetched:
    """A fetched body."""

    url: str
    status: int
    content_type: str
    body: bytes
    redirects: Sequence[str] = ()


def read_capped(response: httpx.Response, max_bytes: int, url: str) -> bytes:
    """Read ``response``'s body, refusing a declared or streamed size over ``max_bytes``.

    Raises:
        FetchTooLarge: the body is (or says it is) larger than ``max_bytes``.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise FetchTooLarge(f"{url} is {int(declared):,} bytes; the limit is {max_bytes:,}")
    buffer = bytearray()
    for part in response.iter_bytes():
        buffer.extend(part)
        if len(buffer) > max_bytes:
            raise FetchTooLarge(f"{url} exceeds the {max_bytes:,}-byte limit")
    return bytes(buffer)


def fetch(url: str, *, max_bytes: int, timeout: float = DEFAULT_TIMEOUT_S,
          policy: FetchPolicy | None = None, headers: dict[str, str] | None = None,
          client: httpx.Client | None = None) -> Fetched:
    """GET ``url`` through the guard and return its body (at most ``max_bytes``).

    Args:
        url: an http(s) URL.
        max_bytes: the largest body accepted.
        timeout: the fetch's total deadline in seconds (connect, headers and body).
        policy: address policy (default: from the environment).
        headers: extra request headers.
        client: a client to use instead of a new :func:`guarded_client` (tests).

    Raises:
        FetchBlocked: the URL, an address or a redirect hop is not allowed.
        FetchTooLarge: the body is over ``max_bytes``.
        FetchError: ``E_FETCH_FAILED`` for HTTP errors (status >= 400), timeouts, network
            errors and too many redirects.
    """
    _split_url(url)
    own = client is None
    http = client or guarded_client(policy=policy, timeout=timeout)
    try:
        with deadline(timeout), http.stream("GET", url, headers=headers) as response:
            hops = [str(r.url) for r in response.history]
            if response.status_code >= 400:
                raise FetchError(f"GET {url} answered HTTP {response.status_code}")
            body = read_capped(response, max_bytes, url)
            return Fetched(url=str(response.url), status=response.status_code,
                           content_type=response.headers.get("content-type", ""), body=body,
                           redirects=hops)
    except httpx.TooManyRedirects as exc:
        raise FetchError(f"GET {url}: more than {MAX_REDIRECTS} redirects") from exc
    except httpx.TimeoutException as exc:
        raise FetchError(f"GET {url} timed out after {timeout}s") from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"GET {url} failed: {exc}") from exc
    finally:
        if own:
            http.close()
