"""The Dagster resource in front of the LLM layer (``repro_assets.llm``).

Provider selection: ``provider="auto"`` (default) defers to ``REPRO_LLM_PROVIDER`` when set,
else picks ``openai_compatible`` when ``REPRO_LLM_BASE_URL`` is set, ``openai`` when
OPENAI_API_KEY is set, ``anthropic`` when ANTHROPIC_API_KEY is set, and ``offline`` otherwise.
Keys come from the resource config (bind them with ``dg.EnvVar``) or, when left empty, from
the settings tree (the provider's declared key variable, :mod:`repro_assets.llm.providers`);
they are never logged.

Every option can be changed per run through run config, e.g. to bypass the response cache::

    resources:
      llm:
        config:
          cache_enabled: false

``REPRO_LLM_CACHE=0`` bypasses the cache for every client of the process (``repro-assets
materialize --no-cache`` and ``ingest --full --no-cache`` set it). Inside a running step the
clients report tool calls (and, with ``stream_tokens``, the answers' text) to the step's log
(:mod:`repro_assets.resources.llm_events`).
"""

from __future__ import annotations

import dagster as dg
from pydantic import Field, PrivateAttr

from repro_assets import settings
from repro_assets.llm.base import BaseLLMClient
from repro_assets.llm.config import LLMConfig, default_tool_caps, resolve_provider
from repro_assets.llm.providers import PROVIDERS
from repro_assets.llm.types import LLMClient, LLMError
from repro_assets.resources.llm_events import step_event_logger

#: Set to ``0`` to bypass the LLM response cache in every client of the process.
CACHE_ENV = "REPRO_LLM_CACHE"


def cache_allowed_by_env() -> bool:
    """False when ``REPRO_LLM_CACHE`` is ``0``/``false``/``no``/``off``."""
    return _env_value(CACHE_ENV).lower() not in ("0", "false", "no", "off")


def _env_value(name: str) -> str:
    return str(settings.value(name) or "").strip()


