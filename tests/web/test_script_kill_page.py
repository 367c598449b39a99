"""The script_kill page module in a real browser: six agents play a compressed 剧本杀 match over HTTP while a person
holds seat 0 in a desktop page (its play token in the link's fragment) and an anonymous visitor watches on a phone.

The person reads their script, readies, introduces themselves, investigates, shows a clue to the table and names
the culprit through the page's buttons and forms; the agents do the rest over HTTP, using `ready` to end every
stage early. Both pages follow the stage bar and its countdown, the clue board, the talk and the anchors; the
vote's tally stays hidden until the end; then the ending and the review. A second test opens the finished match
in English on a phone. Every step waits for what the pages show (no sleeps); only the review's own 30-second tail
(compressed timing) is waited out by the server's timer.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, Route, ViewportSize, expect

from tests.api.table import Table
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser
WAIT = 60_000  # ms: how long a page condition may take on a loaded machine before the test fails
END_WAIT = 120_000  # ms: the review's 30 s tail, then the finished page
PHONE: ViewportSize = {"width": 390, "height": 844}
STRINGS = json.loads((ROOT / "static" / "js" / "games" / "script_kill.json").read_text(encoding="utf-8"))
ZH, EN = STRINGS["zh"], STRINGS["en"]
TINY = json.loads((ROOT / "app" / "games" / "script_kill" / "scripts" / "tiny.json").read_text(encoding="utf-8"))
STAGES = ["gm_init", "script_handout", "self_intro", "explore_r1", "discuss_r1", "anchor_r1", "explore_r2",
          "discuss_r2", "anchor_r2", "final_discuss", "final_vote", "review"]
PERSON = 0


class ScriptKillTable(Table):
    """Six fresh agents at a compressed match of the tiny script."""

    game = "script_kill"

    def __init__(self, client: httpx.AsyncClient) -> None:
        super().__init__(client, 6)
        self.config = {"timing": "compressed", "script": "tiny"}

    async def ok(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.act(seat, body)
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def stage(self) -> str:
        return str((await self.snap(None))["sub_stage"])

    async def ready_all(self, but: tuple[int, ...] = ()) -> None:
        """Every seat not in `but` that has not readied sends `ready` (the stage ends once all have)."""
        for seat in range(self.n):
            if seat in but:
                continue
            you = (await self.snap(seat))["you"]
            if any(a["type"] == "ready" for a in you["allowed_actions"]):
                await self.ok(seat, {"type": "ready"})


# One match for the module: the live test plays it; the finished-page test plays it to the end itself when run alone.
_match: dict[str, ScriptKillTable] = {}


async def _finish(table: ScriptKillTable) -> dict[str, Any]:
    """Ready through every stage, vote, and wait (long-poll) for the review's timer to finish the match."""
    for _ in range(40):
        snap = await table.snap(None)
        if snap["status"] == "finished":
            return snap
        if snap["sub_stage"] == "final_vote":
            for seat in range(table.n):
                you = (await table.snap(seat))["you"]
                vote = next((a for a in you["allowed_actions"] if a["type"] == "vote"), None)
                if vote:
                    await table.ok(seat, {"type": "vote", "target": vote["targets"][0]})
        elif snap["sub_stage"] == "self_intro":
            speaker = snap["speaker"]
            await table.ok(speaker, {"type": "ready"})
        elif snap["sub_stage"] == "review":
            await table.snap(None, wait=30, wait_for="match_finished")
        else:
            await table.ready_all()
    raise AssertionError("the match did not end")


