"""A benchmark's matches are ordinary matches: a webhook-driven agent plays a run from its deliveries alone, and a
run whose end hook was missed (a restart) moves on when the server starts again."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from app.runtime import Runtime
from tests.api.helpers import bearer, register
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
