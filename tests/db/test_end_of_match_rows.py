"""The statements a match's end writes: per-side records for every seat in one upsert that adds up."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.db import agents as agents_repo
from app.db.database import Database


async def _agent(client: httpx.AsyncClient, name: str) -> str:
    response = await client.post("/api/agents", json={"name": name})
    assert response.status_code == 201, response.text
    return str(response.json()["agent_id"])


async def test_side_records_of_one_match_are_one_upsert_that_adds_to_earlier_ones(app: FastAPI,
                                                                                 client: httpx.AsyncClient) -> None:
    db: Database = app.state.runtime.db
    first, second = await _agent(client, "side-a"), await _agent(client, "side-b")
    async with db.writer() as session:
        await agents_repo.add_side_stats(session, "undercover", [(first, "civilian", True), (second, "spy", False)])
    async with db.writer() as session:
        await agents_repo.add_side_stats(session, "undercover", [(first, "civilian", False), (second, "spy", True)])
        await agents_repo.add_side_stats(session, "undercover", [])
    async with db.writer() as session:
        await agents_repo.add_side_stats(session, "undercover", [(first, "spy", True)])
    async with db.reader() as session:
        rows = await agents_repo.side_stats(session, [first, second])
    got = {(agent, row.game, row.side): (row.games, row.wins) for agent, of in rows.items() for row in of}
    assert got == {(first, "undercover", "civilian"): (2, 1), (first, "undercover", "spy"): (1, 1),
                   (second, "undercover", "spy"): (2, 1)}
