"""Issue 33's acceptance: on a fresh `make run` the lobby soon shows a live showcase match (`lobby-featured`, with a
watch link) and lists every installed game (`lobby-game-<name>`) — the real server on a fresh SQLite database with
the settings `make run` has (bots and showcase on, rate limits on), in headless Chromium."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.games.installed import installed
from tests.conftest import migrate
from tests.e2e.browser import chromium
from tests.e2e.server import Server

pytestmark = pytest.mark.browser

FEATURED = '[data-testid="lobby-featured"][data-showcase="true"]'


@pytest.fixture
def fresh_run(tmp_path: Path) -> Iterator[Server]:
    """`make run`: migrate a new database, then `python -m app` with its defaults (the harness's test-only switches
    — no bots, no showcase, no rate limits — taken back out)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'wodi.db'}"
    migrate(url)
    server = Server(url)
    for name in ("WODI_BOTS_ENABLED", "WODI_SHOWCASE", "WODI_RATE_LIMIT_ENABLED", "WODI_OFFICIAL_BOT_KEY",
                 "WODI_BOT_FILL_AFTER", "WODI_BOT_POOL_MAX"):
        server.env.pop(name, None)
    running = server.start()
    try:
        yield running
    finally:
        running.stop()


async def test_a_fresh_run_features_a_live_showcase_in_the_lobby(fresh_run: Server) -> None:
    async with chromium() as browser:
        page = await browser.new_page()
        await page.goto(f"{fresh_run.base_url}/")
        for game, _brain in installed():
            assert await page.locator(f'[data-testid="lobby-game-{game.name}"]').count() == 1, game.name
        for _ in range(240):  # the page as a visitor reloading it sees it; bounded by a count, not a clock
            if await page.locator(FEATURED).count():
                break
            await asyncio.sleep(0.5)
            await page.reload()
        featured = page.locator(FEATURED)
        assert await featured.count() == 1, "no showcase featured in the lobby"
        match_id = await featured.get_attribute("data-match")
        assert match_id
        assert await featured.locator('[data-testid="lobby-showcase"]').count() == 1
        watch = featured.locator('[data-testid="lobby-featured-watch"]')
        assert await watch.get_attribute("href") == f"/match/{match_id}"
        await watch.click()
        await page.wait_for_url(f"{fresh_run.base_url}/match/{match_id}")
        assert await page.locator('[data-testid="match-showcase"]').count() == 1
        response = await page.request.get(f"{fresh_run.base_url}/api/matches/{match_id}")
        snap = await response.json()
        assert snap["game"] in {game.name for game, _ in installed()}
        assert snap["status"] in ("in_progress", "finished") and all(p["is_official"] for p in snap["players"])
