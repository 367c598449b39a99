"""The filler's reserve grows with demand (issue 17): when a quick start finds a persona without an idle agent, the
reserve doubles for every persona at once and is registered in the background, ahead of the next rooms."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import httpx
import pytest

from app.bots.lobby import Lobby
from app.bots.personas import PERSONAS
from app.bots.player import BotStats
from app.bots.pool import Pool
from app.bots.runner import LobbyFiller
from app.bots.seats import Seats
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


async def test_a_room_short_of_agents_the_reserve_is_registering_is_seated_when_they_are(server: Server) -> None:
    """The pool is at its largest and the reserve holds the only free agents while it registers them: the room
    waits for that registration, not for the filler's next pass (600 s here)."""
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        rooms = [await client.post("/api/play", json={"name": f"玩家{i}"}) for i in range(2)]
        assert all(r.status_code == 201 for r in rooms), [r.text for r in rooms]
        # One agent per persona and room for one more each: the first room's five leave one idle; the reserve
        # then holds the five personas' second agents while it registers them, and the pool can grow no more.
        filler = LobbyFiller(server.base_url, KEY, fill_after=600, agents_per_persona=1, poll_interval=600,
                             think=0.0, pool_max=2, reserve=1, seed=7)
        await filler.start()
        try:
            for _ in range(300):  # bounded: a hang fails, no claim about speed
                if filler.urgent_seats == 10:
                    break
                await asyncio.sleep(0.1)
            assert filler.urgent_seats == 10, "both rooms seated in the first pass"
            assert filler.pool.size() == 2 * len(PERSONAS)
            for room in rooms:
                snap = (await client.get(f"/api/matches/{room.json()['match_id']}")).json()
                assert snap["status"] != "waiting" and snap["seats_open"] == 0
        finally:
            await filler.stop()


async def test_a_list_read_before_a_rooms_fill_sends_no_second_line_up(server: Server) -> None:
    """A wake-up's list of rooms can predate the joins of a room's own fill; the filler counts the seats its agents
    took since, and sends no join to the room they filled."""
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        started = await client.post("/api/play", json={"name": "玩家"})
        assert started.status_code == 201, started.text
        listed = (await client.get("/api/matches", params={"status": "waiting", "fill_now": "true"})).json()
        stale = next(m for m in listed["matches"] if m["match_id"] == started.json()["match_id"])
        assert stale["seats_open"] == 5
        filler = LobbyFiller(server.base_url, KEY, fill_after=600, agents_per_persona=2, poll_interval=600,
                             think=0.0, pool_max=2, seed=5)
        joins: list[str] = []

        async def note(request: httpx.Request) -> None:
            if request.url.path.endswith("/join"):
                joins.append(request.url.path)

        await filler.start()
        try:
            for _ in range(300):  # bounded: the first pass seats the room
                if filler.urgent_seats == 5:
                    break
                await asyncio.sleep(0.1)
            assert filler.urgent_seats == 5
            assert filler.pool.client is not None
            filler.pool.client.event_hooks["request"].append(note)
            assert await filler.lobby.fill_room(stale, grow=True) == 0
            assert joins == []
            assert sum(a.idle for a in filler.agents) == 2 * len(PERSONAS) - 5, "no agent left reserved"
        finally:
            await filler.stop()


class _Held(httpx.AsyncBaseTransport):
    """Real HTTP to the server, except that the registration of `handle` waits until `go` is set."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.handle = ""
        self.go = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/agents" and self.handle and self.handle.encode() in request.content:
            await self.go.wait()
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_the_reserve_frees_each_agent_as_its_own_registration_is_through(server: Server) -> None:
    """A room waiting for agents the reserve holds gets each as soon as its key arrives, not when the whole batch
    is through; and an agent a room took meanwhile stays the room's when the batch ends."""
    held = _Held()
    pool = Pool(KEY, agents_per_persona=1, pool_max=2, reserve=1)
    pool.client = httpx.AsyncClient(base_url=server.base_url, transport=held, timeout=40)
    try:
        await pool.register_all()
        for agent in pool.agents:
            agent.match_id = "seated00"  # every first agent at a table: the reserve wants a second of each persona
        pool.top_up()
        fresh = [a for a in pool.agents if a.match_id == ""]
        assert len(fresh) == len(PERSONAS) and pool.registering()
        held.handle = fresh[0].handle
        for _ in range(200):  # bounded (20 s): each freed agent wakes `freed`
            if sum(a.idle for a in fresh) == len(fresh) - 1:
                break
            await pool.freed(0.1)
        assert sum(a.idle for a in fresh) == len(fresh) - 1, "all but the held one free while it still registers"
        assert fresh[0].match_id == "" and pool.registering()
        fresh[1].match_id = "taken000"  # a room takes one meanwhile
        held.go.set()
        assert pool.topping_up is not None
        await pool.topping_up
        assert fresh[0].idle
        assert fresh[1].match_id == "taken000"
    finally:
        await pool.client.aclose()


def test_a_room_leaves_out_the_persona_with_least_spare_however_far_the_reserve_has_got() -> None:
    """Two personas have an idle agent and one the reserve is registering; four have only one the reserve has just
    registered. A room of five takes both of the first two (they have the most spare), whichever of the reserve's
    registrations are through: leaving one of them out would leave the pool's free agents in fewer personas than
    the rooms after need."""
    for seed in range(30):
        pool = Pool(KEY, agents_per_persona=1, pool_max=2)
        lobby = Lobby(pool, Seats(pool, BotStats(), random.Random(seed)), BotStats(), random.Random(seed),
                      fill_after=600)
        for agent in pool.agents:
            agent.key = "k"
        first, second = PERSONAS[0], PERSONAS[1]
        for persona in PERSONAS:
            grown = pool.grow(persona)
            assert grown is not None
            grown.key, grown.match_id = ("", "") if persona in (first, second) else ("k", None)
            if persona not in (first, second):
                mine = next(a for a in pool.agents if a.persona is persona and a is not grown)
                mine.match_id = "seated00"  # the persona's first agent is at a table
        lineup = lobby.lineup({"match_id": "room0000", "seats_open": 5, "players": []}, grow=True)
        assert len(lineup) == 5
        assert {first, second} <= {agent.persona for agent in lineup}, seed
