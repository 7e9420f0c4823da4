"""The LLM layer: one client interface for OpenAI, Anthropic, OpenAI-compatible and offline.

Domain code receives an :class:`LLMClient` from ``LLMResource.get_client()``; asset modules
pass :func:`pool_name` as ``pool=`` to LLM-calling assets and attach
``client.usage_summary()`` to their metadata.
"""

from repro_assets.llm.config import model_for_role, pool_name, resolve_provider
from repro_assets.llm.jsonizer import jsonizer_fallback
from repro_assets.llm.types import (
    Guardrail,
    GuardrailError,
    LLMClient,
    LLMError,
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    LLMRateLimited,
    LLMResult,
    LLMTimeout,
    LLMUnavailable,
    LLMUsage,
    Role,
    Tool,
    ToolCallRecord,
)

__all__ = [
    "Guardrail",
    "GuardrailError",
    "LLMClient",
    "LLMError",
    "LLMInvalidOutput",
    "LLMPolicyCapExceeded",
    "LLMRateLimited",
    "LLMResult",
    "LLMTimeout",
    "LLMUnavailable",
    "LLMUsage",
    "Role",
    "Tool",
    "ToolCallRecord",
    "jsonizer_fallback",
    "model_for_role",
    "pool_name",
    "resolve_provider",
]
