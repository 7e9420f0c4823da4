"""The LLM providers are declared once; config, pools and privacy derive from it."""

from __future__ import annotations

import pytest

from repro_assets.instance import LLM_POOLS, LOCAL_LLM_POOLS
from repro_assets.llm import providers
from repro_assets.llm.config import PROVIDERS, model_for_role, resolve_provider
from repro_assets.llm.offline import OfflineClient
from repro_assets.research import privacy


def test_every_place_derives_from_the_declaration() -> None:
    assert PROVIDERS == ("auto", *providers.PROVIDERS)
    assert LLM_POOLS == ("llm_openai", "llm_anthropic", "llm_openai_compatible",
                         "llm_transformers")
    assert LOCAL_LLM_POOLS == ("llm_transformers",)
    assert privacy.IN_PROCESS_LLM_PROVIDERS == frozenset({"transformers"})
    assert privacy.SERVER_LLM_PROVIDERS == frozenset({"openai_compatible"})
    assert providers.PROVIDERS["offline"].client_class() is OfflineClient
    for spec in providers.PROVIDERS.values():
        assert spec.client_class().__name__ == spec.client.rsplit(":", 1)[1]


def test_default_models_come_from_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REPRO_LLM_MODEL", "REPRO_MODEL_PLANNER", "OPENAI_PLANNER_MODEL", "MODEL_ID"):
        monkeypatch.delenv(name, raising=False)
    assert model_for_role("openai", "planner") == "o3-mini"
    assert model_for_role("openai_compatible", "jsonizer") == "gpt-4o-mini"
    assert model_for_role("anthropic", "jsonizer") == "claude-3-5-haiku-20241022"
    assert model_for_role("offline", "planner") == "offline"
    monkeypatch.setenv("MODEL_ID", "some/local-model")
    assert model_for_role("transformers", "planner") == "some/local-model"
    monkeypatch.setenv("OPENAI_PLANNER_MODEL", "seed-planner")
    assert model_for_role("openai", "planner") == "seed-planner"
    assert model_for_role("anthropic", "planner") == providers.ANTHROPIC_DEFAULT_MODEL


def test_auto_picks_by_the_configured_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REPRO_LLM_PROVIDER", "REPRO_LLM_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert resolve_provider("auto") == "anthropic"
    monkeypatch.setenv("REPRO_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    assert resolve_provider("auto") == "openai_compatible"


def test_an_undeclared_variable_is_no_role_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ``REPRO_MODEL_<ROLE>`` is read by pattern: an undeclared name is a KeyError.

    Before, any undeclared name was silently read as ``REPRO_MODEL_<name>``.
    """
    from repro_assets.llm.config import _env

    monkeypatch.setenv("REPRO_MODEL_PLANNER", " planner-x ")
    monkeypatch.setenv("REPRO_MODEL_NOT_A_DECLARED_NAME", "some-model")
    assert _env("REPRO_MODEL_PLANNER") == "planner-x"
    with pytest.raises(KeyError):
        _env("NOT_A_DECLARED_NAME")
