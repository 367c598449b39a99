"""A person holding a seat plays 谁是卧底 in a real browser: the word card, speaking (with the warning when the text
contains their word and the server's refusal in words), voting by clicking a card, a reload that keeps the seat,
concede behind a confirmation, and taking an open seat of a waiting room."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.async_api import Page, expect

from tests.api.table import Table
from tests.e2e.server import Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser
SOON = 5000  # ms: how long the page may take to show what the server already holds


async def _ok(table: Table, seat: int, body: dict[str, Any]) -> None:
    response = await table.act(seat, body)
    assert response.status_code == 200, response.text


async def _others_until_mine(table: Table, me: int) -> dict[str, Any]:
    """Every other seat acts (lowest living other seat, harmless speech) until it is `me`'s turn or the end."""
    for _ in range(60):
        mine = await table.snap(me)
        if mine["status"] != "in_progress" or mine["you"]["your_turn"]:
            return mine
        for seat in range(table.n):
            if seat == me:
                continue
            snap = await table.snap(seat)
            action = snap["you"]["next_action"]
            alive = [p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != seat]
            if action == "speak":
                await _ok(table, seat, {"type": "speak", "text": f"第{snap['round_index']}轮，我想想怎么说"})
            elif action == "vote":
                pool = [s for s in alive if s in (snap.get("pk_candidates") or [])] or alive
                await _ok(table, seat, {"type": "vote", "target_seat": pool[0]})
    raise AssertionError("the match did not reach the person's turn")


async def _open_as_seat(page: Page, server: Server, table: Table, seat: int) -> None:
    await page.goto(f"{server.base_url}/match/{table.match_id}#play={table.tokens[seat]}")
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert "#play=" not in page.url, "the token stays out of the address bar"


async def test_a_seat_holder_speaks_votes_and_keeps_the_seat_on_reload(server: Server, api: httpx.AsyncClient,
                                                                       watched: Watched) -> None:
    page = watched.page
    table = Table(api, 4, n_undercover=1, first_speaker=0)
    await table.open()
    me = (await table.snap(0))["you"]
    await _open_as_seat(page, server, table, 0)

    await expect(page.get_by_test_id("my-word")).to_have_text(me["word"] or "（无词）", timeout=SOON)
    await expect(page.locator("#you")).to_have_attribute("data-action", "speak", timeout=SOON)
    box = page.get_by_test_id("speak-input")
    await box.fill(f"我的是{me['word']}")
    await expect(page.get_by_test_id("speak-warning")).to_be_visible()
    await expect(page.get_by_test_id("speak-warning")).to_contain_text(me["word"])
    await page.get_by_test_id("speak-send").click()  # first press: the warning asks again
    await page.get_by_test_id("speak-send").click()  # second: the server refuses, in words
    await expect(page.get_by_test_id("play-message")).to_contain_text("你自己的词", timeout=SOON)
    assert (await table.snap(0))["you"]["next_action"] == "speak", "the refused speech did not count"

    await box.fill("每天都会用到，很常见")
    await expect(page.get_by_test_id("speak-warning")).to_be_hidden()
    await page.get_by_test_id("speak-send").click()
    await expect(page.locator("#stream")).to_contain_text("每天都会用到，很常见", timeout=SOON)

    await page.reload()  # the seat survives a reload: the token is kept for this match
    await expect(page.get_by_test_id("my-word")).to_have_text(me["word"] or "（无词）", timeout=SOON)

    # A crafted link cannot take the seat away: a stored token is never replaced by a link's (a bogus one used to
    # be stored, refused and then forgotten, losing the seat; another seat's would have played that seat instead).
    kept = await page.evaluate(f"localStorage.getItem('wodi.seat.{table.match_id}')")
    for crafted in ("pk_live_" + "A" * 43, table.tokens[1]):
        await page.goto("about:blank")  # a fresh load of the link, not a change of the fragment alone
        await page.goto(f"{server.base_url}/match/{table.match_id}#play={crafted}")
        await expect(page.locator("body")).to_have_attribute("data-ready", "1")
        await expect(page.get_by_test_id("my-word")).to_have_text(me["word"] or "（无词）", timeout=SOON)
        assert await page.evaluate(f"localStorage.getItem('wodi.seat.{table.match_id}')") == kept
        assert "#play=" not in page.url

    await _others_until_mine(table, 0)
    await expect(page.locator("#you")).to_have_attribute("data-action", "vote", timeout=SOON)
    await expect(page.get_by_test_id("vote-target-0")).to_have_count(0)  # never yourself
    await page.get_by_test_id("vote-comment").fill("他说得太含糊了")
    await page.get_by_test_id("vote-target-2").click()
    await expect(page.locator("#stream .item.vote").filter(has_text="他说得太含糊了")).to_have_count(1, timeout=SOON)
    snap = await table.snap(0)
    assert snap["you"]["has_voted_this_round"] is True
    events = await table.events(0)
    assert any(e["type"] == "vote_cast" and e["seat"] == 0 and e["target_seat"] == 2 for e in events)


async def test_concede_asks_first(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    page = watched.page
    table = Table(api, 4, n_undercover=1, first_speaker=1)
    await table.open()
    await _open_as_seat(page, server, table, 0)
    await page.get_by_test_id("concede").click()
    confirm = page.get_by_test_id("concede-confirm")
    await expect(confirm).to_be_visible()
    assert (await table.snap(0))["you"]["alive"] is True, "nothing happens before the confirmation"
    await confirm.click()
    await expect(page.locator('#players .player[data-seat="0"]')).to_have_attribute("data-alive", "false",
                                                                                    timeout=SOON)
    assert (await table.snap(0))["you"]["alive"] is False
