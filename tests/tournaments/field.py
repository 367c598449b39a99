"""A field of protocol-only agents for tournament tests: each enters an event with its Bearer key and, until the
event ends, sends one of the actions its `allowed_actions` offers whenever `/api/agents/me/active` says it is its
turn (`tests.benchmarks.agent`); plus an independent recomputation of the standings from the matches' results."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.api.helpers import bearer, register
from tests.benchmarks.agent import act_once

OPERATOR = "test-operator-token"
SIDES = {"undercover": ("civilian", "undercover"), "werewolf": ("village", "werewolf")}
_names = itertools.count()


def soon(seconds: float = 1.0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


async def create(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    created = await client.post("/api/tournaments", json=body, headers=bearer(OPERATOR))
    assert created.status_code == 201, created.text
    return dict(created.json())


async def field(client: httpx.AsyncClient, n: int, prefix: str) -> list[tuple[str, dict[str, str]]]:
    """`n` fresh agents (name, Bearer header), unclaimed (so no owner limit applies)."""
    out = []
    for _ in range(n):
        name = f"{prefix}-{next(_names)}"
        out.append((name, bearer((await register(client, name))["api_key"])))
    return out


async def enter_all(client: httpx.AsyncClient, tournament_id: str, agents: list[tuple[str, dict[str, str]]]) -> None:
    for name, key in agents:
        entered = await client.post(f"/api/tournaments/{tournament_id}/entries", headers=key)
        assert entered.status_code == 201, entered.text
        assert entered.json() == {"tournament_id": tournament_id, "name": name, "status": "entered"}


async def play(client: httpx.AsyncClient, tournament_id: str, agents: list[tuple[str, dict[str, str]]],
               seed: int = 1, max_seconds: float = 900.0) -> dict[str, Any]:
    """Every agent plays whatever table it is seated at until the event ends; returns the final event."""
    done = asyncio.Event()

    async def one(index: int, key: dict[str, str]) -> None:
        rng = random.Random(seed * 1000 + index)
        while not done.is_set():
            if not await act_once(client, key, rng, usage=None):
                await asyncio.sleep(0.02)

    async def watch() -> dict[str, Any]:
        while True:
            view = (await client.get(f"/api/tournaments/{tournament_id}")).json()
            if view["status"] in ("finished", "cancelled"):
                done.set()
                return dict(view)
            await asyncio.sleep(0.2)

    players = [asyncio.create_task(one(i, key)) for i, (_, key) in enumerate(agents)]
    try:
        return await asyncio.wait_for(watch(), max_seconds)
    finally:
        done.set()
        await asyncio.gather(*players, return_exceptions=True)


async def recompute(client: httpx.AsyncClient, view: dict[str, Any]) -> dict[str, tuple[float, float, int]]:
    """Each entrant's (score, Buchholz, direct) from the matches themselves (`GET /api/matches/{id}`: who won, which
    camp), by the rule of docs/agents/tournaments.md, written out again here."""
    both = SIDES[view["game"]]
    games: list[tuple[tuple[int, int], str | None, str, bool]] = []
    for rnd in view["round_tables"]:
        for table in rnd["tables"]:
            snap = (await client.get(f"/api/matches/{table['match_id']}")).json()
            assert snap["status"] == "finished", snap["status"]
            result = snap["result"]
            winners, camp = set(result["winning_seats"]), result["winner_camp"]
            other = both[1] if camp == both[0] else both[0]
            for seat in table["seats"]:
                won = seat["seat"] in winners
                games.append(((rnd["round"], table["table"]), seat["name"], camp if won else other, won))
                assert seat["side"] == (camp if won else other)
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    for _, _, side, won in games:
        seats[side] += 1
        wins[side] += won
    rate = {side: (wins[side] + 1) / (seats[side] + 2) for side in seats}
    entrants = [e["name"] for e in view["entrants"]]
    score = dict.fromkeys(entrants, 0.0)
    tables: dict[tuple[int, int], list[tuple[str, bool]]] = defaultdict(list)
    for where, name, side, won in games:
        if name is not None:
            score[name] += won + 0.5 - rate[side]
            tables[where].append((name, won))
    buchholz = dict.fromkeys(entrants, 0.0)
    for sat in tables.values():
        for name, _ in sat:
            others = [score[o] for o, _ in sat if o != name]
            if others:
                buchholz[name] += sum(others) / len(others)
    direct = dict.fromkeys(entrants, 0)
    key = {n: (round(score[n], 4), round(buchholz[n], 4)) for n in entrants}
    for sat in tables.values():
        for a, a_won in sat:
            for b, b_won in sat:
                if a != b and key[a] == key[b]:
                    direct[a] += (a_won and not b_won) - (b_won and not a_won)
    return {n: (key[n][0], key[n][1], direct[n]) for n in entrants}
