"""The filler's reserve grows with demand (issue 17): when a quick start finds a persona without an idle agent, the
reserve doubles for every persona at once and is registered in the background, ahead of the next rooms."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from app.bots.personas import PERSONAS
from app.bots.runner import LobbyFiller
from app.bots.wake import HttpWake
from tests.conftest import _wipe
from tests.e2e.server import Server

KEY = "test-reserve-official-key"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY).start()
    try:
        yield running
    finally:
        running.stop()
        asyncio.run(_wipe(database_url))


def _idle(filler: LobbyFiller) -> dict[str, int]:
    return {p.slug: sum(a.persona is p and a.idle for a in filler.agents) for p in PERSONAS}


async def test_a_room_gone_short_doubles_the_reserve_for_every_persona(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        # Two quick starts before the filler starts: its first pass sees both, so the second room's lineup finds
        # four personas whose only free agents are still registering for the reserve.
        rooms = [await client.post("/api/play", json={"name": f"玩家{i}"}) for i in range(2)]
        assert all(r.status_code == 201 for r in rooms), [r.text for r in rooms]
        filler = LobbyFiller(server.base_url, KEY, fill_after=600, agents_per_persona=1, poll_interval=600,
                             think=0.0, pool_max=4, reserve=1, seed=7)
        assert filler.pool.wanted == 1
        await filler.start()
        try:
            for _ in range(300):  # bounded: a hang fails, no claim about speed
                done = filler.urgent_seats == 10 and (filler.pool.topping_up is None or filler.pool.topping_up.done())
                if done and min(_idle(filler).values()) >= 2:
                    break
                await asyncio.sleep(0.1)
            assert filler.urgent_seats == 10, "both rooms seated"
            assert filler.pool.wanted == 2, "one room went short: the reserve doubled"
            idle = _idle(filler)
            assert min(idle.values()) >= 2, idle  # every persona, not only the ones the rooms lacked
            for agent in (a for a in filler.agents if a.idle):
                assert (await client.get(f"/api/agents/{agent.handle}")).status_code == 200, agent.handle
            for room in rooms:
                snap = (await client.get(f"/api/matches/{room.json()['match_id']}")).json()
                assert snap["status"] != "waiting" and snap["seats_open"] == 0
        finally:
            await filler.stop()


async def test_a_room_that_wakes_the_filler_is_seated_without_listing_the_lobby_again(server: Server) -> None:
    """The wake-up (`GET /api/bots/wake`) brings the room with it: between the quick start and the bots' seats the
    filler sends no `GET /api/matches`."""
    wake = HttpWake(server.base_url, KEY)
    filler = LobbyFiller(server.base_url, KEY, fill_after=600, agents_per_persona=1, poll_interval=600, think=0.0,
                         pool_max=2, seed=3, wake=wake)
    listed: list[str] = []

    async def note(request: httpx.Request) -> None:
        if request.url.path == "/api/matches":
            listed.append(str(request.url))

    await filler.start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            for _ in range(300):  # bounded: the filler's first pass (it lists the lobby once) and its first wait
                if filler.pool.size() == len(PERSONAS):
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            assert filler.pool.client is not None
            filler.pool.client.event_hooks["request"].append(note)
            started = await client.post("/api/play", json={"name": "玩家"})
            assert started.status_code == 201, started.text
            snap = (await client.get(f"/api/matches/{started.json()['match_id']}",
                                     params={"wait": 20, "wait_for": "opponent_joined"},
                                     headers={"X-Play-Token": started.json()["play_token"]})).json()
            assert snap["status"] == "in_progress" and snap["seats_open"] == 0
            for _ in range(100):  # the person may see the table full before the filler counts its seats
                if filler.urgent_seats == 5:
                    break
                await asyncio.sleep(0.1)
            assert filler.urgent_seats == 5
            assert listed == [], listed
    finally:
        await filler.stop()
        await wake.aclose()
