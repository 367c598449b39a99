"""Issue 33's 剧本杀 with friends in real browsers: a host opens a room from the lobby's 开一局 for 剧本杀 (the tiny
script, the compressed clock, three NPC seats), shares the invite link, two friends — each in a browser of their own,
on a device of their own — take seats as guests through it, the host calls the NPCs in for the three seats left, and
the three people play all twelve stages from their pages (read, introduce themselves, search, talk, ready, vote)
while the server's official bots play the NPCs, to the ending and the review on every page.

Each page waits for what it shows (the stage bar, the forms the server allows); the NPCs end every stage early with
`ready` once the people have, so only the review's own 30-second tail (compressed timing) is waited out.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
from playwright.async_api import Browser, Error, Locator, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched, _stop

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WAIT = 60_000  # ms: how long a page condition may take on a loaded machine before the test fails
STAGE_WAIT = 240_000  # ms: the longest one stage may run (the compressed clock ends every stage well before)
GAME = json.loads((ROOT / "static" / "js" / "games" / "script_kill.json").read_text(encoding="utf-8"))
SHELL = json.loads((ROOT / "static" / "i18n.json").read_text(encoding="utf-8"))
ZH = {**SHELL["zh"], **GAME["zh"]}
TINY = json.loads((ROOT / "app" / "games" / "script_kill" / "scripts" / "tiny.json").read_text(encoding="utf-8"))
STAGES = ["gm_init", "script_handout", "self_intro", "explore_r1", "discuss_r1", "anchor_r1", "explore_r2",
          "discuss_r2", "anchor_r2", "final_discuss", "final_vote", "review"]
NAMES = ["主持人阿青", "朋友小林", "朋友老周"]


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    """The real server with its official bots; a room not filled at once waits ten minutes for them, so only the
    host's call seats the NPCs. Each person calls from a device of their own (`X-Forwarded-For`, trusted from
    127.0.0.1): a client holds one guest seat per room."""
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600",
                     WODI_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


def _collect(errors: list[str]) -> Callable[[Error], None]:
    return lambda error: errors.append(str(error))


@pytest.fixture
async def people(browser: Browser) -> AsyncIterator[list[Watched]]:
    """Three browsers (the host and two friends), each on its own device; checked for uncaught errors."""
    opened: list[Watched] = []
    for n in range(len(NAMES)):
        context = await browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN",
                                            extra_http_headers={"X-Forwarded-For": f"10.77.0.{n + 1}"})
        seen = Watched(await context.new_page())
        seen.page.on("pageerror", _collect(seen.errors))
        opened.append(seen)
    yield opened
    for seen in opened:
        await seen.page.context.close()
    for seen in opened:
        assert not seen.errors, f"uncaught errors in a page: {seen.errors}"


def _tid(page: Page, testid: str) -> Locator:
    return page.locator(f'[data-testid="{testid}"]')


async def _ready(page: Page) -> None:
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)


async def _open_the_room(host: Page, server: Server) -> str:
    """The lobby → 开一局 for 剧本杀 → the form in Chinese → the match page; returns the invite link."""
    await host.goto(f"{server.base_url}/")
    await host.get_by_test_id("lobby-play-script_kill").click()
    await _ready(host)
    await expect(host.locator("#play-form-intro")).to_have_text(ZH["play_form_intro_invites"])
    for name in ("script", "timing", "npc_seats"):
        legend = host.locator(f'fieldset[data-choice="{name}"] legend')
        await expect(legend).to_have_text(ZH[f"choice_{name}"])
        hint = host.locator(f'fieldset[data-choice="{name}"] .choice-hint')
        await expect(hint).to_have_text(ZH[f"choice_{name}_hint"])
    await expect(host.get_by_test_id("play-choice-timing-compressed").locator("xpath=..")).to_contain_text(
        ZH["choice_timing_compressed"])
    await host.get_by_test_id("play-choice-script-tiny").check()
    await host.get_by_test_id("play-choice-timing-compressed").check()
    await host.get_by_test_id("play-choice-npc_seats-3").check()
    await host.get_by_test_id("play-name").fill(NAMES[0])
    await host.get_by_test_id("play-form-submit").click()
    await host.wait_for_url("**/match/*", timeout=WAIT)
    await _ready(host)
    box = _tid(host, "invite-box")
    await expect(box).to_be_visible(timeout=WAIT)
    await expect(_tid(host, "invite-seated")).to_have_attribute("data-taken", "1")
    await expect(_tid(host, "fill-needs")).to_be_visible()  # five seats open: more than the three NPCs
    await expect(_tid(host, "fill-now")).to_have_count(0)
    link = await _tid(host, "invite-link").input_value()
    assert "/match/" in link and "#" not in link, link
    return link


async def _take_a_seat(friend: Page, link: str, name: str) -> None:
    await friend.goto(link)
    await _ready(friend)
    await friend.get_by_test_id("join-name").fill(name)
    await friend.get_by_test_id("join-submit").click()
    await expect(friend.locator("#you.play")).to_be_visible(timeout=WAIT)  # the seat's panel: this browser holds it


WANTED = ["vote", "investigate", "speak", "ready"]
# The move a stage is for: `ready` waits until it was sent. For a moment after the stage bar moves on, the forms can
# still be the previous stage's (they come with the seat's next view), and a `ready` sent from them ends the new
# stage's part unplayed (a CI run's person readied explore_r1 with the introduction's button).
MAIN = {"explore_r1": "investigate", "explore_r2": "investigate", "discuss_r1": "speak", "discuss_r2": "speak",
        "final_discuss": "speak", "final_vote": "vote"}


TRAILS: dict[str, list[str]] = {}  # each person's moves with their times: printed when the test fails


async def _play(page: Page, name: str) -> list[str]:
    """Play the seat through the page until the match ends: once per stage each of the moves it offers — vote (the
    first name), investigate (the first place), speak (never `ready` in the introductions: the floor goes round),
    then ready, after which it waits for the next stage. Returns what was sent, stage by stage."""
    trail = TRAILS.setdefault(name, [])
    sent: list[str] = []
    bar = _tid(page, "sk-stage-bar")
    began = time.monotonic()
    while True:
        if await page.locator("#result:not([hidden])").count():
            return sent
        stage = await bar.get_attribute("data-current") or ""
        if stage == "script_handout" and not sent:  # the deal: the person's own character sheet
            await expect(_tid(page, "sk-my-character")).to_be_visible(timeout=WAIT)
            assert not await _tid(page, "invite-box").count()
        done = {entry.split(":", 1)[1] for entry in sent if entry.startswith(f"{stage}:")}
        # Ready ends the person's part in a stage: a move sent after it could reach the server once the stage has
        # moved on (a speech meant for the handout taken as the next stage's introduction).
        wanted = [] if "ready" in done else [
            t for t in WANTED if t not in done and not (t == "ready" and (
                stage == "self_intro" or (stage in MAIN and MAIN[stage] not in done)))]
        trail.append(f"{time.monotonic() - began:6.1f}s {stage} waits for {wanted}")
        await page.wait_for_function(
            """([stage, wanted]) => {
              if (document.querySelector("#result:not([hidden])")) return true;
              const bar = document.querySelector('[data-testid="sk-stage-bar"]');
              if (!bar || bar.dataset.current !== stage) return true;
              const list = document.querySelector('[data-testid="sk-actions"]');
              if (!list || list.hidden) return false;
              return wanted.some((t) => list.querySelector(`[data-testid="sk-action-${t}"] button:not([disabled])`));
            }""", arg=[stage, wanted], timeout=STAGE_WAIT)
        if await page.locator("#result:not([hidden])").count():
            return sent
        if await bar.get_attribute("data-current") != stage:
            continue
        missed = False  # a move the stage offered went unsent (its form redrawn under the click)
        for kind in wanted:
            if kind == "ready" and missed:  # ready would end the person's part with that move unmade: look again
                break
            moved = await _move(page, stage, kind, name)
            trail.append(f"{time.monotonic() - began:6.1f}s {stage} {kind}: {moved}")
            if moved:
                sent.append(f"{stage}:{kind}")
                break
            missed = missed or moved is False


async def _move(page: Page, stage: str, kind: str, name: str) -> bool | None:
    """One move through its form; True once the page shows the server's answer (sent, or the DM's refusal), None when
    the page does not offer it, False when it was offered but went unsent: a form redrawn under the click (its options
    changed) or gone with its stage is no move, and the caller looks again."""
    form = _tid(page, f"sk-action-{kind}")
    if not await form.count():
        return None
    try:
        if kind == "speak":
            await _tid(page, "sk-text-speak").fill(f"我是{name}，{stage} 这一段我一直在想案情。", timeout=5_000)
            await _tid(page, "sk-send-speak").click(timeout=5_000)
        else:
            await form.locator("button").first.click(timeout=5_000)
        # The feedback line outlives the forms (the stage this move ends included).
        await expect(_tid(page, "sk-action-feedback")).not_to_be_empty(timeout=15_000)
    except (AssertionError, PlaywrightTimeout):
        return False
    feedback = _tid(page, "sk-action-feedback")
    answered = bool(await feedback.text_content())
    await feedback.evaluate("el => { el.textContent = ''; }")
    return answered


async def test_a_host_and_two_friends_play_a_compressed_script_kill_with_three_npcs(
        server: Server, api: httpx.AsyncClient, people: list[Watched]) -> None:
    host, *friends = [seen.page for seen in people]
    link = await _open_the_room(host, server)
    match_id = link.rsplit("/match/", 1)[1].split("?")[0]
    url = f"/api/matches/{match_id}"
    token = json.loads(await host.evaluate(f"localStorage.getItem('wodi.seat.{match_id}')"))["play_token"]

    # Too early: five seats are open and the room leaves the NPCs three.
    early = await api.post(f"{url}/fill", headers={"X-Play-Token": token, "X-Forwarded-For": "10.77.0.1"})
    assert early.status_code == 409 and early.json()["error"] == "seats_left_for_players", early.text
    listed = (await api.get("/api/matches", params={"status": "waiting", "game": "script_kill"})).json()["matches"]
    assert [m["bot_seats"] for m in listed if m["match_id"] == match_id] == [3]

    for friend, name in zip(friends, NAMES[1:], strict=True):
        await _take_a_seat(friend, link, name)
    await expect(_tid(host, "invite-seated")).to_have_attribute("data-taken", "3", timeout=WAIT)
    snap = (await api.get(url)).json()
    assert snap["status"] == "waiting" and [p["display_name"] for p in snap["players"]] == NAMES
    friend_token = json.loads(await friends[0].evaluate(f"localStorage.getItem('wodi.seat.{match_id}')"))["play_token"]
    not_host = await api.post(f"{url}/fill", headers={"X-Play-Token": friend_token, "X-Forwarded-For": "10.77.0.2"})
    assert not_host.status_code == 403 and not_host.json()["error"] == "not_host", not_host.text

    # The host starts: the NPCs take the three seats left and the script is dealt; from here on the stage clocks
    # run, so the three people play at once while the room is checked over HTTP.
    await _tid(host, "fill-now").click()
    playing = [asyncio.create_task(_play(page, name)) for page, name in zip((host, *friends), NAMES, strict=True)]
    snap = (await api.get(url, params={"wait": 30, "wait_for": "opponent_joined"})).json()
    for _ in range(10):
        if snap["status"] != "waiting":
            break
        snap = (await api.get(url, params={"wait": 10, "wait_for": "any_change"})).json()
    assert snap["status"] == "in_progress", snap["status"]
    assert snap["config"]["timing"] == "compressed" and snap["config"]["script"] == "tiny"
    people_seats = [p for p in snap["players"] if p["is_guest"]]
    npcs = [p for p in snap["players"] if not p["is_guest"]]
    assert [p["seat"] for p in people_seats] == [0, 1, 2] and len(npcs) == 3
    assert all(p["is_official"] for p in npcs)
    try:
        played = await asyncio.gather(*playing)
    finally:
        for name, trail in TRAILS.items():
            print(name, *trail, sep="\n  ")
    for sent in played:
        assert {"self_intro:speak", "explore_r1:investigate", "final_vote:vote"} <= set(sent), sent
        assert len({entry.split(":")[0] for entry in sent}) >= 8, sent  # the person acted in most stages

    final = (await api.get(url, params={"wait": 30, "wait_for": "match_finished"})).json()
    assert final["status"] == "finished", final["status"]
    result = final["result"]
    log = final["public_log"]
    assert {e["seat"] for e in log if e["type"] == "speech"} >= {0, 1, 2} | {p["seat"] for p in npcs}
    for page in (host, *friends):
        ending = page.locator('#result [data-testid="sk-ending"]')
        await expect(ending).to_have_attribute("data-ending", result["ending"], timeout=WAIT)
        await expect(ending.locator("h3")).to_have_text(ZH[f"sk_ending_{result['ending']}"])
        review = page.locator('#result [data-testid="sk-review"]')
        await expect(review.locator('[data-testid="sk-truth"]')).to_have_text(TINY["review"]["truth"])
        await expect(_tid(page, "sk-stage-bar").locator("li.done")).to_have_count(len(STAGES))
