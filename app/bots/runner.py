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
from typing import Any

import httpx

from app.bots.llm import LLMBrain
from app.bots.personas import PERSONAS, Persona, persona_of_handle
from app.bots.player import BotKeyRejected, BotStats, MatchPlayer, error_code
from app.games.installed import BOT_SEATS, brains

log = logging.getLogger("app.bots")

FATAL_REGISTRATION = ("official_bot_disabled", "invalid_official_bot_key")
ROOM_GONE = ("match_full", "match_not_waiting", "match_not_found", "match_finished")


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
                 seed: int | None = None) -> None:
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
        self._client: httpx.AsyncClient | None = None
        self._task: asyncio.Task[None] | None = None
        self._players: dict[str, asyncio.Task[None]] = {}  # handle → play task
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
        limits = httpx.Limits(max_connections=len(self.agents) + 8, max_keepalive_connections=len(self.agents) + 8)
        self._client = httpx.AsyncClient(base_url=self.base_url, timeout=30.0, limits=limits)
        self._task = asyncio.create_task(self._run(), name="wodi-lobby-filler")
        log.info("lobby filler: started for %s (fill after %.1fs, %d bot agents%s)", self.base_url,
                 self.fill_after, len(self.agents), ", LLM brain on" if self.llm else "")

    async def stop(self) -> None:
        """Cancel the filler and every game task, then close the HTTP client(s)."""
        self._stopping.set()
        tasks = [t for t in [self._task, *self._players.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._registered = False
        self._players.clear()
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

    def busy(self) -> dict[str, str]:
        """Handle → match of every bot agent sitting at a table."""
        return {a.handle: a.match_id for a in self.agents if a.match_id}

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        backoff = 1.0
        while not self._stopping.is_set():
            try:
                if not self._registered:
                    await self._register_all()
                    await self._resume()
                    self._registered = True
                await self.fill_once()
                backoff = 1.0
                await self._pause(self.poll_interval)
            except RegistrationRefused as exc:
                log.error("lobby filler: %s; official bots stay off", exc)
                return
            except Exception as exc:  # noqa: BLE001 - the server may be starting, restarting or failing: retry
                log.warning("lobby filler: %s: %s; retrying in %.0fs", type(exc).__name__, exc, backoff)
                await self._pause(backoff)
                backoff = min(backoff * 2, 60.0)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._stopping.wait()

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

    async def fill_once(self) -> int:
        """One pass over the waiting rooms; returns how many seats bots took."""
        response = await self._http.get("/api/matches", params={"status": "waiting", "sort": "oldest",
                                                                  "limit": 100})
        response.raise_for_status()
        taken = 0
        now = time.time()
        playable = brains()
        for room in response.json()["matches"]:
            if now - _timestamp(room["created_at"]) < self.fill_after:
                break  # oldest first: every later room is younger still
            open_seats = int(room.get("seats_open", 0))
            game = room.get("game")
            if 0 < open_seats <= BOT_SEATS.get(str(game), open_seats) and game in playable:
                taken += await self._fill_room(room)
        return taken

    async def _fill_room(self, room: dict[str, Any]) -> int:
        """Seat idle bots in one room: at most `max_per_persona` of each persona, and — unless
        `partial` — only when they can take every open seat (a seated bot cannot leave a waiting room)."""
        lineup = self._lineup(room)
        if not lineup or (not self.partial and len(lineup) < int(room["seats_open"])):
            return 0
        taken = 0
        for agent in lineup:
            outcome = await self._join(agent, room["match_id"])
            if outcome == "room_gone":
                break
            taken += outcome == "joined"
        return taken

    def _lineup(self, room: dict[str, Any]) -> list[BotAgent]:
        """The idle bots that would take the room's open seats, personas in random order."""
        seated = _personas_seated(room)
        order = list(PERSONAS) * self.max_per_persona
        self.rng.shuffle(order)
        lineup: list[BotAgent] = []
        for persona in order:
            if len(lineup) >= int(room["seats_open"]):
                break
            if seated.get(persona.slug, 0) >= self.max_per_persona:
                continue
            agent = next((a for a in self.agents if a.persona is persona and a.idle and a not in lineup), None)
            if agent is not None:
                lineup.append(agent)
                seated[persona.slug] = seated.get(persona.slug, 0) + 1
        return lineup

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
