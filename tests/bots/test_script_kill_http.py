"""script_kill NPCs over real HTTP (the app in process; SQLite by default, PostgreSQL with WODI_TEST_DATABASE_URL):
six persona bots read their own `GET /api/matches/{id}` and every body they send to `POST /action` is accepted,
from the deal to the ending of a compressed game; then the review's clock runs out and the match finishes."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from typing import Any

import httpx
from fastapi import FastAPI

from app.bots.personas import PERSONAS
from app.db import matches as repo
from app.games.installed import brains
from app.services.match import matches as service
from tests.api.helpers import bearer, register


def ended(snap: dict[str, Any]) -> bool:
    """The vote is resolved: the result (with its ending) is written; the review may still be running."""
    return snap["status"] == "finished" or bool(snap.get("ending"))


async def review_ends(app: FastAPI, match_id: str) -> None:
    """The review's clock runs out: the runtime's clock jumps past its deadline and the timer fires."""
    runtime = app.state.runtime
    async with runtime.db.writer() as session:
        match = await repo.get(session, match_id)
        assert match is not None and match.timer_due is not None
        due, token = match.timer_due, match.timer_token
    runtime.clock = lambda: max(time.time(), due + 1)
    try:
        assert await service.fire_timer(runtime, match_id, token)
    finally:
        runtime.clock = time.time


async def test_six_npcs_play_a_compressed_game_to_its_ending_with_nothing_refused(
        app: FastAPI, client: httpx.AsyncClient) -> None:
    decide = brains()["script_kill"]
    agents = [await register(client, f"skbot-{i}") for i in range(6)]
    keys = [bearer(a["api_key"]) for a in agents]
    created = await client.post("/api/matches", json={"game": "script_kill", "config": {"timing": "compressed"}},
                                headers=keys[0])
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    for seat in range(1, 6):
        assert (await client.post(f"{url}/join", json={}, headers=keys[seat])).status_code == 200
    rng, order = random.Random(6), random.Random(-6)
    sent: Counter[str] = Counter()
    for _ in range(1500):
        snaps = [v.json() for v in await asyncio.gather(*(client.get(url, headers=key) for key in keys))]
        if ended(snaps[0]):
            break
        bodies = [(s, decide(snap, PERSONAS[s].slug, rng)) for s, snap in enumerate(snaps) if snap["you"]["your_turn"]]
        moves = [(s, body) for s, body in bodies if body is not None]
        if not moves:  # everyone waits for the stage clock (or the self_intro floor)
            await client.get(url, params={"wait": 30, "wait_for": "phase_changed"}, headers=keys[0])
            continue
        seat, body = order.choice(moves)
        answer = await client.post(f"{url}/action", json=body, headers=keys[seat])
        assert answer.status_code == 200, (body, answer.text)
        sent[body["type"]] += 1
    review = (await client.get(url)).json()
    assert ended(review), review["phase"]
    assert review["ending"] in ("perfect", "normal", "failure") and review["culprit"]
    assert {"speak", "investigate", "private_chat", "vote", "ready"} <= set(sent), sent
    await review_ends(app, created.json()["match_id"])
    final = (await client.get(url)).json()
    assert final["status"] == "finished" and final["result"]["ending"] == review["ending"]
    innocents_won = review["ending"] in ("perfect", "normal")
    assert final["result"]["winner_camp"] == ("innocent" if innocents_won else "culprit")
