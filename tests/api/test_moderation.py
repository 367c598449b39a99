"""Moderation over HTTP (issue 34): the operator suspends an agent or an owner through the operator API or
`python -m app.admin`; the key is refused with 403 `agent_suspended` / `owner_suspended` on every endpoint that
takes one, its live seat is taken over or conceded, it leaves the boards, the suspension is recorded, and lifting it
restores the key."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

from app import admin
from app.api.openapi_schema import takes_a_key
from app.main import create_app
from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table
from tests.conftest import RecordingClient, _wipe, make_settings

TOKEN = "test-operator-token"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}
ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
async def moderated(database_url: str) -> AsyncIterator[FastAPI]:
    application = create_app(make_settings(database_url, operator_token=TOKEN))
    async with application.router.lifespan_context(application):
        yield application
    await _wipe(database_url)


@pytest.fixture
async def http(moderated: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with RecordingClient(transport=httpx.ASGITransport(app=moderated), base_url="http://testserver") as client:
        yield client


async def suspend(http: httpx.AsyncClient, subject: str, name: str, reason: str = "spam") -> dict[str, Any]:
    response = await http.post("/api/operator/suspensions", json={"subject": subject, "name": name, "reason": reason},
                               headers=OPERATOR)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def lift(http: httpx.AsyncClient, subject: str, name: str) -> dict[str, Any]:
    response = await http.post("/api/operator/suspensions/lift", json={"subject": subject, "name": name},
                               headers=OPERATOR)
    assert response.status_code == 200, response.text
    return dict(response.json())


def keyed_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path with its parameters filled) of every route that resolves a Bearer key."""
    found = []
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if isinstance(route, APIRoute) and takes_a_key(route.dependant):
            path = re.sub(r"\{[^}]+\}", "x1234567", route.path)
            found += [(method, path) for method in sorted(route.methods)]
    return found


async def test_a_suspended_agent_is_refused_on_every_endpoint_thattakes_a_key(http: httpx.AsyncClient,
                                                                                moderated: FastAPI) -> None:
    agent = await register(http, "spammer")
    key = bearer(agent["api_key"])
    assert (await http.get("/api/agents/me/active", headers=key)).status_code == 200  # the key cache holds it now
    await suspend(http, "agent", "spammer", "floods the lobby")
    routes = keyed_routes(moderated)
    assert len(routes) >= 20 and ("POST", "/api/matches/x1234567/action") in routes, routes
    for method, path in routes:
        response = await http.request(method, path, headers=key, json={} if method in ("POST", "DELETE") else None)
        body = assert_error(response, 403, "agent_suspended")
        assert body["detail"]["agent"] == "spammer", (method, path)
    other = await register(http, "bystander")  # only the suspended agent is refused
    assert (await http.get("/api/agents/me", headers=bearer(other["api_key"]))).status_code == 200
    documented = moderated.openapi()["paths"]  # and openapi.json says so, for a generated client
    for context in iter_route_contexts(moderated.routes):
        route = context.original_route
        if isinstance(route, APIRoute) and takes_a_key(route.dependant) and route.include_in_schema:
            for method in route.methods:
                answers = documented[route.path][method.lower()]["responses"]
                assert "agent_suspended" in answers.get("403", {}).get("description", ""), (method, route.path)


