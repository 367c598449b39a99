"""Snapshot, events and listings, with long-poll. No database connection is held while waiting."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.db import matches as repo
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.viewer import TERMINAL, Viewer

if TYPE_CHECKING:
    from app.runtime import Runtime
from app.services.match_cache import CachedMatch
from app.services.notifier import RESYNC
from app.services.seating import Caller, token_seat, viewer_of

FRESH_FOR = 1.0
OWN_WRITE_WAIT = 0.25  # seconds; a batch publishes right after its commit, so this is a safety bound
WAIT_FOR = ("your_turn", "phase_changed", "match_finished", "opponent_joined", "any_change")


async def load(runtime: Runtime, match_id: str, behind: bool = False) -> CachedMatch:
    """The match as of now, from the per-process cache (checked against the row's version unless this process is
    the only writer). `behind`: a wake-up from another process said the cache lacks a newer seq, so the version
    check is skipped and the new part of the match is read at once."""
    epoch = runtime.notifier.sole_epoch
    if epoch is not None:
        # Every commit to this database is made by this process and written through its cache first, so an entry
        # checked since this process became alone is current (unless a wake-up announced something newer).
        cached = runtime.cache.latest(match_id)
        if (cached is not None and cached.epoch == epoch
                and cached.row["events_total"] >= runtime.notifier.latest(match_id)):
            return cached
    cached = await _checked(runtime, match_id, behind)
    if epoch is not None:
        cached.epoch = epoch  # checked against the database after `epoch` began: current while it lasts
    return cached


async def _checked(runtime: Runtime, match_id: str, behind: bool) -> CachedMatch:
    if not behind:
        async with runtime.db.reader() as session:
            version = await repo.version_of(session, match_id)
        if version is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        cached = runtime.cache.at_version(match_id, version)
        if cached is None and runtime.commands.busy(match_id):
            cached = await _own_write_through(runtime, match_id, version)
        if cached is not None:
            return cached
    async with runtime.db.reader() as session:
        match = await repo.get(session, match_id)
        if match is None:
            raise ApiError("match_not_found", f"no match {match_id!r}")
        game = registry.get(match.game)
        if game is None:
            raise ApiError("match_not_found", f"match {match_id!r} is of an unknown game")
        return await runtime.cache.load(session, match, game)


async def _own_write_through(runtime: Runtime, match_id: str, version: int) -> CachedMatch | None:
    """This process just committed `version` and is about to write it through (the commit's answer and the
    write-through are one loop turn apart): wait for that instead of reading the whole match again."""
    entry = runtime.cache.latest(match_id)
    if entry is None or entry.version != version - 1:
        return None
    await runtime.notifier.wait(match_id, entry.row["events_total"], OWN_WRITE_WAIT)
    return runtime.cache.at_version(match_id, version)


async def _load_at_least(runtime: Runtime, match_id: str, seq: int) -> CachedMatch:
    """After a wake-up for `seq`: the cache if it has it, else one shared reload for all woken waiters."""
    entry = runtime.cache.fresh(match_id, seq)
    if entry is not None:
        return entry
    inflight = runtime.cache.inflight
    loading = inflight.get(match_id)
    if loading is None:
        # This process's own commits are written through before they wake anyone, so a cache without `seq` is
        # behind another process's commit (unless the wake-up is a resync after a lost connection).
        loading = asyncio.ensure_future(load(runtime, match_id, behind=seq < RESYNC))
        inflight[match_id] = loading
        loading.add_done_callback(lambda _done: inflight.pop(match_id, None))
    entry = await asyncio.shield(loading)
    # A reload that started before `seq` was committed may not hold it; then read once more.
    return entry if entry.row["events_total"] >= seq or seq >= RESYNC else await load(runtime, match_id)


def match_view(runtime: Runtime, cached: CachedMatch) -> MatchView:
    row = cached.row
    return MatchView(
        match_id=cached.match_id, game=row["game"], status=row["status"], phase=row["phase"], config=row["config"],
        created_at=row["created_at"].isoformat(), invite_url=f"{runtime.settings.base_url}/match/{cached.match_id}",
        seats_open=row["n_players"] - row["seats_taken"], events_total=row["events_total"],
        official_seats=frozenset(s["seat"] for s in cached.seats if s["official"]),
    )


def resolve_viewer(cached: CachedMatch, caller: Caller) -> Viewer:
    """The caller's viewer layer in this match (the rule itself is `app.protocol.viewer.resolve`)."""
    seats = cached.seats
    return viewer_of(caller, {s["seat"]: s["agent_id"] for s in seats},
                     token_seat(caller, {s["seat"]: s["play_token_hash"] for s in seats}))


