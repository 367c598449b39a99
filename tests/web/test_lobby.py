"""The lobby, agent profiles, the HTML 404 page and the English version, in a real browser."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.async_api import expect

from tests.api.table import Table
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser
UNDERCOVER = json.loads((ROOT / "static" / "js" / "games" / "undercover.json").read_text(encoding="utf-8"))


async def test_lobby_lists_rooms_and_leaderboard(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    page = watched.page
    finished = Table(api, 4, n_undercover=1)
    await finished.open()
    result = (await finished.play())["result"]
    winner = finished.names[result["winning_seats"][0]]
    waiting = Table(api, 6, n_undercover=2)
    await waiting.open(fill=False)
    await waiting.join(1)
    live = Table(api, 4, n_undercover=1)
    await live.open()

    await page.goto(f"{server.base_url}/")
    room = page.locator(f'#waiting [data-match="{waiting.match_id}"]')
    await expect(room).to_contain_text("还差 4 人")
    await expect(room.locator(f'a[href="/match/{waiting.match_id}"]')).to_be_visible()
    await expect(page.locator(f'#live [data-match="{live.match_id}"]')).to_contain_text("第 1 轮 · 发言")
    done = page.locator(f'#finished [data-match="{finished.match_id}"]')
    await expect(done).to_contain_text(result["wordpair"]["undercover"])
    board = page.locator("#leaderboard")
    for name in finished.names:
        await expect(board.locator(f'a[href="/agents/{name}"]')).to_be_visible()
    await expect(board.locator("tbody tr").first.locator(".num").first).to_have_text("1")

    await board.locator(f'a[href="/agents/{winner}"]').click()
    await expect(page.locator("#profile-name")).to_have_text(winner)
    await expect(page.locator("#stat-wins")).to_have_text("1")
    await expect(page.locator("#stat-losses")).to_have_text("0")
    await expect(page.locator("#stat-win-rate")).to_have_text("100%")
    await expect(page.locator(f'#recent [data-match="{finished.match_id}"]')).to_contain_text("胜")

    await page.click(f'#recent a[href="/match/{finished.match_id}"]')
    await expect(page.locator("#winner")).to_be_visible()


async def test_not_found_pages_are_html(server: Server, watched: Watched) -> None:
    page = watched.page
    for path, message in (("/match/nosuchid", "没有这场对局"), ("/agents/nobody-here", "没有这个智能体")):
        response = await page.goto(f"{server.base_url}{path}")
        assert response is not None and response.status == 404
        assert response.headers["content-type"].startswith("text/html")
        await expect(page.locator("#not-found-message")).to_contain_text(message)
        await expect(page.locator('a[href="/"]').first).to_be_visible()


async def test_english_labels(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    page = watched.page
    live = Table(api, 4, n_undercover=1)
    await live.open()
    done = Table(api, 4, n_undercover=1)
    await done.open()
    reason = (await done.play())["result"]["reason"]
    await page.goto(f"{server.base_url}/?lang=en")
    await expect(page.locator("#live h2")).to_have_text("Live matches")
    # A finished room says why in the reader's language (the server's own summary is Chinese).
    said = page.locator(f'#finished [data-match="{done.match_id}"] .room-summary')
    await expect(said).to_have_text(UNDERCOVER["en"][f"reason_{reason}"])
    await expect(page.locator("#leaderboard h2")).to_have_text("Leaderboard · top 20")
    await expect(page.locator("#lang-switch")).to_have_text("中文")
    await page.click(f'#live a[href="/match/{live.match_id}?lang=en"]')
    await expect(page.locator(".players-card h2")).to_have_text("Players")
    await expect(page.locator('#phase li[data-step="speak"]')).to_have_class("on")
    await expect(page.locator('#phase li[data-step="speak"]')).to_have_text("Speak")
    await expect(page.locator("#conn")).to_contain_text("Live")
    await page.click("#lang-switch")
    await expect(page.locator('#phase li[data-step="speak"]')).to_have_text("发言")
    assert page.url.endswith(f"/match/{live.match_id}")


async def test_the_lobby_is_the_platforms(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    """Every installed game has its card (figures, watch, 开一局 where it has a quick start); a live match is
    featured; `?game=` filters the rooms; the boards list only agents that have played."""
    page = watched.page
    idle = await api.post("/api/agents", json={"name": "never-played"})
    assert idle.status_code == 201, idle.text
    live = Table(api, 4, n_undercover=1)
    await live.open()
    finished = Table(api, 4, n_undercover=1)
    await finished.open()
    await finished.play()
    games = (await api.get("/api/games")).json()["games"]
    assert len(games) >= 3

    await page.goto(f"{server.base_url}/")
    await expect(page.locator("h1")).to_contain_text("Wodi")
    for game in games:
        card = page.get_by_test_id(f"lobby-game-{game['name']}")
        await expect(card).to_be_visible()
        await expect(card.locator("h3")).not_to_have_text(game["name"])  # its title, not its machine name
    listed = await api.get("/api/matches", params={"status": "in_progress", "game": "undercover", "limit": 100})
    n_live = len(listed.json()["matches"])
    await expect(page.get_by_test_id("lobby-game-undercover")).to_contain_text(f"{n_live} 局进行中")
    await expect(page.get_by_test_id("lobby-play-undercover")).to_have_attribute("href", "/play?game=undercover")
    featured = page.get_by_test_id("lobby-featured")
    shown = await featured.get_attribute("data-match")
    assert shown in {m["match_id"] for m in listed.json()["matches"]}, "the featured match is a live one"
    await expect(featured.locator(f'a[href="/match/{shown}"]')).to_be_visible()
    room_game = page.locator(f'#live [data-match="{live.match_id}"] [data-testid="room-game"]')
    await expect(room_game).to_have_text("谁是卧底")
    board = page.locator("#leaderboard")
    await expect(board.locator(f'a[href="/agents/{finished.names[0]}"]')).to_be_visible()
    await expect(board.locator('a[href="/agents/never-played"]')).to_have_count(0)
    assert any(row["name"] == "never-played" for row in (await api.get("/api/agents")).json())  # §4.5 lists all

    other = next(game["name"] for game in games if game["name"] != "undercover")
    await page.get_by_test_id(f"lobby-game-{other}").locator("h3 a").click()
    await expect(page.get_by_test_id(f"lobby-game-{other}")).to_have_class(re.compile(r"\bactive\b"))
    await expect(page.locator(f'#live [data-match="{live.match_id}"]')).to_have_count(0)
    await page.set_viewport_size({"width": 390, "height": 844})
    await page.goto(f"{server.base_url}/?lang=en")
    await expect(page.get_by_test_id("lobby-game-undercover")).to_contain_text(f"{n_live} live")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby scrolls sideways on a phone ({width}px)"
    # Each room card's head (state, game, who may sit, showcase, size) fits its card, however long its labels run in
    # a language: it wraps rather than spills (one head is given two more labels to be sure the row can wrap).
    spill = await page.evaluate("""() => {
        const head = document.querySelector('.room-head');
        for (const text of ['People & agents', 'Showcase']) {
            head.append(Object.assign(document.createElement('span'), {className: 'pill-soft', textContent: text}));
        }
        return [...document.querySelectorAll('.room-head')].map((h) => Math.max(...[...h.children].map(
            (c) => c.getBoundingClientRect().right)) - h.closest('.room').getBoundingClientRect().right); }""")
    assert spill and max(spill) <= 0, f"a room card's head spills out of its card on a phone: {spill}"
