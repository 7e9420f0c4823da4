"""Configuration of the LLM layer: provider selection, models per role, limits, prices.

Everything here is plain Python (no SDK, no Dagster) so that the resource, the CLI and tests
resolve the same provider and models from the same environment variables:

* ``REPRO_LLM_PROVIDER``: ``auto`` (default), ``openai``, ``anthropic``, ``openai_compatible``
  or ``offline``.
* ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``: the provider keys (``auto`` picks by them).
* ``REPRO_LLM_BASE_URL``: the base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama).
* ``REPRO_MODEL_<ROLE>`` (e.g. ``REPRO_MODEL_PLANNER``), then the seed's
  ``OPENAI_EXTRACTOR_MODEL`` / ``OPENAI_PLANNER_MODEL`` / ``OPENAI_SCHEMA_FIXER_MODEL``, then
  ``REPRO_LLM_MODEL`` (every role), then the defaults below. An ``openai_compatible`` server
  has no default: when none of these is set, the client uses the model the server lists at
  ``GET {base_url}/models`` (one model: that one; several: a configuration error naming them).
* ``REPRO_LLM_TIMEOUT_S`` (60): timeout of one HTTP request; ``REPRO_LLM_DEADLINE_S`` (150):
  the overall deadline of one model turn, every retry and wait included.
* ``TOOL_CAP_FILE_SEARCH_PER_RUN`` (10) and ``TOOL_CAP_WEB_SEARCH_PER_RUN`` (5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from repro_assets import settings
from repro_assets.llm.providers import (
    ANTHROPIC_DEFAULT_MODEL,
    ANTHROPIC_ROLE_DEFAULTS,
    OPENAI_DEFAULT_MODEL,
    OPENAI_ROLE_DEFAULTS,
)
from repro_assets.llm.providers import PROVIDERS as PROVIDER_SPECS
from repro_assets.llm.types import LLMError, Role

__all__ = [
    "ANTHROPIC_DEFAULT_MODEL", "ANTHROPIC_ROLE_DEFAULTS", "OPENAI_DEFAULT_MODEL",
    "OPENAI_ROLE_DEFAULTS", "PROVIDERS", "LLMConfig", "configured_model", "cost_usd",
    "default_tool_caps", "is_reasoning_model", "model_for_role", "pool_name", "price_for",
    "resolve_provider",
]

#: Provider names ``resolve_provider`` accepts: ``auto`` and the declared providers.
PROVIDERS = ("auto", *PROVIDER_SPECS)

#: The seed's per-role variables (seed 000, "Configuration Quick Ref").
SEED_MODEL_ENV: dict[str, str] = {
    Role.EXTRACTOR: "OPENAI_EXTRACTOR_MODEL",
    Role.PLANNER: "OPENAI_PLANNER_MODEL",
    Role.SCHEMA_FIXER: "OPENAI_SCHEMA_FIXER_MODEL",
}

#: USD per million tokens (input, output). Longest-prefix match on the model name, so dated
#: snapshots (``gpt-4o-2024-08-06``) use their family's price. Unknown models cost 0 and are
#: reported with ``price_known=False`` in the usage summary.
PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "o1-mini": (1.10, 4.40),
    "o1": (15.00, 60.00),
    "o3-mini": (1.10, 4.40),
    "o3": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
}

#: Models that reject ``temperature`` (OpenAI reasoning models).
_REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")


def price_for(model: str) -> tuple[float, float] | None:
    """Return ``(input, output)`` USD per million tokens for ``model``, or None if unknown."""
    best: str | None = None
    for prefix in PRICES_PER_MTOK:
        if model.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return PRICES_PER_MTOK[best] if best else None


def cost_usd(model: str, input_tokens: int, output_tokens: int) -> float:
    """Estimate the cost of one call from the price table (0.0 for unknown models)."""
    price = price_for(model)
    if price is None:
        return 0.0
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 8)


def is_reasoning_model(model: str) -> bool:
    """True for OpenAI reasoning models (no ``temperature`` parameter)."""
    return model.startswith(_REASONING_PREFIXES)


def _env(name: str, environ: Mapping[str, str] | None = None) -> str:
    """``name``'s stripped value from ``environ``, else from the settings tree ("" = unset).

    Raises:
        KeyError: ``name`` is neither declared in the tree nor ``REPRO_MODEL_<ROLE>``.
    """
    if environ is not None:
        return (environ.get(name) or "").strip()
    if name.startswith("REPRO_MODEL_"):  # the one pattern variable
        return settings.role_model(name.removeprefix("REPRO_MODEL_"))
    return str(settings.value(name) or "").strip()


def resolve_provider(
    requested: str = "auto",
    *,
    openai_api_key: str | None = None,
    anthropic_api_key: str | None = None,
    base_url: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """Return the concrete provider for a requested one.

    ``auto`` (or empty) defers to ``REPRO_LLM_PROVIDER`` when that is set; otherwise it picks
    ``openai_compatible`` when a base URL is configured, ``openai`` when an OpenAI key is set,
    ``anthropic`` when an Anthropic key is set, and ``offline`` otherwise.

    Args:
        requested: the configured provider.
        openai_api_key: explicit key (else ``OPENAI_API_KEY``).
        anthropic_api_key: explicit key (else ``ANTHROPIC_API_KEY``).
        base_url: explicit base URL (else ``REPRO_LLM_BASE_URL``).
        environ: the environment to read (default: the settings tree).

    Raises:
        LLMError: ``E_LLM_CONFIG`` for an unknown provider name.
    """
    choice = (requested or "auto").strip().lower()
    if choice == "auto":
        choice = _env("REPRO_LLM_PROVIDER", environ).lower() or "auto"
    if choice not in PROVIDERS:
        raise LLMError(
            f"unknown LLM provider {choice!r}; expected one of {', '.join(PROVIDERS)}",
            code="E_LLM_CONFIG",
        )
    if choice != "auto":
        return choice
    if base_url or _env("REPRO_LLM_BASE_URL", environ):
        return "openai_compatible"
    if openai_api_key or _env("OPENAI_API_KEY", environ):
        return "openai"
    if anthropic_api_key or _env("ANTHROPIC_API_KEY", environ):
        return "anthropic"
    return "offline"


def configured_model(
    provider: str,
    role: Role | str,
    overrides: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """Return the model set for ``role`` by configuration, or None when nothing sets one.

    Precedence: ``overrides[role]`` (resource config), ``REPRO_MODEL_<ROLE>``, the seed's
    ``OPENAI_<ROLE>_MODEL`` (OpenAI and compatible servers only), then ``REPRO_LLM_MODEL``.
    """
    key = str(role.value if isinstance(role, Role) else role).strip().lower()
    if overrides and overrides.get(key):
        return overrides[key]
    explicit = _env(f"REPRO_MODEL_{key.upper()}", environ)
    if explicit:
        return explicit
    spec = PROVIDER_SPECS.get(provider)
    if spec is not None and spec.seed_model_variables and key in SEED_MODEL_ENV:
        seed_value = _env(SEED_MODEL_ENV[key], environ)
        if seed_value:
            return seed_value
    return _env("REPRO_LLM_MODEL", environ) or None


def model_for_role(
    provider: str,
    role: Role | str,
    overrides: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """Return the model for ``role`` on ``provider``: the configured one, else the default.

    See :func:`configured_model` for the precedence. The defaults are the provider's models
    for the role (an ``openai_compatible`` client asks its server instead, see
    ``OpenAIClient.model_for``).
    """
    key = str(role.value if isinstance(role, Role) else role).strip().lower()
    configured = configured_model(provider, key, overrides, environ)
    if configured:
        return configured
    spec = PROVIDER_SPECS.get(provider)
    if spec is None:  # not a concrete provider: the OpenAI defaults, as for openai
        return OPENAI_ROLE_DEFAULTS.get(key, OPENAI_DEFAULT_MODEL)
    if spec.model_variable:  # a local Hugging Face model (seed 002): MODEL_ID
        return _env(spec.model_variable, environ)
    return spec.default_for(key)


def pool_name(provider: str | None = None) -> str:
    """The Dagster concurrency pool for LLM-calling assets (``llm_<provider>``).

    Asset modules pass it as ``pool=`` so that backfills never exceed the provider's limit
    (the CLI sets the limits of ``llm_openai``, ``llm_anthropic`` and ``llm_openai_compatible``
    from ``REPRO_LLM_POOL_LIMIT`` and of ``llm_transformers`` from
    ``REPRO_LLM_LOCAL_POOL_LIMIT``; see ``repro_assets.instance.LLM_POOLS``).

    Args:
        provider: a provider name; default: the provider resolved from the environment.
    """
    resolved = resolve_provider(provider or "auto")
    return f"llm_{resolved}"


@dataclass(frozen=True)
class LLMConfig:
    """Everything a provider client needs; built by ``LLMResource`` (or tests).

    Attributes:
        provider: concrete provider (never ``auto``).
        api_key: the provider key; never logged (excluded from ``repr``).
        base_url: API base URL (required for ``openai_compatible``).
        model_overrides: role -> model, from resource config.
        timeout_s: request timeout in seconds (cut to what is left of the deadline).
        call_deadline_s: overall deadline of one model turn: every attempt, retry wait and
            stream read of it.
        sdk_max_retries: retries done by the SDK itself (408/409/429/5xx, connection errors);
            0 by default: our loop retries, honours Retry-After and keeps the deadline.
        retry_attempts: attempts of our own tenacity loop around each SDK call (>= 1).
        retry_wait_min_s: first exponential backoff wait of our loop.
        retry_wait_max_s: largest wait of our loop (Retry-After is capped by it too).
        retry_after_scale: factor applied to Retry-After waits (tests set it near 0).
        max_tool_turns: most model turns in one structured call's tool loop.
        tool_caps: per-run caps per tool cap key (``file_search``, ``web_search``).
        cache_enabled: use the Postgres response cache.
        record_usage: write one ``llm_usage`` row per call.
        database_url: Postgres URL for cache and usage ("" = the project's database).
        run_id: Dagster run id recorded with usage rows.
        reask_details: append the validation errors to the one re-ask for invalid output;
            False sends the re-ask text alone (seed 003 locks its exact wording).
    """

    provider: str
    api_key: str = field(default="", repr=False)
    base_url: str | None = None
    model_overrides: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 60.0
    call_deadline_s: float = 150.0
    sdk_max_retries: int = 0
    retry_attempts: int = 3
    retry_wait_min_s: float = 1.0
    retry_wait_max_s: float = 30.0
    retry_after_scale: float = 1.0
    max_tool_turns: int = 12
    tool_caps: Mapping[str, int] = field(default_factory=dict)
    cache_enabled: bool = True
    record_usage: bool = True
    database_url: str = ""
    run_id: str | None = None
    reask_details: bool = True

    def model_for(self, role: Role | str) -> str:
        """The model for ``role`` under this config."""
        return model_for_role(self.provider, role, self.model_overrides)


def default_tool_caps() -> dict[str, int]:
    """Per-run tool caps from the seed's environment variables."""
    return {
        "file_search": settings.current().llm.tool_cap_file_search,
        "web_search": settings.current().llm.tool_cap_web_search,
    }
