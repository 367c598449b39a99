"""Count each game's plumbing (issue 27): `python -m tools.plumbing [--root DIR]`.

Plumbing is what a game's package holds besides its rules, content, views and brain: the definition module
(`game.py`, less the view functions it defines), the package's re-exports (`__init__.py`), its transitions
(`transitions.py`), a `parse_config` wrapper over the kit's and its import, and the state module's `Step` /
`Outcome` aliases of the kit's. A line counts when it is code: not blank, not a comment, not a docstring. Prints one
line per game and the total; `--root` counts another checkout (e.g. an older commit's `git archive`).
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

GAMES = ("undercover", "werewolf", "script_kill", "avalon")
WHOLE = ("__init__.py", "game.py", "transitions.py")
VIEW_FUNCTIONS = ("response",)  # a view defined in game.py is a view, not plumbing


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)):
                lines.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    return lines


def _code(source: str, lines: set[int], tree: ast.AST) -> int:
    skip = _docstring_lines(tree)
    text = source.splitlines()
    return sum(1 for n in lines if n not in skip and text[n - 1].strip() and not text[n - 1].strip().startswith("#"))


def _span(node: ast.stmt) -> set[int]:
    return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))


def _plumbing_elsewhere(module: str, node: ast.stmt) -> bool:
    if isinstance(node, ast.FunctionDef):
        return node.name == "parse_config"
    if isinstance(node, ast.ImportFrom):
        return any(alias.asname == "kit_parse_config" for alias in node.names)
    return module == "state.py" and isinstance(node, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id in ("Step", "Outcome") for target in node.targets)


def count(package: Path) -> int:
    """The plumbing lines of one game's package."""
    total = 0
    for path in sorted(package.glob("*.py")):
        source = path.read_text()
        tree = ast.parse(source)
        picked: set[int] = set()
        for node in tree.body:
            if path.name == "game.py" and isinstance(node, ast.FunctionDef) and node.name in VIEW_FUNCTIONS:
                continue
            if path.name in WHOLE or _plumbing_elsewhere(path.name, node):
                picked |= _span(node)
        total += _code(source, picked, tree)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    counts = {game: count(args.root / "app" / "games" / game) for game in GAMES}
    for game, n in counts.items():
        print(f"{game:12} {n:4}")
    print(f"{'total':12} {sum(counts.values()):4}")


if __name__ == "__main__":
    main()
