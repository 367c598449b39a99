"""A script_kill room that opens with three agents is completed by the lobby filler's NPCs (0–3 of them, never
more), against the real server (uvicorn in a subprocess): the agents play over HTTP using only their
`you.allowed_actions` options, the NPCs play their seats, and the compressed game reaches its ending with
nothing any NPC sent refused."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from app.bots.personas import persona_of_handle
from app.bots.runner import LobbyFiller
from tests.bots.script_kill_agent import agent_move
from tests.conftest import _wipe
from tests.e2e.server import Server

KEY = "test-sk-bots-official-key"


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


def ended(snap: dict[str, Any]) -> bool:
    return snap["status"] == "finished" or bool(snap.get("ending"))


async def test_three_agents_and_three_npcs_from_the_lobby_play_to_the_ending(server: Server, wiped: None) -> None:
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0, poll_wait=5.0)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            keys = []
            for i in range(3):
                agent = (await client.post("/api/agents", json={"name": f"sk-agent-{i}"})).json()
                keys.append({"Authorization": f"Bearer {agent['api_key']}"})
            created = await client.post("/api/matches", headers=keys[0],
                                        json={"game": "script_kill", "config": {"timing": "compressed"}})
            assert created.status_code == 201, created.text
            url = f"/api/matches/{created.json()['match_id']}"
            await filler.start()
            await asyncio.sleep(1.0)  # four seats open: more than the NPCs may take, so the room waits
            assert not filler.busy() and (await client.get(url)).json()["status"] == "waiting"
            for key in keys[1:]:
                assert (await client.post(f"{url}/join", json={}, headers=key)).status_code == 200
            snap = (await client.get(url, headers=keys[0])).json()
            for _ in range(40):
                if snap["status"] != "waiting":
                    break
                snap = (await client.get(url, params={"wait": 5, "wait_for": "any_change"}, headers=keys[0])).json()
            assert snap["status"] == "in_progress", "the NPCs did not fill the room"
            npcs = [p for p in snap["players"] if p["seat"] >= 3]
            assert len(npcs) == 3 and all(p["is_official"] and persona_of_handle(p["name"]) for p in npcs)
            done: list[set[tuple[str, str]]] = [set() for _ in keys]
            sent: Counter[str] = Counter()
            for _ in range(600):
                snaps = [(await client.get(url, headers=key)).json() for key in keys]
                if ended(snaps[0]):
                    break
                moves = [(s, agent_move(snap, done[s])) for s, snap in enumerate(snaps) if snap["you"]["your_turn"]]
                moves = [(s, body) for s, body in moves if body is not None]
                if not moves:
                    await client.get(url, params={"wait": 5, "wait_for": "any_change"}, headers=keys[0])
                    continue
                for seat, body in moves:
                    answer = await client.post(f"{url}/action", json=body, headers=keys[seat])
                    assert answer.status_code == 200 or answer.json()["error"] == "stage_forbids", answer.text
                    sent[body["type"]] += answer.status_code == 200
            final = (await client.get(url)).json()
            assert ended(final), final["phase"]
            assert final["ending"] in ("perfect", "normal", "failure")
            log = final["public_log"]
            npc_seats = {p["seat"] for p in npcs}
            assert {e["seat"] for e in log if e["type"] == "speech"} >= npc_seats
            assert {e["seat"] for e in log if e["type"] == "investigated"} >= npc_seats
            assert sent["vote"] in (3, 6) and sent["speak"] >= 3  # 6: a tie, and the second vote
        assert filler.joins == 3
        assert sum(filler.stats.errors.values()) == 0, filler.stats.errors
        assert filler.stats.actions["vote"] in (3, 6) and filler.stats.actions["ready"] > 0
    finally:
        await filler.stop()
