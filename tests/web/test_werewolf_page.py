"""The werewolf page module in a real browser: agents play a 9-seat game over HTTP while a spectator (a logged-in
visitor who owns no seat: the god view) and an anonymous visitor on a phone watch it live; then the replay.

The script: night 1 the wolves whisper and knife a villager, the seer checks a wolf, the witch poisons another;
dawn shows both deaths; both dead say last words; day 1 votes the hunter out, who shoots a wolf; night 2 the
last wolf knifes a villager; day 2 ties, the PK votes the last wolf out and the village wins. Every step waits
for what the pages show (no sleeps); timeouts are long enough that no timer fires.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, ViewportSize, expect

from tests.api.table import Table
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser
WAIT = 60_000  # ms: how long a page condition may take on a loaded machine before the test fails
PHONE: ViewportSize = {"width": 390, "height": 844}
STRINGS = json.loads((ROOT / "static" / "js" / "games" / "werewolf.json").read_text(encoding="utf-8"))
ZH, EN = STRINGS["zh"], STRINGS["en"]
_watchers = itertools.count()


class WerewolfTable(Table):
    """A `Table` of fresh agents playing werewolf; `roles` maps role → seats once dealt."""

    def __init__(self, client: httpx.AsyncClient, n: int, **config: Any) -> None:
        super().__init__(client, n)
        self.config = {"n_players": n, **config}
        self.roles: dict[str, list[int]] = {}

    async def open(self, fill: bool = True) -> dict[str, Any]:
        await self.register()
        created = await self.client.post("/api/matches", json={"game": "werewolf", "config": self.config},
                                         headers=self.h(0))
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        self.match_id = body["match_id"]
        self.tokens.append(body["play_token"])
        if fill:
            for seat in range(1, self.n):
                await self.join(seat)
            for seat in range(self.n):
                role = (await self.snap(seat))["you"]["role"]
                self.roles.setdefault(role, []).append(seat)
        return body

    async def ok(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.act(seat, body)
        assert response.status_code == 200, response.text
        return dict(response.json())


async def _spectator(browser: Browser, server: Server, api: httpx.AsyncClient) -> AsyncIterator[Watched]:
    username = f"ww-watcher-{next(_watchers)}"
    signed = await api.post("/api/owners", json={"username": username, "password": "a long password"})
    assert signed.status_code == 201, signed.text
    api.cookies.clear()  # the agents' requests carry no session: `table.snap(None)` stays anonymous
    context = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    await context.add_cookies([{"name": "wodi_session", "value": signed.cookies["wodi_session"],
                                "url": server.base_url}])
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    yield seen
    await context.close()
    assert not seen.errors, f"uncaught errors in the spectator's page: {seen.errors}"


@pytest.fixture
async def spectator(browser: Browser, server: Server, api: httpx.AsyncClient) -> AsyncIterator[Watched]:
    """A desktop page of a signed-in owner who has no seat in the match: the spectator layer."""
    async for seen in _spectator(browser, server, api):
        yield seen


@pytest.fixture
async def anonymous_phone(browser: Browser) -> AsyncIterator[Watched]:
    """A phone-sized page with no session: the anonymous layer."""
    context = await browser.new_context(viewport=PHONE, locale="zh-CN", is_mobile=True, has_touch=True)
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    yield seen
    await context.close()
    assert not seen.errors, f"uncaught errors in the anonymous page: {seen.errors}"


def _item(page: Page, testid: str) -> Locator:
    return page.locator(f'#stream [data-testid="{testid}"]')


def _card(page: Page, seat: int) -> Locator:
    return page.locator(f'#players .player[data-seat="{seat}"]')


async def _fits_the_width(page: Page) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


async def badges_clear(page: Page) -> None:
    """No seat's won/lost badge covers its name or its handle line (English words are wider than 胜/负)."""
    covered = await page.evaluate("""() => {
      const boxes = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const out = [];
      for (const badge of document.querySelectorAll("#players .player .outcome")) {
        const card = badge.closest(".player"), mark = badge.getBoundingClientRect();
        for (const part of card.querySelectorAll(".player-name, .player-handle > *")) {
          if (boxes(mark, part.getBoundingClientRect())) out.push(`${card.dataset.seat}: ${part.textContent}`);
        }
      }
      return out;
    }""")
    assert not covered, f"won/lost badges cover: {covered}"