async def test_suspension_is_recorded_and_lifting_restores_the_key(http: httpx.AsyncClient) -> None:
    agent = await register(http, "penitent")
    key = bearer(agent["api_key"])
    record = await suspend(http, "agent", "penitent", "impersonating an official bot")
    assert record["active"] and record["reason"] == "impersonating an official bot" and record["seats"] == []
    assert_error(await http.post("/api/operator/suspensions", headers=OPERATOR,
                                 json={"subject": "agent", "name": "penitent", "reason": "again"}),
                 409, "already_suspended")
    listed = (await http.get("/api/operator/suspensions", headers=OPERATOR)).json()["suspensions"]
    assert [(s["name"], s["subject"], s["reason"]) for s in listed] == [
        ("penitent", "agent", "impersonating an official bot")]
    assert_error(await http.get("/api/agents/me", headers=key), 403, "agent_suspended")
    lifted = await lift(http, "agent", "penitent")
    assert lifted["active"] is False and lifted["lifted_at"]
    assert (await http.get("/api/agents/me", headers=key)).status_code == 200
    table = Table(http, 4)  # plays again: a new room with the same key
    created = await http.post("/api/matches", json={"game": "undercover", "config": table.config}, headers=key)
    assert created.status_code == 201, created.text
    assert (await http.get("/api/operator/suspensions", headers=OPERATOR)).json()["suspensions"] == []
    history = (await http.get("/api/operator/suspensions", params={"all": "true"}, headers=OPERATOR)).json()
    assert [s["lifted_at"] is not None for s in history["suspensions"]] == [True]
    assert_error(await http.post("/api/operator/suspensions/lift", json={"subject": "agent", "name": "penitent"},
                                 headers=OPERATOR), 404, "not_found")


async def test_a_live_seat_is_taken_over_where_the_room_has_takeover(http: httpx.AsyncClient) -> None:
    table = Table(http, 4, speak_timeout=60, vote_timeout=60, takeover_after_timeouts=2)
    await table.open()
    record = await suspend(http, "agent", table.names[1])
    assert [(s["match_id"], s["handled"]) for s in record["seats"]] == [(table.match_id, "taken_over")]
    snap = await table.snap(None)
    assert next(p for p in snap["players"] if p["seat"] == 1)["taken_over"] is True
    assert any(e["type"] == "seat_taken_over" and e["seat"] == 1 for e in await table.events(None))
    token = {"X-Play-Token": table.tokens[1]}  # the seat's play token went with the key
    assert_error(await http.get(f"/api/matches/{table.match_id}", headers=token), 401, "invalid_play_token")
    assert_error(await http.post(f"/api/matches/{table.match_id}/action", headers=token,
                                 json={"type": "speak", "text": "still here"}), 401, "invalid_play_token")
    final = await _play_others(table, out=1)
    assert final["status"] == "finished", "the bot played the seat to the end"


async def test_a_live_seat_is_conceded_without_takeover_and_a_waiting_room_cleared(http: httpx.AsyncClient) -> None:
    table = Table(http, 4)
    await table.open()
    record = await suspend(http, "agent", table.names[2])
    assert [s["handled"] for s in record["seats"]] == ["conceded"]
    assert any(e["type"] == "player_conceded" and e["seat"] == 2 for e in await table.events(None))
    waiting = Table(http, 4)
    await waiting.open(fill=False)
    record = await suspend(http, "agent", waiting.names[0])
    assert [s["handled"] for s in record["seats"]] == ["aborted"]
    assert (await waiting.snap(None))["status"] == "aborted"


async def test_a_suspended_agent_leaves_the_boards(http: httpx.AsyncClient) -> None:
    table = Table(http, 4, compete_mode=True)
    table.claim = True  # four owners, one agent each: a rated match needs independent seats
    await table.open()
    assert (await table.play())["status"] == "finished"
    name = table.names[0]

    async def boards() -> tuple[set[str], set[str]]:
        wins = (await http.get("/api/agents", params={"limit": 200})).json()
        ladder = (await http.get("/api/agents", params={"limit": 200, "sort": "rating"})).json()
        return {row["name"] for row in wins}, {row["name"] for row in ladder}

    assert all(name in board for board in await boards())
    await suspend(http, "agent", name)
    wins, ladder = await boards()
    assert name not in wins and name not in ladder
    assert set(table.names[1:]) <= ladder
    await lift(http, "agent", name)
    assert all(name in board for board in await boards())


