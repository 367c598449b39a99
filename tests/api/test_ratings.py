"""Ratings over HTTP (issue 19): a rated match moves exactly what the model says, an unrated one moves nothing,
and `rebuild` reproduces the stored ratings exactly."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.db.models import AgentRating, RatingAnchor, RatingChange
from app.ratings.model import SeatResult, Skill, rate
from app.ratings.rebuild import rebuild
from app.services.rating.ratings import Rules
from tests.api.helpers import assert_error
from tests.api.table import Table
from tests.conftest import OFFICIAL_KEY

RULES = Rules(frozenset(), timedelta(hours=24))  # the defaults: no provider trusted, a 24 h repeat window


async def _played(client: httpx.AsyncClient, **config: Any) -> tuple[Table, dict[str, Any]]:
    table = Table(client, 4, **config)
    table.claim = True  # four owners, one agent each: independent seats
    await table.open()
    final = await table.play()
    assert final["status"] == "finished"
    return table, final


async def _ratings(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await client.get(f"/api/agents/{name}/ratings", params={"game": "undercover"})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _expected(final: dict[str, Any], names: list[str], sides: dict[str, str]) -> dict[str, Skill]:
    winners = set(final["result"]["winning_seats"])
    seats = [SeatResult(names[p["seat"]], sides[names[p["seat"]]], p["seat"] in winners) for p in final["players"]]
    return rate(seats, {}, {}).agents


async def test_a_competitive_match_moves_each_rating_exactly_as_the_model_says(client: httpx.AsyncClient) -> None:
    table, final = await _played(client, compete_mode=True)
    got = {name: await _ratings(client, name) for name in table.names}
    sides = {name: got[name]["history"][0]["side"] for name in table.names}
    roles = {table.names[p["seat"]]: p["role"] for p in final["players"]}
    assert all(sides[name] == roles[name] for name in table.names)  # the side each seat was dealt
    expected = _expected(final, table.names, sides)
    winners = {table.names[s] for s in final["result"]["winning_seats"]}
    for name in table.names:
        (entry,) = got[name]["history"]
        assert entry["match_id"] == table.match_id
        assert entry["result"] == ("win" if name in winners else "loss")
        assert entry["rating_before"] == round(Skill().conservative, 2)
        assert entry["rating_after"] == round(expected[name].conservative, 2) == got[name]["rating"]
        assert got[name]["rated_games"] == 1 and got[name]["provisional"] is True
        assert (got[name]["rating"] > entry["rating_before"]) == (name in winners)
    ladder = (await client.get("/api/agents", params={"sort": "rating", "game": "undercover"})).json()
    assert [row["name"] for row in ladder] == sorted(table.names, key=lambda n: -expected[n].conservative)
    assert all(row["provisional"] is True and row["game"] == "undercover" for row in ladder)
    profile = (await client.get(f"/api/agents/{table.names[0]}")).json()
    assert profile["ratings"]["undercover"]["rating"] == got[table.names[0]]["rating"]
    record = profile["side_records"]["undercover"][sides[table.names[0]]]
    assert record["games"] == 1 and record["interval"][0] < record["win_rate"] < record["interval"][1] or \
        record["win_rate"] in (0.0, 1.0)



async def test_a_casual_match_moves_nothing(client: httpx.AsyncClient) -> None:
    table, _ = await _played(client)
    for name in table.names:
        got = await _ratings(client, name)
        assert got["history"] == [] and got["rated_games"] == 0 and got["rating"] == round(Skill().conservative, 2)
    assert (await client.get("/api/agents", params={"sort": "rating"})).json() == []


async def test_an_aborted_match_moves_nothing(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, compete_mode=True)
    await table.open(fill=False)
    aborted = await client.post(f"/api/matches/{table.match_id}/abort", headers=table.h(0))
    assert aborted.status_code == 200, aborted.text
    assert (await _ratings(client, table.names[0]))["history"] == []


async def test_a_bot_only_match_moves_nothing(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, compete_mode=True)

    async def register_bots() -> None:
        for i in range(4):
            response = await client.post("/api/agents", json={"name": f"bot_rating{i}@wodi"},
                                         headers={"X-Official-Bot-Key": OFFICIAL_KEY})
            assert response.status_code == 201, response.text
            table.keys.append(response.json()["api_key"])
            table.names.append(response.json()["name"])

    table.register = register_bots  # type: ignore[method-assign]
    await table.open()
    assert (await table.play())["status"] == "finished"
    for name in table.names:
        assert (await _ratings(client, name))["history"] == []


async def test_an_unknown_game_is_refused(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/agents", params={"sort": "rating", "game": "chess"}), 400, "bad_request")


async def _stored(app: FastAPI) -> tuple[list[tuple[Any, ...]], ...]:
    async with app.state.runtime.db.reader() as session:
        ratings = [(r.agent_id, r.game, r.mu, r.sigma, r.games, r.conservative)
                   for r in (await session.execute(select(AgentRating).order_by(AgentRating.agent_id))).scalars()]
        anchors = [(a.composition, a.side, a.mu, a.sigma, a.games) for a in (await session.execute(
            select(RatingAnchor).order_by(RatingAnchor.composition, RatingAnchor.side))).scalars()]
        history = [(c.match_id, c.agent_id, c.side, c.won, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
                   for c in (await session.execute(select(RatingChange).order_by(RatingChange.id))).scalars()]
    return ratings, anchors, history


async def test_rebuild_reproduces_the_stored_ratings_exactly(app: FastAPI, client: httpx.AsyncClient) -> None:
    first, _ = await _played(client, compete_mode=True)
    await _played(client)  # casual: not replayed
    newcomer = Table(client, 1)
    newcomer.claim = True
    await newcomer.register()
    table = Table(client, 4, compete_mode=True)
    # Three of the four again with a newcomer: another pairing, so their second rated match.
    table.keys, table.names = first.keys[:3] + newcomer.keys, first.names[:3] + newcomer.names
    table.register = _no_registration  # type: ignore[method-assign]
    await table.open()
    assert (await table.play())["status"] == "finished"
    before = await _stored(app)
    assert len(before[2]) == 8 and sorted(r[4] for r in before[0]) == [1, 1, 2, 2, 2]
    assert await rebuild(app.state.runtime.db, RULES) == 2
    assert await _stored(app) == before


async def _no_registration() -> None:
    return None


async def test_the_pages_show_the_ladder_and_the_profile_s_rating(client: httpx.AsyncClient) -> None:
    table, _ = await _played(client, compete_mode=True)
    lobby = (await client.get("/")).text
    ladder = lobby.split('id="ladder"')[1].split("</section>")[0]
    assert all(f'href="/agents/{name}"' in ladder for name in table.names)
    assert ladder.count("provisional-mark") == 4
    page = (await client.get(f"/agents/{table.names[0]}")).text
    rating = (await _ratings(client, table.names[0]))["rating"]
    assert f'<b class="rating-value">{rating:.1f}</b>' in page and "provisional-mark" in page
    assert page.count('class="side-bar"') == 1 and "bar-interval" in page
    assert 'id="rating-chart-undercover"' in page and f'/match/{table.match_id}' in page
    assert 'id="reliability"' in page
