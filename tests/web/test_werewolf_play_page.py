"""Issue 33's browser acceptance for werewolf: from the lobby a guest opens 开一局 for werewolf (6 seats, the quick
pace), the official bots take the other five seats at once, and the guest plays to the end through the seat panel
alone — once dealt a wolf (the pack's whisper, the kill picked and confirmed), once dealt the seer or the witch (the
check and its answer, or the victim shown and the save or the poison) — then reads the recap; both at a desktop's
width and at a phone's (390 px), the phone in English.

The deal is random (the server draws each match's seed), so each test deals until the guest holds the role it
needs: a guest who leaves a quick start ends it at once and frees its bots, so a redeal costs a few seconds.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, ViewportSize, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched, _stop
from tests.web.playing import SOON, kept_token, read_snap
from tests.web.test_werewolf_page import WerewolfTable

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAME = 300_000  # ms: the longest a whole bot-paced game may take on a loaded machine
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
STRINGS = json.loads((ROOT / "static" / "js" / "games" / "werewolf.json").read_text(encoding="utf-8"))
ACTING = ["night_action", "speak", "vote", "shoot", "last_words"]
DEALS = 30  # a 6-seat table deals a given role family to seat 0 one time in three: 30 deals all miss ~1 in 10⁵


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    """The real server with its official bots; one browser opens many quick starts here, so lift its share."""
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600",
                     WODI_QUICK_START_BOTS_PER_CLIENT="100").start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


@pytest.fixture(params=["desktop", "phone"])
async def seen(request: pytest.FixtureRequest, browser: Browser) -> AsyncIterator[Watched]:
    phone = request.param == "phone"
    context = await browser.new_context(viewport=PHONE if phone else DESKTOP, locale="en-US" if phone else "zh-CN",
                                        is_mobile=phone, has_touch=phone)
    watched = Watched(await context.new_page())
    watched.page.on("pageerror", lambda error: watched.errors.append(str(error)))
    yield watched
    await context.close()
    assert not watched.errors, f"uncaught errors in the page: {watched.errors}"


def _lang(page: Page) -> str:
    return "en" if (page.viewport_size or DESKTOP)["width"] <= PHONE["width"] else "zh"


def _tid(page: Page, testid: str) -> Locator:
    return page.get_by_test_id(testid)


async def _fits(page: Page) -> None:
    if _lang(page) == "en":
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


async def _quick_start(page: Page, server: Server, name: str) -> str:
    """`/` → werewolf's 开一局 → the form (6 seats, quick) → the match page, bots seated; returns the match id."""
    await page.goto(f"{server.base_url}/{'?lang=en' if _lang(page) == 'en' else ''}")
    await _tid(page, "lobby-play-werewolf").click()
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    strings = STRINGS[_lang(page)]
    await expect(page.locator('fieldset[data-choice="pace"] legend')).to_have_text(strings["choice_pace"])
    await _tid(page, "play-choice-n_players-6").check()
    await _tid(page, "play-choice-pace-quick").check()
    await _tid(page, "play-name").fill(name)
    await _tid(page, "play-form-submit").click()
    await page.wait_for_url("**/match/*", timeout=SOON)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await expect(page.locator("#players .player:not(.empty)")).to_have_count(6, timeout=SOON)
    return page.url.rsplit("/match/", 1)[1].split("?")[0]


async def _dealt(page: Page, server: Server, api: httpx.AsyncClient, roles: set[str]) -> tuple[str, str]:
    """Quick starts from the lobby until the guest is dealt one of `roles`; the match id and the play token."""
    for deal in range(DEALS):
        match_id = await _quick_start(page, server, f"guest{deal}")
        token = await kept_token(page, match_id)
        snap = await read_snap(api, match_id, token)
        if snap["you"]["role"] in roles:
            assert snap["config"]["n_players"] == 6 and snap["config"]["night_timeout"] == 30
            assert [p["seat"] for p in snap["players"] if p.get("is_guest")] == [0]
            assert all(p["is_official"] for p in snap["players"] if p["seat"] != 0)
            return match_id, token
        left = await api.post(f"/api/matches/{match_id}/concede", headers={"X-Play-Token": token})
        assert left.status_code == 200, left.text
    raise AssertionError(f"seat 0 was never dealt {roles} in {DEALS} deals")


async def _next_turn(page: Page) -> str | None:
    """Wait until the panel offers a move or the match is over; the move, or None at the end."""
    await page.wait_for_function(
        """(acting) => {
          const you = document.getElementById("you");
          const controls = you && you.querySelector(".ww-controls");
          return document.querySelector("#result:not([hidden])")
            || (acting.includes(you.dataset.action) && controls && controls.childElementCount);
        }""", arg=ACTING, timeout=GAME)
    if await page.locator("#result:not([hidden])").count():
        return None
    return await page.locator("#you").get_attribute("data-action")


