"""Per-process cache of hot matches, and the one place that decides whether a cached match is current (`get`).

The log is append-only, so a stale entry is refreshed by reading only the events after the last cached
seq; the state JSON is parsed once per version, not once per request. Commands of this process write
through (`committed`), so the long-polls they wake need no database read at all.

Freshness: when this process is the only writer (SQLite, or a single-process server: `only_writer`) every
commit passes through `committed`, so an entry is current. Otherwise a read that must see the caller's own writes
checks the row's version first (one indexed single-row query), and a waiter woken for a seq the entry lacks
shares one reload with every other waiter woken for it. Another process's commit usually arrives with its content
(`carry` there, `carried` here), which brings an entry one version on before the waiters wake, so they read nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.database import Database
from app.db.models import Match, Seat
from app.encoding import dump_json, load_json
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import Game
from app.services.delivery.notifier import Notifier
from app.services.platform.metrics import MATCH_CACHE_HIT, MATCH_CACHE_MISS

log = logging.getLogger("wodi.cache")
RENDERS_PER_VERSION = 32  # enough for every seat, a few layers and the live `since` cursors
OWN_WRITE_WAIT = 0.25  # seconds; a batch publishes right after its commit, so this is a safety bound


@dataclass
class CachedMatch:
    match_id: str
    version: int
    game: Game
    state: Any
    row: dict[str, Any]
    seats: list[dict[str, Any]]
    events: list[dict[str, Any]] = field(default_factory=list)
    verified_at: float = field(default_factory=time.monotonic)  # last checked against the database (or written)
    _rendered: dict[Hashable, tuple[dict[str, Any], bytes]] = field(default_factory=dict)

    def rendered(self, key: Hashable, build: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bytes]:
        """A response body and its JSON, built once per (version, key): a hundred spectators cost one render."""
        hit = self._rendered.get(key)
        if hit is None:
            body = build()
            hit = (body, dump_json(body))
            if len(self._rendered) >= RENDERS_PER_VERSION:
                self._rendered.pop(next(iter(self._rendered)))
            self._rendered[key] = hit
        return hit


def _row(match: Match) -> dict[str, Any]:
    return {
        "match_id": match.match_id, "game": match.game, "status": match.status, "phase": match.phase,
        "config": match.config, "created_at": match.created_at, "n_players": match.n_players,
        "seats_taken": match.seats_taken, "events_total": match.events_total, "fill_now": bool(match.fill_now),
    }


CARRIED = ("status", "phase", "events_total", "seats_taken", "fill_now")  # the row's columns a command changes


def carry(match: Match, events: list[dict[str, Any]], *, seats_changed: bool = False) -> str:
    """A commit as another process's cache takes it (`MatchCache.carried`): the new version, then the changed
    columns, the state and the new events as JSON. Built while `match` holds what the transaction writes. Empty when
    a taken seat changed: the other processes then drop their copy (they keep a match's seats while their number
    stays, and would go on trusting a revoked play token)."""
    if seats_changed:
        return ""
    row = _row(match)
    changed = {"row": {name: row[name] for name in CARRIED}, "state": match.state, "events": events}
    return f"{match.version} {dump_json(changed).decode()}"


def seat_dict(seat: Seat, official: bool, human: bool = False) -> dict[str, Any]:
    """A seat as the cache keeps it; `official`: an official bot's, a reference seat's too; `human`: held by an
    owner's own player record (a guest has no agent, and is not official)."""
    return {"seat": seat.seat, "agent_id": seat.agent_id, "name": seat.name, "official": official,
            "human": human, "play_token_hash": seat.play_token_hash}


@dataclass
class _Early:
    """Carries of other processes' commits that came before this process's own commit just ahead of them was
    written through (its answer is a loop turn or two behind the database's)."""

    carries: list[tuple[int, str]]
    applied: asyncio.Future[None]


