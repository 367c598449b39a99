"""The real server in a subprocess, killed (`kill -9`) between two rounds of an event: the restarted server (on
PostgreSQL two processes at once, racing for the event's due time) resumes it, and the next round starts once."""

from __future__ import annotations

import asyncio
import contextlib
import random

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.api.helpers import bearer
from tests.benchmarks.agent import act_once
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.tournaments.field import OPERATOR, soon

ENV = {"WODI_OPERATOR_TOKEN": OPERATOR}


async def _seats_of(database_url: str, names: list[str]) -> dict[str, int]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT a.name, count(*) FROM seats s JOIN agents a ON a.agent_id = "
                                           "s.agent_id GROUP BY a.name"))
            return {name: count for name, count in rows.all() if name in names}
    finally:
        await engine.dispose()


@pytest.mark.slow
async def test_a_restart_between_rounds_starts_the_next_round_once(database_url: str) -> None:
    servers = [Server(database_url, **ENV).start()]
    port = servers[0].port
    client = httpx.AsyncClient(base_url=servers[0].base_url, timeout=30)
    keys: list[dict[str, str]] = []
    names = [f"restart-{i}" for i in range(2)]
    try:
        for name in names:
            keys.append(bearer((await client.post("/api/agents", json={"name": name})).json()["api_key"]))
        created = await client.post("/api/tournaments", headers=bearer(OPERATOR), json={
            "game": "undercover", "format": "swiss", "rounds": 2, "round_break": 3, "starts_at": soon(4),
            "config": {"n_players": 4, "n_undercover": 1, "speak_timeout": 5, "vote_timeout": 5}})
        assert created.status_code == 201, created.text
        url = f"/api/tournaments/{created.json()['tournament_id']}"
        for key in keys:
            assert (await client.post(f"{url}/entries", headers=key)).status_code == 201
        done = asyncio.Event()

        async def agent(index: int) -> None:
            rng = random.Random(index)
            while not done.is_set():
                try:
                    acted = await act_once(client, keys[index], rng, usage=None)
                except (httpx.TransportError, ValueError, KeyError):
                    acted = False  # the server is down for a moment
                if not acted:
                    await asyncio.sleep(0.05)

        players = [asyncio.create_task(agent(i)) for i in range(2)]
        for _ in range(3000):  # until round 1 is over and round 2 not yet seated (the 3 s break)
            view = (await client.get(url)).json()
            tables = [t for r in view["round_tables"] for t in r["tables"]]
            if view["round"] == 1 and tables and all(t["recorded"] for t in tables):
                break
            assert view["round"] <= 1, "round 2 started before the kill"
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("round 1 did not end")
        servers[0].kill()
        assert view["status"] == "running" and len(view["round_tables"]) == 1
        restarted = [Server(database_url, port=port, **ENV)]
        if database_url.startswith("postgresql"):
            restarted.append(Server(database_url, **ENV))  # a second process sees the same due time
        servers = [s.start() for s in restarted]
        await client.aclose()
        client = httpx.AsyncClient(base_url=servers[0].base_url, timeout=30)
        for _ in range(6000):
            view = (await client.get(url)).json()
            if view["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        done.set()
        await asyncio.gather(*players, return_exceptions=True)
        assert view["status"] == "finished", view["status"]
        assert [r["round"] for r in view["round_tables"]] == [1, 2]
        assert [len(r["tables"]) for r in view["round_tables"]] == [1, 1]
        assert await _seats_of(database_url, names) == dict.fromkeys(names, 2)  # one match a round, no second
        assert all(row["games"] == 2 for row in view["standings"])
    finally:
        await client.aclose()
        for server in servers:
            with contextlib.suppress(Exception):
                server.stop()
        await _wipe(database_url)
