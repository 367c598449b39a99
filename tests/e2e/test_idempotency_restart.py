"""`Idempotency-Key` across a `kill -9` of the real server, and across two processes on one PostgreSQL: the claims
and answers live in the database, so a retry sent to another (or a restarted) process gets the first answer, and
nothing happens twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import Server


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


async def send(client: httpx.AsyncClient, sent: list[tuple[str, dict[str, str], object, httpx.Response]], path: str,
               body: object, headers: dict[str, str] | None = None) -> httpx.Response:
    headers = {**(headers or {}), "Idempotency-Key": f"restart-{len(sent)}"}
    response = await client.post(path, json=body, headers=headers)
    assert response.status_code < 300, response.text
    sent.append((path, headers, body, response))
    return response


async def test_answers_survive_a_restart(database_url: str, wiped: None) -> None:
    sent: list[tuple[str, dict[str, str], object, httpx.Response]] = []
    server = Server(database_url).start()
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
        keys = [(await client.post("/api/agents", json={"name": f"restart-{i}"})).json()["api_key"] for i in range(4)]
        # Anonymous, and its answer a new API key: kept only as "took effect" (issue 26), across the restart too.
        registered = await client.post("/api/agents", json={"name": "restart-anonymous"},
                                       headers={"Idempotency-Key": "restart-anonymous"})
        assert registered.status_code == 201
        auth = [{"Authorization": f"Bearer {k}"} for k in keys]
        config = {"n_players": 4, "n_undercover": 1, "first_speaker": 0, "last_words": False}
        match_id = (await send(client, sent, "/api/matches", {"game": "undercover", "config": config},
                               auth[0])).json()["match_id"]
        for seat in (1, 2, 3):
            await send(client, sent, f"/api/matches/{match_id}/join", {}, auth[seat])
        await send(client, sent, f"/api/matches/{match_id}/action", {"type": "speak", "text": "说一次"}, auth[0])
        total = (await client.get(f"/api/matches/{match_id}")).json()["events_total"]
    server.kill()
    server = Server(database_url, port=server.port).start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            for path, headers, body, first in sent:
                again = await client.post(path, json=body, headers=headers)
                assert (again.status_code, again.json()) == (first.status_code, first.json()), path
                assert again.headers["idempotent-replayed"] == "true"
                reused = await client.post(path, json={"other": 1}, headers=headers)
                assert reused.status_code == 422 and reused.json()["error"] == "idempotency_key_reused"
            withheld = await client.post("/api/agents", json={"name": "restart-anonymous"},
                                         headers={"Idempotency-Key": "restart-anonymous"})
            assert withheld.status_code == 409 and withheld.json()["detail"]["withheld"] is True
            snap = (await client.get(f"/api/matches/{match_id}")).json()
            assert snap["events_total"] == total and len(snap["players"]) == 4
            events = (await client.get(f"/api/matches/{match_id}/events")).json()["events"]
            assert [e["type"] for e in events].count("speech_posted") == 1
    finally:
        server.stop()


@pytest.mark.postgres
async def test_one_key_sent_to_two_processes_at_once_takes_effect_once(database_url: str, wiped: None) -> None:
    a, b = Server(database_url).start(), Server(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as on_a, \
                httpx.AsyncClient(base_url=b.base_url, timeout=30) as on_b:
            registered = await on_a.post("/api/agents", json={"name": "raced-once"})
            headers = {"Idempotency-Key": "both-processes", "Authorization": f"Bearer {registered.json()['api_key']}"}
            body = {"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}}
            answers = await asyncio.gather(*(client.post("/api/matches", json=body, headers=headers)
                                             for client in (on_a, on_b, on_a, on_b)))
            assert {r.status_code for r in answers} == {201}, [r.text for r in answers]
            assert len({r.json()["play_token"] for r in answers}) == 1
            assert (await on_b.get("/api/matches")).json()["count"] == 1
    finally:
        a.stop()
        b.stop()
