"""Privacy modes: which LLM may read collected content.

``cloud_allowed``: any provider. ``local_only`` and ``hybrid``: only a model that runs on this
machine or this network: the in-process ``transformers`` provider, or an OpenAI-compatible
server (vLLM, llama.cpp, Ollama) whose host is loopback or private. The host is the client's
configured base URL (else ``REPRO_LLM_BASE_URL``); a name is resolved and every address it
resolves to must be loopback, private or link-local. Anything else (a public host, a name that
does not resolve, no URL) takes the heuristic path.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from repro_assets import settings
from repro_assets.llm.providers import names_with_locality

IN_PROCESS_LLM_PROVIDERS = names_with_locality("in_process")
SERVER_LLM_PROVIDERS = names_with_locality("server")


def _local_address(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local


def is_local_host(host: str | None) -> bool:
    """True when ``host`` is loopback or on a private network (names are resolved)."""
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    if _local_address(host):
        return True
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    addresses = {str(info[4][0]) for info in infos}
    return bool(addresses) and all(_local_address(a) for a in addresses)


def llm_base_url(llm: Any) -> str:
    """The base URL an OpenAI-compatible client talks to (its config, else the environment)."""
    config = getattr(llm, "config", None)
    return (getattr(config, "base_url", None) or settings.current().llm.base_url or "")


def llm_allowed(privacy_mode: str, llm: Any) -> bool:
    """Whether collected content may be sent to this LLM in this privacy mode."""
    if llm is None or not llm.available:
        return False
    if privacy_mode == "cloud_allowed":
        return True
    if llm.provider in IN_PROCESS_LLM_PROVIDERS:
        return True
    if llm.provider in SERVER_LLM_PROVIDERS:
        return is_local_host(urlsplit(llm_base_url(llm)).hostname)
    return False
