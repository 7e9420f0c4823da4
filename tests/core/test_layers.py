"""The package's layering (issue #28): no import up a layer, no import circle, a Dagster-free
domain."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN_PACKAGES = ("papers", "forms", "factory", "debate", "research", "scholarly", "embeddings",
                   "llm", "storage")


def _layers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_layers", ROOT / ".ci" / "layers.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "repro_assets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_the_package_keeps_its_layers() -> None:
    assert _layers().check(ROOT) == []


def test_an_import_up_a_layer_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "__init__.py": "",
        "settings.py": "",
        "storage/__init__.py": "",
        "storage/database.py": "from repro_assets.settings import *\n",
        "papers/__init__.py": "",
        "papers/store.py": "def load():\n    from repro_assets.resources import database\n",
        "resources/__init__.py": "",
        "resources/database.py": "from repro_assets.storage.database import *\n",
    })
    [problem] = _layers().check(root, known=())
    assert "repro_assets.papers.store (domain) imports repro_assets.resources.database" in problem


def test_an_import_circle_is_reported_even_through_a_lazy_import(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "__init__.py": "",
        "papers/__init__.py": "",
        "papers/a.py": "from repro_assets.papers import b\n",
        "papers/b.py": "def f():\n    from repro_assets.papers.a import g\n",
        "papers/c.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from repro_assets.papers.d import D
        """,
        "papers/d.py": "from repro_assets.papers.c import *\n",
    })
    [problem] = _layers().check(root, known=())
    assert problem.startswith("import circle of 2 modules: repro_assets.papers.a -> ")
    assert "papers.c" not in problem  # a TYPE_CHECKING import never runs


def test_a_module_of_no_layer_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"__init__.py": "", "gadgets.py": ""})
    [problem] = _layers().check(root, known=())
    assert "repro_assets.gadgets belongs to no layer" in problem


def test_a_known_circle_that_is_gone_must_be_removed(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"__init__.py": "", "papers/__init__.py": "", "papers/a.py": ""})
    gone = frozenset({"repro_assets.papers.a", "repro_assets.papers.b"})
    [problem] = _layers().check(root, known=(gone,))
    assert "is gone" in problem


def test_dagster_in_the_domain_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "__init__.py": "",
        "forms/__init__.py": "",
        "forms/steps.py": "def run():\n    import dagster as dg\n",
        "assets/__init__.py": "",
        "assets/forms.py": "import dagster as dg\nfrom repro_assets.forms import steps\n",
    })
    [problem] = _layers().check(root, known=())
    assert "repro_assets.forms.steps (domain) imports dagster" in problem


def _fresh_import(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.parametrize("package", DOMAIN_PACKAGES)
def test_importing_a_domain_package_does_not_import_dagster(package: str) -> None:
    loaded = _fresh_import(f"""
        import sys
        import repro_assets.{package}
        print(sorted(m for m in sys.modules if m.split(".")[0] == "dagster"
                     or m.startswith("repro_assets.resources")))
    """)
    assert loaded == "[]"


@pytest.mark.slow
def test_no_module_of_the_domain_imports_dagster() -> None:
    """Every module of every domain package, in one fresh interpreter (tens of seconds)."""
    first = _fresh_import(f"""
        import importlib, pkgutil, sys
        for package in {DOMAIN_PACKAGES!r}:
            root = importlib.import_module("repro_assets." + package)
            for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
                importlib.import_module(info.name)
                if "dagster" in sys.modules or "repro_assets.resources" in sys.modules:
                    print(info.name)
                    raise SystemExit
        print("none")
    """)
    assert first == "none"
