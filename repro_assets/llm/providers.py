"""The LLM providers, declared once: name, client class, key variable, pool, default models.

Everything else derives from :data:`PROVIDERS`: the provider names ``resolve_provider``
accepts and the per-role defaults (``llm.config``), the Dagster pools and their limits
(``instance``), which providers may read private content (``research.privacy``), and the key a
provider needs. Client classes are named, not imported, so that reading the declaration loads no
SDK.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from repro_assets.llm.types import Role

OPENAI_DEFAULT_MODEL = "gpt-4o"
ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-20250514"

#: Default models per role for the OpenAI API (seed 000: extractor gpt-4o, planner o3-mini,
#: schema fixer gpt-4o; the JSONizer fallback runs on a cheaper model).
OPENAI_ROLE_DEFAULTS: dict[str, str] = {
    Role.EXTRACTOR: "gpt-4o",
    Role.PLANNER: "o3-mini",
    Role.SCHEMA_FIXER: "gpt-4o",
    Role.VERIFIER: "gpt-4o",
    Role.EXPLAINER: "gpt-4o",
    Role.SCIENTIST: "gpt-4o",
    Role.RESEARCH: "gpt-4o",
    Role.JSONIZER: "gpt-4o-mini",
}

#: Default models per role for Anthropic (seed 003 uses claude-sonnet-4-20250514).
ANTHROPIC_ROLE_DEFAULTS: dict[str, str] = {
    **{role.value: ANTHROPIC_DEFAULT_MODEL for role in Role},
    Role.JSONIZER: "claude-3-5-haiku-20241022",
}

#: Where a provider's model runs: a public API, a server on a configured URL, this process,
#: or nowhere (the deterministic offline client).
Locality = Literal["cloud", "server", "in_process", "none"]


@dataclass(frozen=True)
class ProviderSpec:
    """One LLM provider.

    Attributes:
        name: the provider name (``REPRO_LLM_PROVIDER``, ``LLMResource.provider``).
        client: the client class as ``module:Class``.
        locality: where its model runs (decides privacy and the pool limit).
        key_variable: the environment variable holding its API key (None: no key).
        default_model: the model of a role without its own default ("" = none).
        role_defaults: default model per role.
        model_variable: a variable naming the one model of every role (local models).
        seed_model_variables: the seed's ``OPENAI_<ROLE>_MODEL`` variables apply to it.
        needs_base_url: it talks to a server at ``REPRO_LLM_BASE_URL``.
    """

    name: str
    client: str
    locality: Locality
    key_variable: str | None = None
    default_model: str = ""
    role_defaults: Mapping[str, str] = field(default_factory=dict)
    model_variable: str | None = None
    seed_model_variables: bool = False
    needs_base_url: bool = False

    @property
    def pool(self) -> str | None:
        """The Dagster concurrency pool of its assets (None: the offline client has none)."""
        return None if self.locality == "none" else f"llm_{self.name}"

    def client_class(self) -> type:
        """Import and return the client class."""
        module, _, name = self.client.partition(":")
        return getattr(importlib.import_module(module), name)

    def default_for(self, role: str) -> str:
        """The default model of ``role`` (the provider's declared defaults)."""
        return self.role_defaults.get(role, self.default_model)


PROVIDERS: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec("openai", "repro_assets.llm.openai_client:OpenAIClient", "cloud",
                     key_variable="OPENAI_API_KEY", default_model=OPENAI_DEFAULT_MODEL,
                     role_defaults=OPENAI_ROLE_DEFAULTS, seed_model_variables=True),
        ProviderSpec("anthropic", "repro_assets.llm.anthropic_client:AnthropicClient", "cloud",
                     key_variable="ANTHROPIC_API_KEY", default_model=ANTHROPIC_DEFAULT_MODEL,
                     role_defaults=ANTHROPIC_ROLE_DEFAULTS),
        ProviderSpec("openai_compatible", "repro_assets.llm.openai_client:OpenAIClient",
                     "server", key_variable="OPENAI_API_KEY",
                     default_model=OPENAI_DEFAULT_MODEL, role_defaults=OPENAI_ROLE_DEFAULTS,
                     seed_model_variables=True, needs_base_url=True),
        ProviderSpec("offline", "repro_assets.llm.offline:OfflineClient", "none",
                     default_model="offline"),
        ProviderSpec("transformers",
                     "repro_assets.llm.transformers_client:TransformersClient", "in_process",
                     model_variable="MODEL_ID"),
    )
}


def pools() -> tuple[str, ...]:
    """Every provider pool, in declaration order."""
    return tuple(spec.pool for spec in PROVIDERS.values() if spec.pool)


def local_pools() -> tuple[str, ...]:
    """The pools of models running in this process (their own, smaller limit)."""
    return tuple(spec.pool for spec in PROVIDERS.values()
                 if spec.pool and spec.locality == "in_process")


def names_with_locality(*localities: Locality) -> frozenset[str]:
    """The providers whose models run at one of ``localities``."""
    return frozenset(name for name, spec in PROVIDERS.items() if spec.locality in localities)
