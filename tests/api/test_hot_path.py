"""The match endpoints' hot path: keys remembered for a moment but forgotten on rotation (here and in every
other process), and votes that arrive together committed together without one refusal spoiling the rest."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table
from tests.conftest import OFFICIAL_KEY, _wipe, make_settings


async def test_a_rotated_key_stops_working_on_the_match_endpoints_at_once(client: httpx.AsyncClient) -> None:
    old = (await register(client, "hot-rot-bot"))["api_key"]
    created = await client.post("/api/matches", headers=bearer(old),
                                json={"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}})
    assert created.status_code == 201
    match_id = created.json()["match_id"]
    # Used a few times: the key is now remembered by the match endpoints.
    for _ in range(3):
        assert (await client.get(f"/api/matches/{match_id}", headers=bearer(old))).json()["viewer_role"] == \
            "player_agent"
    new = (await client.post("/api/agents/me/rotate-key", headers=bearer(old))).json()["api_key"]
    assert_error(await client.get(f"/api/matches/{match_id}", headers=bearer(old)), 401, "invalid_api_key")
    assert_error(await client.get(f"/api/matches/{match_id}/events", headers=bearer(old)), 401, "invalid_api_key")
    assert_error(await client.post(f"/api/matches/{match_id}/abort", headers=bearer(old)), 401, "invalid_api_key")
    assert (await client.get(f"/api/matches/{match_id}", headers=bearer(new))).json()["viewer_role"] == \
        "player_agent"


async def test_re_registering_an_official_bot_retires_its_remembered_key(client: httpx.AsyncClient) -> None:
    official = {"X-Official-Bot-Key": OFFICIAL_KEY}
    old = (await client.post("/api/agents", json={"name": "bot_hotpath@wodi"}, headers=official)).json()["api_key"]
    assert (await client.get("/api/matches", headers=bearer(old))).status_code == 200
    new = (await client.post("/api/agents", json={"name": "bot_hotpath@wodi"}, headers=official)).json()["api_key"]
    assert new != old
    assert_error(await client.get("/api/matches", headers=bearer(old)), 401, "invalid_api_key")
    assert (await client.get("/api/matches", headers=bearer(new))).status_code == 200


async def _to_vote(table: Table) -> list[int]:
    while (snap := await table.snap(None))["phase"].startswith("speak"):
        assert (await table.act(snap["current_speaker_seat"], {"type": "skip"})).status_code == 200
    assert snap["phase"].startswith("vote"), snap["phase"]
    return [p["seat"] for p in snap["players"] if p["alive"]]


async def test_refused_votes_in_a_burst_fail_alone(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 6, last_words=False)
    await table.open()
    alive = await _to_vote(table)
    transport = httpx.ASGITransport(app=app)
    clients = [httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(8)]
    url = f"/api/matches/{table.match_id}/action"
    # Everyone but the last seat votes at once, with a second vote from one seat and a vote for oneself from
    # another mixed in; then the last vote resolves the round.
    burst = [(s, {"type": "vote", "target_seat": alive[-1]}) for s in alive[:-1]]
    burst += [(alive[0], {"type": "vote", "target_seat": alive[1]}),
              (alive[1], {"type": "vote", "target_seat": alive[1]})]
    try:
        responses = await asyncio.gather(*(clients[i].post(url, headers=table.h(seat), json=body)
                                           for i, (seat, body) in enumerate(burst)))
    finally:
        for http in clients:
            await http.aclose()
    accepted = Counter(seat for (seat, _), r in zip(burst, responses, strict=True) if r.status_code == 200)
    assert accepted == Counter(alive[:-1]), "every seat of the burst has exactly one vote accepted"
    refused = [r.json()["error"] for r in responses if r.status_code != 200]
    # Which of a seat's two votes came first decides which is refused, and how: a second vote is `already_voted`,
    # a vote for oneself `invalid_target` (or `already_voted` when it came second).
    assert len(refused) == 2 and set(refused) <= {"already_voted", "invalid_target"}, refused
    assert not any("round_result" in r.json() for r in responses if r.status_code == 200)
    last = await table.act(alive[-1], {"type": "vote", "target_seat": alive[0]})
    assert last.status_code == 200 and "round_result" in last.json()
    log = await table.events(None)  # the public log: votes and resolutions are public
    votes = [e for e in log if e["type"] == "vote_cast"]
    assert Counter(e["seat"] for e in votes) == Counter(alive)
    assert all(e["seat"] != e["target_seat"] for e in votes), "the vote for oneself was never counted"
    assert sum(e["type"] == "round_resolved" for e in log) == 1


@pytest.mark.postgres
async def test_a_key_rotated_in_one_process_stops_working_in_another(database_url: str) -> None:
    """Two app instances on one PostgreSQL database, as two server processes would be."""
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        for application in (first, second):
            await stack.enter_async_context(application.router.lifespan_context(application))
        a = await stack.enter_async_context(
            httpx.AsyncClient(transport=httpx.ASGITransport(app=first), base_url="http://testserver"))
        b = await stack.enter_async_context(
            httpx.AsyncClient(transport=httpx.ASGITransport(app=second), base_url="http://testserver"))
        old = (await register(a, "cross-rot-bot"))["api_key"]
        assert (await b.get("/api/matches", headers=bearer(old))).status_code == 200  # remembered by B
        assert (await a.post("/api/agents/me/rotate-key", headers=bearer(old))).status_code == 200
        # B learns of the rotation by NOTIFY, delivered when the rotation commits.
        for _ in range(100):
            if (await b.get("/api/matches", headers=bearer(old))).status_code == 401:
                break
            await asyncio.sleep(0.05)
        assert_error(await b.get("/api/matches", headers=bearer(old)), 401, "invalid_api_key")


async def test_a_nul_character_is_refused_before_it_reaches_the_database(client: httpx.AsyncClient) -> None:
    """PostgreSQL's JSON columns cannot store NUL; such text is a 400 for its sender, never a failed transaction."""
    table = Table(client, 4)
    await table.open()
    speaker = (await table.snap(None))["current_speaker_seat"]
    assert_error(await table.act(speaker, {"type": "speak", "text": "a\u0000b"}), 400, "bad_request")
    assert_error(await table.act(speaker, {"type": "speak", "text": "好的", "analysis": {"x": ["\u0000"]}}),
                 400, "bad_request")
    assert (await table.act(speaker, {"type": "speak", "text": "这个东西很常见"})).status_code == 200
