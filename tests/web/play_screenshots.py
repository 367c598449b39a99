"""`python -m tests.web.play_screenshots`: PNGs of a person playing 谁是卧底 in the browser, for the README.

Starts the real server with its official bots on a temporary SQLite database; a guest opens a table from the
lobby's 开一局 form and plays it to the end through the page. Saves `play-desktop.png` (the seat holder's view
while typing a speech, the word warning showing), `recap-desktop.png` (the end, with the recap) and
`play-mobile.png` (the same seat view at 390×844) into `static/screenshots/`. Needs a CJK font (Debian:
`fonts-noto-cjk`).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import httpx
from playwright.async_api import Browser, Page, ViewportSize, async_playwright

from tests.e2e.server import ROOT, Server
from tests.web.harness import launch, migrate
from tests.web.playing import act, kept_token, next_turn, read_snap, start_from_the_lobby

OUT = ROOT / "static" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


async def _seat_view(page: Page, api: httpx.AsyncClient, match_id: str, target: Path) -> str:
    """Wait for the person's first speech, type one holding their word (the warning shows) and shoot."""
    word = (await read_snap(api, match_id, await kept_token(page, match_id)))["you"]["word"] or ""
    while (action := await next_turn(page)) not in ("speak", None):
        await act(page, action, word, [])
    if action == "speak":
        await page.get_by_test_id("speak-input").fill(f"我觉得这个东西和{word}差不多，大家都见过")
        await page.locator("#you").scroll_into_view_if_needed()
        await page.wait_for_timeout(600)  # the countdown and the entrance animations settle
    await page.screenshot(path=str(target))
    return word


async def _to_the_end(page: Page, word: str) -> None:
    said: list[str] = []
    while (action := await next_turn(page)) is not None:
        await act(page, action, word, said)


async def _game(browser: Browser, server: Server, api: httpx.AsyncClient, viewport: ViewportSize,
                name: str, full: bool) -> list[Path]:
    context = await browser.new_context(viewport=viewport, device_scale_factor=1, locale="zh-CN")
    page = await context.new_page()
    size = "desktop" if viewport is DESKTOP else "mobile"
    match_id = await start_from_the_lobby(page, server, name)
    saved = [OUT / f"play-{size}.png"]
    word = await _seat_view(page, api, match_id, saved[0])
    if full:
        await _to_the_end(page, word)
        await page.get_by_test_id("recap").scroll_into_view_if_needed()
        await page.wait_for_timeout(600)
        saved.append(OUT / f"recap-{size}.png")
        await page.locator("#result").screenshot(path=str(saved[-1]))
    await context.close()
    return saved


async def shoot() -> list[Path]:
    database_url = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/play-screens.db"
    migrate(database_url)
    server = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600").start()
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as api, async_playwright() as playwright:
            browser = await launch(playwright)
            saved = await _game(browser, server, api, DESKTOP, "小明", full=True)
            saved += await _game(browser, server, api, PHONE, "阿花", full=False)
            await browser.close()
    finally:
        server.kill()
    return saved


def main() -> None:
    for path in asyncio.run(shoot()):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
