"""One client's share (issue 26 items 1 and 8): the bots its quick starts hold at once, a quick table whose only
person has gone ends early, and one guest seat per client per room; a room may seat agents only (or people only).

Clients are told apart by their address here (`client_at`); the quick starts' rooms wait, since no bots run in
these tests: agents registered by the test take the bots' seats where a match must run."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import matches as repo
from app.services.match import matches
from tests.api.helpers import assert_error, bearer, client_at, register, skewed_app
from tests.api.table import lowest_other

FIVE = {"choices": {"virtual_players": 5}}


async def _quick(client: httpx.AsyncClient, name: str, **body: Any) -> httpx.Response:
    return await client.post("/api/play", json={"name": name, **body})


async def test_one_client_holds_at_most_its_share_of_the_bots(app: FastAPI) -> None:
    async with client_at(app, "10.1.0.1") as greedy, client_at(app, "10.1.0.2") as other:
        first, second = await _quick(greedy, "甲", **FIVE), await _quick(greedy, "甲", **FIVE)
        assert first.status_code == second.status_code == 201, (first.text, second.text)
        refused = await _quick(greedy, "甲", choices={"virtual_players": 3})
        body = assert_error(refused, 429, "quick_start_limit")
        assert refused.headers["Retry-After"] == "30"
        assert (body["detail"]["held"], body["detail"]["needed"], body["detail"]["limit"]) == (10, 3, 10)
        # Another client, and an agent calling from the same address, each have a share of their own.
        assert (await _quick(other, "乙", **FIVE)).status_code == 201
        agent = await register(greedy, "share-agent")
        assert (await greedy.post("/api/play", json=FIVE, headers=bearer(agent["api_key"]))).status_code == 201
        # The share is what is live: a room that ends gives its bots back.
        aborted = await greedy.post(f"/api/matches/{first.json()['match_id']}/abort",
                                    headers={"X-Play-Token": first.json()["play_token"]})
        assert aborted.status_code == 200, aborted.text
        assert (await _quick(greedy, "甲", **FIVE)).status_code == 201


async def test_a_burst_from_one_client_is_counted_one_by_one(app: FastAPI) -> None:
    async with client_at(app, "10.1.0.3") as burst:
        answers = await asyncio.gather(*(_quick(burst, f"快{i}", **FIVE) for i in range(6)))
    codes = sorted(a.status_code for a in answers)
    assert codes == [201, 201, 429, 429, 429, 429], [a.text for a in answers]
    assert all(a.json()["error"] == "quick_start_limit" for a in answers if a.status_code == 429)


@pytest.fixture
async def skewed(database_url: str) -> AsyncIterator[tuple[FastAPI, list[float]]]:
    """An app whose clock the test moves forward. The janitor's own sweeps run once at start-up only: the test
    sweeps when it means to."""
    async with skewed_app(database_url, quick_start_idle_turns=2, janitor_interval=3600) as running:
        yield running


async def _seated_quick_table(client: httpx.AsyncClient, choices: dict[str, Any]) -> tuple[str, str, list[str]]:
    """A quick start whose bot seats are taken by fresh agents: (match id, the person's token, the agents' keys)."""
    started = await _quick(client, "真人", choices=choices)
    assert started.status_code == 201, started.text
    match_id, n = started.json()["match_id"], started.json()["config"]["n_players"]
    keys = []
    for i in range(n - 1):
        agent = await register(client, f"stand-in-{match_id}-{i}")
        joined = await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(agent["api_key"]))
        assert joined.status_code == 200, joined.text
        keys.append(agent["api_key"])
    return match_id, started.json()["play_token"], keys


async def _snap(client: httpx.AsyncClient, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.get(f"/api/matches/{match_id}", headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_a_quick_table_whose_person_concedes_ends_and_frees_its_bots(app: FastAPI) -> None:
    async with client_at(app, "10.1.0.4") as client:
        # Hell with six seats deals two undercovers: whatever the person holds, conceding alone decides nothing.
        match_id, token, keys = await _seated_quick_table(client, {"pace": "hell", "virtual_players": 5})
        person = {"X-Play-Token": token}
        assert (await _snap(client, match_id, person))["status"] == "in_progress"
        conceded = await client.post(f"/api/matches/{match_id}/concede", headers=person)
        assert conceded.status_code == 200, conceded.text
        assert conceded.json()["match_status"] == "aborted"  # the answer is the match as the concession left it
        snap = await _snap(client, match_id, person)
        assert snap["status"] == "aborted" and snap["result"]["reason"] == "player_conceded", snap["result"]
        assert snap["result"]["summary"] and snap["public_log"][-1]["type"] == "match_aborted"
        for key in keys:  # every stand-in is free for its next table
            active = await client.get("/api/agents/me/active", headers=bearer(key))
            assert active.status_code == 200 and active.json()["active"] is None, active.text


async def test_a_room_that_is_not_a_quick_start_plays_on_after_a_concession(client: httpx.AsyncClient) -> None:
    keys = [(await register(client, f"plain-{i}"))["api_key"] for i in range(6)]
    config = {"n_players": 6, "n_undercover": 2}
    created = await client.post("/api/matches", json={"config": config}, headers=bearer(keys[0]))
    match_id = created.json()["match_id"]
    for key in keys[1:]:
        assert (await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(key))).status_code == 200
    assert (await client.post(f"/api/matches/{match_id}/concede", headers=bearer(keys[0]))).status_code == 200
    assert (await _snap(client, match_id, bearer(keys[1])))["status"] == "in_progress"
    # the seat that left frees its agent ("finish or leave your current match first"); the others stay busy
    assert (await client.get("/api/agents/me/active", headers=bearer(keys[0]))).json()["active"] is None
    assert (await client.get("/api/agents/me/active", headers=bearer(keys[1]))).json()["active"] is not None
    assert (await client.post("/api/matches", json={}, headers=bearer(keys[0]))).status_code == 201
    assert_error(await client.post("/api/matches", json={}, headers=bearer(keys[1])), 409, "already_in_match")


async def test_a_quick_table_whose_person_keeps_timing_out_ends_early(
        skewed: tuple[FastAPI, list[float]]) -> None:
    app, skew = skewed
    runtime = app.state.runtime
    async with client_at(app, "10.1.0.5") as client:
        match_id, token, keys = await _seated_quick_table(client, {"pace": "standard", "virtual_players": 3})
        seats = {seat + 1: bearer(key) for seat, key in enumerate(keys)}
        for _ in range(60):  # bounded: every pass acts or fires one deadline
            snaps = {seat: await _snap(client, match_id, headers) for seat, headers in seats.items()}
            if snaps[1]["status"] != "in_progress":
                break
            moves = [(seat, lowest_other(None, seat, snap)) for seat, snap in snaps.items()  # type: ignore[arg-type]
                     if snap["you"]["your_turn"]]
            if moves := [(seat, body) for seat, body in moves if body is not None]:
                for seat, body in moves:
                    sent = await client.post(f"/api/matches/{match_id}/action", json=body, headers=seats[seat])
                    assert sent.status_code == 200, sent.text
                continue
            skew[0] += 1000  # only the person is due: let their deadline pass and fire it, as the scheduler would
            async with runtime.db.reader() as session:
                row = await repo.get(session, match_id)
            assert row is not None and row.timer_token is not None
            # The app's own scheduler may see the skewed clock first and fire this deadline itself (then this call
            # finds a stale token and changes nothing); either way the next pass reads the match as it now is.
            await matches.fire_timer(runtime, match_id, row.timer_token)
        snap = await _snap(client, match_id, {"X-Play-Token": token})
        assert snap["status"] == "aborted" and snap["result"]["reason"] == "player_idle", snap["result"]
        skipped = [e for e in snap["public_log"] if e.get("seat") == 0 and e["type"] == "speech_skipped"]
        assert skipped, "the person's turns timed out"


async def test_a_quick_table_whose_person_closed_the_page_ends_early(skewed: tuple[FastAPI, list[float]]) -> None:
    app, skew = skewed
    scheduler, away = app.state.runtime.scheduler, app.state.runtime.settings.quick_start_away_after
    async with client_at(app, "10.1.0.6") as client:
        match_id, token, keys = await _seated_quick_table(client, {"virtual_players": 3})
        person = {"X-Play-Token": token}
        assert (await _snap(client, match_id, person))["status"] == "in_progress"  # the page reads: seen
        assert await scheduler.sweep_quick_tables() == 0
        skew[0] += away * 0.6
        await client.get(f"/api/matches/{match_id}/events", headers=person)  # still reading: seen again
        skew[0] += away * 0.6  # longer than `away` since the table started, not since the last read
        assert await scheduler.sweep_quick_tables() == 0
        for key in keys:  # the bots' reads are not the person's
            assert (await _snap(client, match_id, bearer(key)))["status"] == "in_progress"
        skew[0] += away + 1  # the page is closed
        assert await scheduler.sweep_quick_tables() == 1
        snap = await _snap(client, match_id, person)
        assert snap["status"] == "aborted" and snap["result"]["reason"] == "player_left", snap["result"]
        assert await scheduler.sweep_quick_tables() == 0


SMALL = {"n_players": 4, "n_undercover": 1}
ORIGIN = {"Origin": "http://testserver"}


async def test_one_guest_seat_per_client_per_room(app: FastAPI) -> None:
    """Guests squat no one else's room: one guest seat per client (address) per room. In a room a guest opened,
    guests from the host's own address may sit (friends around one table on one Wi-Fi)."""
    async with client_at(app, "10.2.0.1") as home, client_at(app, "10.2.0.2") as friend, \
            client_at(app, "10.2.0.3") as elsewhere:
        created = await home.post("/api/matches", json={"config": {"n_players": 6, "n_undercover": 1},
                                                        "player": {"name": "房主"}})
        match_id = created.json()["match_id"]
        for seat, name in ((1, "家人一"), (2, "家人二")):  # the host's household, at the host's own table
            joined = await home.post(f"/api/matches/{match_id}/join", json={"player": {"name": name}})
            assert joined.status_code == 200 and joined.json()["seat"] == seat, joined.text
        joined = await friend.post(f"/api/matches/{match_id}/join", json={"player": {"name": "朋友"}})
        assert joined.status_code == 200 and joined.json()["seat"] == 3, joined.text
        again = await friend.post(f"/api/matches/{match_id}/join", json={"player": {"name": "朋友2"}})
        assert assert_error(again, 409, "guest_already_seated")["detail"]["match_id"] == match_id
        agent = await register(home, "agent-at-home")  # an agent from the same address is not a guest seat
        by_agent = await home.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(agent["api_key"]))
        assert by_agent.status_code == 200 and by_agent.json()["seats_open"] == 1, by_agent.text
        # An agent's room (the squat of issue 26): one guest from an address, whoever it is.
        host = await register(elsewhere, "agents-room-host")
        room = await elsewhere.post("/api/matches", json={"config": {"n_players": 6, "n_undercover": 1}},
                                    headers=bearer(host["api_key"]))
        room_id = room.json()["match_id"]
        first = await home.post(f"/api/matches/{room_id}/join", json={"player": {"name": "路人"}})
        assert first.status_code == 200, first.text
        for name in ("小号一", "小号二"):
            squat = await home.post(f"/api/matches/{room_id}/join", json={"player": {"name": name}})
            assert assert_error(squat, 409, "guest_already_seated")["detail"]["match_id"] == room_id
        # Another guest's room takes one guest from an address other than its host's.
        other = await friend.post("/api/matches", json={"config": SMALL, "player": {"name": "朋友"}})
        assert other.status_code == 201, other.text
        other_id = other.json()["match_id"]
        assert (await home.post(f"/api/matches/{other_id}/join", json={"player": {"name": "甲"}})).status_code == 200
        assert_error(await home.post(f"/api/matches/{other_id}/join", json={"player": {"name": "乙"}}), 409,
                     "guest_already_seated")