class LLMResource(dg.ConfigurableResource):
    """One resource for OpenAI, Anthropic, OpenAI-compatible servers and offline mode."""

    provider: str = Field(
        default="auto",
        description="auto | openai | anthropic | openai_compatible | offline",
    )
    openai_api_key: str | None = Field(
        default=None, description="OpenAI key (default: the OPENAI_API_KEY env var)")
    anthropic_api_key: str | None = Field(
        default=None, description="Anthropic key (default: the ANTHROPIC_API_KEY env var)")
    base_url: str | None = Field(
        default=None,
        description="Base URL of an OpenAI-compatible server or an API proxy "
        "(default: REPRO_LLM_BASE_URL)",
    )
    models: dict[str, str] = Field(
        default_factory=dict, description="role -> model overrides (else REPRO_MODEL_<ROLE>)")
    cache_enabled: bool = Field(
        default=True, description="Serve identical calls from the Postgres response cache "
        "(REPRO_LLM_CACHE=0 turns it off for the process)")
    stream_tokens: bool = Field(
        default=False, description="Stream structured answers and log their text as it "
        "arrives (the API's SSE token events)")
    record_usage: bool = Field(default=True, description="Write one llm_usage row per call")
    request_timeout_s: float | None = Field(
        default=None, description="Timeout of one HTTP request in seconds (default "
        "REPRO_LLM_TIMEOUT_S or 60; cut to what is left of the call's deadline)")
    call_deadline_s: float | None = Field(
        default=None, description="Overall deadline of one model turn in seconds, every retry "
        "and wait included (default REPRO_LLM_DEADLINE_S or 150)")
    sdk_max_retries: int = Field(
        default=0, description="Retries of the SDK itself (408/409/429/5xx, connection errors); "
        "0: our deadline-bound loop does the retries")
    retry_attempts: int = Field(
        default=3, description="Attempts of our backoff loop around each SDK call")
    retry_wait_min_s: float = Field(default=1.0, description="First backoff wait (s)")
    retry_wait_max_s: float = Field(
        default=30.0, description="Longest backoff wait, Retry-After included (s)")
    retry_after_scale: float = Field(
        default=1.0, description="Factor on Retry-After waits (tests set it near 0)")
    max_tool_turns: int = Field(default=12, description="Most model turns of one tool loop")
    tool_cap_file_search: int | None = Field(
        default=None, description="Per-run file_search cap (default TOOL_CAP_FILE_SEARCH_PER_RUN"
        " or 10)")
    tool_cap_web_search: int | None = Field(
        default=None, description="Per-run web_search cap (default TOOL_CAP_WEB_SEARCH_PER_RUN"
        " or 5)")
    database_url: str = Field(
        default="", description="Postgres for cache and usage ('' = the project's database)")

    _run_id: str | None = PrivateAttr(default=None)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """Remember the run id for usage rows."""
        self._run_id = getattr(context, "run_id", None)

    def resolved_provider(self) -> str:
        """The concrete provider this resource uses (never ``auto``)."""
        return resolve_provider(
            self.provider,
            openai_api_key=self.openai_api_key,
            anthropic_api_key=self.anthropic_api_key,
            base_url=self.base_url,
        )

    def config(self) -> LLMConfig:
        """Build the client configuration (keys resolved, never logged).

        Raises:
            LLMError: ``E_LLM_CONFIG`` when the provider is unknown or incompletely configured.
        """
        provider = self.resolved_provider()
        spec = PROVIDERS[provider]
        base_url = self.base_url or _env_value("REPRO_LLM_BASE_URL") or None
        explicit = {"OPENAI_API_KEY": self.openai_api_key,
                    "ANTHROPIC_API_KEY": self.anthropic_api_key}
        key = ""
        if spec.key_variable:
            key = explicit.get(spec.key_variable) or _env_value(spec.key_variable)
        if spec.locality == "cloud" and spec.key_variable and not key:
            raise LLMError(f"provider {provider!r} needs {spec.key_variable}",
                           code="E_LLM_CONFIG")
        if spec.model_variable and not _env_value(spec.model_variable):
            raise LLMError(f"provider {provider!r} needs {spec.model_variable} (a Hugging Face "
                           "model id or a local model directory)", code="E_LLM_CONFIG")
        if spec.needs_base_url and not base_url:
            raise LLMError(f"provider {provider!r} needs base_url or REPRO_LLM_BASE_URL",
                           code="E_LLM_CONFIG")
        caps = default_tool_caps()
        if self.tool_cap_file_search is not None:
            caps["file_search"] = self.tool_cap_file_search
        if self.tool_cap_web_search is not None:
            caps["web_search"] = self.tool_cap_web_search
        return LLMConfig(
            provider=provider,
            api_key=key,
            base_url=base_url,
            model_overrides=dict(self.models),
            timeout_s=(self.request_timeout_s if self.request_timeout_s is not None
                       else settings.current().llm.timeout_s),
            call_deadline_s=(self.call_deadline_s if self.call_deadline_s is not None
                             else settings.current().llm.deadline_s),
            sdk_max_retries=self.sdk_max_retries,
            retry_attempts=self.retry_attempts,
            retry_wait_min_s=self.retry_wait_min_s,
            retry_wait_max_s=self.retry_wait_max_s,
            retry_after_scale=self.retry_after_scale,
            max_tool_turns=self.max_tool_turns,
            tool_caps=caps,
            cache_enabled=self.cache_enabled and cache_allowed_by_env(),
            record_usage=self.record_usage,
            database_url=self.database_url,
            run_id=self._run_id,
        )

    def get_client(self) -> LLMClient:
        """Return a new client for the configured provider (its tool caps count per client).

        Inside a running step the client reports its tool calls (and streamed text) to the
        step's log.
        """
        client = self._new_client()
        handler = step_event_logger()
        if handler is not None and isinstance(client, BaseLLMClient):
            client.set_event_handler(handler, stream_tokens=self.stream_tokens)
        return client

    def _new_client(self) -> LLMClient:
        config = self.config()
        client_class = PROVIDERS[config.provider].client_class()  # imports only its SDK
        if PROVIDERS[config.provider].locality == "none":  # the offline client takes no config
            return client_class()
        return client_class(config)
