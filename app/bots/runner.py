"""The lobby filler: official bot agents that take the empty seats of rooms nobody else is filling.

`LobbyFiller(base_url, official_key, fill_after, llm=None)` registers two agents per persona (12:
`bot_adai@wodi`, `bot_adai2@wodi`, …; registering an official bot again hands out a fresh key, so no key file
is needed), resumes the tables its agents still sit at, then every few seconds lists the waiting rooms. A room
that has waited at least `fill_after` seconds (by its `created_at`) gets idle bots — at most one per persona
per room (`max_per_persona`), each bot agent at one table at a time — and every seated bot plays as an asyncio
task. By default bots only sit down when they can take *every* open seat (a seated bot cannot leave a waiting
room, so a half-filled 12-seat room would hold them for the whole waiting-room TTL); `partial=True` lets them
half-fill. With one bot per persona that means rooms needing at most six more players; `max_per_persona=2`
lets the twelve agents fill a 12-seat table. A game may cap the seats bots take in one room
(`app.games.installed.BOT_SEATS`: script_kill's NPCs fill 0–3), so a room missing more waits for players.
Errors are logged and retried with back-off; `stop()` cancels everything and closes the client.

The pool grows on demand: when a room needs a persona none of whose agents is idle, the filler registers the
persona's next agent (`bot_adai3@wodi`, …) up to `pool_max` per persona (the server passes `WODI_BOT_POOL_MAX`),
and an agent whose game ended is reused by the next room. With `reserve`, idle agents are registered ahead of demand
in the background: `reserve` per persona at rest, doubled (for every persona at once, within `pool_max`) each time
a room finds a persona without an idle agent, halved again after `RESERVE_DECAY` quiet seconds. Rooms marked
`fill_now` (the quick start) are filled at once, whatever their age, all of them concurrently; `wake` (the server
passes the lobby key of its notifier) ends the pause between passes as soon as such a room is opened, so a
quick-start room never waits for the next poll.

The server can run it in-process::

    filler = LobbyFiller(settings.bot_base_url, settings.official_bot_key, settings.bot_fill_after,
                         llm=LLMBrain.from_settings(settings))
    await filler.start()   # returns at once; the work happens in a background task
    ...
    await filler.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import httpx

from app.bots.llm import LLMBrain
from app.bots.personas import PERSONAS, Persona, persona_of_handle
from app.bots.player import BotKeyRejected, BotStats, MatchPlayer, error_code
from app.games.installed import BOT_SEATS, brains
from app.services.lobby import BOT_USER_AGENT

log = logging.getLogger("app.bots")

FATAL_REGISTRATION = ("official_bot_disabled", "invalid_official_bot_key")
ROOM_GONE = ("match_full", "match_not_waiting", "match_not_found", "match_finished")
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


class Wake(Protocol):
    """What the filler sleeps on between passes (the server's `app.services.lobby.LobbyWake`)."""

    def latest(self) -> int: ...

    async def wait(self, after: int, within: float) -> int: ...


class RegistrationRefused(RuntimeError):
    """The server will not register official bots with this key; retrying cannot help."""


async def register_bot(client: httpx.AsyncClient, official_key: str, handle: str, display_name: str,
                       persona: Persona) -> str:
    """(Re-)register one official bot; returns its fresh API key."""
    body = {"name": handle, "display_name": display_name,
            "bio": f"谁是卧底官方机器人。发言：{persona.style}；投票：{persona.tendency}。"}
    response = await client.post("/api/agents", json=body, headers={"X-Official-Bot-Key": official_key})
    if response.status_code == 201:
        return str(response.json()["api_key"])
    code = error_code(response)
    if code in FATAL_REGISTRATION:
        raise RegistrationRefused(f"registering {handle}: {code}")
    raise RuntimeError(f"registering {handle}: HTTP {response.status_code} {code}")


class LobbyFiller:
    """Fills waiting rooms with official bots and plays their games; see the module docstring."""

    def __init__(self, base_url: str, official_key: str, fill_after: float = 20.0, llm: LLMBrain | None = None,
                 *, agents_per_persona: int = 2, max_per_persona: int = 1, partial: bool = False,
                 poll_interval: float = 3.0, think: float = 1.0, poll_wait: float = 25.0,
                 seed: int | None = None, pool_max: int | None = None, wake: Wake | None = None,
                 reserve: int = 0) -> None:
        self.base_url = base_url.rstrip("/")
        self.official_key = official_key
        self.fill_after = fill_after
        self.llm = llm
        self.max_per_persona = max_per_persona
        self.partial = partial
        self.poll_interval = poll_interval
        self.think = think
        self.poll_wait = poll_wait
        self.stats = BotStats()
        self.joins = 0
        self.rng = random.Random(seed)
        self.agents = [BotAgent(p.handle(i), p.name_for(i), p) for i in range(1, agents_per_persona + 1)
                       for p in PERSONAS]
        self.pool_max = max(pool_max or agents_per_persona, agents_per_persona)
        self.wake = wake
        self.grown = 0  # agents registered beyond the first `agents_per_persona` of each persona
        self.reserve = reserve  # idle agents per persona to keep registered ahead of demand (within pool_max)
        self.wanted = reserve  # the reserve now: doubles when a room finds no idle agent, halves after quiet
        self._short_at = 0.0  # monotonic time a room last found a persona without an idle agent
        self._topping_up: asyncio.Task[None] | None = None
        self._client: httpx.AsyncClient | None = None
        self._task: asyncio.Task[None] | None = None
        self._players: dict[str, asyncio.Task[None]] = {}  # handle → play task
        self._filling: dict[str, asyncio.Task[None]] = {}  # match → the task filling it at once
        self.urgent_seats = 0  # seats taken in rooms filled at once
        self._stopping = asyncio.Event()
        self._registered = False

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the background task (idempotent); returns immediately."""
        if self._task is not None and not self._task.done():
            return
        if not self.official_key:
            log.warning("lobby filler: no official bot key, so no official bots")
            return
        self._stopping = asyncio.Event()
        most = self.pool_max * len(PERSONAS) + 8
        limits = httpx.Limits(max_connections=most, max_keepalive_connections=most)
        self._client = httpx.AsyncClient(base_url=self.base_url, timeout=30.0, limits=limits,
                                         headers={"User-Agent": BOT_USER_AGENT})
        self._task = asyncio.create_task(self._run(), name="wodi-lobby-filler")
        log.info("lobby filler: started for %s (fill after %.1fs, %d bot agents%s)", self.base_url,
                 self.fill_after, len(self.agents), ", LLM brain on" if self.llm else "")

    async def stop(self) -> None:
        """Cancel the filler and every game task, then close the HTTP client(s)."""
        self._stopping.set()
        tasks = [t for t in [self._task, self._topping_up, *self._filling.values(), *self._players.values()]
                 if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._registered = False
        self._players.clear()
        self._filling.clear()
        for agent in self.agents:
            agent.match_id = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self.llm is not None:
            await self.llm.aclose()
        log.info("lobby filler: stopped")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def pool_size(self) -> int:
        """Bot agents registered (holding a key) now."""
        return sum(1 for agent in self.agents if agent.key)

    def idle_count(self) -> int:
        """Registered bot agents sitting at no table."""
        return sum(1 for agent in self.agents if agent.idle)

    def busy(self) -> dict[str, str]:
        """Handle → match of every bot agent sitting at a table."""
        return {a.handle: a.match_id for a in self.agents if a.match_id and a.handle in self._players}

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        backoff = 0.25  # the first attempt in-process may come before the server listens: retry soon
        woken, last_full = False, 0.0
        while not self._stopping.is_set():
            try:
                if not self._registered:
                    await self._register_all()
                    await self._resume()
                    self._registered = True
                    self._top_up()
                seen = self.wake.latest() if self.wake is not None else 0
                # Woken early for a room to fill at once: the aged rooms wait for their regular pass (at most
                # `poll_interval` apart however often the filler is woken).
                regular = not woken or time.monotonic() - last_full >= self.poll_interval
                last_full = time.monotonic() if regular else last_full
                await self.fill_once(urgent_only=not regular)
                backoff = 0.25
                woken = await self._until_woken(seen)
            except RegistrationRefused as exc:
                log.error("lobby filler: %s; official bots stay off", exc)
                return
            except Exception as exc:  # noqa: BLE001 - the server may be starting, restarting or failing: retry
                log.warning("lobby filler: %s: %s; retrying in %.2fs", type(exc).__name__, exc, backoff)
                await self._pause(backoff)
                backoff = min(backoff * 2, 60.0)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._stopping.wait()

    async def _until_woken(self, seen: int) -> bool:
        """Pause `poll_interval`, or less: until a room to fill at once is announced after `seen` (then True)."""
        if self.wake is None:
            await self._pause(self.poll_interval)
            return False
        began = time.monotonic()
        if await self.wake.wait(seen, self.poll_interval) > seen:
            return True
        # Nothing new: either the interval passed, or the server is draining and answers every wait at once.
        await self._pause(self.poll_interval - (time.monotonic() - began))
        return False

    async def _register_all(self) -> None:
        for agent in self.agents:
            agent.key = await register_bot(self._http, self.official_key, agent.handle, agent.display_name,
                                           agent.persona)

    async def _resume(self) -> None:
        """After a restart, go back to the tables our agents still sit at."""
        for agent in self.agents:
            response = await self._http.get("/api/agents/me/active", headers=_bearer(agent.key))
            response.raise_for_status()
            active = response.json().get("active")
            if active and agent.handle not in self._players:
                log.info("%s: back to %s (%s)", agent.handle, active["match_id"], active["status"])
                self._seat(agent, str(active["match_id"]))

    async def fill_once(self, *, urgent_only: bool = False) -> int:
        """One pass over the waiting rooms: every room to fill at once gets a task of its own (started here, not
        awaited, so a room opened meanwhile never waits behind them), then — unless `urgent_only` — the rooms that
        have waited `fill_after` are filled in turn; returns how many seats bots took in the latter."""
        playable = brains()
        for room in await self._waiting({"fill_now": "true"}):
            match_id = str(room["match_id"])
            if room.get("seats_open", 0) > 0 and room.get("game") in playable and match_id not in self._filling:
                self._filling[match_id] = asyncio.create_task(self._fill_urgent(room), name=f"wodi-fill-{match_id}")
        taken = 0
        now = time.time()
        for room in [] if urgent_only else await self._waiting({"fill_now": "false"}):
            if now - _timestamp(room["created_at"]) < self.fill_after:
                break  # oldest first: every later room is younger still
            open_seats = int(room.get("seats_open", 0))
            game = room.get("game")
            takes_agents = room.get("seats_for", "all") != "people"  # a people-only room is not the bots' to fill
            if 0 < open_seats <= BOT_SEATS.get(str(game), open_seats) and game in playable and takes_agents:
                taken += await self._fill_room(room, grow=True)
        return taken

    async def _fill_urgent(self, room: dict[str, Any]) -> None:
        try:
            seats = await self._fill_room(room, grow=True)  # not `+= await`: that would add to a stale count
            self.urgent_seats += seats
        except Exception:
            log.exception("filling %s at once failed; the next pass tries again", room.get("match_id"))
        finally:
            self._filling.pop(str(room["match_id"]), None)

    async def _waiting(self, extra: dict[str, str]) -> list[dict[str, Any]]:
        response = await self._http.get("/api/matches", params={"status": "waiting", "sort": "oldest",
                                                                  "limit": 100, **extra})
        response.raise_for_status()
        rooms: list[dict[str, Any]] = response.json()["matches"]
        return rooms

    async def _fill_room(self, room: dict[str, Any], *, grow: bool = False) -> int:
        """Seat idle bots in one room: at most `max_per_persona` of each persona, and — unless
        `partial` — only when they can take every open seat (a seated bot cannot leave a waiting room). With
        `grow`, a persona without an idle agent gets a new one while the pool allows."""
        match_id = str(room["match_id"])
        lineup = self._lineup(room, grow=grow)
        if not lineup or (not self.partial and len(lineup) < int(room["seats_open"])):
            self._release(lineup)
            return 0
        for agent in lineup:
            agent.match_id = match_id  # reserved: no other room's lineup takes it meanwhile
        self._top_up()
        if not await self._register_new([a for a in lineup if not a.key]):
            self._release(lineup)
            return 0
        outcomes = await asyncio.gather(*(self._join(agent, match_id) for agent in lineup))
        for agent, outcome in zip(lineup, outcomes, strict=True):
            if outcome != "joined" and agent.handle not in self._players:
                agent.match_id = None
        return sum(outcome == "joined" for outcome in outcomes)

    def _short(self) -> None:
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

    def _top_up(self) -> None:
        """In the background, register agents until every persona has the reserve's idle ones (within
        `pool_max`), so the next burst of rooms does not wait for registrations."""
        if self.reserve <= 0 or (self._topping_up is not None and not self._topping_up.done()):
            return
        fresh = self._reserve_batch()
        if fresh:
            self._topping_up = asyncio.create_task(self._register_reserve(fresh), name="wodi-bot-reserve")

    def _reserve_batch(self) -> list[BotAgent]:
        """The pool's next agents, for every persona short of the reserve, held (not idle) until registered."""
        fresh: list[BotAgent] = []
        wanted = self._reserve_now()
        for persona in PERSONAS:
            idle = sum(a.persona is persona and a.idle for a in self.agents)
            for _ in range(wanted - idle):
                agent = self._grow(persona)
                if agent is None:
                    break
                agent.match_id = ""  # held while it registers: no lineup takes an agent without a key
                fresh.append(agent)
        return fresh

    async def _register_reserve(self, fresh: list[BotAgent]) -> None:
        """Register `fresh`, then whatever the reserve grew to meanwhile, until it is met."""
        while fresh:
            try:
                registered = await self._register_new(fresh)
            except Exception as exc:  # noqa: BLE001 - the reserve is a head start only; rooms register what they lack
                log.warning("lobby filler: registering the reserve failed: %s", exc)
                return
            finally:
                for agent in fresh:
                    agent.match_id = None
            fresh = self._reserve_batch() if registered else []

    def _release(self, lineup: list[BotAgent]) -> None:
        for agent in lineup:
            if agent.handle not in self._players:
                agent.match_id = None

    async def _register_new(self, fresh: list[BotAgent]) -> bool:
        """Register the pool's new agents (concurrently); False if any fails (a later lineup tries it again)."""
        if not fresh:
            return True
        results = await asyncio.gather(*(register_bot(self._http, self.official_key, a.handle, a.display_name,
                                                      a.persona) for a in fresh), return_exceptions=True)
        failed = False
        for agent, result in zip(fresh, results, strict=True):
            if isinstance(result, BaseException):
                log.warning("registering %s failed: %s", agent.handle, result)
                failed = True
            else:
                agent.key = result
                self.grown += 1
        if any(isinstance(r, RegistrationRefused) for r in results):
            raise next(r for r in results if isinstance(r, RegistrationRefused))
        return not failed

    def _lineup(self, room: dict[str, Any], *, grow: bool = False) -> list[BotAgent]:
        """The idle bots that would take the room's open seats, personas in random order (with `grow`, the
        personas with the most free agents first, so the pool is used evenly and grows only when it must)."""
        seated = _personas_seated(room)
        order = list(PERSONAS) * self.max_per_persona
        self.rng.shuffle(order)
        if grow:
            order.sort(key=lambda p: -self._spare(p))
        lineup: list[BotAgent] = []
        short = False
        for persona in order:
            if len(lineup) >= int(room["seats_open"]):
                break
            if seated.get(persona.slug, 0) >= self.max_per_persona:
                continue
            # An idle agent, else one of the pool's agents not registered yet (its registration failed before).
            agent = next((a for a in self.agents if a.persona is persona and a.idle and a not in lineup), None) or (
                next((a for a in self.agents if a.persona is persona and not a.key and a.match_id is None
                      and a not in lineup), None) if grow else None)
            if agent is None and grow:
                short = True
                agent = self._grow(persona)
            if agent is not None:
                lineup.append(agent)
                seated[persona.slug] = seated.get(persona.slug, 0) + 1
        if short:
            self._short()
        return lineup

    def _spare(self, persona: Persona) -> int:
        mine = [a for a in self.agents if a.persona is persona]
        return sum(a.match_id is None for a in mine) + self.pool_max - len(mine)

    def _grow(self, persona: Persona) -> BotAgent | None:
        """The persona's next agent (not yet registered), or None when the persona's pool is full."""
        count = sum(a.persona is persona for a in self.agents)
        if count >= self.pool_max:
            return None
        agent = BotAgent(persona.handle(count + 1), persona.name_for(count + 1), persona)
        self.agents.append(agent)
        return agent

    async def _join(self, agent: BotAgent, match_id: str) -> str:
        response = await self._http.post(f"/api/matches/{match_id}/join", json={}, headers=_bearer(agent.key))
        if response.status_code == 200:
            seat = response.json().get("seat")
            self.joins += 1
            log.info("%s (%s) joined %s at seat %s", agent.handle, agent.display_name, match_id, seat)
            self._seat(agent, match_id)
            return "joined"
        code = error_code(response)
        if code in ROOM_GONE or response.status_code == 404:
            return "room_gone"
        if code == "already_in_match":
            detail = response.json().get("detail") or {}
            if detail.get("match_id"):
                self._seat(agent, str(detail["match_id"]))
            return "busy"
        if response.status_code == 401:
            agent.key = await register_bot(self._http, self.official_key, agent.handle, agent.display_name,
                                           agent.persona)
            return "retry"
        self.stats.errors[code] += 1
        log.warning("%s: join %s refused: %s", agent.handle, match_id, code)
        return "refused"

    def _seat(self, agent: BotAgent, match_id: str) -> None:
        agent.match_id = match_id
        self._players[agent.handle] = asyncio.create_task(self._play(agent, match_id),
                                                          name=f"wodi-bot-{agent.handle}")

    async def _play(self, agent: BotAgent, match_id: str) -> None:
        player = MatchPlayer(self._http, agent.key, match_id, agent.persona, llm=self.llm, stats=self.stats,
                             rng=random.Random(self.rng.random()), think=self.think,
                             wait=self.poll_wait, name=agent.handle)
        try:
            final = await player.run()
            self.stats.games += 1
            log.info("%s finished %s: %s", agent.handle, match_id, _outcome(final, player.seat))
        except BotKeyRejected as exc:
            log.warning("%s: key rejected (%s); re-registering", agent.handle, exc)
            with contextlib.suppress(Exception):
                agent.key = await register_bot(self._http, self.official_key, agent.handle, agent.display_name,
                                               agent.persona)
        except Exception:
            log.exception("%s: play loop for %s failed", agent.handle, match_id)
        finally:
            agent.match_id = None
            self._players.pop(agent.handle, None)

    @property
    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            raise RuntimeError("the lobby filler is not started")
        return self._client


def _personas_seated(room: dict[str, Any]) -> dict[str, int]:
    """Persona slug → how many official bots of that persona sit in the room."""
    counts: dict[str, int] = {}
    for player in room.get("players") or []:
        persona = persona_of_handle(str(player.get("name") or ""))
        if persona is not None:
            counts[persona.slug] = counts.get(persona.slug, 0) + 1
    return counts


def _outcome(final: dict[str, Any] | None, seat: int | None) -> str:
    if final is None:
        return "match gone"
    result = final.get("result") or {}
    if final.get("status") == "aborted":
        return f"aborted ({result.get('reason')})"
    won = seat in (result.get("winning_seats") or [])
    return f"{result.get('winner_camp')} camp won ({result.get('reason')}); seat {seat} {'won' if won else 'lost'}"


def _timestamp(value: str) -> float:
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}
