"""The match page shows the LLM's rewrite of the recap when the record has one (real server in a subprocess with
`WODI_LLM_BASE_URL` pointing at the local fake endpoint of `tests.bots.test_recap_llm`, headless Chromium)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from playwright.async_api import expect

from app.bots.personas import PERSONAS
from app.bots.player import BotStats, MatchPlayer
from app.bots.pool import register_bot
from tests.bots.test_recap_llm import ROOM, FakeLLM
from tests.bots.test_recap_llm import endpoint as endpoint
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.web.conftest import Watched, _stop

KEY = "test-recap-page-key"


@pytest.fixture(scope="module")
async def server(database_url: str, endpoint: tuple[str, FakeLLM]) -> AsyncIterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY, WODI_LLM_BASE_URL=endpoint[0],
                     WODI_LLM_TIMEOUT="5").start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


async def bot_room(base_url: str) -> str:
    async with httpx.AsyncClient(base_url=base_url, timeout=40) as client:
        keys = [await register_bot(client, KEY, p.handle(), p.display_name, p) for p in PERSONAS]
        created = await client.post("/api/matches", json={"game": "undercover", "config": ROOM},
                                    headers={"Authorization": f"Bearer {keys[0]}"})
        match_id = str(created.json()["match_id"])
        for key in keys[1:]:
            joined = await client.post(f"/api/matches/{match_id}/join", json={},
                                       headers={"Authorization": f"Bearer {key}"})
            assert joined.status_code == 200, joined.text
        players = [MatchPlayer(client, key, match_id, PERSONAS[n], stats=BotStats(),
                               rng=random.Random(f"page:{n}"), wait=5) for n, key in enumerate(keys)]
        await asyncio.gather(*(p.run() for p in players))
    return match_id


async def test_the_page_shows_the_rewritten_recap(server: Server, watched: Watched,
                                                  endpoint: tuple[str, FakeLLM]) -> None:
    endpoint[1].mode = "good"
    match_id = await bot_room(server.base_url)
    snap: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        for _ in range(200):  # a bound on the polls, not a timing claim: the rewrite lands after the end
            snap = (await client.get(f"/api/matches/{match_id}")).json()
            if "rewritten" in snap["result"]["recap"]:
                break
            await asyncio.sleep(0.1)
    rewritten = snap["result"]["recap"]["rewritten"]
    page = watched.page
    await page.goto(f"{server.base_url}/match/{match_id}")
    recap = page.get_by_test_id("recap")
    await expect(recap).to_be_visible()
    await expect(recap).to_have_attribute("data-voiced", "1")
    for row in rewritten["players"]:
        await expect(page.get_by_test_id(f"recap-score-{row['seat']}")).to_contain_text(row["comment"])
    await expect(page.get_by_test_id("recap-best")).to_contain_text(rewritten["best"])
    await expect(page.get_by_test_id("recap-blunder")).to_contain_text(rewritten["blunder"])
    await expect(page.locator("body")).to_contain_text("复盘点评已由 AI 按人设改写")  # the log's line for the event


async def test_a_failing_llm_leaves_the_rule_text_on_the_page(server: Server, watched: Watched,
                                                              endpoint: tuple[str, FakeLLM]) -> None:
    fake = endpoint[1]
    fake.mode = "fail"
    asked = len(fake.recap_requests)
    match_id = await bot_room(server.base_url)
    for _ in range(200):  # a bound on the polls: the server asks the LLM after the end, and gets a 500
        if len(fake.recap_requests) > asked:
            break
        await asyncio.sleep(0.1)
    assert len(fake.recap_requests) == asked + 1
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        snap = (await client.get(f"/api/matches/{match_id}")).json()
    recap = snap["result"]["recap"]
    page = watched.page
    await page.goto(f"{server.base_url}/match/{match_id}")
    await expect(page.get_by_test_id("recap")).to_have_attribute("data-voiced", "0")
    for row in recap["players"]:
        await expect(page.get_by_test_id(f"recap-score-{row['seat']}")).to_contain_text(row["comment"])
    await expect(page.get_by_test_id("recap-best")).to_contain_text(recap["best"]["text"])
    assert "rewritten" not in recap and snap["public_log"][-1]["type"] == "match_finished"
