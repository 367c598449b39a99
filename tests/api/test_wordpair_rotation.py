"""The deal avoids the word pairs its players drew in their last 20 matches (issue 19), over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI

from app.db.models import Match, Seat
from app.games.undercover.fairness import wordpair_key
from app.games.undercover.wordpairs import default_library
from app.services.match.matches import RECENT_MATCHES
from app.wordpairs.report import pair_records, render
from tests.api.table import Table

TAG = "交通"


async def _past_matches(app: FastAPI, agent_id: str, keys: list[str], start: int) -> None:
    """Finished matches of `agent_id` whose deals drew `keys`, newest first, all before now."""
    async with app.state.runtime.db.writer() as session:
        for i, key in enumerate(keys):
            match_id = f"past{start + i:04d}"
            at = datetime.now(UTC) - timedelta(hours=1, minutes=i)
            session.add(Match(match_id=match_id, game="undercover", status="finished", phase="finished", config={},
                              state={}, n_players=4, seats_taken=4, content=key, created_at=at, updated_at=at,
                              finished_at=at, result={"winner_camp": "civilian"}))
            await session.flush()
            session.add(Seat(match_id=match_id, seat=0, agent_id=agent_id, name="x", display_name="x",
                             play_token_hash=f"{match_id:0<64}", meta={}))


async def _content(app: FastAPI, match_id: str) -> str | None:
    async with app.state.runtime.db.reader() as session:
        match = await session.get(Match, match_id)
        return match.content if match else None


async def test_the_deal_draws_the_one_pair_nobody_at_the_table_drew_recently(app: FastAPI,
                                                                            client: httpx.AsyncClient) -> None:
    keys = sorted(wordpair_key(*pair.words) for pair in default_library().pairs(TAG))
    left, seen_by_a, seen_by_b = keys[-1], keys[:RECENT_MATCHES], keys[RECENT_MATCHES:-1]
    table = Table(client, 4, wordpair_tag=TAG)
    await table.register()
    ids = [(await client.get(f"/api/agents/{name}")).json()["agent_id"] for name in table.names]
    await _past_matches(app, ids[0], seen_by_a, 0)
    await _past_matches(app, ids[3], seen_by_b, 100)
    # An older match of agent 1 beyond its last 20 does not count: pad it with 20 newer ones of the same pair.
    await _past_matches(app, ids[1], [seen_by_a[0]] * RECENT_MATCHES, 200)
    table.register = _registered  # type: ignore[method-assign]
    await table.open()
    assert await _content(app, table.match_id) == left
    assert {(await table.snap(seat))["you"]["word"] for seat in range(4)} == set(left.split("|"))


async def test_a_table_that_saw_every_pair_still_gets_one(app: FastAPI, client: httpx.AsyncClient) -> None:
    keys = sorted(wordpair_key(*pair.words) for pair in default_library().pairs(TAG))
    table = Table(client, 4, wordpair_tag=TAG)
    await table.register()
    ids = [(await client.get(f"/api/agents/{name}")).json()["agent_id"] for name in table.names]
    for n, agent_id in enumerate(ids):
        await _past_matches(app, agent_id, keys[n * 10:(n + 1) * 10], n * 100)
    table.register = _registered  # type: ignore[method-assign]
    await table.open()
    assert await _content(app, table.match_id) in keys


async def _registered() -> None:
    return None


async def test_the_report_counts_each_pair_s_finished_matches(app: FastAPI, client: httpx.AsyncClient) -> None:
    keys = sorted(wordpair_key(*pair.words) for pair in default_library().pairs(TAG))
    table = Table(client, 1)
    await table.register()
    agent_id = (await client.get(f"/api/agents/{table.names[0]}")).json()["agent_id"]
    await _past_matches(app, agent_id, [keys[0]] * 30 + [keys[1]] * 2, 0)  # every one a civilian win
    rows = {r.key: r for r in await pair_records(app.state.runtime.db)}
    assert (rows[keys[0]].games, rows[keys[0]].undercover_wins, rows[keys[0]].out_of_band) == (30, 0, True)
    assert (rows[keys[1]].games, rows[keys[1]].out_of_band) == (2, False)
    report = render(list(rows.values())).splitlines()
    assert "1 of 2 pairs played" in report[0] and len(report) == 2 and report[1].startswith(keys[0])
