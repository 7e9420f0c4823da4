"""The LLM layer: one client interface for OpenAI, Anthropic, OpenAI-compatible and offline."""

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
]
