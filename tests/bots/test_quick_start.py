"""The quick start against a real server running its own official bots (uvicorn in a subprocess, issue 17): the
bots take every other seat at once, the pool grows up to `WODI_BOT_POOL_MAX` per persona, then refuses clearly."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest

from app.bots.personas import PERSONAS, persona_of_handle
from tests.api.helpers import host_calls_bots_in
from tests.conftest import _wipe
from tests.e2e.server import Server

KEY = "test-quick-start-bot-key"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    # Rooms that are not quick starts would wait ten minutes for bots: only `fill_now` can seat them here.
    # Each person calls from a device of their own (`X-Forwarded-For`, trusted from 127.0.0.1): one client's share
    # of the bots is WODI_QUICK_START_BOTS_PER_CLIENT (ten seats: two tables of five).
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600",
                     WODI_BOT_POOL_MAX="3", WODI_TRUSTED_PROXIES="127.0.0.1").start()
    try:
        yield running
    finally:
        running.stop()
        asyncio.run(_wipe(database_url))


def device(n: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"10.55.0.{n}"}


async def _seated(client: httpx.AsyncClient, started: dict[str, Any]) -> dict[str, Any]:
    """The person's view after one long-poll that returns when the room stops waiting (bounded, not timed)."""
    url = f"/api/matches/{started['match_id']}"
    headers = {"X-Play-Token": started["play_token"]}
    response = await client.get(url, params={"wait": 20, "wait_for": "opponent_joined"}, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _seconds_to_start(snap: dict[str, Any]) -> float:
    stamps = {e["type"]: datetime.fromisoformat(e["ts"]).timestamp() for e in snap["public_log"]}
    return stamps["match_started"] - stamps["match_created"]


async def test_a_quick_start_is_seated_by_bots_at_once(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        started = await client.post("/api/play", json={"name": "小王", "choices": {"virtual_players": 5}})
        assert started.status_code == 201, started.text
        snap = await _seated(client, started.json())
        assert snap["status"] == "in_progress" and snap["seats_open"] == 0
        assert snap["you"]["seat"] == 0 and snap["you"]["role"]
        me, *bots = snap["players"]
        assert me["is_guest"] and me["display_name"] == "小王" and not me["is_official"]
        assert len(bots) == 5 and all(p["is_official"] and not p["is_guest"] for p in bots)
        personas = {persona_of_handle(p["name"]) for p in bots}
        assert None not in personas and len(personas) == 5, "one bot per persona"
        assert _seconds_to_start(snap) < 600, "seated by fill_now, not by the ten-minute fill_after"


async def _registered(client: httpx.AsyncClient, per_persona: int) -> None:
    """Until the bots' process has registered its first `per_persona` agents of every persona (bounded)."""
    handles = [p.handle(i) for p in PERSONAS for i in range(1, per_persona + 1)]
    for _ in range(300):
        found = await asyncio.gather(*(client.get(f"/api/agents/{handle}") for handle in handles))
        if all(r.status_code == 200 for r in found):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the bots' process did not register its agents")


async def test_free_bots_are_seated_in_the_quick_starts_own_transaction_and_play(server: Server) -> None:
    """With the bots' agents registered and free, the server seats them while it opens the room: the quick start
    answers with the table dealt. The bots' process learns of those seats from the server and plays them."""
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        await _registered(client, 2)
        started = await client.post("/api/play", json={"name": "小李"}, headers=device(9))
        assert started.status_code == 201, started.text
        answer = started.json()
        assert answer["status"] == "in_progress" and answer["seats_open"] == 0, answer
        url, mine = f"/api/matches/{answer['match_id']}", {"X-Play-Token": answer["play_token"]}
        snap = (await client.get(url, headers=mine)).json()
        bots = {p["seat"]: p["name"] for p in snap["players"][1:]}
        assert all(p["is_official"] for p in snap["players"][1:]) and len(bots) == 5
        assert len({persona_of_handle(name) for name in bots.values()}) == 5, "one bot per persona"
        joined = {e["seat"]: e["ts"] for e in snap["public_log"] if e["type"] == "player_joined"}
        created = next(e["ts"] for e in snap["public_log"] if e["type"] == "match_created")
        assert {joined[seat] for seat in bots} == {created}, "seated in the transaction that opened the room"
        for _ in range(60):  # each long-poll returns on the next change (bounded, not timed)
            if any(e["type"] == "speech_posted" and e["seat"] in bots for e in snap["public_log"]):
                break
            if snap["you"]["your_turn"]:
                spoke = await client.post(f"{url}/action", json={"type": "speak", "text": "这东西很常见"},
                                          headers=mine)
                assert spoke.status_code == 200, spoke.text
            snap = (await client.get(url, params={"wait": 10, "wait_for": "any_change"}, headers=mine)).json()
        assert any(e["type"] == "speech_posted" and e["seat"] in bots for e in snap["public_log"]), \
            "the bots' process plays the seats the server gave its agents"


async def test_a_host_calling_the_bots_in_gets_them_seated_in_the_same_transaction(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        await _registered(client, 1)
        url, headers, filled = await host_calls_bots_in(client, "fill-host", 4)
        assert filled.status_code == 200, filled.text
        assert filled.json() == {"match_id": url.rsplit("/", 1)[1], "status": "in_progress", "fill_now": True,
                                 "seats_open": 0}
        players = (await client.get(url, headers=headers)).json()["players"][1:]
        assert len(players) == 3 and all(p["is_official"] for p in players)
        assert len({persona_of_handle(p["name"]) for p in players}) == 3


async def test_the_pool_grows_to_its_limit_then_refuses(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        # Three 6-seat tables need 15 bots: more than the 12 the filler starts with (two per persona).
        started = [await client.post("/api/play", json={"name": f"玩家{i}"}, headers=device(i + 1)) for i in range(3)]
        assert all(s.status_code == 201 for s in started), [s.text for s in started]
        snaps = await asyncio.gather(*(_seated(client, s.json()) for s in started))
        assert all(s["status"] == "in_progress" for s in snaps)
        handles = [p["name"] for s in snaps for p in s["players"][1:]]
        assert len(set(handles)) == 15 and all(p["is_official"] for s in snaps for p in s["players"][1:])
        per_persona = Counter(persona_of_handle(h) for h in handles)
        assert max(per_persona.values()) <= 3 and any(h.endswith("3@wodi") for h in handles), per_persona

        # 18 = 3 × 6 personas: 15 are playing, so a fourth table of five bots is refused, clearly…
        refused = await client.post("/api/play", json={"name": "晚来的", "choices": {"virtual_players": 5}},
                                    headers=device(4))
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
        body = refused.json()
        assert body["error"] == "bots_unavailable" and f"all {3 * len(PERSONAS)} official bots" in body["message"]
        # …and one of three still fits, with the pool's last agents.
        last = await client.post("/api/play", json={"name": "刚好", "choices": {"virtual_players": 3}},
                                 headers=device(5))
        assert last.status_code == 201, last.text
        snap = await _seated(client, last.json())
        assert snap["status"] == "in_progress"
        everyone = handles + [p["name"] for p in snap["players"][1:]]
        assert len(set(everyone)) == 18 and max(Counter(persona_of_handle(h) for h in everyone).values()) == 3


async def test_one_client_flooding_quick_starts_gets_its_share_while_another_is_seated(server: Server) -> None:
    """Issue 26's abuse test: one client opens quick starts as fast as it can (a dozen at once, as the attack did)
    and is refused after its share; a second client's quick start in the same seconds is seated against bots."""
    five = {"choices": {"virtual_players": 5}}
    async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
        flood = [client.post("/api/play", json={"name": f"刷{i}", **five}, headers=device(66)) for i in range(12)]
        other = client.post("/api/play", json={"name": "路人", **five}, headers=device(67))
        *flooded, theirs = await asyncio.gather(*flood, other)
        won = [r for r in flooded if r.status_code == 201]
        refused = [r for r in flooded if r.status_code != 201]
        assert len(won) == 2, [r.text for r in flooded]  # ten bot seats: two tables of five
        for response in refused:
            assert response.status_code == 429 and response.json()["error"] == "quick_start_limit", response.text
            assert response.headers["Retry-After"] == "30"
        assert theirs.status_code == 201, theirs.text
        snaps = await asyncio.gather(*(_seated(client, r.json()) for r in [theirs, *won]))
        for snap in snaps:
            assert snap["status"] == "in_progress" and snap["seats_open"] == 0
            assert all(p["is_official"] for p in snap["players"][1:]) and len(snap["players"]) == 6
        # Still refused while its two tables run: the share is what the client holds, not what it asked for.
        again = await client.post("/api/play", json={"name": "刷", **five}, headers=device(66))
        assert again.status_code == 429 and again.json()["error"] == "quick_start_limit", again.text
