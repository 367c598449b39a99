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
    assert GAMES / "undercover" / "rules.py" in MODULES


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
