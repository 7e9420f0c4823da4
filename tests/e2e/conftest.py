"""End-to-end fixtures: the real ``repro-assets`` command in a subprocess, a fresh database."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.debate.conftest import seeded_corpus_url  # noqa: F401 - re-exported fixture


@dataclass
class CliResult:
    """What one ``repro-assets`` invocation did."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return (f"repro-assets {' '.join(self.args)} -> {self.returncode}\n"
                f"--- stdout\n{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}")


def cli_command() -> list[str]:
    """The installed ``repro-assets`` entry point of this venv (else ``python -m``)."""
    script = Path(sys.executable).with_name("repro-assets")
    return [str(script)] if script.exists() else [sys.executable, "-m", "repro_assets.cli"]


Cli = Callable[..., CliResult]


@pytest.fixture()
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """Run ``repro-assets ARGS`` with the test's environment plus ``env`` overrides."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    (tmp_path / "dagster_home").mkdir(exist_ok=True)

    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> CliResult:
        full_env = {**os.environ, **(env or {})}
        done = subprocess.run([*cli_command(), *args], capture_output=True, text=True,
                              env=full_env, timeout=timeout, cwd=tmp_path)
        return CliResult(list(args), done.returncode, done.stdout, done.stderr)

    return run
