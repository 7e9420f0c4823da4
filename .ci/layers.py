#!/usr/bin/env python3
"""Layering check of the ``repro_assets`` package: no import runs up a layer, no import circle.

Every module of the package belongs to one layer (the first prefix of :data:`LAYERS` that
matches its dotted name, most specific first). An import from a module to a module of a
higher layer fails the check, and so does every circle of imports between modules (imports
inside functions count: a lazy import hides an arrow, it does not remove it), and so does an
import of Dagster (``dagster``, ``dagster_*``) from the domain layer down. Imports inside
``if TYPE_CHECKING:`` blocks are left out (they never run).

Run ``python .ci/layers.py`` from the project root (exit 1 and one line per problem when the
structure breaks); ``tests/core/test_layers.py`` runs it in ``make test``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "repro_assets"

#: The layers from the top down. A module may import its own layer and every layer below it.
#: Prefixes are dotted module names; the longest matching prefix decides.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("entry points", ("cli", "api", "commands")),
    ("demo", ("demo", "demos")),
    ("code location", ("definitions",)),
    ("assets and sensors", ("assets", "sensors")),
    ("jobs and Dagster plumbing", ("jobs", "partitions", "executors", "runs", "instance",
                                   "ui_supervisor")),
    ("resources", ("resources",)),
    ("domain", ("papers", "forms", "factory", "debate", "research", "scholarly")),
    ("llm", ("llm",)),
    ("storage", ("storage",)),
    ("embeddings", ("embeddings",)),
    ("foundation", ("settings", "net", "errors", "folds", "__init__")),
)


#: The first layer (by name) from which down no module may import Dagster.
DAGSTER_FREE_FROM = "domain"

#: Circles known and owned elsewhere, each a set of module names. A listed circle does not
#: fail the check; a listed circle that no longer exists does (remove it here).
KNOWN_CIRCLES: tuple[frozenset[str], ...] = ()


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` imports ``target`` at ``line`` of ``path``."""

    source: str
    target: str
    path: Path
    line: int


@dataclass(frozen=True)
class ThirdParty:
    """One import of a module outside the package (``target`` is its top-level name)."""

    source: str
    target: str
    path: Path
    line: int


def module_name(root: Path, path: Path) -> str:
    """Dotted name of the module at ``path`` (``root`` is the folder holding the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> int:
    """Index in :data:`LAYERS` of ``module`` (0 is the top).

    Raises:
        KeyError: when no layer claims the module (a new top-level module must be placed).
    """
    rest = module[len(PACKAGE) + 1:] if module != PACKAGE else "__init__"
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (rest == prefix or rest.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), index)
    if best is None:
        raise KeyError(f"{module} belongs to no layer: add it to LAYERS in .ci/layers.py")
    return best[1]


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                for inner in ast.walk(child):
                    if hasattr(inner, "lineno"):
                        lines.add(inner.lineno)
    return lines


def _resolve(target: str, modules: set[str]) -> str | None:
    """The project module ``target`` names (a package's module, or its closest parent)."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def imports_of(root: Path, path: Path, modules: set[str]) -> Iterator[Edge | ThirdParty]:
    """Every import in the file at ``path``: of a project module (:class:`Edge`) or of another
    top-level package (:class:`ThirdParty`; relative imports are the project's)."""
    source = module_name(root, path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = _type_checking_lines(tree)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import sub`` imports the module pkg.sub when there is one
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                     for alias in node.names]
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                target = _resolve(name, modules)
                if target and target != source:
                    yield Edge(source, target, path, node.lineno)
            elif name:
                yield ThirdParty(source, name.partition(".")[0], path, node.lineno)


def collect(root: Path) -> tuple[set[str], list[Edge], list[ThirdParty]]:
    """The modules of the package under ``root``, every import between them and every import
    of another package."""
    files = sorted((root / PACKAGE).rglob("*.py"))
    modules = {module_name(root, f) for f in files}
    found = [item for f in files for item in imports_of(root, f, modules)]
    return (modules, [e for e in found if isinstance(e, Edge)],
            [e for e in found if isinstance(e, ThirdParty)])


def upward_imports(edges: Sequence[Edge]) -> list[str]:
    """One line per import from a lower layer to a higher one."""
    problems = []
    for edge in edges:
        low, high = layer_of(edge.source), layer_of(edge.target)
        if high < low:
            problems.append(
                f"{edge.path}:{edge.line}: {edge.source} ({LAYERS[low][0]}) imports "
                f"{edge.target} ({LAYERS[high][0]}), a higher layer"
            )
    return problems


def dagster_imports(imports: Sequence[ThirdParty]) -> list[str]:
    """One line per import of Dagster in a layer that must stay Dagster-free."""
    first = next(i for i, (name, _) in enumerate(LAYERS) if name == DAGSTER_FREE_FROM)
    return [
        f"{item.path}:{item.line}: {item.source} ({LAYERS[layer_of(item.source)][0]}) imports "
        f"{item.target}; the layers from {DAGSTER_FREE_FROM} down are Dagster-free"
        for item in imports
        if item.target.startswith("dagster") and layer_of(item.source) >= first
    ]


def import_circles(modules: set[str], edges: Sequence[Edge]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so deep graphs never hit the recursion limit
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def check(root: Path, known: Sequence[frozenset[str]] = KNOWN_CIRCLES) -> list[str]:
    """Every layering problem of the package under ``root`` (empty when the structure holds);
    the circles in ``known`` are tolerated while they exist."""
    modules, edges, third_party = collect(root)
    problems = []
    for module in sorted(modules):
        try:
            layer_of(module)
        except KeyError as exc:
            problems.append(str(exc.args[0]))
    if problems:
        return problems
    problems += upward_imports(edges)
    problems += dagster_imports(third_party)
    circles = import_circles(modules, edges)
    for circle in circles:
        if frozenset(circle) in known:
            continue
        inside = sorted({(e.source, e.target, e.line) for e in edges
                         if e.source in circle and e.target in circle})
        arrows = "; ".join(f"{source} -> {target} (line {line})"
                           for source, target, line in inside)
        problems.append(f"import circle of {len(circle)} modules: {arrows}")
    for group in known:
        if group not in {frozenset(circle) for circle in circles}:
            problems.append(f"known circle {sorted(group)} is gone: remove it from KNOWN_CIRCLES")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Print the problems of the package under the given root (default: the project root)."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    problems = check(root)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"layers: ok ({' > '.join(name for name, _ in LAYERS)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
