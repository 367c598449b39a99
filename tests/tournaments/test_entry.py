"""Creating and entering events over HTTP: who may create one, what is refused (with which code), entry rules (one
agent per owner unless allowed, full, closed), withdrawal keeping past results, an entrant that stops answering
scored as a loss (takeover), too few entrants, and the `tournament_table_ready` webhook."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import agents as agents_repo
from app.main import create_app
from app.runtime import Runtime
from tests.api.helpers import assert_error, bearer, claim_each, register
from tests.benchmarks.agent import act_once
from tests.conftest import RecordingClient, _wipe, make_settings
from tests.tournaments.field import OPERATOR, create, enter_all, field, play, soon
from tests.webhooks.receiver import Receiver

QUICK = {"speak_timeout": 1, "vote_timeout": 1}
ORIGIN = {"Origin": "http://testserver"}


async def as_owner(client: httpx.AsyncClient, cookie: str, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """A request with an owner's session cookie (the client's jar is left empty afterwards)."""
    client.cookies.set("wodi_session", cookie)
    try:
        return await client.request(method, url, headers=ORIGIN, **kwargs)
    finally:
        client.cookies.clear()


async def test_who_may_create_and_what_is_refused(client: httpx.AsyncClient) -> None:
    body = {"game": "undercover", "format": "swiss", "starts_at": soon(600)}
    assert_error(await client.post("/api/tournaments", json=body), 401, "login_required")
    assert_error(await client.post("/api/tournaments", json=body, headers=bearer("wrong")), 401,
                 "invalid_operator_token")
    for bad, field_name in ((dict(starts_at="tomorrow"), "starts_at"), (dict(rounds=0), "rounds"),
                            (dict(game="chess"), "game"), (dict(entry_closes_at=soon(900)), "entry_closes_at"),
                            (dict(max_entrants=1), "max_entrants"), (dict(round_break=-1), "round_break"),
                            (dict(starts_at=soon(86400 * 90)), "starts_at"), (dict(opponents=["nobody"]), "opponents"),
                            (dict(starts_at=soon(-3600), entry_closes_at=soon(-3700)), "starts_at")):
        answer = await client.post("/api/tournaments", json={**body, **bad}, headers=bearer(OPERATOR))
        refused = assert_error(answer, 422, "invalid_config")
        assert refused["detail"]["field"] == field_name and field_name in refused["message"], refused
    config = assert_error(await client.post("/api/tournaments", json={**body, "config": {"n_players": 99}},
                                            headers=bearer(OPERATOR)), 422, "invalid_config")
    assert config["detail"]["field"] == "config.n_players", config
    for malformed, field_name in (({"format": "knockout"}, "format"), ({"rounds": "3"}, "rounds"),
                                  ({"rounds": True}, "rounds"), ({"seed": "abc"}, "seed"), ({"bogus": 1}, "bogus"),
                                  ({"name": "Cup \u202eevil"}, "name"), ({"name": "\u200b"}, "name")):
        refused = assert_error(await client.post("/api/tournaments", json={**body, **malformed},
                                                 headers=bearer(OPERATOR)), 400, "bad_request")
        assert refused["detail"]["field"] == field_name, refused
    agent_key = (await register(client, "would-be-organiser"))["api_key"]
    by_agent = assert_error(await client.post("/api/tournaments", json=body, headers=bearer(agent_key)), 401,
                            "login_required")
    assert "agent's API key" in by_agent["message"], by_agent
    # an owner's session may create one too (from this site)
    key = (await register(client, "creator-agent"))["api_key"]
    cookie, = await claim_each(client, [key])
    made = await as_owner(client, cookie, "POST", "/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    assert_error(await client.get("/api/tournaments/tn_nope"), 404, "tournament_not_found")
    assert (await client.get("/tournament/tn_nope")).status_code == 404


async def test_entry_rules(client: httpx.AsyncClient) -> None:
    event = await create(client, game="undercover", format="swiss", starts_at=soon(600), max_entrants=3)
    url = f"/api/tournaments/{event['tournament_id']}/entries"
    agents = await field(client, 4, "entry")
    assert_error(await client.post(url), 401, "auth_required")
    assert_error(await client.post("/api/tournaments/tn_nope/entries", headers=agents[0][1]), 404,
                 "tournament_not_found")
    assert (await client.post(url, headers=agents[0][1])).status_code == 201
    assert_error(await client.post(url, headers=agents[0][1]), 409, "already_entered")
    for _, key in agents[1:3]:
        assert (await client.post(url, headers=key)).status_code == 201
    assert_error(await client.post(url, headers=agents[3][1]), 409, "tournament_full")
    assert (await client.delete(f"{url}/me", headers=agents[2][1])).json()["status"] == "withdrawn"
    assert_error(await client.delete(f"{url}/me", headers=agents[2][1]), 409, "not_entered")
    assert (await client.post(url, headers=agents[3][1])).status_code == 201  # the seat freed
    view = (await client.get(f"/api/tournaments/{event['tournament_id']}")).json()
    assert view["entrant_count"] == 3 and [e["withdrawn"] for e in view["entrants"]] == [False, False, True, False]

    # one agent per owner unless the event allows more
    owned = [(await register(client, f"owned-{i}"))["api_key"] for i in range(2)]
    cookie, = await claim_each(client, owned[:1])
    claim = (await client.get("/api/agents/me", headers=bearer(owned[1]))).json()["claim_url"].rsplit("/", 1)[1]
    assert (await as_owner(client, cookie, "POST", f"/api/agents/claim/{claim}")).status_code == 200
    single = await create(client, game="undercover", format="swiss", starts_at=soon(600))
    two = await create(client, game="undercover", format="swiss", starts_at=soon(600), entrants_per_owner=2)
    for made, second in ((single, 409), (two, 201)):
        entries = f"/api/tournaments/{made['tournament_id']}/entries"
        assert (await client.post(entries, headers=bearer(owned[0]))).status_code == 201
        answer = await client.post(entries, headers=bearer(owned[1]))
        assert answer.status_code == second, answer.text
        if second == 409:
            assert_error(answer, 409, "owner_entry_limit")

    closed = await create(client, game="undercover", format="swiss", starts_at=soon(0.2))
    await asyncio.sleep(0.5)
    assert_error(await client.post(f"/api/tournaments/{closed['tournament_id']}/entries", headers=agents[3][1]), 409,
                 "entry_closed")
    for _ in range(200):  # nobody entered: cancelled at its start
        view = (await client.get(f"/api/tournaments/{closed['tournament_id']}")).json()
        if view["status"] != "entry":
            break
        await asyncio.sleep(0.05)
    assert view["status"] == "cancelled" and view["ended_reason"] == "too_few_entrants"
    assert "报名人数不足" in (await client.get(f"/tournament/{closed['tournament_id']}")).text
    lobby = (await client.get("/")).text
    assert f"/tournament/{single['tournament_id']}" in lobby and f"/tournament/{closed['tournament_id']}" not in lobby


@pytest.fixture
async def hooked(database_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, Receiver]]:
    receiver = await Receiver().start()
    application: FastAPI = create_app(make_settings(database_url, operator_token=OPERATOR,
                                                    public_base_url="http://localhost", webhook_allow_private=True))
    async with application.router.lifespan_context(application), RecordingClient(
            transport=httpx.ASGITransport(app=application), base_url="http://testserver") as http:
        yield http, receiver
    await receiver.stop()
    await _wipe(database_url)


async def test_gauntlet_forfeit_withdrawal_and_table_ready(hooked: tuple[httpx.AsyncClient, Receiver]) -> None:
    """Three entrants, each alone against the reference pool for 2 rounds: `steady` plays, `silent` never answers
    (its seat is taken over: a loss), `leaver` plays round 1 and withdraws (its result stays)."""
    client, receiver = hooked
    event = await create(client, game="undercover", format="gauntlet", rounds=2, starts_at=soon(5),
                         round_break=1, config=QUICK, opponents=["adai", "nuomi"])
    assert event["opponents"] == ["adai", "nuomi"]
    agents = await field(client, 3, "gauntlet")
    names = [name for name, _ in agents]
    for name, key in agents:
        hook = await client.post("/api/agents/me/webhooks", headers=key, json={
            "url": receiver.url(name), "events": ["tournament_table_ready"]})
        assert hook.status_code == 201, hook.text
        receiver.secrets[name] = hook.json()["secret"]
        assert (await client.post(f"/api/tournaments/{event['tournament_id']}/entries", headers=key)).status_code \
            == 201
    steady, silent, leaver = agents
    ready = await receiver.next(steady[0], within=60)
    assert ready.verified and ready.body["type"] == "tournament_table_ready"
    assert ready.body["tournament_id"] == event["tournament_id"] and ready.body["round"] == 1
    active = (await client.get("/api/agents/me/active", headers=steady[1])).json()["active"]
    assert ready.body["match_id"] == active["match_id"] and ready.body["seat"] == active["seat"]
    url = f"/api/tournaments/{event['tournament_id']}"
    view: dict[str, Any] = {}
    rng = random.Random(4)
    left = False
    for _ in range(20000):
        acted = await act_once(client, steady[1], rng, usage=None)
        view = (await client.get(url)).json()
        if not left:
            acted = await act_once(client, leaver[1], rng, usage=None) or acted
            if view["round_tables"] and all(t["recorded"] for t in view["round_tables"][0]["tables"]):
                assert (await client.delete(f"{url}/entries/me", headers=leaver[1])).status_code == 200
                left = True
        if view["status"] == "finished":
            break
        if not acted:
            await asyncio.sleep(0.05)
    assert view["status"] == "finished", view
    rows = {row["name"]: row for row in view["standings"]}
    assert rows[silent[0]]["forfeits"] == 2 and rows[silent[0]]["wins"] == 0 and rows[silent[0]]["games"] == 2
    assert rows[leaver[0]]["games"] == 1 and rows[leaver[0]]["withdrawn"] is True
    assert rows[steady[0]]["games"] == 2 and rows[steady[0]]["forfeits"] == 0
    assert [len(r["tables"]) for r in view["round_tables"]] == [3, 2]
    for table in view["round_tables"][0]["tables"]:
        assert sum(s["name"] is not None for s in table["seats"]) == 1  # one entrant, the rest the reference pool
        chosen = Counter(s["reference"] for s in table["seats"] if s["name"] is None)
        assert set(chosen) == {"adai", "nuomi"} and abs(chosen["adai"] - chosen["nuomi"]) <= 1, chosen  # in turn
        players = (await client.get(f"/api/matches/{table['match_id']}")).json()["players"]
        shown = [p["display_name"] for p in players]
        assert len(set(shown)) == len(shown), shown  # a persona at a second seat is numbered
        entrant = next(s["name"] for s in table["seats"] if s["name"] is not None)
        listed = (await client.get("/api/matches", params={"agent": entrant, "limit": 50})).json()["matches"]
        reference = {s["seat"] for s in table["seats"] if s["name"] is None}
        for seen in (players, next(m for m in listed if m["match_id"] == table["match_id"])["players"]):
            # a reference seat is the platform's bot, not a guest (identity.md §3.2: a guest is a person)
            assert all(p["is_official"] and not p["is_guest"] for p in seen if p["seat"] in reference), seen
            assert not any(p["is_official"] or p["is_guest"] for p in seen if p["seat"] not in reference), seen
    forfeited = [s for r in view["round_tables"] for t in r["tables"] for s in t["seats"] if s["name"] == silent[0]]
    assert all(s["forfeit"] and not s["won"] for s in forfeited)
    got = [(await receiver.next(name, within=5)).body["round"] for name in names for _ in range(1)]
    assert got == [2, 1, 1]  # steady's round 2, and each other's round 1 (the leaver had no round 2)
    assert names  # every delivery above was verified by the receiver's secret


async def test_a_rated_event_rates_its_tables_with_the_reference_at_them(client: httpx.AsyncClient) -> None:
    """`compete_mode: true` makes an event rated: a gauntlet's tables (one entrant, the reference everywhere else)
    move the entrant's rating — the reference seats count as the server's own bots, not as guests."""
    (name, key), = await field(client, 1, "rated-gauntlet")
    await claim_each(client, [key["Authorization"].removeprefix("Bearer ")])
    event = await create(client, game="undercover", format="gauntlet", rounds=1, starts_at=soon(2), seed=5,
                         config={**QUICK, "n_players": 4, "n_undercover": 1, "compete_mode": True})
    assert event["rated"] is True
    assert (await client.post(f"/api/tournaments/{event['tournament_id']}/entries", headers=key)).status_code == 201
    view = await play(client, event["tournament_id"], [(name, key)], seed=5)
    assert view["status"] == "finished", view
    table = view["round_tables"][0]["tables"][0]
    assert sum(1 for s in table["seats"] if s["reference"]) == 3
    ratings = (await client.get(f"/api/agents/{name}/ratings", params={"game": "undercover"})).json()
    assert ratings["rated_games"] == 1 and len(ratings["history"]) == 1, ratings


async def test_an_entrant_at_another_table_forfeits_its_round_and_keeps_that_table(
        client: httpx.AsyncClient) -> None:
    """One agent, one table: an entrant sitting in a room of its own when the round is seated is not pulled into a
    second live table — the reference plays its tournament seat from the deal (a forfeit: a loss; the match never
    holds the agent), its room stays its one table, and a later round seats it as usual once it is free."""
    agents = await field(client, 2, "away")
    (away, away_key), (steady, steady_key) = agents
    room = await client.post("/api/matches", headers=away_key, json={"game": "undercover", "config": QUICK})
    assert room.status_code == 201, room.text
    own = room.json()["match_id"]
    event = await create(client, game="undercover", format="gauntlet", rounds=2, starts_at=soon(2), round_break=1,
                         config={**QUICK, "n_players": 4, "n_undercover": 1})
    url = f"/api/tournaments/{event['tournament_id']}"
    await enter_all(client, event["tournament_id"], agents)
    for _ in range(400):  # round 1 is seated at the start
        view = (await client.get(url)).json()
        if view["round_tables"]:
            break
        await asyncio.sleep(0.05)
    tables = {s["name"]: t["match_id"] for t in view["round_tables"][0]["tables"] for s in t["seats"] if s["name"]}
    assert set(tables) == {away, steady}, view["round_tables"]
    active = (await client.get("/api/agents/me/active", headers=away_key)).json()["active"]
    assert active["match_id"] == own, active  # its own room, not the tournament's table
    assert (await client.get(f"/api/matches/{own}")).json()["status"] == "waiting"
    seat, = [s for t in view["round_tables"][0]["tables"] for s in t["seats"] if s["name"] == away]
    assert seat["reference"] is not None, seat  # the reference plays the entrant's seat
    seated = (await client.get(f"/api/matches/{tables[away]}")).json()
    assert seated["status"] in ("in_progress", "finished") and away not in {p["name"] for p in seated["players"]}
    played_for = seated["players"][seat["seat"]]
    assert played_for["is_official"] and played_for["name"].startswith(f"ref-{seat['reference']}-"), played_for
    busy = assert_error(await client.post("/api/matches", headers=away_key, json={"game": "undercover"}), 409,
                        "already_in_match")
    assert busy["detail"]["match_id"] == own, busy

    # Its room cancelled, the agent is free: round 2 seats it at a table it plays.
    left = await client.post(f"/api/matches/{own}/abort", headers=away_key)
    assert left.status_code == 200, left.text
    view = await play(client, event["tournament_id"], agents, seed=7)
    assert view["status"] == "finished", view
    rows = {row["name"]: row for row in view["standings"]}
    assert rows[away]["games"] == 2 and rows[away]["forfeits"] == 1, rows[away]
    assert rows[steady]["games"] == 2 and rows[steady]["forfeits"] == 0, rows[steady]
    first, second = ([s for t in r["tables"] for s in t["seats"] if s["name"] == away] for r in view["round_tables"])
    assert first[0]["forfeit"] is True and first[0]["won"] is False
    assert second[0]["forfeit"] is False and second[0]["reference"] is None
    trail = (await client.get("/api/matches", params={"agent": away, "limit": 50})).json()["matches"]
    assert tables[away] not in {m["match_id"] for m in trail}  # the forfeited table was never the agent's


async def test_a_round_whose_entrant_row_is_held_is_seated_once_it_is_free(
        app: FastAPI, client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture) -> None:
    """The seating locks its entrants' agent rows as a join does. While another transaction holds one (a join, a
    timeout), the round waits for it — on PostgreSQL by seating again a second later (`NOWAIT`: the seating never
    queues behind a row lock, so it is never half of a deadlock), on SQLite behind the file's one writer — and the
    entrant, free all along, plays its own seat."""
    caplog.set_level(logging.INFO, logger="wodi.tournaments")
    runtime: Runtime = app.state.runtime
    (name, key), = await field(client, 1, "held")
    event = await create(client, game="undercover", format="gauntlet", rounds=1, starts_at=soon(1.5),
                         config={**QUICK, "n_players": 4, "n_undercover": 1})
    await enter_all(client, event["tournament_id"], [(name, key)])
    async with runtime.db.writer() as session:
        agent = await agents_repo.by_name(session, name)
        assert agent is not None
        await agents_repo.by_id(session, agent.agent_id, lock=True)
        await asyncio.sleep(3.0)  # the round falls due meanwhile
    url = f"/api/tournaments/{event['tournament_id']}"
    for _ in range(400):
        view = (await client.get(url)).json()
        if view["round_tables"]:
            break
        await asyncio.sleep(0.05)
    seat, = [s for s in view["round_tables"][0]["tables"][0]["seats"] if s["name"] == name]
    assert seat["reference"] is None, seat  # seated at its own seat: it sat nowhere else
    active = (await client.get("/api/agents/me/active", headers=key)).json()["active"]
    assert active["match_id"] == view["round_tables"][0]["tables"][0]["match_id"], active
    retried = [r for r in caplog.records if "seating again" in r.getMessage()]
    assert bool(retried) == (not runtime.db.is_sqlite), [r.getMessage() for r in caplog.records]