async def _poll(runtime: Runtime, match_id: str, start: CachedMatch, wait: float,
                ready: Callable[[CachedMatch], bool]) -> CachedMatch:
    """Re-read until `ready` holds, the match ends, or `wait` runs out; sleeps on the notifier only."""
    deadline = time.monotonic() + min(max(wait, 0.0), runtime.settings.longpoll_max_wait)
    cached = start
    while True:
        left = deadline - time.monotonic()
        if ready(cached) or cached.row["status"] in TERMINAL or left <= 0:
            return cached
        seq = await runtime.notifier.wait(match_id, cached.row["events_total"], left)
        if seq > cached.row["events_total"]:
            cached = await _load_at_least(runtime, match_id, seq)


async def read_snapshot(runtime: Runtime, match_id: str, caller: Caller, wait: float = 0,
                        wait_for: str | None = None) -> bytes:
    """`GET /api/matches/{id}` with optional `wait` / `wait_for` (identity.md §15.10), as JSON bytes."""
    if wait_for is not None and wait_for not in WAIT_FOR:
        raise ApiError("bad_request", f"wait_for must be one of {', '.join(WAIT_FOR)}", field="wait_for")
    first = await load(runtime, match_id)
    condition = _condition(wait_for or "any_change", first, resolve_viewer(first, caller))
    cached = await _poll(runtime, match_id, first, wait, condition) if wait > 0 else first
    return _snapshot(runtime, cached, caller)[1]


async def snapshot_body(runtime: Runtime, match_id: str, caller: Caller) -> dict[str, Any]:
    """The snapshot as a dict (for server-rendered pages); the same cached render as the API's."""
    return _snapshot(runtime, await load(runtime, match_id), caller)[0]


def _snapshot(runtime: Runtime, cached: CachedMatch, caller: Caller) -> tuple[dict[str, Any], bytes]:
    viewer = resolve_viewer(cached, caller)
    return cached.rendered(("snapshot", viewer), lambda: snapshot(
        cached.game, match_view(runtime, cached), cached.state, viewer, cached.events))


def _condition(wait_for: str, first: CachedMatch, viewer: Viewer) -> Callable[[CachedMatch], bool]:
    start_seq, start_phase = first.row["events_total"], first.row["phase"]
    if wait_for == "your_turn":
        if viewer.seat is None:
            return lambda _c: True
        seat = viewer.seat
        return lambda c: bool(c.game.you_view(c.state, seat)["your_turn"])
    if wait_for == "phase_changed":
        return lambda c: c.row["phase"] != start_phase
    if wait_for == "match_finished":
        return lambda c: c.row["status"] in TERMINAL
    if wait_for == "opponent_joined":
        return lambda c: c.row["status"] != "waiting"
    return lambda c: c.row["events_total"] > start_seq


async def read_events(runtime: Runtime, match_id: str, caller: Caller, since: int, wait: float) -> bytes:
    """`GET /api/matches/{id}/events`: returns as soon as an event this viewer may see exists after `since`."""

    def page(cached: CachedMatch) -> tuple[dict[str, Any], bytes]:
        viewer = resolve_viewer(cached, caller)
        return cached.rendered(("events", viewer, since), lambda: events_page(
            cached.game, match_view(runtime, cached), cached.state, viewer, since, cached.events))

    # A long-poll may start from a just-verified cache entry: if it is behind, the notifier already holds a newer
    # seq (or soon will) and the first wait returns at once. Plain polls (wait=0) always check the database.
    # Callers with credentials always check the database: a seat taken a moment ago must be recognised.
    crowd = wait > 0 and caller.agent is None and caller.play_token is None
    start = (runtime.cache.recent(match_id, FRESH_FOR) if crowd else None) or await load(runtime, match_id)
    cached = await _poll(runtime, match_id, start, wait, lambda c: bool(page(c)[0]["events"]))
    return page(cached)[1]
