"""The waiting rooms the official bots take seats in, and the line-up each room gets.

A room that has waited at least `fill_after` seconds (by its `created_at`) gets idle bots — at most
`max_per_persona` of each persona per room (more when the room has more seats than there are personas, so a room of
any size fills), each agent at one table at a time. By default bots only sit down when
they can take *every* open seat (a seated bot cannot leave a waiting room, so a half-filled 12-seat room would hold
them for the whole waiting-room TTL); `partial=True` lets them half-fill. A game may cap the seats bots take in one
room (the room list's `bot_seats`, from `app.games.installed.bot_seats`), so a room missing more waits for players.
Rooms marked `fill_now` (the quick start, or a host calling the bots in) are filled at once, whatever their age, all
of them concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from datetime import UTC, datetime
from typing import Any

from app.bots.personas import PERSONAS, persona_of_handle
from app.bots.player import BotStats, error_code
from app.bots.pool import BotAgent, Pool
from app.bots.seats import Seats, bearer
from app.games.installed import brains
from app.services.match.lobby import ROOMS_PER_PASS

log = logging.getLogger("app.bots")

ROOM_GONE = ("match_full", "match_not_waiting", "match_not_found", "match_finished")
REGISTERING_WAIT = 5.0  # seconds a room short of agents waits for the reserve's registrations before the next pass


class Lobby:
    """Fills waiting rooms from `pool`; the seated agents play through `seats`."""

    def __init__(self, pool: Pool, seats: Seats, stats: BotStats, rng: random.Random, *, fill_after: float,
                 max_per_persona: int = 1, partial: bool = False) -> None:
        self.pool = pool
        self.seats = seats
        self.stats = stats
        self.rng = rng
        self.fill_after = fill_after
        self.max_per_persona = max_per_persona
        self.partial = partial
        self.joins = 0
        self.urgent_seats = 0  # seats taken in rooms filled at once
        self.filling: dict[str, asyncio.Task[None]] = {}  # match → the task filling it at once

    async def fill_once(self, *, urgent_only: bool = False, urgent: list[dict[str, Any]] | None = None) -> int:
        """One pass over the waiting rooms: every room to fill at once (`urgent`, as a wake-up brought them, else
        listed here) gets a task of its own (started here, not awaited, so a room opened meanwhile never waits behind
        them), then — unless `urgent_only` — the rooms that have waited `fill_after` are filled in turn; returns how
        many seats bots took in the latter."""
        playable = brains()
        for room in urgent if urgent is not None else await self._waiting({"fill_now": "true"}):
            match_id = str(room["match_id"])
            if room.get("seats_open", 0) > 0 and room.get("game") in playable and match_id not in self.filling:
                self.filling[match_id] = asyncio.create_task(self._fill_urgent(room), name=f"wodi-fill-{match_id}")
        taken = 0
        now = time.time()
        for room in [] if urgent_only else await self._waiting({"fill_now": "false"}):
            if now - _timestamp(room["created_at"]) < self.fill_after:
                break  # oldest first: every later room is younger still
            open_seats = int(room.get("seats_open", 0))
            game = room.get("game")
            takes_agents = room.get("seats_for", "all") != "people"  # a people-only room is not the bots' to fill
            cap = room.get("bot_seats")
            if 0 < open_seats <= (open_seats if cap is None else int(cap)) and game in playable and takes_agents:
                taken += await self.fill_room(room, grow=True)
        return taken

    async def _fill_urgent(self, room: dict[str, Any]) -> None:
        try:
            seats = await self.fill_room(room, grow=True)  # not `+= await`: that would add to a stale count
            self.urgent_seats += seats
        except Exception:
            log.exception("filling %s at once failed; the next pass tries again", room.get("match_id"))
        finally:
            self.filling.pop(str(room["match_id"]), None)

    async def _waiting(self, extra: dict[str, str]) -> list[dict[str, Any]]:
        response = await self.pool.http.get("/api/matches", params={"status": "waiting", "sort": "oldest",
                                                                      "limit": ROOMS_PER_PASS, **extra})
        response.raise_for_status()
        rooms: list[dict[str, Any]] = response.json()["matches"]
        return rooms

    async def fill_room(self, room: dict[str, Any], *, grow: bool = False) -> int:
        """Seat idle bots in one room: at most `max_per_persona` of each persona, and — unless `partial` — only
        when they can take every open seat. With `grow`, a persona without an idle agent gets a new one while the
        pool allows."""
        match_id = str(room["match_id"])
        room = {**room, "seats_open": self._open(room)}
        if room["seats_open"] <= 0:
            return 0
        lineup = self.lineup(room, grow=grow)
        # Agents the reserve holds while it registers them are idle in a moment: a room short of them waits for
        # them, one by one as each registration is through, not for the next pass (`poll_interval` later; the last
        # rooms of a burst have no later wake-up).
        deadline = time.monotonic() + REGISTERING_WAIT
        while self._short(room, lineup) and self.pool.registering() and time.monotonic() < deadline:
            self.release(lineup)
            await self.pool.freed(deadline - time.monotonic())
            lineup = self.lineup(room, grow=grow, again=True)
        if self._short(room, lineup):
            self.release(lineup)
            return 0
        for agent in lineup:
            agent.match_id = match_id  # reserved: no other room's lineup takes it meanwhile
        self.pool.top_up()
        if not await self.pool.register_new([a for a in lineup if not a.key]):
            self.release(lineup)
            return 0
        outcomes = await asyncio.gather(*(self._join(agent, match_id) for agent in lineup))
        for agent, outcome in zip(lineup, outcomes, strict=True):
            if outcome != "joined" and not self.seats.seated(agent):
                agent.match_id = None
        return sum(outcome == "joined" for outcome in outcomes)

    def _short(self, room: dict[str, Any], lineup: list[BotAgent]) -> bool:
        """Too few for the room: none, or (unless `partial`) fewer than its open seats."""
        return not lineup or (not self.partial and len(lineup) < int(room["seats_open"]))

    def _open(self, room: dict[str, Any]) -> int:
        """The room's open seats as listed, less the seats this filler's agents took after the list was read (a
        wake-up's list can predate the joins of the room's own fill, which would send a second line-up to a full
        room)."""
        match_id = str(room["match_id"])
        listed = {str(player.get("name")) for player in room.get("players") or []}
        late = sum(at == match_id and handle not in listed for handle, at in self.seats.busy().items())
        return int(room.get("seats_open", 0)) - late

    def lineup(self, room: dict[str, Any], *, grow: bool = False, again: bool = False) -> list[BotAgent]:
        """The idle bots that would take the room's open seats, personas in random order (with `grow`, the
        personas with the most free agents first, so the pool is used evenly and grows only when it must). A room
        that finds a persona short tells the pool once (`again`: this room has already)."""
        seated = _personas_seated(room)
        # A room of any size fills: with more open seats than personas, each persona sends as many agents as it
        # takes (12 seats: two of each), never fewer than `max_per_persona`.
        cap = max(self.max_per_persona, -(-(int(room["seats_open"]) + sum(seated.values())) // len(PERSONAS)))
        order = list(PERSONAS) * cap
        self.rng.shuffle(order)
        if grow:
            order.sort(key=lambda p: -self.pool.spare(p))
        lineup: list[BotAgent] = []
        short = False
        for persona in order:
            if len(lineup) >= int(room["seats_open"]):
                break
            if seated.get(persona.slug, 0) >= cap:
                continue
            agent = self.pool.free_agent(persona, lineup, grow=grow)
            if agent is None and grow:
                short = True
                agent = self.pool.grow(persona)
            if agent is not None:
                lineup.append(agent)
                seated[persona.slug] = seated.get(persona.slug, 0) + 1
        if short and not again:
            self.pool.short()
        return lineup

    def release(self, lineup: list[BotAgent]) -> None:
        for agent in lineup:
            if not self.seats.seated(agent):
                agent.match_id = None

    async def _join(self, agent: BotAgent, match_id: str) -> str:
        response = await self.pool.http.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(agent.key))
        if response.status_code == 200:
            seat = response.json().get("seat")
            self.joins += 1
            log.info("%s (%s) joined %s at seat %s", agent.handle, agent.display_name, match_id, seat)
            self.seats.seat(agent, match_id)
            return "joined"
        code = error_code(response)
        if code in ROOM_GONE or response.status_code == 404:
            return "room_gone"
        if code == "already_in_match":
            detail = response.json().get("detail") or {}
            if detail.get("match_id"):
                self.seats.seat(agent, str(detail["match_id"]))
            return "busy"
        if response.status_code == 401:
            await self.pool.register(agent)
            return "retry"
        self.stats.errors[code] += 1
        log.warning("%s: join %s refused: %s", agent.handle, match_id, code)
        return "refused"

    def cancel(self) -> list[asyncio.Task[None]]:
        """Every task filling a room at once, cancelled (the caller awaits them)."""
        tasks = list(self.filling.values())
        for task in tasks:
            task.cancel()
        self.filling.clear()
        return tasks


def _personas_seated(room: dict[str, Any]) -> dict[str, int]:
    """Persona slug → how many official bots of that persona sit in the room."""
    counts: dict[str, int] = {}
    for player in room.get("players") or []:
        persona = persona_of_handle(str(player.get("name") or ""))
        if persona is not None:
            counts[persona.slug] = counts.get(persona.slug, 0) + 1
    return counts


def _timestamp(value: str) -> float:
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()
