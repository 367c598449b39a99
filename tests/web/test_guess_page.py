"""Spectators guess from the match page (issue 33), in a real browser: a logged-in spectator of a live match picks
seats and sends a guess; a player's page shows no guess panel; after the end the page shows the guesses scored,
and the lobby's readers' board ranks the spectator — at phone width, in both languages."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import Browser, expect

from tests.api.table import Table
from tests.e2e.server import Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser


async def test_a_spectator_guesses_from_the_page_and_is_scored(server: Server, api: httpx.AsyncClient,
                                                               browser: Browser, watched: Watched) -> None:
    table = Table(api, 4, n_undercover=1, compete_mode=True)  # its spectators do not see the roles: guesses count
    await table.open()
    signed = await api.post("/api/owners", json={"username": "page-reader", "password": "a long password"})
    assert signed.status_code == 201, signed.text
    api.cookies.clear()  # the agents' requests stay anonymous
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    await context.add_cookies([{"name": "wodi_session", "value": signed.cookies["wodi_session"],
                                "url": server.base_url}])
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        await page.goto(f"{server.base_url}/match/{table.match_id}")
        panel = page.get_by_test_id("guess-panel")
        await expect(panel).to_be_visible()
        await expect(page.get_by_test_id("guess-submit")).to_be_disabled()
        await page.get_by_test_id("guess-seat-1").click()
        await page.get_by_test_id("guess-seat-2").click()
        await page.get_by_test_id("guess-seat-2").click()  # changed their mind
        await page.get_by_test_id("guess-submit").click()
        await expect(page.get_by_test_id("guess-list")).to_contain_text("第 1 轮")
        stored = await (await page.request.get(f"{server.base_url}/api/matches/{table.match_id}/guesses")).json()
        assert [g["seats"] for g in stored["guesses"]] == [[1]]

        await watched.page.goto(f"{server.base_url}/match/{table.match_id}")  # anonymous: no panel
        await expect(watched.page.locator("#players .player").first).to_be_visible()
        await expect(watched.page.get_by_test_id("guess-panel")).to_be_hidden()

        final = await table.play()
        hidden = {p["seat"] for p in final["players"] if p["role"] != "civilian"}
        points = 1 if 1 in hidden else -1
        await expect(page.get_by_test_id("guess-list")).to_contain_text(f"{points} 分", timeout=20_000)
        await page.goto(f"{server.base_url}/?lang=en")
        board = page.get_by_test_id("readers-board")
        await expect(board).to_contain_text("page-reader")
        await expect(board.locator("tbody tr").first.locator(".num").first).to_have_text(str(points))
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    finally:
        await context.close()
    assert not errors, errors
