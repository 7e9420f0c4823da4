"""Fixtures of the factory tests."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "factory"


@pytest.fixture()
def canonical_text() -> str:
    """The seed's canonical case (3 machines, 4 jobs)."""
    return (FIXTURES / "canonical.txt").read_text(encoding="utf-8")