async def _both(pages: tuple[Page, Page], check: Any) -> None:
    for page in pages:
        await check(page)


async def _speak_day(table: WerewolfTable, pages: tuple[Page, Page], day: int) -> None:
    """Every seat with the floor speaks; each speech shows on both pages before the next one."""
    while True:
        snap = await table.snap(None)
        if not snap["phase"].startswith("speak_"):
            return
        speaker = snap["current_speaker_seat"]
        text = f"day {day} speech of seat {speaker}{' (PK)' if snap['pk_candidates'] else ''}"
        for page in pages:
            await expect(_card(page, speaker)).to_have_attribute("data-speaking", "true", timeout=WAIT)
        await table.ok(speaker, {"type": "speak", "text": text})
        for page in pages:
            await expect(_item(page, "ww-speech").filter(has_text=text)).to_have_count(1, timeout=WAIT)


async def _last_words(table: WerewolfTable, pages: tuple[Page, Page], seat: int, text: str) -> None:
    snap = await table.snap(seat)
    assert snap["you"]["next_action"] == "last_words", snap["you"]
    for page in pages:
        await expect(_card(page, seat)).to_have_attribute("data-acting", "last_words", timeout=WAIT)
    await table.ok(seat, {"type": "last_words", "text": text})
    for page in pages:
        await expect(_item(page, "ww-last-words").filter(has_text=text)).to_have_count(1, timeout=WAIT)


async def _votes(table: WerewolfTable, pages: tuple[Page, Page], votes: dict[int, int], pk: bool = False) -> None:
    """Cast `votes` (voter → target) at once; each shows in the round's ballot on both pages."""
    await asyncio.gather(*(table.ok(voter, {"type": "vote", "target_seat": target}) for voter, target in votes.items()))
    for page in pages:
        ballot = page.locator(f'#votes .ballot[data-pk="{str(pk).lower()}"]')
        for voter, target in votes.items():
            await expect(ballot.locator(f'.voter[data-voter="{voter}"]')).to_have_attribute(
                "data-target", str(target), timeout=WAIT)


