"""Who the server seats in a quick start's own transaction (no bots run here: `WODI_BOTS_ELSEWHERE` says they run
on another machine, so the server seats them all the same): free official agents, one per persona, never a
suspended one — a persona without a free agent gets its next one made."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.bots.personas import ADAI, PERSONAS, persona_of_handle
from app.main import create_app
from tests.api.helpers import host_calls_bots_in
from tests.conftest import OFFICIAL_KEY, _wipe, make_settings

TOKEN = "test-operator-token"


@pytest.fixture
async def seating(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    application: FastAPI = create_app(make_settings(database_url, operator_token=TOKEN, bots_elsewhere=True))
    transport = httpx.ASGITransport(app=application)
    async with (application.router.lifespan_context(application),
                httpx.AsyncClient(transport=transport, base_url="http://testserver") as client):
        yield client
    await _wipe(database_url)


async def _table(client: httpx.AsyncClient, name: str) -> list[str]:
    started = await client.post("/api/play", json={"name": name, "choices": {"virtual_players": 5}})
    assert started.status_code == 201, started.text
    assert started.json()["status"] == "in_progress" and started.json()["seats_open"] == 0, started.text
    snap = (await client.get(f"/api/matches/{started.json()['match_id']}")).json()
    players = snap["players"][1:]
    assert all(p["is_official"] for p in players)
    return [str(p["name"]) for p in players]


async def test_free_agents_are_seated_a_suspended_one_never_and_a_persona_without_one_gets_its_next(
        seating: httpx.AsyncClient) -> None:
    for persona in PERSONAS:
        registered = await seating.post("/api/agents", json={"name": persona.handle(1)},
                                        headers={"X-Official-Bot-Key": OFFICIAL_KEY})
        assert registered.status_code == 201, registered.text
    suspended = await seating.post("/api/operator/suspensions", headers={"Authorization": f"Bearer {TOKEN}"},
                                   json={"subject": "agent", "name": ADAI.handle(1), "reason": "test"})
    assert suspended.status_code == 201, suspended.text
    # Six open seats take one agent of every persona: 阿呆's first is suspended, so its second is made.
    url, _, filled = await host_calls_bots_in(seating, "seating-host", 7)
    assert filled.status_code == 200 and filled.json()["status"] == "in_progress", filled.text
    seated = {p["name"] for p in (await seating.get(url)).json()["players"][1:]}
    assert seated == {p.handle(1) for p in PERSONAS if p is not ADAI} | {ADAI.handle(2)}
    # A quick start beside it: every persona's first agent is busy or suspended, so all five are made.
    again = await _table(seating, "小吴")
    assert len({persona_of_handle(h) for h in again}) == 5 and not set(again) & seated
    assert ADAI.handle(1) not in again and all(h.endswith(("2@wodi", "3@wodi")) for h in again), again
