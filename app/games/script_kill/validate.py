"""Validate script packages: `python -m app.games.script_kill.validate [FILE…]` (no FILE: every shipped script).

Each problem names the path of the bad field (`clues[3].location: unknown location 'cellar'`). The same checks
run when the game registers (every shipped package is loaded) and in the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.games.script_kill.package import SCRIPTS_DIR, PackageError, Script, check_package, parse, problems

__all__ = ["PackageError", "check_file", "check_package", "main", "parse", "problems"]


def check_file(path: Path) -> Script:
    """Read, parse and cross-check one package file."""
    script = parse(path.read_text(encoding="utf-8"), path.name)
    check_package(script, path.stem)
    return script


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(SCRIPTS_DIR.glob("*.json"))
    status = 0
    for path in paths:
        try:
            script = check_file(path)
        except (PackageError, OSError) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
        else:
            print(f"{path}: ok ({script.id}, {len(script.clues)} clues, {len(script.items)} items)")
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