async def test_a_werewolf_game_live_for_a_spectator_and_an_anonymous_phone_then_its_replay(
        server: Server, api: httpx.AsyncClient, browser: Browser, spectator: Watched, anonymous_phone: Watched) -> None:
    table = WerewolfTable(api, 9, night_timeout=600, speak_timeout=600, vote_timeout=900)
    await table.open()
    roles = table.roles
    w1, w2, w3 = roles["werewolf"]
    v1, v2, v3 = roles["villager"]
    (seer,), (witch,), (hunter,) = roles["seer"], roles["witch"], roles["hunter"]
    god, anon = spectator.page, anonymous_phone.page
    pages = (god, anon)
    for page in pages:
        await page.goto(f"{server.base_url}/match/{table.match_id}")
        await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)

    # ---- night 1: both pages are at night; only the god view sees the pack and the night roles ------------------
    await _both(pages, lambda p: expect(p.locator("#phase")).to_have_attribute("data-stage", "night", timeout=WAIT))
    for page in pages:
        await expect(page.locator("#round")).to_have_text(ZH["ww_round_night"].format(n=1))
        await expect(page.locator('#phase li[data-step="night"]')).to_have_class("on")
        await expect(_item(page, "ww-night")).to_have_count(1)
        await expect(page.locator("#config-line")).to_have_text("9 人 · 3 狼 3 民 · 预言家、女巫、猎人 · 屠边")
    await expect(god.locator("#viewer")).to_have_text("上帝视角")
    await expect(_card(god, w1)).to_have_attribute("data-role", "werewolf")  # the god view knows every card
    await expect(_card(anon, w1)).to_have_attribute("data-role", "")
    await _fits_the_width(anon)

    await table.ok(w1, {"type": "whisper", "target_seat": w2, "text": f"tonight we take seat {v1}"})
    await expect(_item(god, "ww-whisper").filter(has_text=f"tonight we take seat {v1}")).to_have_count(1, timeout=WAIT)
    await table.ok(w1, {"type": "night_action", "action": "kill", "target_seat": v1})
    await expect(_item(god, "ww-wolf-choice").first).to_have_attribute("data-target", str(v1), timeout=WAIT)
    await expect(_card(god, w1).locator(".kill-choice")).to_be_visible()
    await table.ok(w2, {"type": "night_action", "action": "kill", "target_seat": v1})
    await expect(_item(god, "ww-wolves-decided")).to_have_attribute("data-target", str(v1), timeout=WAIT)
    await expect(_card(god, v1).locator(".knifed")).to_be_visible()
    await table.ok(seer, {"type": "night_action", "action": "check", "target_seat": w3})
    result = _item(god, "ww-seer-result")
    await expect(result).to_have_attribute("data-camp", "werewolf", timeout=WAIT)
    await expect(result).to_have_attribute("data-target", str(w3))
    await expect(_item(god, "ww-witch")).to_have_count(1, timeout=WAIT)  # she learns the victim
    await table.ok(witch, {"type": "night_action", "action": "poison", "target_seat": w2})

    # ---- dawn: who died, on both pages; how, only for the god ---------------------------------------------------
    dead = ",".join(str(s) for s in sorted((v1, w2)))
    for page in pages:
        await expect(_item(page, "ww-dawn")).to_have_attribute("data-dead", dead, timeout=WAIT)
        for seat in (v1, w2):
            await expect(_card(page, seat)).to_have_attribute("data-alive", "false")
            await expect(_card(page, seat)).to_have_attribute("data-out", "night")
    await expect(_item(god, "ww-dawn")).to_be_in_viewport(timeout=WAIT)  # the stream follows a night's burst
    await expect(_card(god, w2).locator(".cause")).to_have_attribute("data-cause", "poisoned")
    await expect(_item(god, "ww-night-resolved")).to_have_count(1)
    assert await _card(anon, w2).locator(".cause").count() == 0
    # Everything of the night the anonymous page was not meant to see: the dawn item came later, so it is final.
    for hidden in ("ww-whisper", "ww-wolf-choice", "ww-wolves-decided", "ww-seer-result", "ww-witch",
                   "ww-night-resolved"):
        assert await _item(anon, hidden).count() == 0, hidden
    assert await anon.locator("#stream").inner_text() != ""
    assert f"tonight we take seat {v1}" not in await anon.locator("#stream").inner_text()

    # ---- night 1's dead speak, then day 1: speeches, the vote, the hunter's shot --------------------------------
    for seat in sorted((v1, w2)):
        await _last_words(table, pages, seat, f"last words of seat {seat}")
    await _both(pages, lambda p: expect(p.locator("#phase")).to_have_attribute("data-stage", "speak", timeout=WAIT))
    for page in pages:
        await expect(page.locator("#round")).to_have_text(ZH["ww_round_day"].format(n=1))
        await expect(_item(page, "ww-day")).to_have_count(1)
    await _speak_day(table, pages, 1)
    await _both(pages, lambda p: expect(p.locator("#phase")).to_have_attribute("data-stage", "vote", timeout=WAIT))
    living = [s for s in range(9) if s not in (v1, w2)]
    await _votes(table, pages, {s: (w1 if s == hunter else hunter) for s in living})
    for page in pages:
        await expect(_card(page, hunter)).to_have_attribute("data-out", "vote", timeout=WAIT)
        await expect(page.locator(f'#votes .flow-row.out[data-target="{hunter}"] .flow-count')).to_have_text(
            str(len(living) - 1))
        await expect(_card(page, hunter)).to_have_attribute("data-acting", "shoot", timeout=WAIT)
        await expect(page.locator('#phase li[data-step="vote"]')).to_have_class("on")
    await table.ok(hunter, {"type": "shoot", "target_seat": w1})
    for page in pages:
        await expect(_item(page, "ww-hunter-shot")).to_have_attribute("data-target", str(w1), timeout=WAIT)
        await expect(_card(page, w1)).to_have_attribute("data-out", "shot")
        await expect(_card(page, hunter)).to_have_attribute("data-role", "hunter")  # shooting shows his card
    await _last_words(table, pages, hunter, "the hunter's last words")
    await _last_words(table, pages, w1, "shot, and gone")

    # ---- night 2 and day 2: a knife, a tie, the PK, the end ------------------------------------------------------
    await _both(pages, lambda p: expect(p.locator("#round")).to_have_text(ZH["ww_round_night"].format(n=2),
                                                                         timeout=WAIT))
    await table.ok(w3, {"type": "night_action", "action": "kill", "target_seat": v2})
    await table.ok(seer, {"type": "night_action", "action": "check", "target_seat": v3})
    await table.ok(witch, {"type": "night_action", "action": "pass"})
    for page in pages:
        await expect(_item(page, "ww-dawn").nth(1)).to_have_attribute("data-dead", str(v2), timeout=WAIT)
    await _speak_day(table, pages, 2)
    await _votes(table, pages, {seer: w3, v3: w3, w3: v3, witch: v3})
    for page in pages:
        await expect(page.locator("#pk")).to_be_visible(timeout=WAIT)
        await expect(page.locator('#stream [data-testid="ww-day"][data-pk="true"]')).to_have_count(1, timeout=WAIT)
    await _speak_day(table, pages, 2)
    await _votes(table, pages, {seer: w3, witch: w3}, pk=True)

    final = await table.snap(None)
    assert final["status"] == "finished" and final["result"]["winner_camp"] == "village", final["result"]
    for page in pages:
        await expect(page.locator("#winner")).to_have_text(ZH["camp_village"], timeout=WAIT)
        await expect(page.locator('#phase li[data-step="finished"]')).to_have_class("on")
        rows = page.locator('[data-testid="ww-roster-row"]')
        await expect(rows).to_have_count(9)
        for seat, role in final["result"]["roles"].items():
            await expect(page.locator(f'[data-testid="ww-roster-row"][data-seat="{seat}"]')).to_have_attribute(
                "data-role", role)
    # After the end everyone sees everything: the anonymous page now shows the wolves' talk too.
    await expect(_item(anon, "ww-whisper").filter(has_text=f"tonight we take seat {v1}")).to_have_count(1,
                                                                                                    timeout=WAIT)
    await _fits_the_width(anon)

    # ---- the replay of the finished match, in English --------------------------------------------------------------
    await anon.goto(f"{server.base_url}/match/{table.match_id}?lang=en")
    await expect(anon.locator("#winner")).to_have_text(EN["camp_village"], timeout=WAIT)
    await expect(anon.locator("#players .player .outcome")).to_have_count(9)
    await badges_clear(anon)
    await expect(anon.locator("#replay")).to_be_visible()
    await anon.click("#replay-next")
    await expect(anon.locator("#replay-label")).to_have_attribute("data-round", "1")
    await expect(_item(anon, "ww-night")).to_have_text(EN["ww_ev_night"].format(n=1))
    await expect(_item(anon, "ww-dawn")).to_have_attribute("data-dead", dead)
    await expect(_item(anon, "ww-hunter-shot")).to_have_count(1)
    await expect(_item(anon, "ww-speech").filter(has_text="day 2")).to_have_count(0)
    await expect(anon.locator('#votes .ballot[data-round="1"]')).to_be_visible()
    await expect(_card(anon, hunter)).to_have_attribute("data-out", "vote")
    await expect(_card(anon, v2)).to_have_attribute("data-alive", "true")
    await _fits_the_width(anon)
    await anon.click("#replay-next")
    await expect(anon.locator("#replay-label")).to_have_attribute("data-round", "2")
    await expect(_item(anon, "ww-dawn")).to_have_attribute("data-dead", str(v2))
    await expect(anon.locator('#votes .ballot[data-round="2"][data-pk="true"]')).to_be_visible()
    await expect(anon.locator("#votes .flow-row.out")).to_have_attribute("data-target", str(w3))
    await expect(anon.locator("#replay-next")).to_be_disabled()
    await _fits_the_width(anon)


