"""What the browser tests and the screenshot command share: Debian's Chromium, a migrated database, named agents."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any

from playwright.async_api import Browser, Playwright

from app.games.undercover.wordpairs import default_library
from tests.api.table import Table
from tests.e2e.server import ROOT

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
OFFICIAL_BOT_KEY = "dev-official-bot-key"  # the server's development default, accepted on localhost only


class ChromiumMissing(RuntimeError):
    """Debian's `chromium` is not installed."""


def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        raise ChromiumMissing("Debian's chromium is not on PATH: install it with `apt-get install chromium`")
    return path


async def launch(playwright: Playwright) -> Browser:
    return await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)


def migrate(database_url: str) -> None:
    """`alembic upgrade head` in a subprocess, exactly as a deployment does."""
    env = {**os.environ, "WODI_DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env, check=True,
                   capture_output=True)


class CastTable(Table):
    """A `Table` whose agents have chosen names and display names (seat i is `cast[i]`)."""

    def __init__(self, client: Any, cast: list[tuple[str, str]], official: tuple[int, ...] = (), **config: Any) -> None:
        super().__init__(client, len(cast), **config)
        self.cast = cast
        self.official = official

    async def register(self) -> None:
        for seat, (name, display_name) in enumerate(self.cast):
            headers = {"X-Official-Bot-Key": OFFICIAL_BOT_KEY} if seat in self.official else {}
            response = await self.client.post("/api/agents", json={"name": name, "display_name": display_name},
                                              headers=headers)
            assert response.status_code == 201, response.text
            self.keys.append(response.json()["api_key"])
            self.names.append(name)


def clue_speech(word: str | None, round_index: int, seat: int) -> str:
    """A natural-sounding description built from the library's clues (which never contain the word)."""
    found = default_library().find_word(word) if word else None
    clues = list(found.clues) if found else ["说不太清", "大家都见过", "挺常见的"]
    first = clues[(seat + round_index) % len(clues)]
    second = clues[(seat + round_index + 1) % len(clues)]
    openers = ["我觉得它", "说到这个，", "嗯……我的这个", "简单说：", "我补充一点，", "直觉上"]
    return f"{openers[(seat * 3 + round_index) % len(openers)]}{first}，而且{second}。"
