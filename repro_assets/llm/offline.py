"""Offline mode: no network at all. Callers check ``available`` and take their own path."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from repro_assets.llm.types import (
    CacheScope,
    EventHandler,
    LLMResult,
    LLMUnavailable,
    Role,
    T,
    Tool,
)

OFFLINE_MESSAGE = (
    "no LLM provider is configured (offline mode): set OPENAI_API_KEY, ANTHROPIC_API_KEY or "
    "REPRO_LLM_PROVIDER=openai_compatible with REPRO_LLM_BASE_URL"
)


class OfflineClient:
    """The client used when no provider is configured. It never opens a socket."""

    available = False
    provider = "offline"

    def model_for(self, role: Role | str) -> str:
        """Offline has no model."""
        return "offline"

    def structured(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        schema: type[T],
        tools: Sequence[Tool] = (),
        temperature: float = 0.1,
        max_tokens: int = 4096,
        fallback: Callable[[str, type[T]], T] | None = None,
        use_cache: bool = True,
    ) -> LLMResult[T]:
        """Always raises :class:`LLMUnavailable`."""
        raise LLMUnavailable(OFFLINE_MESSAGE)

    def text(self, *, role: Role | str, system: str, user: str, temperature: float = 0.1,
             max_tokens: int = 1024, use_cache: bool = True) -> LLMResult[Any]:
        """Always raises :class:`LLMUnavailable`."""
        raise LLMUnavailable(OFFLINE_MESSAGE)

    def stream_text(self, *, role: Role | str, system: str, user: str, temperature: float = 0.1,
                    max_tokens: int = 1024) -> Iterator[str]:
        """Always raises :class:`LLMUnavailable`."""
        raise LLMUnavailable(OFFLINE_MESSAGE)

    @contextmanager
    def cache_scope(self) -> Iterator[CacheScope]:
        """Nothing is ever cached offline."""
        yield CacheScope()

    def set_event_handler(self, handler: EventHandler | None, *,
                          stream_tokens: bool = False) -> None:
        """Offline calls never run, so there is nothing to report."""

    def usage_summary(self) -> dict[str, Any]:
        """No calls are ever made offline."""
        return {"provider": "offline", "calls": 0, "input_tokens": 0, "output_tokens": 0,
                "cost_usd": 0.0, "cache_hits": 0, "latency_s": 0.0, "models": "",
                "price_known": True}
