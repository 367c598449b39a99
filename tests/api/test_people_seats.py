"""People at the table (issue 17): guest seats, an owner playing as themselves, the invite join, the quick start."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.api.helpers import assert_error, bearer, client_at, register
from tests.api.table import lowest_other
from tests.conftest import RecordingClient, _wipe, make_settings

ORIGIN = {"Origin": "http://testserver"}
SMALL = {"n_players": 4, "n_undercover": 1}


class Seats:
    """Who holds each seat of one match: a header set per seat (Bearer or play token)."""

    def __init__(self, client: httpx.AsyncClient, match_id: str) -> None:
        self.client, self.match_id = client, match_id
        self.headers: list[dict[str, str]] = []

    async def snap(self, seat: int) -> dict[str, Any]:
        response = await self.client.get(f"/api/matches/{self.match_id}", headers=self.headers[seat])
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def play(self) -> dict[str, Any]:
        for _ in range(300):
            snaps = [await self.snap(seat) for seat in range(len(self.headers))]
            if snaps[0]["status"] != "in_progress":
                return snaps[0]
            moves = [(seat, lowest_other(None, seat, snap)) for seat, snap in enumerate(snaps)  # type: ignore[arg-type]
                     if snap["you"]["your_turn"]]
            sent = await asyncio.gather(*(self.client.post(f"/api/matches/{self.match_id}/action", json=body,
                                                           headers=self.headers[seat])
                                          for seat, body in moves if body is not None))
            assert sent and all(r.status_code == 200 for r in sent), [r.text for r in sent]
        raise AssertionError("the match did not end")


def token(value: str) -> dict[str, str]:
    return {"X-Play-Token": value}


async def test_guests_create_join_act_and_stay_off_the_leaderboard(client: httpx.AsyncClient, app: FastAPI) -> None:
    created = await client.post("/api/matches", json={"config": SMALL, "player": {"name": " 小王 "}})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["seat"] == 0 and body["play_token"].startswith("pk_live_") and body["seats_open"] == 3
    seats = Seats(client, body["match_id"])
    seats.headers.append(token(body["play_token"]))
    agents = [await register(client, f"mate-of-a-guest-{i}") for i in range(2)]
    for agent in agents:
        joined = await client.post(f"/api/matches/{seats.match_id}/join", json={}, headers=bearer(agent["api_key"]))
        assert joined.status_code == 200, joined.text
        seats.headers.append(bearer(agent["api_key"]))
    async with client_at(app, "10.0.0.2") as friend:  # one guest seat per client: a friend on their own device
        second = await friend.post(f"/api/matches/{seats.match_id}/join", json={"player": {"display_name": "阿花"}})
    assert second.status_code == 200 and second.json()["seat"] == 3 and second.json()["status"] == "in_progress"
    seats.headers.append(token(second.json()["play_token"]))

    mine = await seats.snap(0)
    assert mine["viewer_role"] == "player_agent" and mine["you"]["seat"] == 0 and mine["you"]["role"]
    players = mine["players"]
    assert [p["is_guest"] for p in players] == [True, False, False, True]
    assert not any(p["is_human"] or p["is_official"] for p in players)
    assert players[0]["display_name"] == "小王" and players[3]["display_name"] == "阿花"
    assert players[0]["name"].startswith("guest-") and players[0]["name"] != players[3]["name"]
    listed = (await client.get("/api/matches", params={"status": "in_progress"})).json()["matches"][0]
    assert [p["is_guest"] for p in listed["players"]] == [True, False, False, True] and listed["fill_now"] is False
    # A guest's token acts for its own seat only; no token is no identity.
    assert_error(await client.post(f"/api/matches/{seats.match_id}/action", json={"type": "skip"}), 401,
                 "auth_required")

    final = await seats.play()
    assert final["status"] == "finished"
    board = (await client.get("/api/agents")).json()
    assert sorted(row["name"] for row in board) == sorted(a["name"] for a in agents)
    assert all(row["wins"] + row["losses"] == 1 for row in board)
    assert all(not row["name"].startswith("guest-") for row in board)


async def test_no_identity_is_identity_required(client: httpx.AsyncClient) -> None:
    for body in ({}, {"player": {}}, {"player": {"name": "   "}}, {"player": {"meta": {"model": "x"}}}):
        assert_error(await client.post("/api/matches", json=body), 400, "identity_required")
    too_long = await client.post("/api/matches", json={"player": {"name": "长" * 33}})
    assert assert_error(too_long, 400, "bad_request")["detail"]["field"] == "player.name"
    sneaky = await client.post("/api/matches", json={"player": {"name": "a\u202eb"}})
    assert_error(sneaky, 400, "bad_request")
    host = await client.post("/api/matches", json={"config": SMALL, "player": {"name": "host"}})
    match_id = host.json()["match_id"]
    assert_error(await client.post(f"/api/matches/{match_id}/join", json={}), 400, "identity_required")
    assert_error(await client.post(f"/api/matches/{match_id}/join"), 400, "identity_required")
    assert (await client.get(f"/api/matches/{match_id}")).json()["seats_open"] == 3


async def _owner_with_agent(client: httpx.AsyncClient, username: str) -> tuple[str, dict[str, Any]]:
    signed = await client.post("/api/owners", json={"username": username, "password": "correct horse"})
    assert signed.status_code == 201, signed.text
    cookie = signed.cookies["wodi_session"]
    agent = await register(client, f"{username}-bot")
    claimed = await client.post(f"/api/agents/claim/{agent['claim_url'].rsplit('/', 1)[1]}", headers=ORIGIN)
    assert claimed.status_code == 200, claimed.text
    client.cookies.clear()
    return cookie, agent


async def test_an_owner_plays_as_themselves_but_the_cookie_never_acts(client: httpx.AsyncClient) -> None:
    cookie, agent = await _owner_with_agent(client, "hana")
    session = {"Cookie": f"wodi_session={cookie}"}
    assert_error(await client.post("/api/matches", json={"config": SMALL}, headers=session), 403, "cross_origin")
    created = await client.post("/api/matches", json={"config": SMALL}, headers={**session, **ORIGIN})
    assert created.status_code == 201, created.text
    match_id, play_token = created.json()["match_id"], created.json()["play_token"]
    clash = await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(agent["api_key"]))
    assert_error(clash, 409, "same_owner_already_in_match")

    seats = Seats(client, match_id)
    seats.headers.append(token(play_token))
    for i in range(3):
        other = await register(client, f"hana-rival-{i}")
        joined = await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(other["api_key"]))
        assert joined.status_code == 200, joined.text
        seats.headers.append(bearer(other["api_key"]))
    row = (await seats.snap(0))["players"][0]
    assert row["is_human"] is True and row["is_guest"] is False and row["name"] == "human_hana"
    as_owner = (await client.get(f"/api/matches/{match_id}", headers=session)).json()
    assert as_owner["viewer_role"] == "player_owner" and as_owner["you"]["seat"] == 0
    assert as_owner["viewer_capabilities"]["can_act"] is False
    refused = await client.post(f"/api/matches/{match_id}/action", json={"type": "skip"}, headers={**session, **ORIGIN})
    assert_error(refused, 403, "owner_cannot_act")
    assert (await seats.snap(0))["events_total"] == as_owner["events_total"]
    final = await seats.play()
    assert final["status"] == "finished"

    board = [r["name"] for r in (await client.get("/api/agents")).json()]
    assert "human_hana" not in board and agent["name"] in board
    assert [a["name"] for a in (await client.get("/api/my/agents", headers=session)).json()["agents"]] == [
        agent["name"]]
    assert [m["match_id"] for m in (await client.get("/api/my/matches", headers=session)).json()["matches"]] == [
        match_id]
    assert_error(await client.post("/api/agents", json={"name": "human_hana2"}), 400, "invalid_name")
    # The owner's agent's room: the owner cannot sit beside it as themselves either.
    room = await client.post("/api/matches", json={"config": SMALL}, headers=bearer(agent["api_key"]))
    beside = await client.post(f"/api/matches/{room.json()['match_id']}/join", json={},
                               headers={**session, **ORIGIN})
    assert_error(beside, 409, "same_owner_already_in_match")


async def test_a_guest_takes_an_open_seat_of_an_agents_room(client: httpx.AsyncClient) -> None:
    agents = [await register(client, f"invite-host-{i}") for i in range(3)]
    created = await client.post("/api/matches", json={"config": SMALL}, headers=bearer(agents[0]["api_key"]))
    match_id = created.json()["match_id"]
    seats = Seats(client, match_id)
    seats.headers.append(bearer(agents[0]["api_key"]))
    for agent in agents[1:]:
        await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(agent["api_key"]))
        seats.headers.append(bearer(agent["api_key"]))
    before = await seats.snap(1)
    invite = created.json()["invite_url"]
    assert invite.endswith(f"/match/{match_id}")
    joined = await client.post(f"/api/matches/{invite.rsplit('/', 1)[1]}/join", json={"player": {"name": "路人甲"}})
    assert joined.status_code == 200 and joined.json()["seat"] == 3, joined.text
    seats.headers.append(token(joined.json()["play_token"]))
    after = await seats.snap(1)
    assert set(after) == set(before) and set(after["you"]) <= set(before["you"]) | {"role", "word"}
    assert after["viewer_role"] == "player_agent" and after["you"]["seat"] == 1
    assert [set(p) for p in after["players"][:3]] == [set(p) | {"alive"} for p in before["players"]]
    guest = after["players"][3]
    assert guest["is_guest"] and guest["display_name"] == "路人甲" and "role" not in guest
    assert (await seats.snap(3))["you"]["seat"] == 3
    final = await seats.play()
    assert final["status"] == "finished"
    board = (await client.get("/api/agents")).json()
    assert sorted(r["name"] for r in board) == sorted(a["name"] for a in agents)


async def test_quick_start_options_and_config(client: httpx.AsyncClient) -> None:
    options = (await client.get("/api/play/undercover/options")).json()
    assert set(options["schema"]["properties"]) == {"pace", "category", "chaos", "virtual_players"}
    assert options["defaults"] == {"pace": "standard", "category": None, "chaos": False, "virtual_players": 5}
    tags = {c["tag"]: c for c in options["categories"]}
    assert tags[None]["count"] == sum(c["count"] for t, c in tags.items() if t is not None)
    assert tags["食物"]["label"] == {"zh": "食物", "en": "Food"} and tags["食物"]["count"] > 0
    assert [p["pace"] for p in options["paces"]] == ["quick", "standard", "hell"]
    assert_error(await client.get("/api/play/chess/options"), 422, "invalid_config")

    started = await client.post("/api/play", json={"name": "小王", "choices": {
        "pace": "quick", "category": "食物", "virtual_players": 3, "chaos": True}})
    assert started.status_code == 201, started.text
    body = started.json()
    assert set(body) >= {"match_id", "seat", "play_token", "match_url", "invite_url", "config"}
    config = body["config"]
    assert (config["n_players"], config["n_undercover"], config["max_rounds"], config["wordpair_tag"]) == (
        4, 1, 2, "食物")
    assert (config["speak_timeout"], config["vote_timeout"], config["last_words"]) == (45, 30, True)
    assert (config["host"], config.get("debate_rounds", 0), config["recap"]) == ("chaos", 0, True)
    assert body["seat"] == 0 and body["match_url"].endswith(body["match_id"]) and body["seats_open"] == 3
    listed = (await client.get("/api/matches", params={"fill_now": "true"})).json()["matches"]
    assert [m["match_id"] for m in listed] == [body["match_id"]] and listed[0]["players"][0]["is_guest"]
    assert (await client.get("/api/matches", params={"fill_now": "false"})).json()["count"] == 0
    hell = (await client.post("/api/play", json={"name": "x", "choices": {"pace": "hell"}})).json()["config"]
    assert (hell["n_players"], hell["n_undercover"], hell["max_rounds"]) == (6, 2, 4)
    assert (hell["host"], hell["debate_rounds"], hell["debate_timeout"]) == ("plain", 2, 45)

    for choices, field in (({"pace": "slow"}, "choices.pace"), ({"category": "不存在"}, "choices.category"),
                           ({"virtual_players": 6}, "choices.virtual_players"), ({"colour": 1}, "choices.colour")):
        refused = await client.post("/api/play", json={"name": "小王", "choices": choices})
        assert assert_error(refused, 422, "invalid_config")["detail"]["field"] == field
    assert_error(await client.post("/api/play", json={"choices": {}}), 400, "identity_required")
    assert_error(await client.post("/api/play", json={"game": "chess", "name": "x"}), 422, "invalid_config")


async def test_werewolf_quick_start_options_and_config(client: httpx.AsyncClient) -> None:
    options = (await client.get("/api/play/werewolf/options")).json()
    assert set(options["schema"]["properties"]) == {"n_players", "pace"}
    assert options["defaults"] == {"n_players": 6, "pace": "standard"}
    assert [t["n_players"] for t in options["tables"]] == [6, 9, 12]
    assert options["tables"][1]["roles"] == {"werewolf": 3, "villager": 3, "seer": 1, "witch": 1, "hunter": 1}
    started = await client.post("/api/play", json={"game": "werewolf", "name": "小狼",
                                                   "choices": {"n_players": 9, "pace": "quick"}})
    assert started.status_code == 201, started.text
    body = started.json()
    config = body["config"]
    assert (config["n_players"], config["roles"]["hunter"], config["roles"]["werewolf"]) == (9, 1, 3)
    assert (config["night_timeout"], config["speak_timeout"], config["vote_timeout"]) == (30, 45, 30)
    assert body["seat"] == 0 and body["seats_open"] == 8
    for choices, field in (({"n_players": 7}, "choices.n_players"), ({"pace": "hell"}, "choices.pace"),
                           ({"roles": "6p"}, "choices.roles")):
        refused = await client.post("/api/play", json={"game": "werewolf", "name": "小狼", "choices": choices})
        assert assert_error(refused, 422, "invalid_config")["detail"]["field"] == field


async def test_avalon_quick_start_options_and_config(client: httpx.AsyncClient) -> None:
    options = (await client.get("/api/play/avalon/options")).json()
    assert set(options["schema"]["properties"]) == {"n_players", "pace", "lady_of_the_lake"}
    assert options["defaults"] == {"n_players": 5, "pace": "standard", "lady_of_the_lake": False}
    assert [t["n_players"] for t in options["tables"]] == [5, 6, 7, 8, 9, 10]
    assert options["tables"][2] == {"n_players": 7, "evil": 3, "quests": [2, 3, 3, 4, 4], "roles": {
        "merlin": 1, "percival": 1, "loyal_servant": 2, "assassin": 1, "morgana": 1, "oberon": 1}}
    assert [p["pace"] for p in options["paces"]] == ["quick", "standard", "relaxed"]
    started = await client.post("/api/play", json={"game": "avalon", "name": "亚瑟",
                                                   "choices": {"n_players": 7, "pace": "quick",
                                                               "lady_of_the_lake": True}})
    assert started.status_code == 201, started.text
    body = started.json()
    config = body["config"]
    assert (config["n_players"], config["roles"]["oberon"], config["lady_of_the_lake"]) == (7, 1, True)
    assert (config["speak_timeout"], config["vote_timeout"], config["assassin_timeout"]) == (45, 30, 90)
    assert body["seat"] == 0 and body["seats_open"] == 6
    default = (await client.post("/api/play", json={"game": "avalon", "name": "x"})).json()["config"]
    assert (default["n_players"], default["lady_of_the_lake"], default["speak_timeout"]) == (5, False, 90)
    for choices, field in (({"n_players": 4}, "choices.n_players"), ({"pace": "hell"}, "choices.pace"),
                           ({"lady_of_the_lake": "yes"}, "choices.lady_of_the_lake"),
                           ({"roles": "5p"}, "choices.roles")):
        refused = await client.post("/api/play", json={"game": "avalon", "name": "亚瑟", "choices": choices})
        assert assert_error(refused, 422, "invalid_config")["detail"]["field"] == field


@pytest.fixture
async def small_pool(database_url: str) -> Any:
    application: FastAPI = create_app(make_settings(database_url, bot_pool_max=1))
    transport = httpx.ASGITransport(app=application)
    async with application.router.lifespan_context(application), RecordingClient(
            transport=transport, base_url="http://testserver") as http:
        yield http
    await _wipe(database_url)


async def test_quick_start_refuses_when_the_bot_pool_is_exhausted(small_pool: httpx.AsyncClient) -> None:
    first = await small_pool.post("/api/play", json={"name": "甲", "choices": {"virtual_players": 5}})
    assert first.status_code == 201, first.text
    second = await small_pool.post("/api/play", json={"name": "乙", "choices": {"virtual_players": 3}})
    body = assert_error(second, 503, "bots_unavailable")
    assert second.headers["Retry-After"] == "30"
    assert (body["detail"]["capacity"], body["detail"]["busy"], body["detail"]["needed"]) == (6, 5, 3)
    assert "all 6 official bots" in body["message"]
    assert (await small_pool.get("/api/matches")).json()["count"] == 1


async def test_quick_start_as_an_owner_or_an_agent(client: httpx.AsyncClient) -> None:
    cookie, agent = await _owner_with_agent(client, "iris")
    session = {"Cookie": f"wodi_session={cookie}"}
    assert_error(await client.post("/api/play", json={}, headers=session), 403, "cross_origin")
    mine = await client.post("/api/play", json={"choices": {"virtual_players": 3}}, headers={**session, **ORIGIN})
    assert mine.status_code == 201, mine.text
    snap = (await client.get(f"/api/matches/{mine.json()['match_id']}",
                             headers={"X-Play-Token": mine.json()["play_token"]})).json()
    assert snap["players"][0]["is_human"] and snap["players"][0]["name"] == "human_iris"
    again = await client.post("/api/play", json={}, headers={**session, **ORIGIN})
    assert assert_error(again, 409, "already_in_match")["detail"]["match_id"] == mine.json()["match_id"]
    theirs = await client.post("/api/play", json={"name": "ignored"}, headers=bearer(agent["api_key"]))
    assert theirs.status_code == 201, theirs.text
    row = (await client.get(f"/api/matches/{theirs.json()['match_id']}")).json()["players"][0]
    assert row["name"] == agent["name"] and not row["is_guest"] and not row["is_human"]
