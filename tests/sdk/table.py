"""Seat kit agents at one table of the in-process app and play it to the end through `wodi_client.Runner`."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Any

import httpx
from fastapi import FastAPI
from wodi_client import Agent, AsyncWodi, MatchRecord, Runner

CONFIGS: dict[str, dict[str, Any]] = {  # small rooms, short clocks
    "undercover": {"n_players": 4, "n_undercover": 1, "speak_timeout": 20, "vote_timeout": 20},
    "werewolf": {"n_players": 6, "night_timeout": 20, "speak_timeout": 20, "vote_timeout": 20},
    "script_kill": {"timing": "compressed", "script": "tiny"},
    "avalon": {"n_players": 5, "speak_timeout": 20, "vote_timeout": 20, "assassin_timeout": 20},
}
START = 120.0  # seconds a server subprocess may take to start on a loaded machine
SEATS = {"undercover": 4, "werewolf": 6, "script_kill": 6, "avalon": 5}
_names = itertools.count()


async def play_table(app: FastAPI, game: str, agents: Sequence[Agent],
                     transport: httpx.AsyncBaseTransport | None = None,
                     config: dict[str, Any] | None = None) -> list[MatchRecord]:
    """Register one agent per entry, seat them in one room of `game` (`config`, else the game's small room) and
    play it; each agent's record."""
    inner = transport or httpx.ASGITransport(app=app)
    clients = [AsyncWodi("http://testserver", transport=inner) for _ in agents]
    try:
        for client in clients:
            await client.register(f"kit-{game}-{next(_names)}")
        created = await clients[0].create_match(game, config or CONFIGS[game])
        for client in clients[1:]:
            await client.join(str(created.match_id))
        runners = [Runner(client, agent, wait=10) for client, agent in zip(clients, agents, strict=True)]
        return list(await asyncio.gather(*(r.play_match(str(created.match_id)) for r in runners)))
    finally:
        for client in clients:
            await client.aclose()
