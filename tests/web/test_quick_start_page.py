"""Issue 17's browser acceptance: from the lobby a guest starts a 6-seat game against five official bots, sees the
word, speaks (warned when typing their own word), votes by clicking a card, plays to the end, sees the recap with a
score for every player and presses 再来一局 to be seated in a new game; a reload mid-game keeps the seat; the same on
a phone; a guest takes an open seat of an agents' room through the invite link; a chaos host with two debate rounds
plays with a person. The server runs with its bots, which fill a quick-start room at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.api.table import Table
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.web.conftest import Watched, _stop
from tests.web.playing import SOON, act, kept_token, next_turn, read_snap, start_from_the_lobby

pytestmark = pytest.mark.browser
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    """The real server with its official bots (quick-start rooms are filled at once, not after a wait)."""
    # One browser plays every test here and leaves its "again" tables running: lift one client's share of the bots.
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600",
                     WODI_QUICK_START_BOTS_PER_CLIENT="100").start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


@pytest.fixture
async def phone(browser: Browser) -> AsyncIterator[Watched]:
    context = await browser.new_context(viewport=PHONE, locale="zh-CN", is_mobile=True, has_touch=True)
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    yield seen
    await context.close()
    assert not seen.errors, f"uncaught errors in the page: {seen.errors}"


async def _play_to_the_end(page: Page, api: httpx.AsyncClient, match_id: str, *, reload_once: bool) -> list[str]:
    """Play every move the page offers until the recap shows; reload once mid-game and check the seat held."""
    token = await kept_token(page, match_id)
    word = (await read_snap(api, match_id, token))["you"]["word"] or ""
    await expect(page.get_by_test_id("my-word")).to_have_text(word or "（无词）", timeout=SOON)
    said: list[str] = []
    acted: list[str] = []
    while (action := await next_turn(page)) is not None:
        if reload_once and acted and "reloaded" not in acted:
            acted.append("reloaded")
            await page.reload()
            await expect(page.get_by_test_id("my-word")).to_have_text(word or "（无词）", timeout=SOON)
            continue
        await act(page, action, word, said)
        acted.append(action)
    assert "speak" in acted and "vote" in acted, acted
    return acted


async def _check_recap(page: Page, api: httpx.AsyncClient, match_id: str) -> None:
    final = await read_snap(api, match_id)
    assert final["status"] == "finished"
    recap = page.get_by_test_id("recap")
    await expect(recap).to_be_visible()
    for p in final["players"]:
        row = page.get_by_test_id(f"recap-score-{p['seat']}")
        await expect(row).to_have_count(1)
        score = int(await row.get_attribute("data-score") or "0")
        assert 1 <= score <= 10
    pair = final["result"]["wordpair"]
    await expect(page.locator("#wordpair")).to_contain_text(pair["civilian"])
    await expect(page.locator("#roster")).to_contain_text(pair["undercover"])
    await expect(page.get_by_test_id("recap-best")).to_be_visible()
    await expect(page.get_by_test_id("recap-blunder")).to_be_visible()


async def _again(page: Page, api: httpx.AsyncClient, old: str) -> str:
    await page.get_by_test_id("play-again").click()
    await page.wait_for_url(lambda url: "/match/" in url and old not in url, timeout=SOON)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    new = page.url.rsplit("/match/", 1)[1].split("?")[0]
    snap = await read_snap(api, new, await kept_token(page, new))
    assert snap["you"]["seat"] == 0 and snap["config"]["n_players"] == 6
    await expect(page.get_by_test_id("my-word")).to_be_visible(timeout=SOON)
    return new


async def test_a_guest_plays_a_whole_game_from_the_lobby_and_again(server: Server, api: httpx.AsyncClient,
                                                                   watched: Watched) -> None:
    page = watched.page
    match_id = await start_from_the_lobby(page, server, "雨天的访客")
    snap = await read_snap(api, match_id)
    assert snap["config"]["n_players"] == 6 and len(snap["players"]) == 6
    guests = [p for p in snap["players"] if p.get("is_guest")]
    assert [p["seat"] for p in guests] == [0] and guests[0]["display_name"] == "雨天的访客"
    assert all(p["is_official"] for p in snap["players"] if p["seat"] != 0)
    await _play_to_the_end(page, api, match_id, reload_once=True)
    await _check_recap(page, api, match_id)
    await _again(page, api, match_id)
    board = await api.get("/api/agents")
    assert board.status_code == 200 and len(board.json()) > 0
    assert guests[0]["name"] not in board.text and "雨天的访客" not in board.text, "a guest is on no leaderboard"


async def test_the_same_on_a_phone(server: Server, api: httpx.AsyncClient, phone: Watched) -> None:
    page = phone.page
    match_id = await start_from_the_lobby(page, server, "phone-guest")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    await _play_to_the_end(page, api, match_id, reload_once=True)
    await _check_recap(page, api, match_id)
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the finished page is {width}px wide"
    await page.get_by_test_id("play-tune").click()  # 调难度: back to the form, the last choices filled in
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await expect(page.get_by_test_id("play-choice-pace-quick")).to_be_checked()
    await expect(page.get_by_test_id("play-name")).to_have_value("phone-guest")
    await page.go_back()
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await _again(page, api, match_id)


async def test_a_chaos_host_and_two_debate_rounds_with_a_person(server: Server, api: httpx.AsyncClient,
                                                                watched: Watched) -> None:
    page = watched.page
    match_id = await start_from_the_lobby(page, server, "辩手", pace="hell", chaos="1")
    config = (await read_snap(api, match_id))["config"]
    assert config["host"] == "chaos" and config["debate_rounds"] == 2
    acted = await _play_to_the_end(page, api, match_id, reload_once=False)
    await _check_recap(page, api, match_id)
    host = page.get_by_test_id("host-commentary")
    assert await host.count() >= 1
    await expect(page.locator("#stream .item.host .tag.mislead").first).to_be_visible()
    assert await page.locator("#stream .item.debate").count() >= 1
    assert "debate" in acted or "eliminated" in acted, acted


async def test_a_guest_joins_an_agents_room_through_the_invite_link(server: Server, api: httpx.AsyncClient,
                                                                    watched: Watched) -> None:
    page = watched.page
    table = Table(api, 4, n_undercover=1, first_speaker=3)
    await table.open(fill=False)
    for seat in (1, 2):
        await table.join(seat)
    created = await table.snap(0)
    await page.goto(created["invite_url"])
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    await page.get_by_test_id("join-name").fill("路人甲")
    await page.get_by_test_id("join-submit").click()
    await expect(page.get_by_test_id("my-word")).to_be_visible(timeout=SOON)
    snap = await table.snap(None)
    assert snap["status"] == "in_progress"
    guest = next(p for p in snap["players"] if p["seat"] == 3)
    assert guest["is_guest"] is True and guest["display_name"] == "路人甲"
    agent_view = await table.snap(1)
    assert agent_view["viewer_role"] == "player_agent" and agent_view["you"]["seat"] == 1
    assert "play_token" not in json.dumps(agent_view["players"])

    await expect(page.locator("#you")).to_have_attribute("data-action", "speak", timeout=SOON)
    await page.get_by_test_id("speak-input").fill("和大家一起玩，先说个线索")
    await page.get_by_test_id("speak-send").click()
    await expect(page.locator("#stream")).to_contain_text("和大家一起玩，先说个线索", timeout=SOON)
    for seat in (0, 1, 2):
        response = await table.act(seat, {"type": "speak", "text": f"{seat}号的线索"})
        assert response.status_code == 200, response.text
    await expect(page.locator("#you")).to_have_attribute("data-action", "vote", timeout=SOON)
    await page.get_by_test_id("vote-target-0").click()
    await expect(page.locator("#you")).to_have_attribute("data-action", "wait_for_vote_resolution", timeout=SOON)
    events = await table.events(1)
    assert any(e["type"] == "vote_cast" and e["seat"] == 3 and e["target_seat"] == 0 for e in events)
    board = await api.get("/api/agents")
    assert "路人甲" not in board.text
    await page.goto(f"{server.base_url}/")
    room = page.locator(f'.room[data-match="{table.match_id}"]')
    await expect(room.locator('[data-human="guest"]')).to_contain_text("路人甲")  # the lobby marks a person's seat


async def test_an_agents_only_room_says_so_and_offers_no_guest_seat(server: Server, api: httpx.AsyncClient,
                                                                     watched: Watched) -> None:
    page = watched.page
    host = await api.post("/api/agents", json={"name": "agents-only-host"})
    assert host.status_code == 201, host.text
    created = await api.post("/api/matches", json={"config": {"n_players": 4, "n_undercover": 1},
                                                   "seats_for": "agents"},
                             headers={"Authorization": f"Bearer {host.json()['api_key']}"})
    assert created.status_code == 201, created.text
    await page.goto(created.json()["invite_url"])
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    await expect(page.get_by_test_id("seats-for")).to_have_text("仅限 Agent")
    await expect(page.locator("#you")).to_be_hidden()
    assert await page.get_by_test_id("join-submit").count() == 0, "no guest join form in an agents-only room"
    await page.goto(f"{server.base_url}/")
    match_id = created.json()["match_id"]
    room = page.locator(f'.room[data-match="{match_id}"]')
    await expect(room.get_by_test_id("room-seats-for")).to_have_text("仅限 Agent")


async def test_the_form_in_english(server: Server, watched: Watched) -> None:
    page = watched.page
    await page.goto(f"{server.base_url}/?lang=en")
    await expect(page.get_by_test_id("play-start")).to_have_text("Play now")
    await page.get_by_test_id("play-start").click()
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await expect(page.locator('fieldset[data-choice="pace"] legend')).to_have_text("Pace")
    await expect(page.get_by_test_id("play-choice-pace-hell").locator("xpath=..")).to_contain_text("Hell")
    await expect(page.get_by_test_id("play-choice-category")).to_contain_text("Random mix")
    await expect(page.get_by_test_id("play-form-submit")).to_have_text("Start")


async def test_the_form_shows_no_schema_text_in_either_language(server: Server, api: httpx.AsyncClient,
                                                                watched: Watched) -> None:
    page = watched.page
    schema = (await api.get("/api/play/undercover/options")).json()
    described = [field["description"] for field in schema["schema"]["properties"].values() if field.get("description")]
    assert described, "the options carry the developers' field descriptions (for programs)"
    for suffix in ("", "?lang=en"):
        await page.goto(f"{server.base_url}/play{suffix}")
        await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
        text = await page.locator("#play-form").inner_text()
        assert not [d for d in described if d in text], f"schema text on the page ({suffix or 'zh'})"
    await expect(page.locator('fieldset[data-choice="category"] .choice-hint')).to_contain_text("word library")
