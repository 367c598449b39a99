"""The seated official bots: one asyncio task per agent at a table, playing it through `MatchPlayer`.

After a restart the agents go back to the tables they still sit at (`resume`). The server may seat an agent itself
(a quick start's bots, in the transaction that opens the room): `adopt` plays every seat the server lists for an
agent that is at no table here. An agent whose key the server no longer accepts is registered again; whatever ends
its game, it is free for the next room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

import httpx

from app.bots.llm import LLMBrain
from app.bots.player import BotKeyRejected, BotStats, MatchPlayer
from app.bots.pool import BotAgent, Pool

log = logging.getLogger("app.bots")


class Seats:
    """The play task of every seated agent of `pool`. The players talk to the server through `client`, a connection
    pool of their own: a hundred seated bots each holding a long-poll must not make the filler's joins and
    registrations wait for a connection (they did: a quick start under load waited seconds for its bots)."""

    def __init__(self, pool: Pool, stats: BotStats, rng: random.Random, *, llm: LLMBrain | None = None,
                 think: float = 1.0, poll_wait: float = 25.0) -> None:
        self.pool = pool
        self.stats = stats
        self.rng = rng
        self.llm = llm
        self.think = think
        self.poll_wait = poll_wait
        self.tasks: dict[str, asyncio.Task[None]] = {}  # handle → play task
        self.adopted = 0  # seats the server gave our agents, taken up by `adopt`
        self.left: dict[str, str] = {}  # handle → the match its last play task ended in
        self.client: httpx.AsyncClient | None = None  # set while the filler runs

    @property
    def http(self) -> httpx.AsyncClient:
        if self.client is None:
            raise RuntimeError("the lobby filler is not started")
        return self.client

    def seated(self, agent: BotAgent) -> bool:
        return agent.handle in self.tasks

    def busy(self) -> dict[str, str]:
        """Handle → match of every bot agent sitting at a table."""
        return {a.handle: a.match_id for a in self.pool.agents if a.match_id and a.handle in self.tasks}

    async def resume(self) -> None:
        """After a restart, go back to the tables our agents still sit at."""
        for agent in self.pool.agents:
            response = await self.http.get("/api/agents/me/active", headers=bearer(agent.key))
            response.raise_for_status()
            active = response.json().get("active")
            if active and agent.handle not in self.tasks:
                log.info("%s: back to %s (%s)", agent.handle, active["match_id"], active["status"])
                self.seat(agent, str(active["match_id"]))

    async def adopt(self, seats: list[dict[str, Any]] | None = None) -> int:
        """Play the seats the server gave our agents: every live seat it lists (`seats` as `GET /api/bots/seats`
        answers; None: ask it) of an official agent that is at no table here — one the server made for a quick
        start joins the pool and is registered (a fresh key) before it plays. An agent in a room's line-up (its
        `match_id` set, its join under way) learns where it sits from the join's answer, and one the reserve is
        registering is taken up by the next list. Returns how many seats were taken up."""
        if seats is None:
            response = await self.pool.http.get("/api/bots/seats",
                                                headers={"X-Official-Bot-Key": self.pool.official_key})
            response.raise_for_status()
            seats = list(response.json()["seats"])
        taken = 0
        for listed in seats:
            agent = self.pool.named(str(listed.get("name")))
            if agent is None or agent.match_id is not None or agent.handle in self.tasks:
                continue
            if self.left.get(agent.handle) == listed["match_id"]:  # a list read before that match ended
                continue
            log.info("%s: seated at %s by the server", agent.handle, listed["match_id"])
            self.seat(agent, str(listed["match_id"]))
            taken += 1
        self.adopted += taken
        return taken

    def seat(self, agent: BotAgent, match_id: str) -> None:
        if agent.handle in self.tasks:  # already playing (the server's list and a join's answer can both tell)
            return
        agent.match_id = match_id
        self.tasks[agent.handle] = asyncio.create_task(self._play(agent, match_id), name=f"wodi-bot-{agent.handle}")

    async def _play(self, agent: BotAgent, match_id: str) -> None:
        try:
            if not agent.key:  # made by the server for a quick start: nobody holds its key yet
                await self.pool.register(agent)
            player = MatchPlayer(self.http, agent.key, match_id, agent.persona, llm=self.llm, stats=self.stats,
                                 rng=random.Random(self.rng.random()), think=self.think,
                                 wait=self.poll_wait, name=agent.handle)
            final = await player.run()
            self.stats.games += 1
            self.left[agent.handle] = match_id  # ended (or gone): a list read before the end must not seat it again
            log.info("%s finished %s: %s", agent.handle, match_id, _outcome(final, player.seat))
        except BotKeyRejected as exc:
            log.warning("%s: key rejected (%s); re-registering", agent.handle, exc)
            with contextlib.suppress(Exception):
                await self.pool.register(agent)
        except Exception:
            log.exception("%s: play loop for %s failed", agent.handle, match_id)
        finally:  # a play loop that failed leaves a live seat the next list brings back to it
            agent.match_id = None
            self.tasks.pop(agent.handle, None)

    def cancel(self) -> list[asyncio.Task[None]]:
        """Every play task, cancelled (the caller awaits them); the agents are free."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        self.tasks.clear()
        return tasks


def _outcome(final: dict[str, Any] | None, seat: int | None) -> str:
    if final is None:
        return "match gone"
    result = final.get("result") or {}
    if final.get("status") == "aborted":
        return f"aborted ({result.get('reason')})"
    won = seat in (result.get("winning_seats") or [])
    return f"{result.get('winner_camp')} camp won ({result.get('reason')}); seat {seat} {'won' if won else 'lost'}"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}
