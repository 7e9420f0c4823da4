"""Types shared by every workflow that talks to an LLM (no Dagster, no SDK imports).

Domain code receives an :class:`LLMClient` and never imports a provider SDK. When
``client.available`` is False (offline mode) callers take their deterministic path and record
``method="heuristic"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from repro_assets.errors import CodedError

T = TypeVar("T", bound=BaseModel)


class Role(StrEnum):
    """Agent roles; each has its own model setting (``REPRO_MODEL_<ROLE>``)."""

    EXTRACTOR = "extractor"
    PLANNER = "planner"
    SCHEMA_FIXER = "schema_fixer"
    VERIFIER = "verifier"
    EXPLAINER = "explainer"
    SCIENTIST = "scientist"
    RESEARCH = "research"
    JSONIZER = "jsonizer"


class LLMError(CodedError, RuntimeError):
    """Base class of LLM-layer errors. ``code`` is the project error code."""

    code = "E_LLM_ERROR"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)


class LLMUnavailable(LLMError):
    """No provider is configured (offline) or the provider rejected the credentials."""

    code = "E_LLM_UNAVAILABLE"


class LLMRateLimited(LLMError):
    """The provider kept answering 429 after our retries."""

    code = "E_LLM_RATE_LIMITED"


class LLMTimeout(LLMError):
    """The request timed out after our retries."""

    code = "E_LLM_TIMEOUT"


class LLMInvalidOutput(LLMError):
    """The model's output was not valid JSON for the schema, even after one re-ask."""

    code = "E_LLM_INVALID_OUTPUT"

    def __init__(self, message: str, *, raw_text: str = "", code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.raw_text = raw_text


class LLMPolicyCapExceeded(LLMError):
    """A tool was called more often than its per-run cap allows."""

    code = "E_POLICY_CAP_EXCEEDED"


@dataclass(frozen=True)
class LLMUsage:
    """One provider call (or cache hit)."""

    provider: str
    model: str
    role: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float = 0.0
    cache_hit: bool = False


@dataclass(frozen=True)
class ToolCallRecord:
    """A function-tool call the model made during a structured call."""

    name: str
    arguments: dict[str, Any]
    result: Any


@dataclass
class Tool:
    """A Python function the model may call.

    Attributes:
        name: tool name shown to the model.
        description: what the tool does.
        args_model: pydantic model of the arguments.
        fn: called with a validated ``args_model`` instance; returns JSON-serialisable data.
        cap_key: per-run cap bucket (``"file_search"`` or ``"web_search"``) or None.
    """

    name: str
    description: str
    args_model: type[BaseModel]
    fn: Callable[[Any], Any]
    cap_key: str | None = None


@dataclass
class LLMResult(Generic[T]):
    """The result of a structured call."""

    value: T
    raw_text: str
    usage: list[LLMUsage] = field(default_factory=list)
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    reasked: bool = False
    fallback_used: bool = False


#: ``handler(kind, data)`` hears what a call does while it runs: ``tool_call``
#: (``{"name", "arguments"}``) before each tool runs, ``token`` (``{"delta"}``) for every text
#: delta of a streamed answer and ``stream_end`` (``{}``) when a streamed answer is complete.
EventHandler = Callable[[str, dict[str, Any]], None]


@dataclass
class CacheScope:
    """The response-cache writes of one block, held until the block succeeds.

    See :meth:`LLMClient.cache_scope`. ``discard(reason)`` keeps the block's answers out of the
    cache even though no exception was raised (e.g. an answer that is valid JSON but useless).
    """

    pending: list[Callable[[], None]] = field(default_factory=list)
    served: list[str] = field(default_factory=list)
    rejected: str | None = None

    def discard(self, reason: str) -> None:
        """Do not cache this block's answers, and evict the cached ones it replayed."""
        self.rejected = reason


@runtime_checkable
class LLMClient(Protocol):
    """What domain code may ask of the LLM layer."""

    @property
    def available(self) -> bool:
        """False in offline mode: callers must take their deterministic path."""

    @property
    def provider(self) -> str:
        """``openai``, ``anthropic``, ``openai_compatible`` or ``offline``."""

    def model_for(self, role: Role | str) -> str:
        """The model configured for ``role``."""

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
        """Return an instance of ``schema`` (tool loop, one re-ask on invalid JSON).

        ``fallback(raw_text, schema)`` is called when the output is still invalid after the
        re-ask (e.g. ``repro_assets.llm.jsonizer_fallback(client)``); without one the call
        raises LLMInvalidOutput. ``use_cache=False`` bypasses the response cache.

        Raises:
            LLMUnavailable, LLMRateLimited, LLMTimeout, LLMInvalidOutput, LLMPolicyCapExceeded.
        """

    def text(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        temperature: float = 0.1,
        max_tokens: int = 1024,
        use_cache: bool = True,
    ) -> LLMResult[Any]:
        """Return free text in ``LLMResult.raw_text`` (``value`` is None)."""

    def cache_scope(self) -> AbstractContextManager[CacheScope]:
        """A block whose answers are cached only if it completes without an exception (and
        without ``scope.discard``); on failure the cached answers it replayed are evicted, so
        an answer that failed validation or a guardrail is never served again."""

    def stream_text(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        temperature: float = 0.1,
        max_tokens: int = 1024,
    ) -> Iterator[str]:
        """Yield text deltas as the model produces them."""

    def usage_summary(self) -> dict[str, Any]:
        """Totals over every call of this client (calls, tokens, cost, cache hits, latency)."""


class GuardrailError(CodedError, RuntimeError):
    """A guardrail rejected an output; ``code`` is the stage's error code."""

    def __init__(self, name: str, message: str, code: str) -> None:
        super().__init__(f"Guardrail '{name}' failed: {message}", code=code)
        self.name = name


@dataclass(frozen=True)
class Guardrail(Generic[T]):
    """A named business rule over an output (seed 000, Common Patterns 3).

    ``check`` returns ``(ok, error_message)``.
    """

    name: str
    description: str
    check: Callable[[Any], tuple[bool, str | None]]
    code: str = "E_GUARDRAIL_FAILED"

    def enforce(self, value: Any) -> None:
        """Raise :class:`GuardrailError` when the check fails."""
        ok, message = self.check(value)
        if not ok:
            raise GuardrailError(self.name, message or "check failed", self.code)
