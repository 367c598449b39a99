"""Per-process cache of hot matches, checked against the row's `version`.

The log is append-only, so a stale entry is refreshed by reading only the events after the last cached
seq; the state JSON is parsed once per version, not once per request. Commands of this process write
through (`committed`), so the long-polls they wake need no database read at all.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.models import Match, Seat
from app.protocol.registry import Game

RENDERS_PER_VERSION = 32  # enough for every seat, a few layers and the live `since` cursors


@dataclass
class CachedMatch:
    match_id: str
    version: int
    game: Game
    state: Any
    row: dict[str, Any]
    seats: list[dict[str, Any]]
    events: list[dict[str, Any]] = field(default_factory=list)
    verified_at: float = field(default_factory=time.monotonic)
    epoch: int = 0  # the notifier's `sole_epoch` in which this entry was known to be current (0: never)
    _rendered: dict[Hashable, tuple[dict[str, Any], bytes]] = field(default_factory=dict)

    def rendered(self, key: Hashable, build: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bytes]:
        """A response body and its JSON, built once per (version, key): a hundred spectators cost one render."""
        hit = self._rendered.get(key)
        if hit is None:
            body = build()
            hit = (body, json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode())
            if len(self._rendered) >= RENDERS_PER_VERSION:
                self._rendered.pop(next(iter(self._rendered)))
            self._rendered[key] = hit
        return hit


def _row(match: Match) -> dict[str, Any]:
    return {
        "match_id": match.match_id, "game": match.game, "status": match.status, "phase": match.phase,
        "config": match.config, "created_at": match.created_at, "n_players": match.n_players,
        "seats_taken": match.seats_taken, "events_total": match.events_total,
    }


def seat_dict(seat: Seat, official: bool) -> dict[str, Any]:
    return {"seat": seat.seat, "agent_id": seat.agent_id, "name": seat.name, "official": official,
            "play_token_hash": seat.play_token_hash}


class MatchCache:
    """Least-recently-used cache of `CachedMatch`, bounded by `capacity` matches."""

    def __init__(self, capacity: int = 2000) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, CachedMatch] = OrderedDict()
        self.inflight: dict[str, asyncio.Future[CachedMatch]] = {}  # one shared reload per match at a time
        self._floor: dict[str, int] = {}  # versions below this were superseded by a commit of this process

    async def load(self, session: AsyncSession, match: Match, game: Game) -> CachedMatch:
        """The match at `match.version`, reusing what is cached."""
        entry = self._entries.get(match.match_id)
        if entry is None or entry.version > match.version:
            entry = None
        if entry is not None and entry.version == match.version:
            self._entries.move_to_end(match.match_id)
            return entry
        state = game.state_from_json(match.state)
        events = entry.events if entry else []
        after = events[-1]["seq"] if events else 0
        events = events + await repo.events_after(session, match.match_id, after, match.events_total)
        if entry is not None and entry.row["seats_taken"] == match.seats_taken:
            seats = entry.seats
        else:
            seats = await self._seats(session, match.match_id)
        return self._put(CachedMatch(match.match_id, match.version, game, state, _row(match), seats, events))

    def at_version(self, match_id: str, version: int) -> CachedMatch | None:
        entry = self._entries.get(match_id)
        if entry is None or entry.version != version:
            return None
        entry.verified_at = time.monotonic()
        return entry

    def forget(self, match_id: str) -> None:
        self._entries.pop(match_id, None)

    def latest(self, match_id: str) -> CachedMatch | None:
        """The entry at whatever version it holds (not checked against the database)."""
        return self._entries.get(match_id)

    def recent(self, match_id: str, within: float) -> CachedMatch | None:
        """The entry if it was checked against the database (or written through) less than `within` s ago."""
        entry = self._entries.get(match_id)
        return entry if entry is not None and time.monotonic() - entry.verified_at < within else None

    def seats_if(self, match_id: str, seats_taken: int) -> list[dict[str, Any]] | None:
        """The cached seats when the cache holds exactly `seats_taken` of them (a seat never changes once taken,
        so the count alone says the list is current)."""
        entry = self._entries.get(match_id)
        return entry.seats if entry is not None and entry.row["seats_taken"] == seats_taken else None

    def fresh(self, match_id: str, seq: int) -> CachedMatch | None:
        """The cached match if it already holds event `seq` (a long-poll woken for `seq` needs nothing more)."""
        entry = self._entries.get(match_id)
        return entry if entry is not None and entry.row["events_total"] >= seq else None

    def committed(self, match: Match, game: Game, state: Any, events: list[dict[str, Any]],
                  new_seat: dict[str, Any] | None = None, epoch: int = 0) -> None:
        """Write-through after a commit of this process: extend the entry (with the seat a join took), start one
        for a match just created (current in `epoch`, the sole epoch its transaction began in), or drop the entry
        if it is not the parent of this version. An extended entry keeps its parent's epoch: our commit on top of
        a current parent is current."""
        entry = self._entries.get(match.match_id)
        if entry is None:
            if match.version == 1 and new_seat is not None:  # created here: we hold the whole match
                self._put(CachedMatch(match.match_id, 1, game, state, _row(match), [new_seat], list(events),
                                      epoch=epoch))
            else:
                self._raise_floor(match.match_id, match.version)  # a load racing this commit must not cache older
            return
        seats = entry.seats + [new_seat] if new_seat is not None else entry.seats
        if entry.version != match.version - 1 or len(seats) != match.seats_taken:
            del self._entries[match.match_id]
            self._raise_floor(match.match_id, match.version)
            return
        self._put(CachedMatch(match.match_id, match.version, game, state, _row(match), seats, entry.events + events,
                              epoch=entry.epoch))

    def _raise_floor(self, match_id: str, version: int) -> None:
        self._floor[match_id] = version
        if len(self._floor) > 10 * self.capacity:  # floors only matter while a load races a commit: keep the newest
            for stale in list(self._floor)[: len(self._floor) // 2]:
                del self._floor[stale]

    def _put(self, entry: CachedMatch) -> CachedMatch:
        current = self._entries.get(entry.match_id)
        if current is not None and current.version > entry.version:
            return current
        if entry.version < self._floor.get(entry.match_id, 0):
            return entry  # a load that began before our own commit: serve it once, never cache it
        self._floor.pop(entry.match_id, None)
        self._entries[entry.match_id] = entry
        self._entries.move_to_end(entry.match_id)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
        return entry

    async def _seats(self, session: AsyncSession, match_id: str) -> list[dict[str, Any]]:
        rows = await repo.seats(session, match_id)
        agents = await agents_repo.by_ids(session, [s.agent_id for s in rows if s.agent_id])
        return [seat_dict(s, bool(s.agent_id and agents[s.agent_id].is_official)) for s in rows]