class MatchCache:
    """Least-recently-used cache of `CachedMatch`, bounded by `capacity` matches.

    `writing(match_id)`: this process has a write for the match queued or running (its write-through is near)."""

    def __init__(self, db: Database, notifier: Notifier, writing: Callable[[str], bool], *, only_writer: bool,
                 capacity: int = 2000) -> None:
        self.only_writer = only_writer
        self.capacity = capacity
        self._db, self._notifier, self._writing = db, notifier, writing
        self._entries: OrderedDict[str, CachedMatch] = OrderedDict()
        self._reloads: dict[str, asyncio.Future[CachedMatch]] = {}  # one shared reload per match at a time
        self._floor: dict[str, int] = {}  # versions below this were superseded by a commit of this process
        self._early: dict[str, _Early] = {}  # kept only beside an entry: settled whenever it moves on or goes

    async def get(self, match_id: str, *, at_least: int = 0, max_age: float = 0.0) -> CachedMatch:
        """The match, current enough for the caller, reading from the database only what the cache lacks.

        `at_least`: a wake-up announced this seq; an entry holding it will do, and if the entry lacks it, every
        waiter woken for it shares one reload. Otherwise an entry is served as it is when this process is the only
        writer, or when it was checked (or written through) less than `max_age` seconds ago; else the row's
        version is checked first. 404 `match_not_found` for an unknown match."""
        entry = self._entries.get(match_id)
        if entry is not None and entry.row["events_total"] >= at_least and (
                at_least or self.only_writer or time.monotonic() - entry.verified_at < max_age):
            self._entries.move_to_end(match_id)
            MATCH_CACHE_HIT.inc()
            return entry
        if at_least:
            early = self._early.get(match_id)
            if early is not None:  # our own write-through, then the carry of `at_least`: wait for them, not a read
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(OWN_WRITE_WAIT):  # not wait_for (a cancellation on 3.11)
                        await asyncio.shield(early.applied)
                entry = self._entries.get(match_id)
                if entry is not None and entry.row["events_total"] >= at_least:
                    MATCH_CACHE_HIT.inc()
                    return entry
            entry = await self._shared_reload(match_id)
            # A reload that started before `at_least` was committed may not hold it; then read once more.
            return entry if entry.row["events_total"] >= at_least else await self._reload(match_id)
        return await self._checked(match_id)

    async def _checked(self, match_id: str) -> CachedMatch:
        async with self._db.reader() as session:
            version = await repo.version_of(session, match_id)
        if version is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        entry = self._at_version(match_id, version)
        if entry is None and self._writing(match_id):
            entry = await self._own_write_through(match_id, version)
        if entry is None:
            # Shared with every other read of the match under way (the seats of a table just dealt all ask at once),
            # so a carry arriving meanwhile is kept for it (`carried`); one that began before `version` was
            # committed may not hold it, and then the match is read once more.
            entry = await self._shared_reload(match_id)
            return entry if entry.version >= version else await self._reload(match_id)
        MATCH_CACHE_HIT.inc()
        return entry

    def state_at(self, match_id: str, version: int) -> Any | None:
        """The rules' state of `version` if the cache holds that version (a command then skips parsing the row's
        JSON). Shared, never changed: the rules copy a state before they change it."""
        entry = self._entries.get(match_id)
        return entry.state if entry is not None and entry.version == version else None

    def _at_version(self, match_id: str, version: int) -> CachedMatch | None:
        entry = self._entries.get(match_id)
        if entry is None or entry.version != version:
            return None
        entry.verified_at = time.monotonic()
        self._entries.move_to_end(match_id)
        return entry

    async def _own_write_through(self, match_id: str, version: int) -> CachedMatch | None:
        """This process just committed `version` and is about to write it through (the commit's answer and the
        write-through are one loop turn apart): wait for that instead of reading the whole match again."""
        entry = self._entries.get(match_id)
        if entry is None or entry.version != version - 1:
            return None
        await self._notifier.wait(match_id, entry.row["events_total"], OWN_WRITE_WAIT)
        return self._at_version(match_id, version)

    async def _shared_reload(self, match_id: str) -> CachedMatch:
        loading = self._reloads.get(match_id)
        if loading is None:
            loading = asyncio.ensure_future(self._reload(match_id))
            self._reloads[match_id] = loading
            loading.add_done_callback(lambda _done: self._reloaded(match_id))
        return await asyncio.shield(loading)

    def _reloaded(self, match_id: str) -> None:
        """A shared read is over: carries kept for it that did not follow what it read (or it failed) are settled,
        so no waiter holds for them."""
        self._reloads.pop(match_id, None)
        if match_id in self._early and not self._writing(match_id):
            self._settle_early(match_id)

    async def _reload(self, match_id: str) -> CachedMatch:
        """The match as the database has it now, reusing what is cached (only newer events are read)."""
        async with self._db.reader() as session:
            match = await repo.get(session, match_id)
            if match is None:
                raise ApiError("match_not_found", f"no match {match_id!r}")
            game = registry.get(match.game)
            if game is None:
                raise ApiError("match_not_found", f"match {match_id!r} is of an unknown game")
            entry = self._entries.get(match_id)
            if entry is not None and entry.version == match.version:
                MATCH_CACHE_HIT.inc()
                return self._at_version(match_id, match.version) or entry
            MATCH_CACHE_MISS.inc()
            if entry is not None and entry.version > match.version:
                entry = None
            events = entry.events if entry else []
            after = events[-1]["seq"] if events else 0
            events = events + await repo.events_after(session, match_id, after, match.events_total)
            if entry is not None and entry.row["seats_taken"] == match.seats_taken:
                seats = entry.seats
            else:
                seats = await self._seats(session, match_id)
        state = game.state_from_json(match.state)
        return self._put(CachedMatch(match_id, match.version, game, state, _row(match), seats, events))

    def forget(self, match_id: str) -> None:
        self._entries.pop(match_id, None)
        self._settle_early(match_id)

    def seats(self, match_id: str, seats_taken: int) -> list[dict[str, Any]] | None:
        """For a writer: the cached seats when the cache holds exactly `seats_taken` of them (a seat never changes
        once taken, so the count alone says the list is current)."""
        entry = self._entries.get(match_id)
        return entry.seats if entry is not None and entry.row["seats_taken"] == seats_taken else None

    def committed(self, match: Match, game: Game, state: Any, events: list[dict[str, Any]],
                  new_seats: Sequence[dict[str, Any]] = ()) -> None:
        """Write-through after a commit of this process: extend the entry (with the seats the joins took), start
        one for a match just created, or drop the entry if it is not the parent of this version."""
        entry = self._entries.get(match.match_id)
        if entry is None:
            if match.version == 1 and new_seats:  # created here: we hold the whole match
                self._put(CachedMatch(match.match_id, 1, game, state, _row(match), list(new_seats), list(events)))
            else:
                self._raise_floor(match.match_id, match.version)  # a load racing this commit must not cache older
        elif entry.version != match.version - 1 or len(entry.seats) + len(new_seats) != match.seats_taken:
            self.forget(match.match_id)
            self._raise_floor(match.match_id, match.version)
        else:
            seats = entry.seats + list(new_seats)
            self._put(CachedMatch(match.match_id, match.version, game, state, _row(match), seats,
                                  entry.events + events))

    def carried(self, match_id: str, text: str) -> None:
        """Another process committed `text` (`carry`): extend the entry if it holds exactly the version before, with
        the same seats. Keep the carry for later — a waiter it wakes holds for that at most `OWN_WRITE_WAIT` — when
        the version before is on its way: a read of the match is under way (the entry was dropped a moment ago, by
        a join's commit say, and the waiters of that commit are reading it back), or one version is missing and this
        process has a write for the match under way (likely the missing one, committed and still to be written
        through). Otherwise leave the entry, and the waiters this commit wakes read the match as they did before."""
        if not text:
            self.forget(match_id)
            return
        entry = self._entries.get(match_id)
        version = int(text.partition(" ")[0])
        if entry is not None and entry.version >= version:
            return
        if entry is not None and entry.version == version - 1:
            self._extend(entry, text)
        elif match_id in self._reloads or (
                entry is not None and entry.version == version - 2 and self._writing(match_id)):
            early = self._early.get(match_id)
            if early is None:
                early = self._early[match_id] = _Early([], asyncio.get_running_loop().create_future())
            early.carries.append((version, text))

    def _extend(self, entry: CachedMatch, text: str) -> CachedMatch | None:
        """`entry` moved on by one carried commit; None (and the entry as it was) when it cannot be."""
        try:
            changed = load_json(text.partition(" ")[2])
            if changed["row"]["seats_taken"] != entry.row["seats_taken"]:
                return None
            moved = CachedMatch(entry.match_id, entry.version + 1, entry.game,
                                entry.game.state_from_json(changed["state"]), {**entry.row, **changed["row"]},
                                entry.seats, entry.events + changed["events"])
        except Exception:  # a carry is a shortcut: without it the waiters read the database
            log.exception("ignoring the commit carried for match %s", entry.match_id)
            return None
        return self._put(moved)

    def _settle_early(self, match_id: str) -> None:
        """Once the entry moved on (this process's own write-through, say) or was dropped: apply the carries that
        came early, in order, while each follows the entry, and let the waiters holding for them go on."""
        early = self._early.pop(match_id, None)
        if early is None:
            return
        entry = self._entries.get(match_id)
        for version, text in sorted(early.carries):
            if entry is not None and entry.version == version - 1:
                entry = self._extend(entry, text)
        if not early.applied.done():
            early.applied.set_result(None)

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
            self._settle_early(self._entries.popitem(last=False)[0])
        if entry.match_id in self._early:
            self._settle_early(entry.match_id)
            return self._entries.get(entry.match_id, entry)
        return entry

    async def _seats(self, session: AsyncSession, match_id: str) -> list[dict[str, Any]]:
        rows = await repo.seat_rows(session, match_id)
        agents = await agents_repo.by_ids(session, [s.agent_id for s in rows if s.agent_id])
        return [seat_dict(s, s.is_reference or bool(s.agent_id and agents[s.agent_id].is_official),
                          bool(s.agent_id and agents[s.agent_id].is_human)) for s in rows]
