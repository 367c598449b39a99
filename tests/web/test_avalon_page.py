"""The Avalon page module in a real browser (headless Chromium), at a phone's width.

1. A person holds seat 0 of a 5-seat room (its play token in the link's fragment) and plays against four official
   bots that the server seats and runs, to the end, through the page's buttons alone: the team picks and the
   proposal, speeches, votes, quest cards and — if it is dealt the assassin — the assassination. The quest track,
   the leader, the team and the vote reveal follow the game; the end shows every role. Then the finished match in
   English.
2. The person is dealt the assassin at a table of scripted agents that hand the good side three quests: the person
   proposes, speaks, votes, sees both quest cards (evil), plays success, confers and names Merlin from the page.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, ViewportSize, expect

from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server
from tests.test_avalon_skill_guide import AvalonTable
from tests.web.conftest import Watched, _stop
from tests.web.playing import kept_token

pytestmark = pytest.mark.browser
WAIT = 60_000  # ms
GAME = 240_000  # ms: a whole bot-paced game on a loaded machine
PHONE: ViewportSize = {"width": 390, "height": 844}
STRINGS = json.loads((ROOT / "static" / "js" / "games" / "avalon.json").read_text(encoding="utf-8"))
ZH, EN = STRINGS["zh"], STRINGS["en"]
ACTING = ["propose", "speak", "vote", "quest", "lady", "assassinate"]
ACTIONS_SENT: list[str] = []  # every POST …/action any page of this module sent


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    """The real server with its official bots, which fill a room's open seats after a second."""
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="1").start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


@pytest.fixture
async def pages(browser: Browser) -> AsyncIterator[list[Watched]]:
    opened: list[Watched] = []
    yield opened
    for seen in opened:
        await seen.page.context.close()
    for seen in opened:
        assert not seen.errors, f"uncaught errors in a page: {seen.errors}"


