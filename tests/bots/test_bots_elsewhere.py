"""Quick starts against bots that run apart from the server (`WODI_BOTS_ELSEWHERE`): the server seats free official
agents in the room's own transaction and, when a persona has none free, makes its next agent there too (a key
nobody holds). The bots' process learns of those seats from its wake-up, registers the agents it did not have, and
plays them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.bots.personas import PERSONAS
from app.bots.runner import LobbyFiller
from app.bots.wake import HttpWake
from tests.conftest import _wipe
from tests.e2e.server import Server

KEY = "test-bots-elsewhere-key"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY, WODI_BOTS_ELSEWHERE="true", WODI_BOT_POOL_MAX="3",
                     WODI_BOT_FILL_AFTER="600", WODI_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        yield running
    finally:
        running.stop()
        asyncio.run(_wipe(database_url))


async def _quick_start(client: httpx.AsyncClient, n: int) -> dict[str, Any]:
    started = await client.post("/api/play", json={"name": f"玩家{n}"}, headers={"X-Forwarded-For": f"10.56.0.{n}"})
    assert started.status_code == 201, started.text
    answer = dict(started.json())
    assert answer["status"] == "in_progress" and answer["seats_open"] == 0, "dealt before the answer"
    return answer


async def _until_a_bot_speaks(client: httpx.AsyncClient, answer: dict[str, Any], handles: set[str]) -> None:
    """The person plays their turns until one of `handles` posts a speech (bounded long-polls, not timed)."""
    url, mine = f"/api/matches/{answer['match_id']}", {"X-Play-Token": answer["play_token"]}
    snap = (await client.get(url, headers=mine)).json()
    seats = {p["seat"] for p in snap["players"] if p["name"] in handles}
    assert seats, snap["players"]
    for _ in range(60):
        if any(e["type"] == "speech_posted" and e["seat"] in seats for e in snap["public_log"]):
            return
        if snap["you"]["your_turn"]:
            spoke = await client.post(f"{url}/action", json={"type": "speak", "text": "这东西很常见"}, headers=mine)
            assert spoke.status_code == 200, spoke.text
        snap = (await client.get(url, params={"wait": 10, "wait_for": "any_change"}, headers=mine)).json()
    raise AssertionError(f"none of {sorted(handles)} spoke")


async def test_the_server_makes_the_agents_a_table_needs_and_the_bots_play_them(server: Server) -> None:
    wake = HttpWake(server.base_url, KEY)
    filler = LobbyFiller(server.base_url, KEY, fill_after=600, agents_per_persona=1, poll_interval=600, think=0.0,
                         pool_max=3, seed=5, wake=wake)
    await filler.start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            for _ in range(300):  # bounded: the filler registers one agent per persona, then waits on the wake-up
                if filler.pool.size() == len(PERSONAS):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            first = await _quick_start(client, 1)
            # Five of the six registered agents sit at the first table: the second table's personas but one have
            # none free, so the server makes their second agents, which no one holds a key for yet.
            second = await _quick_start(client, 2)
            players = (await client.get(f"/api/matches/{second['match_id']}")).json()["players"][1:]
            made = {p["name"] for p in players if p["name"].endswith("2@wodi")}
            assert len(made) == 4 and all(p["is_official"] for p in players), players
            await _until_a_bot_speaks(client, second, made)
            await _until_a_bot_speaks(client, first, {a.handle for a in filler.agents})
            assert filler.adopted == 10 and filler.joins == 0
            assert {a.handle for a in filler.agents if a.key} >= made, "registered before they played"
    finally:
        await filler.stop()
        await wake.aclose()
