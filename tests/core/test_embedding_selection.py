"""The embedding backend's precedence: explicit, environment, stored, device default."""

from __future__ import annotations

import pytest

from repro_assets.embeddings.base import EmbeddingError
from repro_assets.embeddings.selection import configured_model, resolve_backend


def test_the_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_EMBEDDING_BACKEND", raising=False)
    monkeypatch.delenv("EMBEDDING_DEVICE", raising=False)
    assert resolve_backend() == "onnx"
    assert resolve_backend(stored="torch") == "torch"
    monkeypatch.setenv("EMBEDDING_DEVICE", "cuda:1")
    assert resolve_backend() == "torch"
    assert resolve_backend(stored="onnx-int8") == "onnx-int8"
    monkeypatch.setenv("REPRO_EMBEDDING_BACKEND", " ONNX ")
    assert resolve_backend(stored="torch") == "onnx"
    assert resolve_backend("onnx-int8", stored="torch") == "onnx-int8"


def test_an_unknown_backend_is_a_coded_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_EMBEDDING_BACKEND", "tpu")
    with pytest.raises(EmbeddingError) as info:
        resolve_backend()
    assert info.value.code == "E_EMBEDDING_BACKEND"


def test_the_configured_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_EMBEDDING_MODEL", raising=False)
    assert configured_model() == "all-MiniLM-L6-v2"
    monkeypatch.setenv("REPRO_EMBEDDING_MODEL", "intfloat/e5-base-v2")
    assert configured_model() == "intfloat/e5-base-v2"
