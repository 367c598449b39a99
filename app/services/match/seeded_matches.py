"""Matches the server seats itself, with a fixed deal (issue 30: benchmarks; issue 31: tournaments).

`open_seated` opens a match whose every seat is taken at once — agents' seats and reference seats, the latter
marked taken over at the deal so the game's rule brain plays them server-side (`takeover.drive`, in the same
transactions that move the match) — and lets the reference seats play until an agent must act. `store_played`
writes a match the reference played out in process (`app.bots.sim.play`) as a finished match, so
its result and log read like any other.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import matches as repo
from app.db.models import Agent, Match, Seat
from app.protocol import registry
from app.services.identity import tokens
from app.services.match.matches import Applied, _game, _published, _stamped, _store, _update_row
from app.services.match.shell import Shell

OnOpen = Callable[[AsyncSession, Match], Awaitable[None]]


@dataclass(frozen=True)
class SeatSpec:
    """Who takes a seat: an agent (`agent`), or a reference player (`persona`: the brain's persona slug; `dice`:
    what seeds its draws, so the same seat in the same position draws alike)."""

    name: str
    display_name: str
    agent: Agent | None = None
    persona: str | None = None
    dice: str | None = None


def _seat_row(match_id: str, seat: int, spec: SeatSpec, now: datetime) -> Seat:
    # The agent acts with its Bearer key; the play token nobody is shown only fills the unique column.
    return Seat(match_id=match_id, seat=seat, agent_id=spec.agent.agent_id if spec.agent else None, name=spec.name,
                display_name=spec.display_name, play_token_hash=tokens.digest(secrets.token_hex(16)),
                meta={"persona": spec.persona, "dice": spec.dice} if spec.persona else {}, joined_at=now,
                taken_over=bool(spec.persona))


def _dealt(game: registry.AnyGame, config: Any, seats: Sequence[SeatSpec], seed: int,
           now: float) -> tuple[Any, Any, list[dict[str, Any]]]:
    """(the waiting room, the state after the deal and the takeovers, every event)."""
    outcome = game.new_match(config, seats[0].name, seats[0].display_name, seed=seed, now=now)
    room, events = outcome.state, list(outcome.events)
    state = room
    for spec in seats[1:]:
        outcome = game.apply(state, game.join(spec.name, spec.display_name), now=now)
        state, events = outcome.state, events + outcome.events
    for seat, spec in enumerate(seats):
        command = registry.takeover_command(game, seat) if spec.persona else None
        if command is not None:
            outcome = game.apply(state, command, now=now)
            state, events = outcome.state, events + outcome.events
    return room, state, events


async def open_seated(shell: Shell, game_name: str, config_json: dict[str, Any], seed: int,
                      seats: Sequence[SeatSpec], on_open: OnOpen | None = None,
                      first: Callable[[AsyncSession], Awaitable[None]] | None = None) -> Applied:
    """Open and deal a match with `seats` taken in order (seat 0 first) and the deal of `seed`; the reference seats
    play until an agent must act. `first` runs in the same transaction before anything is written (its locks come
    before the seats' own), `on_open` once the match row exists."""
    async with shell.db.writer() as session:
        if first is not None:
            await first(session)
        applied = await open_in(shell, session, game_name, config_json, seed, seats, on_open)
    await published(shell, applied)
    return applied


async def open_in(shell: Shell, session: AsyncSession, game_name: str, config_json: dict[str, Any], seed: int,
                  seats: Sequence[SeatSpec], on_open: OnOpen | None = None) -> Applied:
    """`open_seated` inside the caller's transaction (several matches opened at once, e.g. a tournament's round);
    call `published` for each once it has committed."""
    game = _game(game_name)
    config = game.parse_config(config_json)
    now = shell.clock()
    at = datetime.fromtimestamp(now, UTC)
    room, state, raw_events = _dealt(game, config, seats, seed, now)
    events = _stamped(raw_events)
    match = Match(match_id=tokens.new_match_id(), game=game.name, config=game.config_to_json(config),
                  n_players=game.n_players(config), seats_taken=len(seats), created_at=at)
    _update_row(match, game, room, 0, now)  # a waiting room until `_store` writes the deal
    session.add(match)
    await session.flush()
    rows = [_seat_row(match.match_id, seat, spec, at) for seat, spec in enumerate(seats)]
    session.add_all(rows)
    await session.flush()
    if on_open is not None:
        await on_open(session, match)
    state, events = await _store(shell, session, match, game, state, events, now, None)
    return Applied(match, game, state, None, events)


async def published(shell: Shell, applied: Applied) -> None:
    """After the commit of `open_in`: this process's cache, long-polls and scheduler learn of the match."""
    await _published(shell, applied)


async def store_played(shell: Shell, game_name: str, config_json: dict[str, Any], seats: Sequence[SeatSpec],
                       state: Any, raw_events: Sequence[dict[str, Any]], on_open: OnOpen | None = None) -> Match:
    """Write a match played out in process (its final `state` and whole log, `ts` in seconds from its start) as a
    finished match that started now."""
    game = _game(game_name)
    config = game.parse_config(config_json)
    now = shell.clock()
    at = datetime.fromtimestamp(now, UTC)
    events = _stamped([{**e, "ts": now + float(e["ts"])} for e in raw_events])
    async with shell.db.writer() as session:
        match = Match(match_id=tokens.new_match_id(), game=game.name, config=game.config_to_json(config),
                      n_players=game.n_players(config), seats_taken=len(seats), created_at=at)
        _update_row(match, game, state, events[-1]["seq"], now + float(raw_events[-1]["ts"]))
        session.add(match)
        await session.flush()
        session.add_all([_seat_row(match.match_id, seat, spec, at) for seat, spec in enumerate(seats)])
        await session.flush()
        await repo.add_events(session, match.match_id, events, match.updated_at)
        if on_open is not None:
            await on_open(session, match)
    return match