def _offer(me: dict[str, Any], kind: str, action: str | None = None) -> dict[str, Any] | None:
    return next((a for a in me["allowed_actions"] if a["type"] == kind and a.get("action") == action), None)


async def _night(page: Page, api: httpx.AsyncClient, match_id: str, token: str, me: dict[str, Any],
                 done: list[str]) -> None:
    """The guest's night move through the panel, by role; `done` records what it did."""
    if me["role"] == "werewolf":
        if "whisper" not in done and any(a["type"] == "whisper" for a in me["allowed_actions"]):
            await _tid(page, "ww-whisper-input").fill("今晚刀谁？我听你的")
            await _tid(page, "ww-whisper-send").click()
            await expect(page.locator('#stream [data-testid="ww-whisper"]').filter(has_text="今晚刀谁")).to_have_count(
                1, timeout=SOON)
            done.append("whisper")
        offer = _offer(me, "night_action", "kill")
        assert offer is not None, me["allowed_actions"]
        fellows = [t for s, t in me["pack_choices"].items() if int(s) != me["seat"] and t in offer["targets"]]
        target = fellows[0] if fellows else offer["targets"][0]
        await expect(_tid(page, "ww-night-confirm")).to_be_disabled()
        await _tid(page, f"ww-night-target-{target}").click()
        await _tid(page, "ww-night-confirm").click()
        mine = page.locator(f'#stream [data-testid="ww-wolf-choice"][data-target="{target}"]')
        await expect(mine.first).to_be_attached(timeout=SOON)
        done.append("kill")
    elif me["role"] == "seer":
        offer = _offer(me, "night_action", "check")
        assert offer is not None, me["allowed_actions"]
        # A seat not checked yet when there is one (a seer may look at a seat twice: then its answer shows twice).
        checked = {check["seat"] for check in me.get("seer_checks") or []}
        target = next((t for t in offer["targets"] if t not in checked), offer["targets"][0])
        answer = page.locator(f'#stream [data-testid="ww-seer-result"][data-target="{target}"]')
        shown = await answer.count()
        await _tid(page, f"ww-night-target-{target}").click()
        await _tid(page, "ww-night-confirm").click()
        await expect(answer).to_have_count(shown + 1, timeout=SOON)  # the seer's answer, in the seer's own stream
        await expect(_tid(page, "ww-you-checks")).to_contain_text(str(target), timeout=SOON)
        camp = (await read_snap(api, match_id, token))["you"]["seer_checks"][-1]
        assert camp["seat"] == target
        await expect(_tid(page, "ww-play-seer-answer")).to_have_attribute("data-camp", camp["camp"], timeout=SOON)
        await expect(_tid(page, "ww-play-seer-answer")).to_have_attribute("data-target", str(target))
        done.append("check")
    elif me["role"] == "witch":
        victim = "" if me["night_victim"] is None else str(me["night_victim"])
        await expect(_tid(page, "ww-play-victim")).to_have_attribute("data-victim", victim)
        save, poison = _offer(me, "night_action", "save"), _offer(me, "night_action", "poison")
        if save and "save" not in done:
            await _tid(page, "ww-witch-save").click()
            done.append("save")
        elif poison:
            await expect(_tid(page, "ww-witch-poison")).to_be_disabled()
            await _tid(page, f"ww-night-target-{poison['targets'][0]}").click()
            await _tid(page, "ww-witch-poison").click()
            done.append("poison")
        else:
            await _tid(page, "ww-night-pass").click()
            done.append("pass")


async def _vote(page: Page) -> None:
    # Cards are redrawn as the bots' votes come in: press whichever vote button is there now.
    buttons = page.locator('#players [data-testid^="vote-target-"]:not([disabled])')
    await expect(buttons.first).to_be_visible(timeout=SOON)
    await _tid(page, "vote-comment").fill("直觉")
    while await page.locator("#you").get_attribute("data-action") == "vote" and await buttons.count():
        try:
            await buttons.first.click(timeout=1000)
            break
        except PlaywrightTimeout:
            continue