async def test_a_room_can_seat_agents_only_or_people_only(client: httpx.AsyncClient) -> None:
    host, mate = (await register(client, "ao-host")), (await register(client, "ao-mate"))
    created = await client.post("/api/matches", json={"config": SMALL, "seats_for": "agents"},
                                headers=bearer(host["api_key"]))
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    guest = await client.post(f"/api/matches/{match_id}/join", json={"player": {"name": "路人"}})
    assert assert_error(guest, 403, "room_agents_only")["detail"]["seats_for"] == "agents"
    signed = await client.post("/api/owners", json={"username": "ao_owner", "password": "correct horse"})
    session = {"Cookie": f"wodi_session={signed.cookies['wodi_session']}", **ORIGIN}
    client.cookies.clear()
    assert_error(await client.post(f"/api/matches/{match_id}/join", json={}, headers=session), 403,
                 "room_agents_only")
    joined = await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(mate["api_key"]))
    assert joined.status_code == 200, joined.text
    assert_error(await client.post("/api/matches", json={"config": SMALL, "seats_for": "agents",
                                                          "player": {"name": "客"}}), 403, "room_agents_only")

    people = await client.post("/api/matches", json={"config": SMALL, "seats_for": "people",
                                                     "player": {"name": "客"}})
    assert people.status_code == 201, people.text
    loner = await register(client, "po-agent")
    refused = await client.post(f"/api/matches/{people.json()['match_id']}/join", json={},
                                headers=bearer(loner["api_key"]))
    assert_error(refused, 403, "room_people_only")
    assert_error(await client.post("/api/matches", json={"seats_for": "robots", "player": {"name": "客"}}), 400,
                 "bad_request")

    listed = {m["match_id"]: m["seats_for"] for m in (await client.get("/api/matches")).json()["matches"]}
    assert listed == {match_id: "agents", people.json()["match_id"]: "people"}
    lobby = (await client.get("/")).text
    assert lobby.count('data-testid="room-seats-for"') == 2 and "仅限 Agent" in lobby and "仅限真人" in lobby
    page = (await client.get(f"/match/{match_id}", params={"lang": "en"})).text
    assert 'data-testid="seats-for"' in page and "Agents only" in page and '"seats_for": "agents"' in page
