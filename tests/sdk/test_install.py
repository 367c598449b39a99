"""`pip install ./sdk/python` in a fresh virtual environment: the kit installs with httpx and pydantic only (none
of the server's dependencies), a wheel builds, and `wodi-agent` runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.server import ROOT

pytestmark = pytest.mark.slow
SERVER_ONLY = ("fastapi", "sqlalchemy", "uvicorn", "alembic", "asyncpg", "openai")


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, check=False, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_kit_installs_alone_in_a_fresh_venv(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    pip, python = venv / "bin" / "pip", venv / "bin" / "python"
    run(pip, "install", "--quiet", ROOT / "sdk" / "python")
    installed = {line.split("==")[0].split(" @ ")[0].lower().replace("_", "-")
                 for line in run(pip, "freeze").splitlines()}
    assert {"wodi-client", "httpx", "pydantic"} <= installed
    assert not installed & set(SERVER_ONLY)
    assert "register" in run(venv / "bin" / "wodi-agent", "--help")
    run(python, "-c", "import wodi_client.examples.random_agent, wodi_client; print(wodi_client.__version__)",
        cwd=tmp_path)
    run(pip, "wheel", "--quiet", "--no-deps", "-w", tmp_path / "dist", ROOT / "sdk" / "python")
    assert [p.name for p in (tmp_path / "dist").glob("wodi_client-0.1.0-*.whl")]