async def _owner_of(browser: Browser, server: Server, api: httpx.AsyncClient, table: WerewolfTable, seat: int,
                    username: str) -> Watched:
    """A desktop page signed in as the owner of `seat`'s agent (claimed after the deal): the player_owner layer."""
    signed = await api.post("/api/owners", json={"username": username, "password": "a long password"})
    assert signed.status_code == 201, signed.text
    cookie = signed.cookies["wodi_session"]
    api.cookies.clear()
    me = (await api.get("/api/agents/me", headers=table.h(seat))).json()
    claimed = await api.post(f"/api/agents/claim/{me['claim_url'].rsplit('/', 1)[1]}",
                             headers={"Origin": server.base_url, "Cookie": f"wodi_session={cookie}"})
    assert claimed.status_code == 200, claimed.text
    context = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    await context.add_cookies([{"name": "wodi_session", "value": cookie, "url": server.base_url}])
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    return seen


async def test_each_seat_sees_its_own_night(server: Server, api: httpx.AsyncClient, browser: Browser) -> None:
    """A wolf's owner sees the pack's talk and choices, the seer's owner her check; neither sees the other's."""
    table = WerewolfTable(api, 6, night_timeout=600, speak_timeout=600, vote_timeout=900)
    await table.open()
    w1, w2 = table.roles["werewolf"]
    v1, _ = table.roles["villager"]
    (seer,), (witch,) = table.roles["seer"], table.roles["witch"]
    wolf_owner = await _owner_of(browser, server, api, table, w1, "ww-wolf-owner")
    seer_owner = await _owner_of(browser, server, api, table, seer, "ww-seer-owner")
    wolf, seer_page = wolf_owner.page, seer_owner.page
    try:
        for page in (wolf, seer_page):
            await page.goto(f"{server.base_url}/match/{table.match_id}")
            await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
            await expect(page.locator("#viewer")).to_have_text("主人视角")
        await expect(wolf.locator('[data-testid="ww-you-role"]')).to_have_text(ZH["role_werewolf"])
        await expect(wolf.locator('[data-testid="ww-you-fellows"]')).to_contain_text(f"{w2}号")
        await expect(_card(wolf, w2)).to_have_attribute("data-role", "werewolf")  # the pack knows itself
        await expect(_card(wolf, seer)).to_have_attribute("data-role", "")
        await expect(seer_page.locator('[data-testid="ww-you-role"]')).to_have_text(ZH["role_seer"])
        await expect(_card(seer_page, w1)).to_have_attribute("data-role", "")

        await table.ok(w1, {"type": "whisper", "target_seat": w2, "text": "pack talk, wolves only"})
        await table.ok(w1, {"type": "night_action", "action": "kill", "target_seat": v1})
        await table.ok(w2, {"type": "night_action", "action": "kill", "target_seat": v1})
        await table.ok(seer, {"type": "night_action", "action": "check", "target_seat": w2})
        await expect(_item(wolf, "ww-whisper")).to_have_text(re.compile("pack talk, wolves only"), timeout=WAIT)
        await expect(_item(wolf, "ww-wolves-decided")).to_have_attribute("data-target", str(v1), timeout=WAIT)
        await expect(_item(seer_page, "ww-seer-result")).to_have_attribute("data-camp", "werewolf", timeout=WAIT)
        await expect(seer_page.locator('[data-testid="ww-you-checks"]')).to_contain_text(f"{w2}号")
        await expect(_card(seer_page, w2)).to_have_attribute("data-camp", "werewolf")  # what her check taught her
        await table.ok(witch, {"type": "night_action", "action": "pass"})
        for page in (wolf, seer_page):
            await expect(_item(page, "ww-dawn")).to_have_attribute("data-dead", str(v1), timeout=WAIT)
        for hidden in ("ww-whisper", "ww-wolf-choice", "ww-wolves-decided", "ww-witch", "ww-night-resolved"):
            assert await _item(seer_page, hidden).count() == 0, hidden
        for hidden in ("ww-seer-result", "ww-witch", "ww-night-resolved"):
            assert await _item(wolf, hidden).count() == 0, hidden
    finally:
        for seen in (wolf_owner, seer_owner):
            await seen.page.context.close()
            assert not seen.errors, f"uncaught errors in the page: {seen.errors}"


