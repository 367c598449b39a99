"""Joins queued for one match take their seats together, in one transaction (issue 17's quick start: five bots
join a room at once); a refused join in the batch fails alone and the others sit."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import event

from app.games.base import GameError
from app.protocol.errors import ApiError
from app.services.match import matches
from app.services.match.seating import Sitter
from tests.api.helpers import assert_error, bearer, register

SIX = {"n_players": 6, "n_undercover": 1}


async def _room(client: httpx.AsyncClient, host: str) -> dict[str, Any]:
    created = await client.post("/api/matches", json={"config": SIX, "player": {"name": host}})
    assert created.status_code == 201, created.text
    return dict(created.json())


async def _log(client: httpx.AsyncClient, match_id: str) -> list[dict[str, Any]]:
    response = await client.get(f"/api/matches/{match_id}/events", params={"since": 0})
    assert response.status_code == 200, response.text
    return list(response.json()["events"])


async def test_concurrent_joins_all_sit_and_a_duplicate_fails_alone(client: httpx.AsyncClient) -> None:
    room = await _room(client, "小王")
    agents = [await register(client, f"joiner-{i}") for i in range(5)]
    keys = [a["api_key"] for a in agents]
    url = f"/api/matches/{room['match_id']}/join"
    # Four agents and the first one a second time, all at once; then the fifth fills the table.
    sent = await asyncio.gather(*(client.post(url, json={}, headers=bearer(k)) for k in [*keys[:4], keys[0]]))
    joined = [r for r in sent if r.status_code == 200]
    refused = [r for r in sent if r.status_code != 200]
    assert len(joined) == 4 and len(refused) == 1, [r.text for r in sent]
    assert_error(refused[0], 409, "same_agent_already_in_match")
    assert sorted(r.json()["seat"] for r in joined) == [1, 2, 3, 4]
    last = await client.post(url, json={}, headers=bearer(keys[4]))
    assert last.status_code == 200 and last.json()["seat"] == 5, last.text

    snap = (await client.get(f"/api/matches/{room['match_id']}", headers=bearer(keys[4]))).json()
    assert snap["status"] == "in_progress" and snap["seats_open"] == 0
    names = {p["name"] for p in snap["players"][1:]}
    assert names == {a["name"] for a in agents}
    events = await _log(client, room["match_id"])
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(set(seqs)) and seqs[:7] == list(range(1, 8)), "created, five joins, no seq twice"
    assert sorted(e["seat"] for e in events if e["type"] == "player_joined") == [0, 1, 2, 3, 4, 5]


async def test_one_batch_is_one_transaction_and_refusals_change_nothing(app: FastAPI,
                                                                        client: httpx.AsyncClient) -> None:
    runtime = app.state.runtime
    room = await _room(client, "小李")
    agents = [await register(client, f"batch-{i}") for i in range(7)]
    busy = await client.post("/api/matches", json={"config": SIX}, headers=bearer(agents[6]["api_key"]))
    assert busy.status_code == 201, busy.text
    sitters = [Sitter(agent_id=a["agent_id"]) for a in agents]
    # In arrival order: A, B, A again, the agent seated elsewhere, C, D, E (fills the table), F (too late).
    order = [sitters[0], sitters[1], sitters[0], sitters[6], sitters[2], sitters[3], sitters[4], sitters[5]]
    jobs = [matches._Join(runtime, s, {}, {}, f"pk_live_{i:043d}", runtime.clock()) for i, s in enumerate(order)]

    # What each writer connection did meanwhile: the seats it inserted and its commits. Another writer of this
    # process (a background task) may commit in the same moment; the batch's own connection is the one that
    # wrote the seats.
    seen: list[tuple[str, int]] = []
    engine = runtime.db._write_engine.sync_engine  # the engine `writer()` sessions use (SQLite: its own)

    def committed(conn: Any) -> None:
        seen.append(("commit", id(conn)))

    def executed(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO SEATS"):
            seen.append(("seat", id(conn)))

    event.listen(engine, "commit", committed)
    event.listen(engine, "before_cursor_execute", executed)
    try:
        results = await matches._join_batch(room["match_id"], jobs)
    finally:
        event.remove(engine, "commit", committed)
        event.remove(engine, "before_cursor_execute", executed)
    writers = {conn for kind, conn in seen if kind == "seat"}
    assert len(writers) == 1, "every seat of the batch is written by one transaction"
    assert [kind for kind, conn in seen if conn in writers] == ["seat"] * 5 + ["commit"], "… which commits once"

    codes = [r.code if isinstance(r, Exception) else r.seat for r in results]  # type: ignore[union-attr]
    assert codes == [1, 2, "same_agent_already_in_match", "already_in_match", 3, 4, 5, "match_full"], codes
    assert all(isinstance(r, (ApiError, GameError)) for r in results if not isinstance(r, matches.Applied))

    snap = (await client.get(f"/api/matches/{room['match_id']}")).json()
    assert snap["status"] == "in_progress"
    assert [p["name"] for p in snap["players"]][1:] == [agents[i]["name"] for i in (0, 1, 2, 3, 4)]
    seqs = [e["seq"] for e in await _log(client, room["match_id"])]
    assert seqs == sorted(set(seqs)) and seqs[:7] == list(range(1, 8))
    # The cache this process wrote through holds the same seats as the database.
    again = (await client.get(f"/api/matches/{room['match_id']}", headers=bearer(agents[4]["api_key"]))).json()
    assert again["you"]["seat"] == 5 and again["you"]["role"]
