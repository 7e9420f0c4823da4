"""The settings tree: the one reader of the environment, checked against the README."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from repro_assets import settings
from repro_assets.settings import environment

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PACKAGE = ROOT / "repro_assets"

#: Names that look like the project's own variables (prefixes it owns, and API keys).
OWN_VARIABLE = re.compile(r"^(REPRO|DEBATE|TOOL_CAP|ARXIV)_[A-Z0-9_<>]+$|^[A-Z0-9]+_API_KEY$")

#: The notebook template is code written into a generated notebook, where it sets the kernel's
#: variables: the one module outside the settings package that touches the environment.
NOT_YET_ON_THE_TREE = ("papers/notebook/templates/common.py",)


def _backticked(text: str) -> set[str]:
    return set(re.findall(r"`([A-Z][A-Z0-9]*(?:_[A-Z0-9<>]+)+)`", text))


def test_every_declared_variable_is_documented_in_the_readme() -> None:
    readme = README.read_text(encoding="utf-8")
    missing = sorted(name for name in [*settings.variables(), *settings.PATTERN_VARIABLES]
                     if f"`{name}`" not in readme)
    assert missing == []


def test_the_readme_names_no_variable_the_tree_does_not_declare() -> None:
    readme = README.read_text(encoding="utf-8")
    declared = set(settings.variables()) | set(settings.PATTERN_VARIABLES)
    stale = sorted(n for n in _backticked(readme) if OWN_VARIABLE.match(n) and n not in declared)
    assert stale == []
    table = readme.split("\n## Configuration\n", 1)[1].split("\n### ", 1)[0]
    first_cells = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            first_cells |= _backticked(row.split("|")[1])
    assert first_cells and first_cells <= declared


def test_a_changed_variable_is_seen_at_once_and_blank_means_the_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_WORKERS", "5")
    assert settings.current().pdf.workers == 5
    monkeypatch.setenv("REPRO_PDF_WORKERS", "  ")
    assert settings.current().pdf.workers == 2
    monkeypatch.delenv("REPRO_PDF_WORKERS")
    assert settings.current().pdf.workers == 2
    monkeypatch.setenv("USE_CUDA", " On ")
    assert settings.current().llm.use_cuda is True
    monkeypatch.setenv("USE_CUDA", "maybe")
    assert settings.current().llm.use_cuda is False
    assert settings.value("REPRO_ENV") == settings.env_name()


def test_a_bad_value_names_the_variable_and_leaves_other_groups_readable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_PDF_WORKERS", "many")
    tree = settings.current()
    with pytest.raises(settings.SettingsError,
                       match="REPRO_PDF_WORKERS must be an integer, got 'many'") as raised:
        _ = tree.pdf
    assert raised.value.code == "E_BAD_SETTING"
    assert raised.value.details == {"variable": "REPRO_PDF_WORKERS", "value": "many"}
    assert isinstance(raised.value, ValueError)
    assert tree.debate.max_turns == 6


def test_the_role_model_pattern_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_MODEL_PLANNER", " planner-x ")
    assert settings.role_model("planner") == "planner-x"
    assert settings.role_model("verifier") == ""


def test_a_child_environment_and_a_scoped_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_ENV", "outer")
    monkeypatch.setenv("REPRO_PG_DIR", "/somewhere")
    child = environment.child_environment({"EXTRA_X": "1"}, drop=["REPRO_PG_DIR"])
    assert child["EXTRA_X"] == "1" and child["REPRO_ENV"] == "outer"
    assert "REPRO_PG_DIR" not in child
    with environment.scoped({"REPRO_ENV": "inner"}, clear=["REPRO_PG_DIR"]):
        assert settings.env_name() == "inner"
        assert settings.current().paths.pg_dir is None
    assert settings.env_name() == "outer"
    assert settings.current().paths.pg_dir == "/somewhere"


def test_only_the_settings_package_reads_the_environment() -> None:
    out = subprocess.run(["grep", "-rnE", r"os\.environ|os\.getenv", str(PACKAGE),
                          "--include=*.py"], capture_output=True, text=True, check=False).stdout
    readers = set()
    for line in out.splitlines():
        path = Path(line.split(":", 1)[0]).relative_to(PACKAGE).as_posix()
        if not path.startswith("settings/") and not path.startswith(NOT_YET_ON_THE_TREE):
            readers.add(path)
    assert readers == set()


def _module_constants(tree: ast.Module) -> dict[str, object]:
    """A module's top-level ``NAME = <literal>`` constants."""
    constants: dict[str, object] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            try:
                constants[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return constants


def test_a_default_given_at_a_call_site_is_the_trees_default() -> None:
    """``env_int``/``env_float`` callers still pass their own default: it must be the one the
    tree declares (and the README documents), and the variable must be declared."""
    read_at: list[tuple[str, str, object]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix().startswith("settings/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {**_module_constants(tree), "int": int, "float": float, "max": max}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("env_int", "env_float")):
                name, default = (eval(ast.unparse(arg), {"__builtins__": {}}, constants)
                                 for arg in node.args)
                read_at.append((path.name, name, default))
    assert read_at
    wrong = [(where, name, default, settings.variables().get(name))
             for where, name, default in read_at
             if name not in settings.variables() or default != _tree_default(name)]
    assert wrong == []


def _tree_default(name: str) -> object:
    group, field = settings.variables()[name]
    return settings.tree.GROUPS[group].model_fields[field].default
