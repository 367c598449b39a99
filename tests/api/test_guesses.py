"""Spectators guess (issue 33) over HTTP: a logged-in spectator names the hidden seats of a live match once per
round; players and their owners may not; guesses stay private until the end, are then scored (hits − misses
against every seat not on the most common side) and rank spectators on the readers' board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI

from app.services.identity import moderation
from app.services.rating.guesses import hidden_seats, round_of
from tests.api.helpers import assert_error
from tests.api.table import Table

ORIGIN = {"Origin": "http://testserver"}


async def owner(client: httpx.AsyncClient, username: str) -> dict[str, str]:
    """A logged-in owner's headers (its session cookie)."""
    response = await client.post("/api/owners", json={"username": username, "password": "correct horse"})
    assert response.status_code == 201, response.text
    client.cookies.clear()  # each request names its owner itself
    return {"Cookie": f"wodi_session={response.cookies['wodi_session']}", **ORIGIN}


async def guess(client: httpx.AsyncClient, match_id: str, who: dict[str, str], seats: list[int]) -> httpx.Response:
    return await client.post(f"/api/matches/{match_id}/guesses", json={"seats": seats}, headers=who)


def test_the_hidden_side_is_every_seat_off_the_most_common_side() -> None:
    assert hidden_seats(("civilian", "undercover", "blank"),
                        {0: "civilian", 1: "undercover", 2: "civilian", 3: "blank", 4: "civilian"}) == {1, 3}
    assert hidden_seats(("good", "evil"), {0: "good", 1: "evil", 2: "evil", 3: "good"}) == {1, 2}  # a tie
    assert round_of("vote_round_3") == 3 and round_of("discuss_r2") == 2 and round_of("night") == 0


async def test_spectators_guess_and_are_scored_on_the_readers_board(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, n_undercover=1, compete_mode=True)  # its spectators do not see the roles
    await table.open()
    sharp, wild = await owner(client, "sharp-reader"), await owner(client, "wild-reader")
    first = await guess(client, table.match_id, wild, [0, 1])
    assert first.status_code == 200, first.text
    assert first.json() == {"match_id": table.match_id, "round": 1, "seats": [0, 1]}
    again = await guess(client, table.match_id, wild, [2])  # the same round: replaces it
    assert again.status_code == 200 and again.json()["seats"] == [2]
    assert (await guess(client, table.match_id, sharp, [3])).status_code == 200
    mine = (await client.get(f"/api/matches/{table.match_id}/guesses", headers=wild)).json()
    assert [g["seats"] for g in mine["guesses"]] == [[2]] and mine["guesses"][0]["points"] is None
    assert (await client.get(f"/api/matches/{table.match_id}/guesses")).json()["guesses"] == []  # private

    final = await table.play()
    assert final["status"] == "finished"
    hidden = {p["seat"] for p in final["players"] if p["role"] != "civilian"}
    scored = (await client.get(f"/api/matches/{table.match_id}/guesses")).json()["guesses"]
    by = {g["spectator"]: g for g in scored}
    for name, seats in (("sharp-reader", [3]), ("wild-reader", [2])):
        hits = len(set(seats) & hidden)
        assert by[name]["seats"] == seats and by[name]["hits"] == hits
        assert by[name]["points"] == hits - (len(seats) - hits)
    board = (await client.get("/api/spectators/board")).json()["readers"]
    expected = sorted(((by[n]["points"], by[n]["hits"], n) for n in by), key=lambda row: (-row[0], -row[1]))
    assert [(r["points"], r["hits"]) for r in board] == [(p, h) for p, h, _ in expected]
    assert {r["spectator"] for r in board} == {"sharp-reader", "wild-reader"}
    assert_error(await guess(client, table.match_id, sharp, [1]), 409, "match_not_in_progress")


async def test_players_their_owners_and_bad_guesses_are_refused(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, n_undercover=1, compete_mode=True)
    await table.open()
    url = f"/api/matches/{table.match_id}/guesses"
    assert_error(await client.post(url, json={"seats": [1]}, headers=ORIGIN), 401, "login_required")
    assert_error(await client.post(url, json={"seats": [1]}), 401, "login_required")  # no session: no origin asked
    assert_error(await client.post(url, json={"seats": [1]}, headers=table.h(2)), 401, "login_required")  # an agent
    boss = await owner(client, "boss-of-a-player")
    token = (await client.get("/api/agents/me", headers=table.h(1))).json()["claim_url"].rsplit("/", 1)[1]
    assert (await client.post(f"/api/agents/claim/{token}", headers=boss)).status_code == 200
    assert_error(await guess(client, table.match_id, boss, [1]), 403, "guess_not_spectator")
    reader = await owner(client, "plain-reader")
    for seats in ([], [1, 1], [9], [0, 1, 2, 3]):
        assert_error(await guess(client, table.match_id, reader, seats), 422, "invalid_guess")
    no_origin = {"Cookie": reader["Cookie"]} | {"Origin": "https://evil.example"}
    assert_error(await client.post(url, json={"seats": [1]}, headers=no_origin), 403, "cross_origin")
    assert_error(await guess(client, "nosuchmatch", reader, [1]), 404, "match_not_found")
    waiting = Table(client, 4, n_undercover=1, compete_mode=True)
    await waiting.open(fill=False)
    assert_error(await guess(client, waiting.match_id, reader, [0]), 409, "match_not_in_progress")


async def test_a_casual_match_whose_spectators_see_the_roles_takes_no_guess(client: httpx.AsyncClient) -> None:
    """By default a logged-in spectator of a casual match sees every role live (the protocol's god view): a guess
    there would hold the answer, so it is refused and the listing says the match is not open to guesses (D25)."""
    casual = Table(client, 4, n_undercover=1)
    await casual.open()
    reader = await owner(client, "peeking-reader")
    seen = (await client.get(f"/api/matches/{casual.match_id}", headers=reader)).json()
    assert seen["viewer_role"] == "spectator" and all(p.get("role") for p in seen["players"])  # the answer, live
    assert_error(await guess(client, casual.match_id, reader, [1]), 409, "guess_roles_shown")
    listed = (await client.get(f"/api/matches/{casual.match_id}/guesses", headers=reader)).json()
    assert listed["open"] is False and listed["guesses"] == []
    fair = Table(client, 4, n_undercover=1, compete_mode=True)
    await fair.open()
    assert (await client.get(f"/api/matches/{fair.match_id}/guesses", headers=reader)).json()["open"] is True


async def test_a_suspended_owners_session_guesses_nothing_and_takes_no_seat(client: httpx.AsyncClient,
                                                                           app: FastAPI) -> None:
    """A session opened before its owner's suspension may read, but takes no seat (a quick start or a join as a
    person), makes no guess and creates no event (it used to do all three)."""
    table = Table(client, 4, n_undercover=1, compete_mode=True)
    await table.open()
    reader = await owner(client, "soon-suspended")
    soon = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    await moderation.suspend(app.state.runtime, "owner", "soon-suspended", "test")
    assert_error(await guess(client, table.match_id, reader, [1]), 403, "owner_suspended")
    assert_error(await client.post("/api/play", json={"game": "undercover"}, headers=reader), 403, "owner_suspended")
    assert_error(await client.post("/api/tournaments", json={"name": "x", "game": "undercover", "format": "swiss",
                                                             "starts_at": soon},
                                   headers=reader), 403, "owner_suspended")
    assert (await client.get(f"/api/matches/{table.match_id}", headers=reader)).status_code == 200  # reads go on