async def test_the_lobby_and_a_profile_draw_werewolfs_parts(server: Server, api: httpx.AsyncClient,
                                                            watched: Watched) -> None:
    """A finished werewolf match: the lobby's card names the wolves, a profile shows the seat's role and side wins."""
    table = WerewolfTable(api, 6, night_timeout=600, speak_timeout=600, vote_timeout=900)
    await table.open()
    w1, w2 = table.roles["werewolf"]
    for wolf in (w1, w2):  # two wolves concede: the village wins at once
        await table.ok(wolf, {"type": "concede"})
    final = await table.snap(None)
    assert final["result"]["winner_camp"] == "village", final["result"]
    page = watched.page
    await page.goto(f"{server.base_url}/")
    card = page.locator(f'#finished .room[data-match="{table.match_id}"]')
    await expect(card.locator(".pill-camp")).to_have_text(ZH["camp_village"])
    await expect(card.locator(".room-wolves")).to_have_text(f"{ZH['ww_wolves_were']}{w1}号 {w2}号")
    seer = table.roles["seer"][0]
    await page.goto(f"{server.base_url}/agents/{table.names[seer]}")
    await expect(page.locator("#stat-ww-village")).to_have_text("1")
    await expect(page.locator("#stat-ww-werewolf")).to_have_text("0")
    row = page.locator(f'#recent .history-row[data-match="{table.match_id}"]')
    await expect(row.locator(".role-seer")).to_have_text(ZH["role_seer"])


