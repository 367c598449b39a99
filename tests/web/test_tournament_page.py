"""An event's page in a real browser: the standings update live as tables finish and the next round appears, with
no reload; in Chinese and English, on a phone's width too."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from playwright.async_api import expect

from app.bots.personas import PERSONAS
from tests.api.helpers import bearer
from tests.benchmarks.agent import act_once
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.tournaments.field import OPERATOR, soon
from tests.web.conftest import Watched, _stop

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    running = Server(database_url, WODI_OPERATOR_TOKEN=OPERATOR).start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


async def _play_until(api: httpx.AsyncClient, key: dict[str, str], url: str, done: Any) -> dict[str, Any]:
    rng = random.Random(9)
    for _ in range(20000):
        view = (await api.get(url)).json()
        if done(view):
            return dict(view)
        if not await act_once(api, key, rng, usage=None):
            await asyncio.sleep(0.05)
    raise AssertionError("the table did not finish")


def _table(view: dict[str, Any], round_no: int, name: str) -> dict[str, Any]:
    tables = view["round_tables"][round_no - 1]["tables"]
    return next(t for t in tables if any(s["name"] == name for s in t["seats"]))


async def test_standings_update_live(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    names = ["page-alpha", "page-beta"]
    keys = [bearer((await api.post("/api/agents", json={"name": n, "display_name": n.replace("page-", "Page ")}))
                   .json()["api_key"]) for n in names]
    created = await api.post("/api/tournaments", headers=bearer(OPERATOR), json={
        "game": "undercover", "format": "gauntlet", "rounds": 2, "round_break": 1, "starts_at": soon(3),
        "name": "Page cup", "config": {"n_players": 4, "n_undercover": 1, "speak_timeout": 30, "vote_timeout": 30}})
    assert created.status_code == 201, created.text
    event_id = created.json()["tournament_id"]
    url = f"/api/tournaments/{event_id}"
    for key in keys:
        assert (await api.post(f"{url}/entries", headers=key)).status_code == 201
    lobby = await api.get("/")
    assert f"/tournament/{event_id}" in lobby.text and "Page cup" in lobby.text
    view = await _play_until(api, keys[0], url, lambda v: v["round"] == 1)

    page = watched.page
    await page.goto(f"{server.base_url}/tournament/{event_id}")
    await expect(page.locator("h1")).to_have_text("Page cup")
    standings = page.get_by_test_id("tournament-standings")
    await expect(standings).to_contain_text("积分榜")
    # The gauntlet's reference seats are named as people know the personas, not by their ids.
    personas = "|".join(re.escape(p.display_name) for p in PERSONAS)
    await expect(page.locator(".tn-ref").first).to_have_text(re.compile(f"^参照选手 · ({personas})$"))
    first = _table(view, 1, names[0])
    await expect(page.get_by_test_id(f"tournament-table-{first['match_id']}")).to_have_attribute("data-recorded", "no")
    await expect(page.get_by_test_id(f"tournament-standing-{names[0]}")).to_have_attribute("data-games", "0")

    # alpha plays its table to the end: the page shows it recorded and alpha's game counted, without a reload
    view = await _play_until(api, keys[0], url, lambda v: _table(v, 1, names[0])["recorded"])
    await expect(page.get_by_test_id(f"tournament-table-{first['match_id']}")).to_have_attribute(
        "data-recorded", "yes", timeout=15000)
    await expect(page.get_by_test_id(f"tournament-standing-{names[0]}")).to_have_attribute("data-games", "1")
    await expect(page.get_by_test_id(f"tournament-standing-{names[1]}")).to_have_attribute("data-games", "0")
    await expect(page.get_by_test_id("tournament-round-1")).to_be_visible()
    await expect(page.get_by_test_id("tournament-round-2")).to_have_count(0)

    # beta's table ends too: round 2 is seated and appears
    await _play_until(api, keys[1], url, lambda v: v["round"] == 2)
    await expect(page.get_by_test_id("tournament-round-2")).to_be_visible(timeout=15000)
    await expect(page.get_by_test_id(f"tournament-standing-{names[1]}")).to_have_attribute("data-games", "1")
    view = (await api.get(url)).json()
    second = _table(view, 2, names[0])
    await expect(page.get_by_test_id(f"tournament-table-{second['match_id']}")).to_have_attribute("data-status",
                                                                                                 "in_progress")
    await expect(page.get_by_test_id(f"tournament-table-{second['match_id']}").locator("a").first).to_have_attribute(
        "href", f"/match/{second['match_id']}")
    await _play_until(api, keys[0], url, lambda v: _table(v, 2, names[0])["recorded"])
    view = await _play_until(api, keys[1], url, lambda v: v["status"] == "finished")
    champion = view["standings"][0]  # named as people see it, not by its handle
    assert champion["name"] == view["winner"]
    await expect(page.get_by_test_id("tournament-winner")).to_contain_text(champion["display_name"], timeout=15000)
    for row in view["standings"]:
        await expect(page.get_by_test_id(f"tournament-standing-{row['name']}")).to_have_attribute("data-rank",
                                                                                                 str(row["rank"]))
    assert watched.loads == 1  # every update above came without a reload

    await page.set_viewport_size({"width": 375, "height": 740})
    await page.goto(f"{server.base_url}/tournament/{event_id}?lang=en")
    await expect(page.get_by_test_id("tournament-standings")).to_contain_text("Standings")
    await expect(page.get_by_test_id("tournament-standings")).to_contain_text("Winner")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
