"""Snapshot, events and listings, with long-poll. No database connection is held while waiting."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from app.protocol.errors import ApiError
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.viewer import TERMINAL, Viewer
from app.services.delivery.notifier import RESYNC
from app.services.match import seen
from app.services.match.match_cache import CachedMatch
from app.services.match.seating import Caller, token_seat, viewer_of
from app.services.match.shell import Shell
from app.services.rating.ratings import competitive

FRESH_FOR = 1.0  # seconds: how old a checked entry an anonymous long-poll may start from
JITTER = 0.1  # a long-poll returns up to 10 % before its `wait` (the protocol allows any earlier, empty answer)
WAIT_FOR = ("your_turn", "phase_changed", "match_finished", "opponent_joined", "any_change")


def match_view(shell: Shell, cached: CachedMatch) -> MatchView:
    row = cached.row
    return MatchView(
        match_id=cached.match_id, game=row["game"], status=row["status"], phase=row["phase"], config=row["config"],
        created_at=row["created_at"].isoformat(), invite_url=shell.settings.match_url(cached.match_id),
        seats_open=row["n_players"] - row["seats_taken"], events_total=row["events_total"],
        official_seats=frozenset(s["seat"] for s in cached.seats if s["official"]),
        guest_seats=frozenset(s["seat"] for s in cached.seats if s["agent_id"] is None and not s["official"]),
        human_seats=frozenset(s["seat"] for s in cached.seats if s.get("human")),
        live_god=live_god(shell, row["config"]),
    )


def live_god(shell: Shell, config: dict[str, Any]) -> bool:
    """Whether a logged-in spectator gets the god view while the match runs: not in a competitive match, and in a
    casual one only when the operator leaves `WODI_CASUAL_SPECTATOR_GOD_VIEW=live` (the protocol's default)."""
    return not competitive(config) and shell.settings.casual_spectator_god_view == "live"


def resolve_viewer(cached: CachedMatch, caller: Caller) -> Viewer:
    """The caller's viewer layer in this match (the rule itself is `app.protocol.viewer.resolve`)."""
    seats = cached.seats
    return viewer_of(caller, {s["seat"]: s["agent_id"] for s in seats},
                     token_seat(caller, {s["seat"]: s["play_token_hash"] for s in seats}))


def longpoll_budget(wait: float, cap: float, draw: Callable[[], float] = random.random) -> float:
    """Seconds a long-poll may wait: `wait` capped, shortened by up to `JITTER` of itself, so that thousands of
    long-polls opened in one instant (a restart, a phase change) do not all expire in one instant again."""
    budget = min(max(wait, 0.0), cap)
    return budget * (1 - JITTER * draw())


async def _poll(shell: Shell, match_id: str, start: CachedMatch, wait: float,
                ready: Callable[[CachedMatch], bool]) -> CachedMatch:
    """Re-read until `ready` holds, the match ends, or `wait` runs out; sleeps on the notifier only."""
    deadline = time.monotonic() + longpoll_budget(wait, shell.settings.longpoll_max_wait)
    cached = start
    while True:
        left = deadline - time.monotonic()
        if ready(cached) or cached.row["status"] in TERMINAL or left <= 0 or shell.notifier.draining:
            return cached
        seq = await shell.notifier.wait(match_id, cached.row["events_total"], left)
        if seq > cached.row["events_total"]:
            # RESYNC: the listener was away and the seq is unknown; read the match as of now.
            cached = await shell.cache.get(match_id, at_least=0 if seq >= RESYNC else seq)


async def read_snapshot(shell: Shell, match_id: str, caller: Caller, wait: float = 0,
                        wait_for: str | None = None, since: int | None = None) -> bytes:
    """`GET /api/matches/{id}` with optional `wait` / `wait_for` (identity.md §15.10), as JSON bytes. With `since`
    (a snapshot's `events_total` the caller has read), `any_change` means an event after that one — at once if the
    match has moved since — rather than one after this request arrives."""
    if wait_for is not None and wait_for not in WAIT_FOR:
        raise ApiError("bad_request", f"wait_for must be one of {', '.join(WAIT_FOR)}", field="wait_for")
    first = await shell.cache.get(match_id)
    viewer = resolve_viewer(first, caller)
    await seen.seen(shell, first, viewer)
    condition = _condition(wait_for or "any_change", first, viewer, since)
    cached = await _poll(shell, match_id, first, wait, condition) if wait > 0 else first
    return _snapshot(shell, cached, caller)[1]


async def snapshot_body(shell: Shell, match_id: str, caller: Caller) -> dict[str, Any]:
    """The snapshot as a dict (for server-rendered pages); the same cached render as the API's."""
    return _snapshot(shell, await shell.cache.get(match_id), caller)[0]


def _snapshot(shell: Shell, cached: CachedMatch, caller: Caller) -> tuple[dict[str, Any], bytes]:
    viewer = resolve_viewer(cached, caller)
    return cached.rendered(("snapshot", viewer), lambda: snapshot(
        cached.game, match_view(shell, cached), cached.state, viewer, cached.events))


def _condition(wait_for: str, first: CachedMatch, viewer: Viewer, since: int | None = None) \
        -> Callable[[CachedMatch], bool]:
    start_seq = first.row["events_total"] if since is None else since
    start_phase = first.row["phase"]
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


async def read_events(shell: Shell, match_id: str, caller: Caller, since: int, wait: float) -> bytes:
    """`GET /api/matches/{id}/events`: returns as soon as an event this viewer may see exists after `since`."""

    def page(cached: CachedMatch) -> tuple[dict[str, Any], bytes]:
        viewer = resolve_viewer(cached, caller)
        return cached.rendered(("events", viewer, since), lambda: events_page(
            cached.game, match_view(shell, cached), cached.state, viewer, since, cached.events))

    # A long-poll may start from a just-verified cache entry: if it is behind, the notifier already holds a newer
    # seq (or soon will) and the first wait returns at once. Plain polls (wait=0) check the database (unless this
    # process is the only writer).
    # Callers with credentials always check the database: a seat taken a moment ago must be recognised.
    crowd = wait > 0 and caller.agent is None and caller.play_token is None
    start = await shell.cache.get(match_id, max_age=FRESH_FOR if crowd else 0.0)
    await seen.seen(shell, start, resolve_viewer(start, caller))
    cached = await _poll(shell, match_id, start, wait, lambda c: bool(page(c)[0]["events"]))
    return page(cached)[1]