async def _open_page(browser: Browser, url: str, viewport: ViewportSize, mobile: bool = False) -> Watched:
    context = await browser.new_context(viewport=viewport, locale="zh-CN", is_mobile=mobile, has_touch=mobile)
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    await seen.page.goto(url)
    await expect(seen.page.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
    return seen


@pytest.fixture
async def pages(browser: Browser) -> AsyncIterator[list[Watched]]:
    """Pages a test opens (`_open_page`), closed at the end and checked for uncaught errors."""
    opened: list[Watched] = []
    yield opened
    for seen in opened:
        await seen.page.context.close()
    for seen in opened:
        assert not seen.errors, f"uncaught errors in a page: {seen.errors}"


def _tid(page: Page, testid: str) -> Locator:
    return page.locator(f'[data-testid="{testid}"]')


async def _at_stage(page: Page, stage: str) -> None:
    bar = _tid(page, "sk-stage-bar")
    await expect(bar).to_have_attribute("data-current", stage, timeout=WAIT)
    await expect(bar.locator("li.on")).to_have_attribute("data-stage", stage)
    await expect(bar.locator("li.done")).to_have_count(STAGES.index(stage))


async def _fits_the_width(page: Page) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"


async def _both(pages: tuple[Page, Page], stage: str) -> None:
    for page in pages:
        await _at_stage(page, stage)


async def test_a_person_plays_a_seat_while_agents_drive_a_live_compressed_match(
        server: Server, api: httpx.AsyncClient, browser: Browser, pages: list[Watched]) -> None:
    table = ScriptKillTable(api)
    await table.open()
    _match["table"] = table
    url = f"{server.base_url}/match/{table.match_id}"
    pages.append(await _open_page(browser, f"{url}#play={table.tokens[PERSON]}", {"width": 1280, "height": 900}))
    pages.append(await _open_page(browser, url, PHONE, mobile=True))
    person, phone = pages[0].page, pages[1].page
    both = (person, phone)
    me = (await table.snap(PERSON))["you"]

    # Stage 1: the stage bar, the countdown, the person's own script; the phone sees no private panel.
    await _both(both, "script_handout")
    for page in both:
        await expect(_tid(page, "sk-stage-bar").locator("li")).to_have_count(12)
        await expect(_tid(page, "sk-countdown").locator(".countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    await expect(_tid(person, "sk-my-character")).to_contain_text(me["character"]["name"])
    await expect(_tid(person, "sk-my-character")).to_contain_text(me["character"]["secret"])
    await expect(_tid(phone, "sk-private")).to_have_count(0)
    await expect(_tid(phone, "sk-actions")).to_be_hidden()
    await _fits_the_width(phone)
    # leaving is the seat panel's button, which asks first; not a form among the actions
    await expect(_tid(person, "concede")).to_be_visible()
    await expect(_tid(person, "sk-action-concede")).to_have_count(0)
    await table.ready_all(but=(PERSON,))
    await _tid(person, "sk-action-ready").locator("button").click()

    # Stage 2: self-introductions in seat order; the person has the floor first and speaks through the form.
    await _both(both, "self_intro")
    await expect(person.locator(f'#players .player[data-seat="{PERSON}"]')).to_have_attribute("data-speaking", "true")
    await _tid(person, "sk-text-speak").fill("大家好，我先来介绍一下自己。")
    await _tid(person, "sk-send-speak").click()
    hello = "大家好，我先来介绍一下自己。"
    for page in both:
        await expect(page.locator('#stream [data-testid="sk-speech"]').first).to_contain_text(hello, timeout=WAIT)
    for seat in range(1, table.n):
        snap = await table.snap(None)
        assert snap["speaker"] == seat, snap["speaker"]
        await table.ok(seat, {"type": "speak", "text": f"我是 {seat} 号位，我那晚一直在房间里。"})
    await expect(phone.locator('#stream [data-testid="sk-speech"]')).to_have_count(table.n, timeout=WAIT)
    # The last introduction ends the stage: no `ready` needed.

    # Stage 3: the person investigates a place by its button; what they find is theirs alone.
    await _both(both, "explore_r1")
    await expect(_tid(person, "sk-investigations-left")).to_contain_text("3", timeout=WAIT)
    first = (await table.snap(PERSON))["unlocked_locations"][0]
    await _tid(person, "sk-action-investigate").locator(f'button[data-location="{first["id"]}"]').click()
    found = person.locator('#stream [data-testid="sk-clue-found"]')
    await expect(found.first).to_be_visible(timeout=WAIT)
    await expect(_tid(person, "sk-my-clues-row").first).to_be_visible(timeout=WAIT)
    searched = phone.locator('#stream [data-testid="sk-investigated"]').first
    await expect(searched).to_contain_text(first["name"], timeout=WAIT)
    await expect(phone.locator('#stream [data-testid="sk-clue-found"]')).to_have_count(0)
    my_clue = (await table.snap(PERSON))["you"]["clues"][0]

    # A reload keeps the seat: the private panels come back from the snapshot alone.
    await person.reload()
    await expect(person.locator("body")).to_have_attribute("data-ready", "1", timeout=WAIT)
    kept = person.locator(f'[data-testid="sk-my-clues-row"][data-id="{my_clue["id"]}"]')
    await expect(kept).to_be_visible(timeout=WAIT)

    for seat in range(1, table.n):
        await table.ok(seat, {"type": "investigate", "location": first["id"]})
    await table.ready_all()

    # Stage 4: the DM publishes the act's key clues nobody found; the person shows their own clue to the table.
    await _both(both, "discuss_r1")
    public = (await table.snap(None))["public_clues"]
    board = _tid(phone, "sk-clue-board")
    await expect(board).to_have_attribute("data-count", str(len(public)), timeout=WAIT)
    for clue in public:
        await expect(board.locator(f'[data-testid="sk-clue"][data-clue="{clue["id"]}"]')).to_contain_text(clue["text"])
    reveal = _tid(person, "sk-action-reveal_clue")
    await reveal.locator("select").select_option(my_clue["id"])
    await reveal.locator("button").click()
    shown = board.locator(f'[data-testid="sk-clue"][data-clue="{my_clue["id"]}"]')
    await expect(shown).to_contain_text(my_clue["text"], timeout=WAIT)
    if my_clue["id"] not in {c["id"] for c in public}:
        await expect(shown).to_have_attribute("data-source", str(PERSON))
    await expect(phone.locator('#stream [data-testid="sk-clue-revealed"]')).to_contain_text(my_clue["text"])
    await person.set_viewport_size(PHONE)  # the seat's panels and forms hold on a phone too
    await _fits_the_width(person)
    await person.set_viewport_size({"width": 1280, "height": 900})

    # A private chat reaches the person's page and never the phone's; what the person was typing survives it.
    await _tid(person, "sk-text-speak").fill("   ")
    await _tid(person, "sk-send-speak").click()
    feedback = _tid(person, "sk-action-feedback")
    await expect(feedback).to_have_text("内容不能为空。", timeout=WAIT)  # the DM's sentence, not a generic line
    await expect(feedback).to_have_attribute("data-kind", "error")
    draft = "我怀疑有人在说谎。"
    await _tid(person, "sk-text-speak").fill(draft)
    await table.ok(3, {"type": "private_chat", "to": PERSON, "text": "悄悄问一句：你昨晚去过书房吗？"})
    await expect(person.locator('#stream [data-testid="sk-chat"]')).to_contain_text("悄悄问一句", timeout=WAIT)
    await expect(_tid(person, "sk-my-chat")).to_contain_text("悄悄问一句", timeout=WAIT)
    await expect(phone.locator('#stream [data-testid="sk-chat"]')).to_have_count(0)
    await expect(_tid(person, "sk-text-speak")).to_have_value(draft)
    await _tid(person, "sk-send-speak").click()
    await expect(phone.locator('#stream [data-testid="sk-speech"]').last).to_contain_text(draft, timeout=WAIT)
    await table.ready_all()

    # Stage 5: the anchor, word for word, on the board and in the talk.
    await _both(both, "anchor_r1")
    anchor = TINY["anchors"]["anchor_r1"]["text"]
    for page in both:
        await expect(_tid(page, "sk-anchor").locator(".sk-anchor-text")).to_have_text(anchor, timeout=WAIT)
    await expect(phone.locator('#stream [data-testid="sk-anchor-item"] .sk-anchor-text')).to_have_text(anchor)
    for stage in ("anchor_r1", "explore_r2", "discuss_r2", "anchor_r2", "final_discuss"):
        await _both(both, stage)
        await table.ready_all()

    # Stage 10: the person names a seat by its button; the tally stays the DM's until the end.
    await _both(both, "final_vote")
    vote = _tid(person, "sk-action-vote")
    target = int(await vote.locator("button").first.get_attribute("data-target") or "-1")
    await vote.locator(f'button[data-target="{target}"]').click()
    await expect(person.locator('#stream [data-testid="sk-vote-cast"]')).to_be_visible(timeout=WAIT)
    await expect(_tid(phone, "sk-vote")).to_have_attribute("data-tally", "false")
    await expect(_tid(phone, "sk-tally-row")).to_have_count(0)
    await expect(phone.locator('#stream [data-testid="sk-vote-cast"]')).to_have_count(0)
    for seat in range(1, table.n):
        await table.ok(seat, {"type": "vote", "target": target if seat != target else PERSON})

    # Stage 11: the ending (live, in the board), then the finished match: ending, review, tally, every anchor.
    await _both(both, "review")
    for page in both:
        await expect(_tid(page, "sk-ending").first).to_be_visible(timeout=WAIT)
    final = await table.snap(None, wait=30, wait_for="match_finished")
    if final["status"] != "finished":
        final = await table.snap(None, wait=30, wait_for="match_finished")
    assert final["status"] == "finished", final["status"]
    result = final["result"]
    for page in both:
        ending = page.locator('#result [data-testid="sk-ending"]')
        await expect(ending).to_have_attribute("data-ending", result["ending"], timeout=END_WAIT)
        await expect(ending).to_have_attribute("data-culprit", str(result["culprit_seat"]))
        await expect(ending.locator("h3")).to_have_text(ZH[f"sk_ending_{result['ending']}"])
        review = page.locator('#result [data-testid="sk-review"]')
        await expect(review.locator('[data-testid="sk-truth"]')).to_have_text(TINY["review"]["truth"])
        await expect(review.locator('[data-testid="sk-review-step"]')).to_have_count(len(TINY["review"]["timeline"]))
        await expect(review.locator('[data-testid="sk-comment"]')).to_have_count(table.n)
        await expect(_tid(page, "sk-tally-row").first).to_be_visible(timeout=WAIT)
        named = page.locator(f'[data-testid="sk-tally-row"][data-seat="{target}"]')
        await expect(named).to_have_attribute("data-votes", str(table.n - 1))
        await expect(_tid(page, "sk-anchor")).to_have_count(2)
        await expect(_tid(page, "sk-actions")).to_be_hidden()
    await _fits_the_width(phone)


async def test_the_controls_wait_for_the_seats_view_of_the_phase_the_board_shows(
        server: Server, api: httpx.AsyncClient, browser: Browser, pages: list[Watched]) -> None:
    """The board follows the event stream and the seat's controls its own view, read a moment later. Until that view
    has seen the stage the bar shows, the controls left from the stage that ended are inert: their `ready` would end
    the person's part of the new stage (`ready` names no stage). The seat's view is held back here to make the moment
    last, and the stale `ready` is pressed through whatever covers it."""
    table = ScriptKillTable(api)
    await table.open()
    url = f"{server.base_url}/match/{table.match_id}#play={table.tokens[PERSON]}"
    pages.append(await _open_page(browser, url, {"width": 1280, "height": 900}))
    person = pages[0].page
    await _at_stage(person, "script_handout")
    ready = _tid(person, "sk-action-ready").locator("button")
    await expect(ready).to_be_visible(timeout=WAIT)
    controls = person.locator("#you .play-controls")
    await expect(controls).to_have_attribute("data-behind", "false")

    released = asyncio.Event()
    held: list[str] = []
    snapshot_path = f"/api/matches/{table.match_id}"

    async def hold(route: Route) -> None:
        held.append(route.request.url)
        await released.wait()
        await route.continue_()

    await person.route(lambda url: urlsplit(url).path == snapshot_path, hold)
    await table.ready_all()  # the person's seat readies over HTTP: the page learns of it from the stream only
    await _at_stage(person, "self_intro")
    assert held, "the page read no snapshot after the stage changed"
    await expect(controls).to_have_attribute("data-behind", "true")
    await expect(ready).to_be_visible()  # still drawn (no flicker), but inert
    await ready.click(force=True)  # a person's press on the stale button

    released.set()
    await person.unroute_all(behavior="wait")
    await expect(controls).to_have_attribute("data-behind", "false", timeout=WAIT)
    await expect(_tid(person, "sk-action-speak")).to_be_visible(timeout=WAIT)  # seat 0 introduces itself first
    you = (await table.snap(PERSON))["you"]
    assert you["next_action"] == "speak", you["next_action"]  # the press did not give the floor away
    log = (await table.snap(None))["public_log"]
    start = next(ev["seq"] for ev in log if ev["type"] == "stage_changed" and ev["sub_stage"] == "self_intro")
    sent = [ev for ev in log if ev["seq"] > start and ev["type"] == "player_ready" and ev["seat"] == PERSON]
    assert not sent, f"the stale ready was sent: {sent}"


async def test_a_finished_match_shows_anchors_ending_and_review_in_english_on_a_phone(
        server: Server, api: httpx.AsyncClient, browser: Browser, pages: list[Watched]) -> None:
    table = _match.get("table")
    if table is None:  # run alone: play a match of our own
        table = ScriptKillTable(api)
        await table.open()
    table.client = api  # the first test's client is closed
    final = await _finish(table)
    result = final["result"]
    pages.append(await _open_page(browser, f"{server.base_url}/match/{table.match_id}?lang=en", PHONE, mobile=True))
    page = pages[0].page
    await expect(page.locator("#match-title")).to_contain_text(EN["game_title"])
    await expect(page.locator("#config-line")).to_contain_text(TINY["title"])  # the script's title, not its id
    opened = page.locator('#stream .item[data-type="match_created"]')  # a sentence, not the raw event type
    await expect(opened).to_have_count(1)
    await expect(opened.locator("code")).to_have_count(0)
    bar = _tid(page, "sk-stage-bar")
    await expect(bar.locator("li.done")).to_have_count(12)
    await expect(_tid(page, "sk-countdown")).to_contain_text(EN["sk_stage_over"])
    texts = [TINY["anchors"]["anchor_r1"]["text"], TINY["anchors"]["anchor_r2"]["text"]]
    await expect(_tid(page, "sk-anchor").locator(".sk-anchor-text")).to_have_text(texts)
    ending = page.locator('#result [data-testid="sk-ending"]')
    await expect(ending).to_have_attribute("data-ending", result["ending"])
    await expect(ending.locator("h3")).to_have_text(EN[f"sk_ending_{result['ending']}"])
    await expect(page.locator("#winner")).to_have_text(EN[f"camp_{result['winner_camp']}"])
    review = page.locator('#result [data-testid="sk-review"]')
    await expect(review.locator('[data-testid="sk-review-step"]')).to_have_count(len(TINY["review"]["timeline"]))
    await expect(review.locator('[data-testid="sk-comment"]')).to_have_count(table.n)
    counts = final["tally"][-1]["counts"]
    rows = _tid(page, "sk-tally-row")
    await expect(rows).to_have_count(len(counts))
    for seat, n in counts.items():
        row = page.locator(f'[data-testid="sk-tally-row"][data-seat="{seat}"]')
        await expect(row).to_have_attribute("data-votes", str(n))
    culprit = result["culprit_seat"]
    await expect(page.locator(f'#players .player[data-seat="{culprit}"]')).to_have_attribute("data-culprit", "true")
    board = _tid(page, "sk-clue-board")
    await expect(board).to_have_attribute("data-count", str(len(final["public_clues"])))
    await _fits_the_width(page)

    # The lobby's card and a player's profile name the ending (templates/games/script_kill/).
    ending_text = EN[f"sk_ending_{result['ending']}"]
    lobby = await api.get("/?lang=en")
    assert EN["sk_room_line"].format(ending=ending_text) in lobby.text
    profile = await api.get(f"/agents/{table.names[0]}?lang=en")
    assert EN[f"sk_ending_{result['ending']}_short"] in profile.text
    side = "culprit" if result["culprit_seat"] == 0 else "innocent"
    won = 1 if 0 in result["winning_seats"] else 0
    assert re.search(rf'id="stat-sk-{side}">{won}<', profile.text), profile.text