async def _open(browser: Browser, pages: list[Watched], url: str, locale: str = "zh-CN", ready: bool = True) -> Page:
    context = await browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    seen.page.on("request", lambda request: ACTIONS_SENT.append(request.url)
                 if request.method == "POST" and request.url.endswith("/action") else None)
    pages.append(seen)
    await seen.page.goto(url)
    if ready:  # a page with a script says when it has drawn (the lobby is drawn by the server)
        await expect(seen.page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
    return seen.page


def _tid(page: Page, testid: str) -> Locator:
    return page.locator(f'[data-testid="{testid}"]')


async def _fits_the_width(page: Page) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


async def _snap(api: httpx.AsyncClient, match_id: str, token: str | None = None) -> dict[str, Any]:
    response = await api.get(f"/api/matches/{match_id}", headers={"X-Play-Token": token} if token else {})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def _seated(api: httpx.AsyncClient, match_id: str, token: str) -> dict[str, Any]:
    """The snapshot once the official bots have filled the room (they sit down after a second)."""
    for _ in range(240):
        snap = await _snap(api, match_id, token)
        if snap["status"] == "in_progress":
            return snap
        await asyncio.sleep(0.25)
    raise AssertionError("the bots never filled the room")


async def _next_turn(page: Page, expected: str | None = None) -> str | None:
    """Wait until the person may act (its controls drawn) or the match is over; the action, or None. With
    `expected` (what the server says the seat is to do), wait for that action's controls: the page draws them
    when its long-poll returns, and until then it may still show the controls of the move just made."""
    await page.wait_for_function(
        """([acting, expected]) => {
          const you = document.getElementById("you");
          return document.querySelector("#result:not([hidden])")
            || (you && acting.includes(you.dataset.action) && (!expected || you.dataset.action === expected)
                && you.querySelector(".avalon-controls"));
        }""", arg=[ACTING, expected], timeout=GAME)
    if await page.locator("#result:not([hidden])").count():
        return None
    return await page.locator("#you").get_attribute("data-action")


async def _act(page: Page, action: str, me: dict[str, Any], snap: dict[str, Any], said: int,
               strings: dict[str, str] = ZH) -> None:
    """One move through the page's buttons; waits until the page has taken it."""
    if action == "propose":
        offer = next(a for a in me["allowed_actions"] if a["type"] == "propose")
        team = [me["seat"], *[s for s in offer["targets"] if s != me["seat"]]][:offer["team_size"]]
        await expect(_tid(page, "avalon-propose")).to_be_disabled()
        for seat in team:
            await _tid(page, f"avalon-team-pick-{seat}").click()
        await _tid(page, "avalon-propose-text").fill("我带上自己，大家放心。")
        await _tid(page, "avalon-propose").click()
    elif action == "speak":
        if said % 2:
            await _tid(page, "avalon-skip").click()
        else:
            if not said:  # an empty speech is refused on the page, in words, and sends nothing
                await _tid(page, "avalon-speak-send").click()
                await expect(_tid(page, "play-message")).to_have_text(strings["av_speak_empty"])
            await _tid(page, "avalon-speak-input").fill(f"我觉得这队可以，第{said + 1}次发言")
            await _tid(page, "avalon-speak-send").click()
    elif action == "vote":
        await expect(_tid(page, "avalon-vote-reject")).to_be_visible()
        await _tid(page, "avalon-vote-approve").dblclick()  # a double press sends one vote
    elif action == "quest":
        if me["side"] == "evil":
            await expect(_tid(page, "avalon-quest-fail")).to_be_visible()
        else:
            await expect(_tid(page, "avalon-quest-fail")).to_have_count(0)
        await _tid(page, "avalon-quest-success").click()
    elif action == "lady":
        await page.locator('[data-testid^="avalon-lady-"]').first.click()
    elif action == "assassinate":
        target = next(a for a in me["allowed_actions"] if a["type"] == "assassinate")["targets"][0]
        await _tid(page, f"avalon-assassinate-{target}").click()
    await page.wait_for_function(
        "([action, phase, quest, proposal]) => { const you = document.getElementById('you');"
        " return you.dataset.action !== action || document.querySelector('#result:not([hidden])')"
        " || document.querySelector('[data-testid=\"play-message\"][data-kind=\"error\"]:not([hidden])') }",
        arg=[action, snap["phase"], snap["quest_no"], snap["proposal_no"]], timeout=WAIT)
    assert not await page.locator('[data-testid="play-message"][data-kind="error"]:not([hidden])').count()


async def _play_to_the_end(page: Page, api: httpx.AsyncClient, match_id: str, token: str,
                           strings: dict[str, str] = ZH) -> list[str]:
    acted: list[str] = []
    while (action := await _next_turn(page)) is not None:
        snap = await _snap(api, match_id, token)
        me = snap["you"]
        if me["next_action"] != action:  # the page is a moment behind the server: read it again
            continue
        await expect(_tid(page, "quest-track")).to_be_visible()
        await _act(page, action, me, snap, acted.count("speak"), strings)
        acted.append(action)
    return acted


async def _check_the_end(page: Page, api: httpx.AsyncClient, match_id: str, strings: dict[str, str]) -> None:
    final = await _snap(api, match_id)
    assert final["status"] == "finished"
    await expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    await expect(page.locator("#winner")).to_have_text(strings[f"camp_{final['result']['winner_camp']}"])
    rows = _tid(page, "avalon-roster").locator("li")
    await expect(rows).to_have_count(5)
    for seat, role in final["result"]["roles"].items():
        await expect(rows.nth(int(seat))).to_have_attribute("data-role", role)
    slots = _tid(page, "quest-track").locator('[data-testid="quest-slot"]')
    await expect(slots).to_have_count(5)
    for i, quest in enumerate(final["quests"]):
        await expect(slots.nth(i)).to_have_attribute("data-result", quest["result"])
        await expect(slots.nth(i)).to_have_attribute("data-fails", str(quest["fails"]))
    await _fits_the_width(page)


async def test_a_person_plays_five_seats_against_the_official_bots(
        server: Server, api: httpx.AsyncClient, browser: Browser, pages: list[Watched]) -> None:
    for _ in range(30):  # the first leader is dealt at random: open rooms until the person leads first
        table = AvalonTable(api, 5)
        table.config = {"n_players": 5}
        await table.open(fill=False)
        snap = await _seated(api, table.match_id, table.tokens[0])
        if snap["leader_seat"] == 0:
            break
        await api.post(f"/api/matches/{table.match_id}/concede", headers=table.h(0))  # the bots finish it
    else:
        raise AssertionError("the person never led first")
    url = f"{server.base_url}/match/{table.match_id}"
    page = await _open(browser, pages, f"{url}#play={table.tokens[0]}")
    await expect(page.locator("#players .player:not(.empty)")).to_have_count(5, timeout=WAIT)
    await expect(page.locator('#phase li[data-step="quest"]')).to_have_count(1)
    await expect(page.locator('#phase li[data-step="lady"]')).to_have_count(0)  # no Lady at this table
    assert sum(p["is_official"] for p in snap["players"]) == 4
    await expect(_tid(page, "avalon-you-role")).to_have_text(ZH[f"role_{snap['you']['role']}"], timeout=WAIT)
    await _fits_the_width(page)
    ACTIONS_SENT.clear()
    acted = await _play_to_the_end(page, api, table.match_id, table.tokens[0])
    assert acted[0] == "propose" and {"speak", "vote"} <= set(acted), acted
    assert len(ACTIONS_SENT) == len(acted), (ACTIONS_SENT, acted)  # one request a move, double presses included
    await _check_the_end(page, api, table.match_id, ZH)
    stream = page.locator("#stream")
    await expect(stream.locator('[data-testid="avalon-vote-reveal"]').first).to_be_visible()
    await expect(stream.locator('[data-testid="avalon-quest-result"]').first).to_be_visible()
    english = await _open(browser, pages, f"{url}?lang=en")
    await _check_the_end(english, api, table.match_id, EN)
    # The track in English: a quest not played keeps its label ("Quest 5"), a played one shows its result.
    played = [q["result"] for q in (await _snap(api, table.match_id))["quests"] if q["result"] in ("success", "fail")]
    track = _tid(english, "quest-track")
    await expect(track).to_contain_text(EN["av_rejections"])
    await expect(track).to_contain_text(EN[f"av_{played[-1]}"] if len(played) == 5 else EN["av_quest_n"].format(n=5))


async def test_a_person_opens_a_quick_start_from_the_lobby_in_english(
        server: Server, api: httpx.AsyncClient, browser: Browser, pages: list[Watched]) -> None:
    """开一局 for Avalon: the lobby's button, the form in English (5 seats, the quick pace, the Lady of the Lake),
    the official bots in every other seat at once, and the whole game through the page on a phone."""
    page = await _open(browser, pages, f"{server.base_url}/?lang=en", locale="en-US", ready=False)
    await _tid(page, "lobby-play-avalon").click()
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
    await expect(page.locator('fieldset[data-choice="lady_of_the_lake"] legend')).to_have_text(
        EN["choice_lady_of_the_lake"])
    await expect(_tid(page, "play-choice-n_players-5")).to_be_checked()
    await _tid(page, "play-choice-pace-quick").check()
    await _tid(page, "play-choice-lady_of_the_lake").check()
    await _tid(page, "play-name").fill("Arthur")
    await _fits_the_width(page)
    await _tid(page, "play-form-submit").click()
    await page.wait_for_url("**/match/*", timeout=WAIT)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
    await expect(page.locator("#players .player:not(.empty)")).to_have_count(5, timeout=WAIT)
    await expect(page.locator('#phase li[data-step="lady"]')).to_have_count(1)  # the Lady is at this table
    match_id = page.url.rsplit("/match/", 1)[1].split("?")[0]
    token = await kept_token(page, match_id)
    snap = await _seated(api, match_id, token)
    assert (snap["config"]["lady_of_the_lake"], snap["config"]["speak_timeout"]) == (True, 45)
    assert [p["seat"] for p in snap["players"] if p.get("is_guest")] == [0]
    assert all(p["is_official"] for p in snap["players"] if p["seat"] != 0)
    await expect(_tid(page, "avalon-you-role")).to_have_text(EN[f"role_{snap['you']['role']}"], timeout=WAIT)
    acted = await _play_to_the_end(page, api, match_id, token, EN)
    assert {"vote"} <= set(acted), acted
    await _check_the_end(page, api, match_id, EN)


def _team(table: AvalonTable, snap: dict[str, Any]) -> list[int]:
    """Quest 1 takes the person (the assassin, who plays success) along; later quests are all good seats."""
    size = snap["quest_sizes"][snap["quest_no"] - 1]
    return sorted(([0] if snap["quest_no"] == 1 else []) + table.good())[:size]


async def test_the_assassin_names_merlin_from_the_page(server: Server, api: httpx.AsyncClient, browser: Browser,
                                                      pages: list[Watched]) -> None:
    for _ in range(40):  # roles are dealt at random: deal until the person (seat 0) is the assassin
        table = AvalonTable(api, 5, speak_timeout=600, vote_timeout=600, assassin_timeout=600)
        await table.open()
        table.roles = [(await table.snap(seat))["you"]["role"] for seat in range(5)]
        if table.roles[0] == "assassin":
            break
    else:
        raise AssertionError("seat 0 was never the assassin")
    page = await _open(browser, pages, f"{server.base_url}/match/{table.match_id}#play={table.tokens[0]}")
    await expect(_tid(page, "avalon-you-sees")).to_contain_text(str(table.roles.index("morgana")), timeout=WAIT)
    acted: list[str] = []
    for _ in range(200):  # the agents hand the good side three clean quests; the person plays along on the page
        snap = await table.snap(None)
        if snap["phase"] == "assassinate" or snap["status"] != "in_progress":
            break
        mine = await table.snap(0)
        if mine["you"]["your_turn"]:
            action = await _next_turn(page, mine["you"]["next_action"])
            assert action is not None and action == mine["you"]["next_action"], (action, mine["you"]["next_action"])
            if action == "propose":  # the person leads: a good team, picked on the page
                team = _team(table, snap)
                for seat in team:
                    await _tid(page, f"avalon-team-pick-{seat}").click()
                await _tid(page, "avalon-propose").click()
                await expect(_tid(page, "avalon-team")).to_have_attribute("data-team", ",".join(map(str, team)),
                                                                          timeout=WAIT)
            else:
                await _act(page, action, mine["you"], mine, acted.count("speak"))
            acted.append(action)
            continue
        for seat in range(1, 5):
            you = (await table.snap(seat))["you"]
            if you["next_action"] == "propose":
                await table.ok(seat, {"type": "propose", "team": _team(table, await table.snap(None))})
            elif you["next_action"] == "speak":
                await table.ok(seat, {"type": "skip"})
            elif you["next_action"] == "vote":
                await table.ok(seat, {"type": "vote", "choice": "approve"})
            elif you["next_action"] == "quest":
                await table.ok(seat, {"type": "quest", "card": "success"})
    assert (await table.snap(None))["phase"] == "assassinate", acted
    assert {"vote", "quest"} <= set(acted), acted
    await expect(page.locator("#you")).to_have_attribute("data-action", "assassinate", timeout=WAIT)
    await _tid(page, "avalon-confer-input").fill("我看 2 号一直在带队，像梅林。")
    await _tid(page, "avalon-confer-send").click()
    await expect(page.locator('#stream [data-testid="avalon-confer"]')).to_have_count(1, timeout=WAIT)
    merlin = table.roles.index("merlin")
    await expect(_tid(page, f"avalon-assassinate-{table.roles.index('morgana')}")).to_have_count(0)
    await _tid(page, f"avalon-assassinate-{merlin}").click()
    await expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    await expect(page.locator("#winner")).to_have_text(ZH["camp_evil"])
    await expect(page.locator('#stream [data-testid="avalon-assassination"]')).to_have_attribute(
        "data-target", str(merlin))
    await _check_the_end(page, api, table.match_id, ZH)
