"""The bots' lobby long-poll (`GET /api/bots/wake`): a wait a quick start ends brings the rooms to fill at once, as
the room list gives them, so the filler seats them without listing again; a wait nothing ended brings none."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import OFFICIAL_KEY

KEY = {"X-Official-Bot-Key": OFFICIAL_KEY}


async def test_a_wake_up_brings_the_rooms_to_fill_at_once(client: httpx.AsyncClient) -> None:
    quiet = await client.get("/api/bots/wake", params={"wait": 0}, headers=KEY)
    assert quiet.status_code == 200, quiet.text
    latest = quiet.json()["latest"]
    assert "rooms" not in quiet.json()
    waiting = asyncio.create_task(client.get("/api/bots/wake", params={"after": latest, "wait": 20}, headers=KEY))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    started = await client.post("/api/play", json={"name": "阿青"})
    assert started.status_code == 201, started.text
    match_id = started.json()["match_id"]
    woken = (await waiting).json()
    assert woken["latest"] > latest
    listed = (await client.get("/api/matches", params={"status": "waiting", "fill_now": "true",
                                                       "sort": "oldest"})).json()["matches"]
    assert woken["rooms"] == listed and [room["match_id"] for room in listed] == [match_id]
    assert woken["rooms"][0]["seats_open"] == 5 and woken["rooms"][0]["fill_now"] is True
    again = await client.get("/api/bots/wake", params={"after": woken["latest"], "wait": 0}, headers=KEY)
    assert again.json() == {"latest": woken["latest"]}
