"""The official bot agents' pool: who they are, their keys, and how the pool grows.

Two agents per persona at the start (`bot_adai@wodi`, `bot_adai2@wodi`, …; registering an official bot again hands
out a fresh key, so no key file is needed). The pool grows on demand: when a room needs a persona none of whose
agents is idle, the persona's next agent (`bot_adai3@wodi`, …) is made, up to `pool_max` per persona (the server
passes `WODI_BOT_POOL_MAX`). With `reserve`, idle agents are registered ahead of demand in the background:
`reserve` per persona at rest, doubled (for every persona at once, within `pool_max`) each time a room finds a
persona without an idle agent, halved again after `RESERVE_DECAY` quiet seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from app.bots.personas import PERSONAS, Persona, persona_of_handle
from app.bots.player import error_code

log = logging.getLogger("app.bots")

FATAL_REGISTRATION = ("official_bot_disabled", "invalid_official_bot_key")
RESERVE = 4  # idle official bots per persona kept registered ahead of demand at rest (within the pool's limit)
RESERVE_DECAY = 120.0  # seconds without a room going short before the reserve halves


@dataclass
class BotAgent:
    """One official bot agent: its handle, persona, current key and the table it sits at (if any)."""

    handle: str
    display_name: str
    persona: Persona
    key: str = ""
    match_id: str | None = None

    @property
    def idle(self) -> bool:
        return bool(self.key) and self.match_id is None


class RegistrationRefused(RuntimeError):
    """The server will not register official bots with this key; retrying cannot help."""


async def register_bot(client: httpx.AsyncClient, official_key: str, handle: str, display_name: str,
                       persona: Persona) -> str:
    """(Re-)register one official bot; returns its fresh API key."""
    body = {"name": handle, "display_name": display_name, "bio": persona.bio}
    response = await client.post("/api/agents", json=body, headers={"X-Official-Bot-Key": official_key})
    if response.status_code == 409 and error_code(response) == "name_taken":
        # The server made the agent for a quick start at the same moment: registering it again now rotates its key.
        response = await client.post("/api/agents", json=body, headers={"X-Official-Bot-Key": official_key})
    if response.status_code == 201:
        return str(response.json()["api_key"])
    code = error_code(response)
    if code in FATAL_REGISTRATION:
        raise RegistrationRefused(f"registering {handle}: {code}")
    raise RuntimeError(f"registering {handle}: HTTP {response.status_code} {code}")


class Pool:
    """The agents, their registration and the reserve; `client` is set while the filler runs."""

    def __init__(self, official_key: str, agents_per_persona: int = 2, pool_max: int | None = None,
                 reserve: int = 0) -> None:
        self.official_key = official_key
        self.agents = [BotAgent(p.handle(i), p.name_for(i), p) for i in range(1, agents_per_persona + 1)
                       for p in PERSONAS]
        self.pool_max = max(pool_max or agents_per_persona, agents_per_persona)
        self.grown = 0  # agents registered beyond the first `agents_per_persona` of each persona
        self.reserve = reserve  # idle agents per persona to keep registered ahead of demand (within pool_max)
        self.wanted = reserve  # the reserve now: doubles when a room finds no idle agent, halves after quiet
        self._short_at = 0.0  # monotonic time a room last found a persona without an idle agent
        self.topping_up: asyncio.Task[None] | None = None
        self._freed = asyncio.Event()  # set (and replaced) each time the reserve frees an agent it held
        self.client: httpx.AsyncClient | None = None

    @property
    def http(self) -> httpx.AsyncClient:
        if self.client is None:
            raise RuntimeError("the lobby filler is not started")
        return self.client

    def size(self) -> int:
        """Bot agents registered (holding a key) now."""
        return sum(1 for agent in self.agents if agent.key)

    def idle_count(self) -> int:
        """Registered bot agents sitting at no table."""
        return sum(1 for agent in self.agents if agent.idle)

    async def register(self, agent: BotAgent) -> None:
        """(Re-)register one agent: it gets a fresh key."""
        agent.key = await register_bot(self.http, self.official_key, agent.handle, agent.display_name, agent.persona)

    async def register_all(self) -> None:
        for agent in self.agents:
            await self.register(agent)

    async def discover(self) -> int:
        """Take back the agents an earlier run grew the pool to (`bot_adai3@wodi`, … up to `pool_max`): they may
        still sit at tables, which `Seats.resume` then goes back to. Each found agent is registered again (a fresh
        key); the first handle the server does not know ends a persona's search. Returns how many were found."""
        found = 0
        for persona in PERSONAS:
            while (agent := self.grow(persona)) is not None:
                response = await self.http.get(f"/api/agents/{agent.handle}")
                if response.status_code == 404:
                    self.agents.remove(agent)
                    break
                response.raise_for_status()
                await self.register(agent)
                self.grown += 1
                found += 1
        if found:
            log.info("lobby filler: %d official bot agents from an earlier run are back in the pool", found)
        return found

    def free_agent(self, persona: Persona, taken: list[BotAgent], *, grow: bool) -> BotAgent | None:
        """An idle agent of `persona` not in `taken`; with `grow`, else one of the pool's agents not registered yet
        (its registration failed before)."""
        agent = next((a for a in self.agents if a.persona is persona and a.idle and a not in taken), None)
        if agent is not None or not grow:
            return agent
        return next((a for a in self.agents if a.persona is persona and not a.key and a.match_id is None
                     and a not in taken), None)

    def taken(self) -> None:
        """The server seated idle agents itself (a quick start's, `Seats.adopt`): when a persona is down to less
        than half the reserve, demand is outrunning it — double it as a room gone short does — then register what
        the reserve lacks."""
        if any(sum(a.persona is p and a.idle for a in self.agents) * 2 < self.wanted for p in PERSONAS):
            self.short()
        self.top_up()

    def short(self) -> None:
        """A room found a persona without an idle agent: demand outran the reserve, so double it (every persona
        at once, within `pool_max`) and register the difference ahead of the next rooms."""
        self._short_at = time.monotonic()
        if self.reserve > 0:
            self.wanted = min(self.pool_max, max(self.wanted * 2, self.reserve + 1))

    def _reserve_now(self) -> int:
        """`wanted`, halved (not below `reserve`) for every `RESERVE_DECAY` seconds no room went short."""
        quiet = time.monotonic() - self._short_at
        if self.wanted > self.reserve and quiet >= RESERVE_DECAY:
            self.wanted = max(self.reserve, self.wanted // 2)
            self._short_at = time.monotonic()
        return self.wanted

    def top_up(self) -> None:
        """In the background, register agents until every persona has the reserve's idle ones (within
        `pool_max`), so the next burst of rooms does not wait for registrations."""
        if self.reserve <= 0 or self.registering():
            return
        fresh = self._reserve_batch()
        if fresh:
            self.topping_up = asyncio.create_task(self._register_reserve(fresh), name="wodi-bot-reserve")

    def registering(self) -> bool:
        """The reserve holds agents while it registers them: they are idle once it has."""
        return self.topping_up is not None and not self.topping_up.done()

    async def freed(self, within: float) -> None:
        """Until the reserve frees an agent it held (registered, so idle; or its registration failed), or `within`
        seconds."""
        freed = self._freed
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                await freed.wait()

    def _free(self, agent: BotAgent) -> None:
        if agent.match_id != "":  # freed already (and maybe taken by a room since)
            return
        agent.match_id = None
        self._freed.set()
        self._freed = asyncio.Event()

    def _reserve_batch(self) -> list[BotAgent]:
        """The pool's next agents, for every persona short of the reserve, held (not idle) until registered."""
        fresh: list[BotAgent] = []
        wanted = self._reserve_now()
        for persona in PERSONAS:
            idle = sum(a.persona is persona and a.idle for a in self.agents)
            for _ in range(wanted - idle):
                agent = self.grow(persona)
                if agent is None:
                    break
                agent.match_id = ""  # held while it registers: no lineup takes an agent without a key
                fresh.append(agent)
        return fresh

    async def _register_reserve(self, fresh: list[BotAgent]) -> None:
        """Register `fresh`, then whatever the reserve grew to meanwhile, until it is met."""
        while fresh:
            try:
                # Each agent is free the moment its own registration is through: a room waiting for agents
                # (`Lobby.fill_room`) takes it then, not when the whole batch is.
                registered = await self.register_new(fresh, each=self._free)
            except Exception as exc:  # noqa: BLE001 - the reserve is a head start only; rooms register what they lack
                log.warning("lobby filler: registering the reserve failed: %s", exc)
                return
            finally:
                for agent in fresh:
                    self._free(agent)
            fresh = self._reserve_batch() if registered else []

    async def register_new(self, fresh: list[BotAgent], *,
                           each: Callable[[BotAgent], None] | None = None) -> bool:
        """Register the pool's new agents (concurrently; `each` is called with each as its key arrives); False if any
        fails (a later lineup tries it again)."""
        if not fresh:
            return True

        async def one(agent: BotAgent) -> None:
            agent.key = await register_bot(self.http, self.official_key, agent.handle, agent.display_name,
                                           agent.persona)
            self.grown += 1
            if each is not None:
                each(agent)

        results = await asyncio.gather(*(one(agent) for agent in fresh), return_exceptions=True)
        failed = False
        for agent, result in zip(fresh, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("registering %s failed: %r", agent.handle, result)
                failed = True
        if any(isinstance(r, RegistrationRefused) for r in results):
            raise next(r for r in results if isinstance(r, RegistrationRefused))
        return not failed

    def spare(self, persona: Persona) -> int:
        """The persona's agents at no table (those the reserve holds while it registers them included: they are
        free in a moment), plus the ones the pool may still make. Rooms take the personas with the most spare first,
        so how far the reserve's registrations have got does not change which persona a room leaves out."""
        mine = [a for a in self.agents if a.persona is persona]
        return sum(not a.match_id for a in mine) + self.pool_max - len(mine)

    def named(self, handle: str) -> BotAgent | None:
        """The pool's agent `handle`; an official handle the pool has not reached yet (the server made it for a
        quick start) joins the pool with the persona's agents before it, unregistered. None: not an official
        handle, or past `pool_max`."""
        agent = next((a for a in self.agents if a.handle == handle), None)
        persona = persona_of_handle(handle)
        if agent is not None or persona is None:
            return agent
        if handle not in {persona.handle(i) for i in range(1, self.pool_max + 1)}:
            return None
        while agent is None and (grown := self.grow(persona)) is not None:
            agent = grown if grown.handle == handle else None
        return agent

    def grow(self, persona: Persona) -> BotAgent | None:
        """The persona's next agent (not yet registered), or None when the persona's pool is full."""
        count = sum(a.persona is persona for a in self.agents)
        if count >= self.pool_max:
            return None
        agent = BotAgent(persona.handle(count + 1), persona.name_for(count + 1), persona)
        self.agents.append(agent)
        return agent
