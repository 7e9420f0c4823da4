"""The research package's modules import each other without a circle (issue #28)."""

from __future__ import annotations

import ast
from pathlib import Path

import repro_assets.research as research

PACKAGE = "repro_assets.research"


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Package modules a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} & modules
            found |= {f"{node.module}.{alias.name}" for alias in node.names} & modules
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package under ``root`` with the package modules it imports."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    modules = set(files)
    return {name: _imports(path, modules) - {name} for name, path in files.items()}


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Modules ``start`` reaches through one or more imports."""
    reach: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in reach:
                reach.add(nxt)
                todo.append(nxt)
    return reach


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Modules that reach themselves through their imports, one sorted list per circle."""
    reach = {name: _reachable(graph, name) for name in graph}
    out: list[list[str]] = []
    for name in sorted(graph):
        if name in reach[name] and not any(name in c for c in out):
            out.append(sorted(m for m in reach[name] if name in reach[m]))
    return out


def test_the_circle_finder_sees_a_function_level_import(tmp_path: Path) -> None:
    """Two invented modules that import each other (one inside a function) are one circle."""
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "upper.py").write_text(f"from {PACKAGE}.lower import low\n")
    (tmp_path / "lower.py").write_text(
        f"def low():\n    from {PACKAGE}.upper import up\n    return up\n")
    (tmp_path / "alone.py").write_text(f"from {PACKAGE}.lower import low\n")
    assert circles(import_graph(tmp_path)) == [[f"{PACKAGE}.lower", f"{PACKAGE}.upper"]]


def test_the_research_package_has_no_import_circle() -> None:
    """The answer check, name answers and their helpers import downwards only."""
    root = Path(research.__file__).parent
    assert circles(import_graph(root)) == []
