"""Postgres response cache and usage log of the LLM layer (tables from ``sql/010_llm.sql``).

The cache key is a SHA-256 over the canonical JSON of everything that determines a response:
provider, model, messages, output schema, tools, temperature and token limit. Identical
re-materializations therefore cost nothing. The cache is an optimisation: when the database
cannot be reached the client logs a warning once and carries on without it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from psycopg.types.json import Jsonb

from repro_assets.llm.types import LLMUsage

log = logging.getLogger(__name__)


def cache_key(payload: dict[str, Any]) -> str:
    """Return the SHA-256 hex digest of ``payload`` as canonical JSON."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LLMStore:
    """Reads and writes ``llm_response_cache`` and ``llm_usage``.

    Args:
        database_url: a libpq URL; empty means the project's database
            (``REPRO_DATABASE_URL`` or the embedded server).
    """

    def __init__(self, database_url: str = "") -> None:
        self._url = database_url
        self._broken = False

    def _db(self) -> Any:
        from repro_assets.storage.database import get_database

        return get_database(self._url or None)

    def _degrade(self, action: str, exc: Exception) -> None:
        if not self._broken:
            log.warning("LLM %s disabled for this client: database error: %s", action, exc)
        self._broken = True

    def get(self, key: str) -> dict[str, Any] | None:
        """Return the cached payload for ``key`` (and count the hit), or None."""
        if self._broken:
            return None
        try:
            with self._db().connection() as conn:
                row = conn.execute(
                    "UPDATE llm_response_cache SET hits = hits + 1, last_hit_at = now() "
                    "WHERE cache_key = %s RETURNING payload",
                    (key,),
                ).fetchone()
        except Exception as exc:  # cache is optional: warn once, continue uncached
            self._degrade("response cache", exc)
            return None
        return dict(row[0]) if row else None

    def put(
        self,
        key: str,
        *,
        kind: str,
        provider: str,
        model: str,
        role: str,
        payload: dict[str, Any],
        input_tokens: int,
        output_tokens: int,
        cost_usd: float,
    ) -> None:
        """Store ``payload`` under ``key`` (first writer wins)."""
        if self._broken:
            return
        try:
            with self._db().connection() as conn:
                conn.execute(
                    "INSERT INTO llm_response_cache (cache_key, kind, provider, model, role,"
                    " payload, input_tokens, output_tokens, cost_usd)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (cache_key) DO NOTHING",
                    (key, kind, provider, model, role, Jsonb(payload), input_tokens,
                     output_tokens, cost_usd),
                )
        except Exception as exc:  # cache is optional: warn once, continue uncached
            self._degrade("response cache", exc)

    def delete(self, key: str) -> None:
        """Evict ``key`` (an answer that turned out useless must not be served again)."""
        if self._broken:
            return
        try:
            with self._db().connection() as conn:
                conn.execute("DELETE FROM llm_response_cache WHERE cache_key = %s", (key,))
        except Exception as exc:  # cache is optional: warn once, continue uncached
            self._degrade("response cache", exc)

    def record_usage(self, usage: LLMUsage, *, kind: str, run_id: str | None) -> None:
        """Append one row to ``llm_usage``."""
        if self._broken:
            return
        try:
            with self._db().connection() as conn:
                conn.execute(
                    "INSERT INTO llm_usage (run_id, kind, provider, model, role, input_tokens,"
                    " output_tokens, latency_s, cost_usd, cache_hit)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (run_id, kind, usage.provider, usage.model, usage.role, usage.input_tokens,
                     usage.output_tokens, usage.latency_s, usage.cost_usd, usage.cache_hit),
                )
        except Exception as exc:  # usage log is telemetry: warn once, continue
            self._degrade("usage log", exc)
