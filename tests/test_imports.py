"""Imports point one way (STYLE): no module of `app/` imports itself back through other modules.

Every import statement counts, wherever it stands: at module level, inside a function (it runs when the function
does, and hiding an import there is the usual way to paper over a cycle) and under `if TYPE_CHECKING:` (a cycle only
the type checker follows is still one for a reader). `from package import name` counts as importing the module
`package.name` when there is one, else `package`. Importing a module also runs its packages' `__init__`s; those
hold no imports here, so they are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / "app").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in modules else base)
    return {target for target in targets if target in modules and target != name}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan), as a path back to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(_path_back(graph, min(component), component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _path_back(graph: dict[str, set[str]], start: str, within: set[str]) -> list[str]:
    """The shortest import path from `start` back to itself inside its component (breadth first)."""
    parent: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & within):
                if nxt == start:
                    path = [node]
                    while (before := parent[path[-1]]) is not None:
                        path.append(before)
                    return [*reversed(path), start]
                if nxt not in parent:
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{start} is in a component but on no cycle")


def test_the_graph_sees_function_level_and_type_checking_imports() -> None:
    graph = import_graph()
    assert "app.services.match.matches" in graph["app.runtime"]
    assert "app.games.installed" in graph["app.runtime"]
    assert len(graph) > 50


def test_cycles_are_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_app_has_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" → ".join(cycle) for cycle in found)