async def test_an_owner_suspension_covers_every_agent_it_claimed(http: httpx.AsyncClient) -> None:
    signed = await http.post("/api/owners", json={"username": "mallory", "password": "correct horse"})
    assert signed.status_code == 201, signed.text
    agents = [await register(http, f"mallory-bot{i}") for i in range(2)]
    for agent in agents:
        claim = await http.post(f"/api/agents/claim/{agent['claim_url'].rsplit('/', 1)[1]}", headers=ORIGIN)
        assert claim.status_code == 200, claim.text
    await suspend(http, "agent", "mallory-bot1", "its own reason")
    await suspend(http, "owner", "mallory", "runs a bot farm")
    assert_error(await http.get("/api/agents/me", headers=bearer(agents[0]["api_key"])), 403, "owner_suspended")
    assert_error(await http.get("/api/agents/me", headers=bearer(agents[1]["api_key"])), 403, "agent_suspended")
    spare = await register(http, "mallory-bot2")
    assert_error(await http.post(f"/api/agents/claim/{spare['claim_url'].rsplit('/', 1)[1]}", headers=ORIGIN),
                 403, "owner_suspended")
    login = {"username": "mallory", "password": "correct horse"}
    assert_error(await http.post("/api/auth/login", json=login), 403, "owner_suspended")
    await lift(http, "owner", "mallory")
    assert (await http.get("/api/agents/me", headers=bearer(agents[0]["api_key"]))).status_code == 200
    assert_error(await http.get("/api/agents/me", headers=bearer(agents[1]["api_key"])), 403, "agent_suspended")
    assert (await http.post("/api/auth/login", json=login)).status_code == 200


async def test_the_operator_api_needs_its_token(http: httpx.AsyncClient, client: httpx.AsyncClient) -> None:
    await register(http, "target")
    body = {"subject": "agent", "name": "target", "reason": "x"}
    assert_error(await http.post("/api/operator/suspensions", json=body), 401, "auth_required")
    assert_error(await http.post("/api/operator/suspensions", json=body, headers=bearer("ck_live_guess")), 401,
                 "invalid_operator_token")
    assert_error(await http.post("/api/operator/suspensions", json={**body, "reason": " "}, headers=OPERATOR), 400,
                 "bad_request")
    # `client` is a server without WODI_OPERATOR_TOKEN: there is no operator API at all.
    assert_error(await client.post("/api/operator/suspensions", json=body, headers=OPERATOR), 404, "not_found")


async def test_the_command_line_suspends_lists_and_lifts(moderated: FastAPI, http: httpx.AsyncClient) -> None:
    agent = await register(http, "cli-target")
    transport = httpx.ASGITransport(app=moderated)

    async def run(*argv: str) -> tuple[int, Any]:
        return await admin.call(admin.parse(["--url", "http://testserver", "--token", TOKEN, *argv]), transport)

    status, body = await run("suspend", "agent", "cli-target", "--reason", "abusive speech")
    assert status == 201 and body["reason"] == "abusive speech"
    status, body = await run("list")
    assert status == 200 and [s["name"] for s in body["suspensions"]] == ["cli-target"]
    after = admin.parse(["list", "--url", "http://testserver", "--token", TOKEN])  # the options after the command
    assert (after.url, after.token) == ("http://testserver", TOKEN)
    assert (await admin.call(after, transport))[0] == 200
    assert_error(await http.get("/api/agents/me", headers=bearer(agent["api_key"])), 403, "agent_suspended")
    status, body = await run("lift", "agent", "cli-target")
    assert status == 200 and body["active"] is False
    assert (await http.get("/api/agents/me", headers=bearer(agent["api_key"]))).status_code == 200
    assert admin.main(["--token", "", "list"]) == 2  # no token: says so, calls nothing


async def _play_others(table: Table, out: int) -> dict[str, Any]:
    """Every seat but `out` plays (`lowest_other`); the taken-over seat is the bot's."""
    from tests.api.table import lowest_other

    for _ in range(300):
        snaps = {seat: await table.snap(seat) for seat in range(table.n) if seat != out}
        first = next(iter(snaps.values()))
        if first["status"] != "in_progress":
            return first
        moves = [(seat, lowest_other(table, seat, snap)) for seat, snap in snaps.items() if snap["you"]["your_turn"]]
        moves = [(seat, body) for seat, body in moves if body is not None]
        if not moves:
            await table.snap(None, wait=5, wait_for="any_change")
            continue
        for seat, body in moves:
            await table.act(seat, body)
    raise AssertionError("the match did not end")
