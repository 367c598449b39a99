"""The operator commands run as the README says: `python -m app.ratings rebuild`, `python -m app.wordpairs report`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, migrate


def _run(url: str, *args: str) -> str:
    env = {**os.environ, "WODI_DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_commands_run_on_an_empty_database(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    migrate(url)
    assert _run(url, "app.ratings", "rebuild").strip() == "replayed 0 rated matches"
    assert "0 of 0 pairs played" in _run(url, "app.wordpairs", "report")
