"""A benchmark's matches are ordinary matches: a webhook-driven agent plays a run from its deliveries alone, and a
run whose end hook was missed (a restart) moves on when the server starts again."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from fastapi import FastAPI

from app.db import agents as agents_repo
from app.db import benchmarks as bench_repo
from app.runtime import Runtime
from app.services.platform import benchmark_games as games_of
from app.services.platform import benchmarks
from tests.api.helpers import bearer, register
from tests.benchmarks.agent import act_once
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhooks import add_hook, decide, hooked, receiver

__all__ = ["hooked", "receiver"]


async def test_a_webhook_driven_agent_plays_a_run(hooked: httpx.AsyncClient, receiver: Receiver) -> None:
    key = (await register(hooked, "bench-hooked"))["api_key"]
    hook = await add_hook(hooked, key, receiver.url("bench-hooked"))
    receiver.secrets["bench-hooked"] = hook["secret"]
    created = await hooked.post("/api/benchmarks", json={"game": "undercover", "games": 2}, headers=bearer(key))
    assert created.status_code == 201, created.text
    url = f"/api/benchmarks/{created.json()['benchmark_id']}"
    started, finished = set(), set()
    while len(finished) < 2:
        got = await receiver.next("bench-hooked", within=60)
        assert got.verified, got
        body = got.body
        if body["type"] == "match_started":
            started.add(body["match_id"])
        elif body["type"] == "match_finished":
            finished.add(body["match_id"])
        elif body["type"] == "your_turn":
            answer = await hooked.post(f"/api/matches/{body['match_id']}/action", json=decide(body),
                                       headers=bearer(key))
            assert answer.status_code in (200, 409), answer.text  # 409: a turn already over (a late delivery)
    view = (await hooked.get(url)).json()
    for _ in range(400):
        if view["status"] != "running":
            break
        await asyncio.sleep(0.05)
        view = (await hooked.get(url)).json()
    assert view["status"] == "finished" and {m["match_id"] for m in view["matches"]} == started == finished


async def test_a_missed_end_is_picked_up_at_start(app: FastAPI, client: httpx.AsyncClient) -> None:
    runtime: Runtime = app.state.runtime
    key = bearer((await register(client, "bench-resume"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 2}, headers=key)).json()
    first = created["current_match_id"]
    runtime.benchmarks.ended = lambda match_id: None  # type: ignore[method-assign]  # the process died at the end
    conceded = await client.post(f"/api/matches/{first}/concede", headers=key)
    assert conceded.status_code == 200, conceded.text
    assert (await client.get(f"/api/matches/{first}")).json()["status"] == "finished"  # the reference played out
    url = f"/api/benchmarks/{created['benchmark_id']}"
    assert (await client.get(url)).json()["current_match_id"] is None
    await runtime.benchmarks.start()
    await runtime.benchmarks.idle()
    view = (await client.get(url)).json()  # the end was recorded at start: a concession stops the run
    assert view["played"] == 1 and view["status"] == "stopped", view
    assert view["report"]["ended_reason"] == "agent_conceded" and view["current_match_id"] is None


async def test_a_deal_being_opened_when_the_run_is_cancelled_is_not_opened(app: FastAPI,
                                                                          client: httpx.AsyncClient) -> None:
    """The next deal is opened after the run's transaction has committed: a cancel that lands in between must not
    leave the agent seated at a match of a stopped run (the deal's link checks the run under its lock)."""
    runtime: Runtime = app.state.runtime
    key = bearer((await register(client, "bench-cancel-race"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 3}, headers=key)).json()
    async with runtime.db.reader() as session:
        bench = await bench_repo.get(session, created["benchmark_id"])
        agent = await agents_repo.by_name(session, "bench-cancel-race")
    assert bench is not None and agent is not None
    assert (await client.post(f"/api/benchmarks/{created['benchmark_id']}/cancel", headers=key)).status_code == 200
    with pytest.raises(games_of.RunEnded):
        await games_of.open_agent_match(runtime, bench, agent, benchmarks._planned(bench)[1])
    view = (await client.get(f"/api/benchmarks/{created['benchmark_id']}")).json()
    assert len(view["matches"]) == 1 and view["report"]["ended_reason"] == "cancelled"
    assert (await client.get("/api/agents/me/active", headers=key)).json()["active"] is None


async def test_an_agent_seated_elsewhere_when_its_next_deal_opens_ends_the_run(app: FastAPI,
                                                                              client: httpx.AsyncClient) -> None:
    """One agent, one table: the next deal is not opened while the agent sits at another table (here, a room it
    opened in the moment a restart left between its first game's end and the next deal); the run stops with
    `agent_seated_elsewhere`, keeping the game it played, and the room stays the agent's one table."""
    runtime: Runtime = app.state.runtime
    key = bearer((await register(client, "bench-elsewhere"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 3, "seed": 4},
                                 headers=key)).json()
    first = created["current_match_id"]
    runtime.benchmarks.ended = lambda match_id: None  # type: ignore[method-assign]  # the process died at the end
    rng = random.Random(4)
    for _ in range(5000):
        if (await client.get(f"/api/matches/{first}")).json()["status"] == "finished":
            break
        if not await act_once(client, key, rng):
            await asyncio.sleep(0.02)
    assert (await client.get(f"/api/matches/{first}")).json()["status"] == "finished"
    room = await client.post("/api/matches", json={"game": "undercover"}, headers=key)
    assert room.status_code == 201, room.text
    await runtime.benchmarks.start()
    await runtime.benchmarks.idle()
    view = (await client.get(f"/api/benchmarks/{created['benchmark_id']}")).json()
    assert view["status"] == "stopped" and view["report"]["ended_reason"] == "agent_seated_elsewhere", view
    assert view["played"] == 1 and view["report"]["games"] == 1 and len(view["matches"]) == 1, view
    active = (await client.get("/api/agents/me/active", headers=key)).json()["active"]
    assert active["match_id"] == room.json()["match_id"], active
