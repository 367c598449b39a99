"""The werewolf brain over real HTTP (the app in process, SQLite by default, PostgreSQL with
WODI_TEST_DATABASE_URL): persona bots read their seat's `GET /api/matches/{id}` and every body they send to
`POST /action` is accepted, to the end of a 6- and a 12-seat game."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import httpx
import pytest

from app.bots.personas import PERSONAS
from app.games.installed import brains
from tests.api.helpers import bearer, register


@pytest.mark.parametrize("n", [6, 12])
async def test_persona_bots_play_a_werewolf_match_over_http_with_nothing_refused(client: httpx.AsyncClient,
                                                                               n: int) -> None:
    decide = brains()["werewolf"]
    agents = [await register(client, f"wwbot-{n}-{i}") for i in range(n)]
    keys = [bearer(a["api_key"]) for a in agents]
    created = await client.post("/api/matches", json={"game": "werewolf", "config": {"n_players": n}},
                                headers=keys[0])
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    for seat in range(1, n):
        assert (await client.post(f"{url}/join", json={}, headers=keys[seat])).status_code == 200
    rng, order = random.Random(n), random.Random(-n)
    sent: Counter[str] = Counter()
    for _ in range(2000):
        snaps = [v.json() for v in await asyncio.gather(*(client.get(url, headers=key) for key in keys))]
        if snaps[0]["status"] != "in_progress":
            break
        acting = [s for s, snap in enumerate(snaps) if snap["you"]["your_turn"]]
        assert acting, snaps[0]["phase"]
        seat = order.choice(acting)
        body = decide(snaps[seat], PERSONAS[seat % len(PERSONAS)].slug, rng)
        assert body is not None, snaps[seat]["you"]
        answer = await client.post(f"{url}/action", json=body, headers=keys[seat])
        assert answer.status_code == 200, (body, answer.text)
        sent[body["type"]] += 1
    final = (await client.get(url)).json()
    assert final["status"] == "finished" and final["result"]["winner_camp"] in ("village", "werewolf")
    assert sent["night_action"] and sent["speak"] and sent["vote"] and sent["whisper"]
