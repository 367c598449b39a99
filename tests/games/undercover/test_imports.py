"""The rules stay pure: nothing under app/games imports the app's outer layers, I/O
frameworks or module-level randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import app.games

GAMES = Path(app.games.__file__).parent
MODULES = sorted(GAMES.rglob("*.py"))
FORBIDDEN = ("fastapi", "starlette", "sqlalchemy", "asyncio", "httpx", "aiosqlite", "asyncpg",
             "app.api", "app.db", "app.services", "app.protocol")


def imported_names(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def random_misuse(tree: ast.AST) -> list[str]:
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            problems.append(f"line {node.lineno}: from random import …")
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "random" and node.attr != "Random"):
            problems.append(f"line {node.lineno}: random.{node.attr}")
    return problems


def test_modules_found() -> None:
    assert GAMES / "undercover" / "game.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GAMES)))
def test_no_outer_imports(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [name for name in imported_names(tree)
           if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GAMES)))
def test_only_seeded_random(path: Path) -> None:
    assert random_misuse(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_checker_catches_misuse() -> None:
    tree = ast.parse("import random\nfrom random import choice\nx = random.choice([1])\ny = random.Random(1)\n")
    assert len(random_misuse(tree)) == 2
    assert imported_names(ast.parse("import asyncio\nfrom app.db.models import X\n")) == ["asyncio", "app.db.models"]


PHASES = ("deal", "speaking", "voting", "reveal", "concede", "whisper")


def module_name(path: Path) -> str:
    parts = ["app", "games", *path.relative_to(GAMES).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(tree: ast.AST, known: set[str]) -> set[str]:
    """The app.games modules a module imports; `from pkg import sub` counts as `pkg.sub` when sub is a module."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names} & known
            found |= subs or {node.module}
    return found & known


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in MODULES}
    known = set(modules)
    return {name: imported_modules(ast.parse(path.read_text(encoding="utf-8")), known)
            for name, path in modules.items()}


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (as a path that ends where it starts), or [] when there is none."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str]:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return []
        for dep in sorted(graph.get(name, ())):
            cycle = visit(dep, [*path, name])
            if cycle:
                return cycle
        done.add(name)
        return []

    return next((c for c in (visit(name, []) for name in sorted(graph)) if c), [])


def test_no_phase_imports_another_phase() -> None:
    graph = import_graph()
    phases = {f"app.games.undercover.{p}" for p in PHASES}
    assert phases <= set(graph)
    assert {name: sorted(graph[name] & phases) for name in phases if graph[name] & phases} == {}


def test_no_import_cycle_in_the_games() -> None:
    assert cycle_in(import_graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    tree = ast.parse("from app.games.undercover import ending, rules\nfrom app.games.base import GameError\n")
    known = {"app.games.undercover.ending", "app.games.base", "app.games.undercover"}
    assert imported_modules(tree, known) == {"app.games.undercover.ending", "app.games.base"}