async def _act(page: Page, api: httpx.AsyncClient, match_id: str, token: str, action: str, done: list[str]) -> None:
    me = (await read_snap(api, match_id, token))["you"]
    if me["next_action"] != action:  # the page is a moment behind the server: look again
        return
    if action == "night_action":
        await _night(page, api, match_id, token, me, done)
    elif action == "speak":
        text = f"我是好人，第{done.count('speak') + 1}次发言，大家看票型"
        await _tid(page, "speak-input").fill(text)
        await _tid(page, "speak-send").click()
        await expect(page.locator('#stream [data-testid="ww-speech"]').filter(has_text=text)).to_have_count(
            1, timeout=SOON)
        done.append("speak")
    elif action == "last_words":
        await _tid(page, "last-words-input").fill("我是好人，记住我的话")
        await _tid(page, "last-words-send").click()
        done.append("last_words")
    elif action == "shoot":
        target = next(a for a in me["allowed_actions"] if a["type"] == "shoot")["targets"][0]
        await _tid(page, f"ww-hunter-shoot-{target}").click()
        done.append("shoot")
    elif action == "vote":
        await _vote(page)
        done.append("vote")
    await page.wait_for_function(
        "(action) => document.getElementById('you').dataset.action !== action"
        " || document.querySelector('#result:not([hidden])')"
        " || document.querySelector('[data-testid=\"play-message\"][data-kind=\"error\"]:not([hidden])')",
        arg=action, timeout=GAME)
    assert not await page.locator('[data-testid="play-message"][data-kind="error"]:not([hidden])').count()


async def _play_to_the_end(page: Page, api: httpx.AsyncClient, match_id: str, token: str) -> list[str]:
    role = (await read_snap(api, match_id, token))["you"]["role"]
    await expect(_tid(page, "ww-you-role")).to_have_text(STRINGS[_lang(page)][f"role_{role}"], timeout=SOON)
    await _fits(page)
    done: list[str] = []
    while (action := await _next_turn(page)) is not None:
        await _act(page, api, match_id, token, action, done)
        await _fits(page)
    return done


async def _check_the_end(page: Page, api: httpx.AsyncClient, match_id: str) -> None:
    final = await read_snap(api, match_id)
    assert final["status"] == "finished", final["status"]
    strings = STRINGS[_lang(page)]
    await expect(page.locator("#winner")).to_have_text(strings[f"camp_{final['result']['winner_camp']}"])
    rows = _tid(page, "ww-roster").locator('[data-testid="ww-roster-row"]')
    await expect(rows).to_have_count(6)
    for seat, role in final["result"]["roles"].items():
        await expect(rows.nth(int(seat))).to_have_attribute("data-role", role)
    recap = _tid(page, "recap")
    await expect(recap).to_be_visible()
    won = 0 in final["result"]["winning_seats"]
    await expect(recap.get_by_test_id("recap-mine")).to_have_attribute("data-won", str(won).lower())
    await expect(recap.get_by_test_id("recap-mine")).to_contain_text(strings[f"role_{final['result']['roles']['0']}"])
    dawns = await page.locator('#stream [data-testid="ww-dawn"]').count()
    assert dawns >= 1 and await recap.locator(".recap-line.night").count() == dawns
    await _fits(page)
    await expect(_tid(page, "play-again")).to_be_visible()


async def _spoke_if_day_came(page: Page, done: list[str]) -> None:
    """Alive at the first day the guest speaks; dead by its dawn, it said last words (night 1's dead do). Only a
    match that ended at that dawn (the wolves killed both gods) has neither."""
    if await page.locator('#stream [data-testid="ww-day"]').count():
        assert {"speak", "last_words"} & set(done), done


async def test_a_guest_plays_a_wolf_from_the_lobby(server: Server, api: httpx.AsyncClient, seen: Watched) -> None:
    page = seen.page
    match_id, token = await _dealt(page, server, api, {"werewolf"})
    await expect(_tid(page, "ww-you-fellows")).to_be_visible(timeout=SOON)
    done = await _play_to_the_end(page, api, match_id, token)
    assert {"whisper", "kill"} <= set(done), done
    await _check_the_end(page, api, match_id)
    await _spoke_if_day_came(page, done)


async def test_a_guest_plays_the_seer_or_the_witch(server: Server, api: httpx.AsyncClient, seen: Watched) -> None:
    page = seen.page
    match_id, token = await _dealt(page, server, api, {"seer", "witch"})
    done = await _play_to_the_end(page, api, match_id, token)
    assert {"check", "save", "poison"} & set(done), done  # alive through night 1, it always acts then
    await _check_the_end(page, api, match_id)
    await _spoke_if_day_came(page, done)


