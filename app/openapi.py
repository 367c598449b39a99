"""Write the app's OpenAPI schema to openapi.json: `python -m app.openapi` (or `make openapi`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.main import create_app
from app.settings import Settings

PATH = Path(__file__).resolve().parents[1] / "openapi.json"


def schema() -> dict[str, Any]:
    """The schema as served, independent of the local environment's settings."""
    return create_app(Settings(database_url="sqlite+aiosqlite:///./never-opened.db")).openapi()


def render() -> str:
    return json.dumps(schema(), ensure_ascii=False, indent=2, sort_keys=False) + "\n"


if __name__ == "__main__":
    PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {PATH}\n")