def _random_body(option: dict[str, Any], rng: random.Random, seat: int) -> dict[str, Any]:
    body: dict[str, Any] = {"type": option["type"]}
    if "action" in option:
        body["action"] = option["action"]
    if option.get("targets"):
        body["target_seat"] = rng.choice(option["targets"])
    elif option["type"] == "shoot":
        body["target_seat"] = None
    if option["type"] in ("speak", "last_words", "whisper"):
        body["text"] = f"seat {seat} says <b>{rng.randrange(1000)}</b>"
    return body


async def test_a_random_twelve_seat_game_draws_every_event(server: Server, api: httpx.AsyncClient,
                                                           spectator: Watched, anonymous_phone: Watched) -> None:
    """Agents that send only what `allowed_actions` offers play a 12-seat game (guard, hunter, cards shown on
    death) to the end; the god view's stream holds one item per drawn event of the log, and both pages end on the
    roster."""
    table = WerewolfTable(api, 12, reveal_role_on_death="role", night_timeout=600, speak_timeout=600,
                          vote_timeout=900)
    await table.open()
    god, anon = spectator.page, anonymous_phone.page
    await god.goto(f"{server.base_url}/match/{table.match_id}")
    await anon.goto(f"{server.base_url}/match/{table.match_id}?lang=en")
    rng = random.Random(12)
    for _ in range(3000):
        snaps = await asyncio.gather(*(table.snap(seat) for seat in range(table.n)))
        if snaps[0]["status"] != "in_progress":
            break
        options = {seat: [a for a in s["you"]["allowed_actions"] if a["type"] != "concede"]
                   for seat, s in enumerate(snaps)}
        # Everyone whose turn it is acts at once (one wolf at a time, so a pack never races itself); when nobody's
        # turn is due (a split pack), one seat that may still act changes its mind.
        due = [seat for seat, snap in enumerate(snaps) if snap["you"]["your_turn"] and options[seat]]
        wolves = [seat for seat in due if snaps[seat]["you"]["role"] == "werewolf"]
        movers = [seat for seat in due if seat not in wolves] + ([rng.choice(wolves)] if wolves else [])
        movers = movers or [rng.choice([seat for seat, offered in options.items() if offered])]
        await asyncio.gather(*(table.ok(seat, _random_body(rng.choice(options[seat]), rng, seat)) for seat in movers))
    final = await table.snap(None)
    assert final["status"] == "finished", final["phase"]
    log = final["public_log"] + final["spectator_log"]
    counted = {"night_result": "ww-dawn", "speech_posted": "ww-speech", "vote_cast": "ww-vote",
               "whisper_received": "ww-whisper", "hunter_shot": "ww-hunter-shot", "last_words_posted": "ww-last-words",
               "seer_result": "ww-seer-result", "night_resolved": "ww-night-resolved"}
    for page, winner in ((god, ZH), (anon, EN)):
        await expect(page.locator("#winner")).to_have_text(winner[f"camp_{final['result']['winner_camp']}"],
                                                           timeout=WAIT)
        for event, testid in counted.items():
            await expect(_item(page, testid)).to_have_count(sum(e["type"] == event for e in log))
        nights = sum(e["type"] == "phase_started" and e["phase"].startswith("night_") for e in log)
        await expect(_item(page, "ww-night")).to_have_count(nights)
        guard_acts = sum(e["type"] == "night_action_recorded" and final["result"]["roles"][str(e["seat"])] == "guard"
                         for e in log)
        assert guard_acts >= 1  # the guard is woken on night 1 and answers (a protection or a pass)
        await expect(_item(page, "ww-guard")).to_have_count(guard_acts)
        for seat, role in final["result"]["roles"].items():
            await expect(page.locator(f'[data-testid="ww-roster-row"][data-seat="{seat}"]')).to_have_attribute(
                "data-role", role)
        assert await page.locator("#stream b").filter(has_text=re.compile(r"^\d+$")).count() == 0  # text, not HTML
    await _fits_the_width(anon)