async def _seat_page(browser: Browser, url: str, phone: bool) -> Watched:
    context = await browser.new_context(viewport=PHONE if phone else DESKTOP, locale="en-US" if phone else "zh-CN",
                                        is_mobile=phone, has_touch=phone)
    watched = Watched(await context.new_page())
    watched.page.on("pageerror", lambda error: watched.errors.append(str(error)))
    await watched.page.goto(url)
    await expect(watched.page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    return watched


async def test_the_guard_and_the_hunter_act_from_the_panel(server: Server, api: httpx.AsyncClient,
                                                           browser: Browser) -> None:
    """12 scripted agents (the preset with a guard and a hunter); three of their seats are held in pages: the guard
    (desktop, Chinese) guards a villager, the seer (a phone) checks a wolf and reads the answer, which the guard's
    page never shows; the wolves knife the hunter, whose page (a phone, English) shoots a wolf and says last
    words."""
    table = WerewolfTable(api, 12, night_timeout=600, speak_timeout=600, vote_timeout=600)
    await table.open()
    guard, hunter, seer, witch = (table.roles[role][0] for role in ("guard", "hunter", "seer", "witch"))
    wolves, villager = table.roles["werewolf"], table.roles["villager"][0]
    base = f"{server.base_url}/match/{table.match_id}"
    seen = [await _seat_page(browser, f"{base}#play={table.tokens[guard]}", phone=False),
            await _seat_page(browser, f"{base}?lang=en#play={table.tokens[hunter]}", phone=True),
            await _seat_page(browser, f"{base}#play={table.tokens[seer]}", phone=True)]
    guard_page, hunter_page, seer_page = (watched.page for watched in seen)
    try:
        await expect(guard_page.locator("#you")).to_have_attribute("data-action", "night_action", timeout=SOON)
        await expect(_tid(guard_page, "ww-you-role")).to_have_text(STRINGS["zh"]["role_guard"])
        await expect(_tid(guard_page, "ww-night-confirm")).to_be_disabled()
        await _tid(guard_page, f"ww-night-target-{villager}").click()
        await _tid(guard_page, "ww-night-confirm").click()
        await expect(guard_page.locator('#stream [data-testid="ww-guard"]')).to_have_count(1, timeout=SOON)
        await expect(guard_page.locator("#you")).to_have_attribute("data-action", "wait_for_next_phase")
        await _tid(seer_page, f"ww-night-target-{wolves[0]}").click()
        await _tid(seer_page, "ww-night-confirm").click()
        answer = seer_page.locator('#stream [data-testid="ww-seer-result"]')
        await expect(answer).to_have_attribute("data-target", str(wolves[0]), timeout=SOON)
        await expect(answer).to_have_attribute("data-camp", "werewolf")
        await expect(_tid(seer_page, "ww-play-seer-answer")).to_have_attribute("data-camp", "werewolf")
        await expect(_tid(seer_page, "ww-play-seer-answer")).to_have_text(
            STRINGS["zh"]["ww_play_seer_answer"].format(seat=f"{wolves[0]}号", camp=STRINGS["zh"]["ww_team_werewolf"]))
        await expect(guard_page.locator('#stream [data-testid="ww-seer-result"]')).to_have_count(0)
        for wolf in wolves[:3]:  # three of four is the pack's majority
            await table.ok(wolf, {"type": "night_action", "action": "kill", "target_seat": hunter})
        await table.ok(witch, {"type": "night_action", "action": "pass"})
        await expect(hunter_page.locator("#you")).to_have_attribute("data-action", "shoot", timeout=SOON)
        await expect(_tid(hunter_page, f"ww-hunter-shoot-{hunter}")).to_have_count(0)
        await _fits(hunter_page)
        await _tid(hunter_page, f"ww-hunter-shoot-{wolves[0]}").click()
        for page in (hunter_page, guard_page):
            await expect(page.locator('#stream [data-testid="ww-hunter-shot"]')).to_have_attribute(
                "data-target", str(wolves[0]), timeout=SOON)
            await expect(page.locator(f'#players .player[data-seat="{wolves[0]}"]')).to_have_attribute(
                "data-alive", "false")
        await expect(hunter_page.locator("#you")).to_have_attribute("data-action", "last_words", timeout=SOON)
        await _tid(hunter_page, "last-words-input").fill("I took a wolf with me")
        await _tid(hunter_page, "last-words-send").click()
        await expect(guard_page.locator('#stream [data-testid="ww-last-words"]').filter(
            has_text="I took a wolf with me")).to_have_count(1, timeout=SOON)
        await _fits(hunter_page)
    finally:
        for watched in seen:
            await watched.page.context.close()
    for watched in seen:
        assert not watched.errors, f"uncaught errors in a page: {watched.errors}"
