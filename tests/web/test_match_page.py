"""The match page in a real browser: live over long-polling, the replay, and escaping of what agents write."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from playwright.async_api import Page, Route, expect

from tests.api.table import Table
from tests.e2e.server import Server
from tests.web.conftest import Watched
from tests.web.harness import CastTable

pytestmark = pytest.mark.browser
FAST = 1000  # ms: "within 1 s of the POST returning"


async def _ok(table: Table, seat: int, body: dict[str, Any]) -> None:
    response = await table.act(seat, body)
    assert response.status_code == 200, response.text


async def _speak_round(table: Table, page: Page, round_index: int) -> None:
    """Every living seat speaks in turn; each speech must be on the page within 1 s."""
    while True:
        snap = await table.snap(None)
        if not snap["phase"].startswith("speak_"):
            return
        speaker = snap["current_speaker_seat"]
        await expect(page.locator(f'#players .player[data-seat="{speaker}"]')).to_have_attribute(
            "data-speaking", "true", timeout=FAST)
        text = f"round {round_index} clue from seat {speaker}"
        await _ok(table, speaker, {"type": "speak", "text": text})
        await expect(page.locator("#stream")).to_contain_text(text, timeout=FAST)


async def _vote_round(table: Table, page: Page, target: int, stray: int) -> None:
    """Each living seat votes `target` (the target itself votes `stray`); every vote shows at once."""
    snap = await table.snap(None)
    voters = [p["seat"] for p in snap["players"] if p["alive"]]
    for voter in voters:
        choice = stray if voter == target else target
        await _ok(table, voter, {"type": "vote", "target_seat": choice})
        await expect(page.locator(f'#votes .voter[data-voter="{voter}"]')).to_have_attribute(
            "data-target", str(choice), timeout=FAST)


async def test_live_page_follows_the_match_without_reloading(server: Server, api: httpx.AsyncClient,
                                                             watched: Watched) -> None:
    page = watched.page
    table = Table(api, 4, n_undercover=1, last_words=True)
    await table.open(fill=False)
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    await page.evaluate("window.__loadId = 'first'")
    await expect(page.locator("#phase")).to_have_attribute("data-stage", "waiting")
    for seat in range(1, 4):
        await table.join(seat)
        await expect(page.locator(f'#players .player[data-seat="{seat}"]')).to_be_visible(timeout=FAST)
    await expect(page.locator("#phase")).to_have_attribute("data-stage", "speak", timeout=FAST)
    await expect(page.locator("#round")).to_have_attribute("data-round", "1")

    roles = {seat: (await table.snap(seat))["you"]["role"] for seat in range(4)}
    undercover = next(seat for seat, role in roles.items() if role == "undercover")
    civilians = [seat for seat, role in roles.items() if role == "civilian"]

    await _speak_round(table, page, 1)
    await expect(page.locator("#phase")).to_have_attribute("data-stage", "vote", timeout=FAST)
    await _vote_round(table, page, civilians[0], undercover)
    out = page.locator(f'#players .player[data-seat="{civilians[0]}"]')
    await expect(out).to_have_attribute("data-alive", "false", timeout=FAST)
    await expect(page.locator("#phase")).to_have_attribute("data-stage", "reveal", timeout=FAST)
    await expect(page.locator("#votes .flow-row.out")).to_have_attribute("data-target", str(civilians[0]))
    await expect(page.locator("#votes .flow-row.out .flow-count")).to_have_text("3")
    await _ok(table, civilians[0], {"type": "last_words", "text": "goodbye from the first one out"})
    await expect(page.locator("#stream")).to_contain_text("goodbye from the first one out", timeout=FAST)

    await expect(page.locator("#round")).to_have_attribute("data-round", "2", timeout=FAST)
    await _speak_round(table, page, 2)
    await _vote_round(table, page, undercover, civilians[1])

    final = await table.snap(None)
    assert final["status"] == "finished"
    pair = final["result"]["wordpair"]
    await expect(page.locator("#result")).to_be_visible(timeout=FAST)
    await expect(page.locator("#winner")).to_have_text("平民胜利")
    await expect(page.locator("#wordpair")).to_contain_text(pair["civilian"])
    await expect(page.locator("#wordpair")).to_contain_text(pair["undercover"])
    await expect(page.locator("#phase")).to_have_attribute("data-stage", "finished")
    await expect(page.locator("#roster")).to_contain_text(pair["undercover"])  # every role and word, now public
    assert await page.evaluate("window.__loadId") == "first", "the page reloaded"
    assert watched.loads == 1


async def test_page_reconnects_after_network_errors(server: Server, api: httpx.AsyncClient,
                                                    watched: Watched) -> None:
    page = watched.page
    table = Table(api, 4, n_undercover=1)
    await table.open()
    failures = 2

    async def flaky(route: Route) -> None:
        nonlocal failures
        if failures:
            failures -= 1
            await route.abort()
        else:
            await route.continue_()

    await page.route(lambda url: "/events?" in url, flaky)
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    await expect(page.locator("#conn")).to_have_attribute("data-state", "retry")
    await expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=8000)
    speaker = (await table.snap(None))["current_speaker_seat"]
    await _ok(table, speaker, {"type": "speak", "text": "after the outage"})
    await expect(page.locator("#stream")).to_contain_text("after the outage", timeout=FAST)
    assert failures == 0
    assert watched.loads == 1


def _story(roles: dict[int, str]) -> Any:
    """Vote out two civilians, then the undercover: three rounds, with texts that name their round."""
    plan = [s for s, r in sorted(roles.items()) if r == "civilian"][:2] + [s for s, r in roles.items()
                                                                         if r == "undercover"]

    def policy(table: Table, seat: int, snap: dict[str, Any]) -> dict[str, Any] | None:
        action, n = snap["you"]["next_action"], snap["round_index"]
        alive = [p["seat"] for p in snap["players"] if p["alive"]]
        if action == "speak":
            return {"type": "speak", "text": f"R{n}-S{seat} says hello"}
        if action == "vote":
            target = next(s for s in plan if s in alive)
            return {"type": "vote", "target_seat": target if target != seat else min(set(alive) - {seat})}
        if action == "last_words":
            return {"type": "last_words", "text": f"R{n}-S{seat} farewell"}
        return None

    return policy, plan


async def test_replay_steps_through_every_round(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    page = watched.page
    table = Table(api, 6, n_undercover=1, last_words=True)
    await table.open()
    roles = {seat: (await table.snap(seat))["you"]["role"] for seat in range(6)}
    policy, plan = _story(roles)
    final = await table.play(policy)
    assert final["status"] == "finished" and final["round_index"] == 3

    await page.goto(f"{server.base_url}/match/{table.match_id}")
    stream, label = page.locator("#stream"), page.locator("#replay-label")
    await expect(page.locator("#replay")).to_be_visible()
    await expect(stream).to_contain_text("R3-S")
    for n in (1, 2, 3):
        await page.click("#replay-next")
        await _expect_round(page, n, plan)
    await expect(page.locator("#replay-next")).to_be_disabled()
    for n in (2, 1):
        await page.click("#replay-prev")
        await _expect_round(page, n, plan)
    await expect(page.locator("#replay-prev")).to_be_disabled()

    total = await stream.locator(".item").count()
    await page.click("#replay-play")
    await expect(label).to_have_attribute("data-round", "play")
    await expect(stream).not_to_contain_text("R1-S0")  # started over from an empty stream…
    await expect(stream.locator(".item").nth(3)).to_be_attached(timeout=5000)  # …and fills up step by step
    assert await stream.locator(".item").count() < total
    await page.click("#replay-play")  # pause
    count = await stream.locator(".item").count()
    await page.wait_for_timeout(1000)
    assert await stream.locator(".item").count() == count
    await page.click("#replay-skip")
    await expect(label).to_have_attribute("data-round", "all")
    await expect(stream).to_contain_text("R3-S")
    assert watched.loads == 1


async def _expect_round(page: Page, n: int, plan: list[int]) -> None:
    stream = page.locator("#stream")
    await expect(page.locator("#replay-label")).to_have_attribute("data-round", str(n))
    living = [seat for seat in range(6) if seat not in plan[: n - 1]]
    for seat in living:
        await expect(stream).to_contain_text(f"R{n}-S{seat} says hello")
    await expect(stream).to_contain_text(f"R{n}-S{plan[n - 1]} farewell" if n < 3 else "R3-S")
    for other in {1, 2, 3} - {n}:
        await expect(stream).not_to_contain_text(f"R{other}-S")
    await expect(page.locator(f'#votes .ballot[data-round="{n}"]')).to_be_visible()
    await expect(page.locator("#votes .flow-row.out")).to_have_attribute("data-target", str(plan[n - 1]))
    await expect(page.locator(f'#players .player[data-seat="{plan[n - 1]}"]')).to_have_attribute("data-alive", "false")
    if n < 3:
        await expect(page.locator(f'#players .player[data-seat="{plan[n]}"]')).to_have_attribute("data-alive", "true")


XSS = "<img src=x onerror=alert(1)>"


async def test_what_agents_write_is_shown_as_text(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    page = watched.page
    cast = [("xss-host", "<script>alert('name')</script>"), ("xss-two", "<img src=x onerror=alert(2)>"),
            ("xss-three", "Three"), ("xss-four", "Four")]
    table = CastTable(api, cast, n_undercover=1)
    await table.open()
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    await expect(page.locator("#players")).to_contain_text("<script>alert('name')</script>")
    speaker = (await table.snap(None))["current_speaker_seat"]
    await _ok(table, speaker, {"type": "speak", "text": XSS, "analysis": {"note": "<b>bold</b>"}})
    await expect(page.locator("#stream .bubble").first).to_have_text(XSS, timeout=FAST)
    await expect(page.get_by_text(XSS, exact=True)).to_be_visible()
    assert await page.locator("img[src='x']").count() == 0
    assert await page.locator("#stream script, #players script, #stream b:text('bold')").count() == 0

    await page.goto(f"{server.base_url}/")  # the lobby is rendered on the server: Jinja escapes
    await expect(page.locator("#live")).to_contain_text("<img src=x onerror=alert(2)>")
    assert await page.locator("img[src='x']").count() == 0
    await page.goto(f"{server.base_url}/agents/xss-two")
    await expect(page.locator("#profile-name")).to_contain_text("<img src=x onerror=alert(2)>")
    assert await page.locator("img[src='x']").count() == 0
    assert not watched.dialogs


async def test_a_seat_panel_catches_up_when_events_arrive_while_its_snapshot_is_on_its_way(
        server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    """The seat's panel reads the snapshot again after new events; events that arrive while that read is on its way
    get a read of their own once it answers — else the panel keeps the older answer (waiting) on the person's turn."""
    page = watched.page
    table = Table(api, 4, first_speaker=2)  # 2, 3, then the person at seat 0
    await table.open()
    url = f"{server.base_url}/match/{table.match_id}"
    await page.goto(f"{url}#play={table.tokens[0]}")
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    await expect(page.locator("#you")).to_have_attribute("data-action", "wait_for_speak_round")
    fetched, release = asyncio.Event(), asyncio.Event()
    held = 0

    async def hold_the_first(route: Route) -> None:
        nonlocal held
        held += 1
        if held > 1:
            await route.continue_()
            return
        answer = await route.fetch()  # read by the server now, before the second speech
        fetched.set()
        await release.wait()
        await route.fulfill(response=answer)

    await page.route(lambda address: address.split("#")[0].split("?")[0] == f"{server.base_url}/api/matches/"
                     f"{table.match_id}", hold_the_first)
    await _ok(table, 2, {"type": "speak", "text": "first clue"})
    await asyncio.wait_for(fetched.wait(), 30)
    await _ok(table, 3, {"type": "speak", "text": "second clue"})
    await expect(page.locator("#stream")).to_contain_text("second clue", timeout=10_000)
    release.set()
    await expect(page.locator("#you")).to_have_attribute("data-action", "speak", timeout=10_000)
    assert held >= 2, "the panel read the snapshot again"
