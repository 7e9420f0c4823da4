"""The ONNX embedder's idle threads sleep instead of spinning (issue #29: CPU seconds)."""

from __future__ import annotations

from repro_assets.storage.embedder import DEFAULT_MODEL, get_embedder


def test_intra_op_threads_do_not_spin() -> None:
    embedder = get_embedder(DEFAULT_MODEL, "onnx")
    options = embedder._session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    [vector] = embedder.encode(["a ribbon reader folds grids"])
    assert abs(float(vector @ vector) - 1.0) < 1e-5
