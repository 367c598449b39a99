"""A room for friends (issue 33): 剧本杀's 开一局 opens a room that waits for the host's friends, the room list says how
many seats the official bots may take (`bot_seats`: a 剧本杀 room's `npc_seats`), and the host calls the bots in with
`POST /api/matches/{id}/fill` once the open seats are within that — never a guest, never too early, never in a
people-only room. No bots run here: the test reads what the room is marked with."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import assert_error, bearer, register

SK = {"timing": "compressed", "script": "tiny"}


async def _room(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    rooms = (await client.get("/api/matches", params={"status": "waiting"})).json()["matches"]
    found = [room for room in rooms if room["match_id"] == match_id]
    assert len(found) == 1, rooms
    return dict(found[0])


async def test_the_host_calls_the_npcs_in_once_the_open_seats_are_theirs(client: httpx.AsyncClient) -> None:
    agents = [await register(client, f"friend-{n}") for n in range(5)]
    created = await client.post("/api/matches", json={"game": "script_kill", "config": {**SK, "npc_seats": 2}},
                                headers=bearer(agents[0]["api_key"]))
    assert created.status_code == 201, created.text
    match_id, host_token = created.json()["match_id"], created.json()["play_token"]
    url = f"/api/matches/{match_id}"
    room = await _room(client, match_id)
    assert room["bot_seats"] == 2 and room["seats_open"] == 5 and not room["fill_now"]

    early = assert_error(await client.post(f"{url}/fill", headers={"X-Play-Token": host_token}), 409,
                         "seats_left_for_players")
    assert early["detail"]["seats_open"] == 5 and early["detail"]["bot_seats"] == 2
    for agent in agents[1:4]:
        joined = await client.post(f"{url}/join", json={}, headers=bearer(agent["api_key"]))
        assert joined.status_code == 200, joined.text
    assert_error(await client.post(f"{url}/fill", headers=bearer(agents[1]["api_key"])), 403, "not_host")
    assert (await _room(client, match_id))["fill_now"] is False

    filled = await client.post(f"{url}/fill", headers={"X-Play-Token": host_token})
    assert filled.status_code == 200, filled.text
    assert filled.json() == {"match_id": match_id, "status": "waiting", "fill_now": True, "seats_open": 2}
    again = await client.post(f"{url}/fill", headers=bearer(agents[0]["api_key"]))
    assert again.status_code == 200 and again.json()["fill_now"] is True
    urgent = (await client.get("/api/matches", params={"status": "waiting", "fill_now": "true"})).json()["matches"]
    assert [r["match_id"] for r in urgent] == [match_id]

    joined = await client.post(f"{url}/join", json={}, headers=bearer(agents[4]["api_key"]))
    assert joined.status_code == 200, joined.text
    last = await register(client, "friend-last")
    assert (await client.post(f"{url}/join", json={}, headers=bearer(last["api_key"]))).status_code == 200
    assert_error(await client.post(f"{url}/fill", headers={"X-Play-Token": host_token}), 409, "match_not_waiting")


async def test_a_room_of_any_game_and_a_people_only_room(client: httpx.AsyncClient) -> None:
    host = await register(client, "uc-host")
    created = await client.post("/api/matches", json={"config": {"n_players": 4, "n_undercover": 1}},
                                headers=bearer(host["api_key"]))
    assert created.status_code == 201, created.text
    room = await _room(client, created.json()["match_id"])
    assert room["bot_seats"] is None  # no cap: the bots may take every open seat at once
    filled = await client.post(f"/api/matches/{room['match_id']}/fill", headers=bearer(host["api_key"]))
    assert filled.status_code == 200 and filled.json()["seats_open"] == 3, filled.text

    people = await client.post("/api/matches", json={"game": "script_kill", "config": SK, "seats_for": "people",
                                                     "player": {"name": "房主"}})
    assert people.status_code == 201, people.text
    assert_error(await client.post(f"/api/matches/{people.json()['match_id']}/fill",
                                   headers={"X-Play-Token": people.json()["play_token"]}), 403, "room_people_only")
    assert_error(await client.post(f"/api/matches/{people.json()['match_id']}/fill"), 401, "auth_required")


async def test_script_kills_quick_start_opens_a_room_for_friends(client: httpx.AsyncClient) -> None:
    options = (await client.get("/api/play/script_kill/options")).json()
    assert options["invites"] is True and "tiny" in options["schema"]["properties"]["script"]["enum"]
    assert options["defaults"]["npc_seats"] == 3
    started = await client.post("/api/play", json={"game": "script_kill", "name": "阿青",
                                                   "choices": {"script": "tiny", "timing": "compressed"}})
    assert started.status_code == 201, started.text
    body = started.json()
    assert body["invites"] is True and body["status"] == "waiting" and body["seats_open"] == 5
    assert body["config"] == {**body["config"], "script": "tiny", "timing": "compressed", "npc_seats": 3}
    room = await _room(client, body["match_id"])
    assert room["fill_now"] is False and room["bot_seats"] == 3
    assert [p["display_name"] for p in room["players"]] == ["阿青"] and room["players"][0]["is_guest"]
    bad = await client.post("/api/play", json={"game": "script_kill", "name": "阿青", "choices": {"npc_seats": 4}})
    assert_error(bad, 422, "invalid_config")
    unknown = await client.post("/api/play", json={"game": "script_kill", "name": "阿青",
                                                   "choices": {"script": "nope"}})
    assert_error(unknown, 422, "invalid_config")


async def test_the_host_of_a_room_for_friends_says_who_may_sit(client: httpx.AsyncClient) -> None:
    options = (await client.get("/api/play/script_kill/options")).json()
    assert options["schema"]["properties"]["seats_for"]["enum"] == ["all", "agents", "people"]
    assert options["defaults"]["seats_for"] == "all"
    undercover = (await client.get("/api/play/undercover/options")).json()
    assert "seats_for" not in undercover["schema"]["properties"]  # a guest against the bots: bots must sit
    started = await client.post("/api/play", json={"game": "script_kill", "name": "阿青", "choices": {
        "script": "tiny", "timing": "compressed", "seats_for": "people"}})
    assert started.status_code == 201, started.text
    body = started.json()
    assert "seats_for" not in body["config"]
    room = await _room(client, body["match_id"])
    assert room["seats_for"] == "people"
    agent = await register(client, "friends-agent")
    refused = await client.post(f"/api/matches/{body['match_id']}/join", json={}, headers=bearer(agent["api_key"]))
    assert_error(refused, 403, "room_people_only")
    wrong = await client.post("/api/play", json={"game": "script_kill", "name": "阿青",
                                                 "choices": {"seats_for": "robots"}})
    assert_error(wrong, 422, "invalid_config")
    not_here = await client.post("/api/play", json={"game": "undercover", "name": "阿青",
                                                    "choices": {"seats_for": "people"}})
    assert_error(not_here, 422, "invalid_config")
