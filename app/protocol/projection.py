"""One pure function per response: what a viewer sees of a match (ARCHITECTURE seam 7).

The four layers and the end-of-game upgrade live here and nowhere else. A `player_owner` gets exactly
what the `player_agent` of that seat gets, except `viewer_role` and `viewer_capabilities.can_act`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.protocol.registry import AnyGame, hidden_events
from app.protocol.viewer import Viewer, can_see, capabilities, is_god


@dataclass(frozen=True)
class MatchView:
    """What the projection needs besides the game state: identity of the match and its seats."""

    match_id: str
    game: str
    status: str
    phase: str
    config: dict[str, Any]
    created_at: str
    invite_url: str
    seats_open: int
    events_total: int
    official_seats: frozenset[int]
    guest_seats: frozenset[int] = frozenset()
    """Seats held by a guest (no agent: identity.md §3.2)."""
    human_seats: frozenset[int] = frozenset()
    """Seats held by an owner playing as themselves (a person with an account)."""
    live_god: bool = True
    """Whether a spectator gets the god view while the match is live (the protocol's default). Off for
    competitive matches (and for casual ones if the operator says so): spectators then see what anonymous viewers
    see until the end, when everyone gets the god view."""


def visible_events(game: AnyGame, state: Any, viewer: Viewer, status: str,
                   events: Sequence[dict[str, Any]], *, live_god: bool = True,
                   hidden: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The events of `events` this viewer may see, in log order; none of the `hidden` types (the room's
    `registry.hidden_events`), whoever the viewer."""
    if hidden:
        events = [e for e in events if e["type"] not in hidden]
    if is_god(viewer, status, live_god=live_god):
        return list(events)
    roles = game.role_set(state, viewer.seat) if viewer.seat is not None else frozenset()
    # A log holds a handful of distinct visibilities: decide each once, not once per event.
    admits = {v: can_see(v, god=False, seat=viewer.seat, roles=roles) for v in {e["visibility"] for e in events}}
    return [e for e in events if admits[e["visibility"]]]


def snapshot(game: AnyGame, view: MatchView, state: Any, viewer: Viewer,
             events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`GET /api/matches/{id}` for one viewer (spec §2.4)."""
    god = is_god(viewer, view.status, live_god=view.live_god)
    seen = visible_events(game, state, viewer, view.status, events, live_god=view.live_god,
                          hidden=hidden_events(game, view.config))
    players = game.players_view(state, god=god)
    for player in players:
        player["is_official"] = player["seat"] in view.official_seats
        player["is_guest"] = player["seat"] in view.guest_seats
        player["is_human"] = player["seat"] in view.human_seats
    body: dict[str, Any] = {
        "match_id": view.match_id,
        "game": view.game,
        "status": view.status,
        "phase": view.phase,
        "config": view.config,
        "viewer_role": viewer.role,
        "viewer_capabilities": capabilities(viewer, view.status, game.secret_fields, live_god=view.live_god),
        "players": players,
        **game.public_fields(state),
        "seats_open": view.seats_open,
        "public_log": [e for e in seen if e["visibility"] == "public"],
        "events_total": view.events_total,
        "invite_url": view.invite_url,
        "created_at": view.created_at,
    }
    if body.get("result"):
        body["result"] = {**body["result"], "replay_url": view.invite_url}
    if god:
        body.update(game.god_fields(state))
        body["spectator_log"] = [e for e in seen if e["visibility"] != "public"]
    if viewer.is_player and viewer.seat is not None:
        you = game.you_view(state, viewer.seat)
        you["private_log"] = [e for e in seen if e["visibility"] != "public"]
        body["you"] = you
    return body


def events_page(game: AnyGame, view: MatchView, state: Any, viewer: Viewer, since: int,
                events: Sequence[dict[str, Any]], limit: int = 100) -> dict[str, Any]:
    """`GET /api/matches/{id}/events` for one viewer: visible events after `since`, at most `limit`."""
    later = [e for e in events if e["seq"] > since]
    seen = visible_events(game, state, viewer, view.status, later, live_god=view.live_god,
                          hidden=hidden_events(game, view.config))[:limit]
    return {
        "match_id": view.match_id,
        "since": since,
        "next_since": seen[-1]["seq"] if seen else since,
        "events": seen,
        "phase": view.phase,
        "status": view.status,
        "viewer_role": viewer.role,
        "viewer_capabilities": capabilities(viewer, view.status, game.secret_fields, live_god=view.live_god),
    }
