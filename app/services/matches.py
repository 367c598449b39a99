"""Match commands: create, join, act, concede, abort, timeouts. One writer per match (seam 4).

Each command runs in one transaction that locks the match row, applies the pure rules, appends the
events, bumps `version` and commits; only then are long-polls woken and the scheduler told.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.models import Agent, Match, Seat
from app.games.base import GameError
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import Game

if TYPE_CHECKING:
    from app.runtime import Runtime
from app.services import stats, tokens
from app.services.match_cache import seat_dict
from app.services.seating import Caller, check_can_sit, seat_of

TERMINAL = ("finished", "aborted")
HANDOVER_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # seconds between tries while a lone process is asked to step down
log = logging.getLogger("wodi.matches")
T = TypeVar("T")


@dataclass
class Applied:
    """What a committed command produced, for the response."""

    match: Match
    game: Game
    state: Any
    seat: int | None
    events: list[dict[str, Any]]
    phase: str | None = None  # the phase right after this command (a batch may move on further)


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def _game(name: str) -> Game:
    game = registry.get(name)
    if game is None:
        raise ApiError("invalid_config", f"unknown game {name!r}; known: {', '.join(registry.names())}",
                       field="game")
    return game


async def _store(runtime: Runtime, session: AsyncSession, match: Match, game: Game, state: Any,
                 events: list[dict[str, Any]], now: float) -> bool:
    """Write the new state, append the (stamped) events, stage the wake-up; True when this ended the match."""
    was_live = match.status not in TERMINAL
    _update_row(match, game, state, events[-1]["seq"], now)
    await repo.save(session, match)
    await repo.add_events(session, match.match_id, events, match.updated_at)
    await runtime.notifier.stage(session, match.match_id, events[-1]["seq"], match.timer_due)
    return was_live and match.status in TERMINAL


def _stamped(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules' events with `ts` as ISO-8601 UTC, as stored and served."""
    return [{**e, "ts": _iso(e["ts"])} for e in events]


def _update_row(match: Match, game: Game, state: Any, last_seq: int, now: float) -> None:
    summary = game.summary(state)
    timer = summary["timer"]
    at = datetime.fromtimestamp(now, UTC)
    match.state = game.state_to_json(state)
    match.version = (match.version or 0) + 1
    match.events_total = last_seq
    match.status, match.phase, match.result = summary["status"], summary["phase"], summary["result"]
    match.timer_due = timer["due"] if timer else None
    match.timer_kind = timer["kind"] if timer else None
    match.timer_token = timer["token"] if timer else None
    match.updated_at = at
    if match.status in TERMINAL and match.finished_at is None:
        match.finished_at = at


async def _published(runtime: Runtime, applied: Applied, new_seat: Seat | None = None,
                     official: bool = False, epoch: int | None = None) -> Applied:
    """After commit: write through to this process's cache, wake long-polls, tell the scheduler."""
    if applied.events:
        runtime.cache.committed(applied.match, applied.game, applied.state, applied.events,
                                seat_dict(new_seat, official) if new_seat is not None else None, epoch or 0)
        await runtime.notifier.publish(applied.match.match_id, applied.events[-1]["seq"], applied.match.timer_due)
        runtime.scheduler.poke(applied.match.timer_due)
    return applied


def _display_name(agent: Agent, player: Mapping[str, Any] | None) -> str:
    wanted = str((player or {}).get("display_name") or "").strip()[:128]
    return wanted or agent.display_name or agent.name


async def create(runtime: Runtime, agent_id: str, body: Mapping[str, Any], seat_meta: dict[str, Any]) -> tuple[
        Applied, str]:
    """Open a waiting room with the caller in seat 0; returns it and seat 0's play token."""
    game = _game(str(body.get("game") or ""))
    config = game.parse_config(body.get("config"))
    now = runtime.clock()
    token = tokens.new_secret(tokens.PLAY_TOKEN_PREFIX)
    epoch = runtime.notifier.sole_epoch  # if still current at write-through, nobody else saw the new match meanwhile
    async with runtime.db.writer() as session:
        agent = await _locked_agent(session, agent_id)
        await check_can_sit(session, None, [], agent, seat_meta, runtime.settings.base_url)
        display = _display_name(agent, body.get("player"))
        outcome = game.new_match(config, agent.name, display, seed=secrets.randbits(64), now=now)
        match = Match(match_id=tokens.new_match_id(), game=game.name, config=game.config_to_json(config),
                      n_players=game.n_players(config), seats_taken=1,
                      created_at=datetime.fromtimestamp(now, UTC))
        _update_row(match, game, outcome.state, outcome.events[-1]["seq"], now)
        session.add(match)
        await session.flush()  # no ORM relationships, so the match row must exist before its seats and events
        host = _seat(match.match_id, 0, agent, outcome.state, token, seat_meta)
        host.display_name = display
        session.add(host)
        events = _stamped(outcome.events)
        await repo.add_events(session, match.match_id, events, match.updated_at)
        await runtime.notifier.stage(session, match.match_id, events[-1]["seq"], match.timer_due)
        applied = Applied(match, game, outcome.state, 0, events)
    return await _published(runtime, applied, host, agent.is_official, epoch), token


def _seat(match_id: str, seat: int, agent: Agent, state: Any, token: str, meta: dict[str, Any]) -> Seat:
    return Seat(match_id=match_id, seat=seat, agent_id=agent.agent_id, name=agent.name,
                display_name=agent.display_name or agent.name, play_token_hash=tokens.digest(token),
                meta=meta, joined_at=datetime.now(UTC))


async def _locked_agent(session: AsyncSession, agent_id: str) -> Agent:
    # Locking the agent row serialises one agent's create/join calls, so "one agent, one table" holds.
    agent = await agents_repo.by_id(session, agent_id, lock=True)
    if agent is None:
        raise ApiError("invalid_api_key", "unknown or rotated API key")
    return agent


async def join(runtime: Runtime, match_id: str, agent_id: str, body: Mapping[str, Any],
               seat_meta: dict[str, Any]) -> tuple[Applied, str]:
    """Take the next free seat; the rules deal when the table fills."""
    now = runtime.clock()
    token = tokens.new_secret(tokens.PLAY_TOKEN_PREFIX)

    async def take_seat(session: AsyncSession) -> tuple[Applied, Seat, bool]:
        match, game, state = await _locked_match(runtime, session, match_id)
        seats = await repo.seats(session, match_id)
        agent = await _locked_agent(session, agent_id)
        await check_can_sit(session, match_id, seats, agent, seat_meta, runtime.settings.base_url)
        display = _display_name(agent, body.get("player"))
        outcome = game.apply(state, game.join(agent.name, display), now=now)
        seat = _seat(match_id, len(seats), agent, outcome.state, token, seat_meta)
        seat.display_name = display
        session.add(seat)
        match.seats_taken = len(seats) + 1
        events = _stamped(outcome.events)
        await _store(runtime, session, match, game, outcome.state, events, now)
        return Applied(match, game, outcome.state, seat.seat, events), seat, agent.is_official

    applied, seat, official = await _in_transaction(runtime, match_id, take_seat)
    return await _published(runtime, applied, seat, official), token


async def _in_transaction(runtime: Runtime, match_id: str, body: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run `body` as one write transaction for the match.

    On PostgreSQL the statement that locks the match also proves this process may write (`presence_check`, see
    `app/services/pg_notifier.py`). While another process is alone on the database (and serving its cache without
    checking it), that fails before anything is written: we ask it to step down and try again, and answer 503 if it
    has not within a second and a half (its LISTEN connection may be dead: PostgreSQL drops such a session, and its
    locks, within half a minute)."""
    for wait in (*HANDOVER_WAITS, None):
        try:
            async with runtime.db.writer(match_id) as session:
                return await body(session)
        except repo.HeldExclusively as refused:
            async with runtime.db.reader() as session:
                await runtime.notifier.ask_to_share(session, refused.check)
            if wait is None:
                break
            await asyncio.sleep(wait)
    log.warning("match %s: another server process is alone on the database and has not stepped down", match_id)
    raise ApiError("service_unavailable", "another server process is handing the database over; retry shortly",
                   headers={"Retry-After": "1"})


async def _locked_match(runtime: Runtime, session: AsyncSession, match_id: str) -> tuple[Match, Game, Any]:
    match = await repo.get(session, match_id, lock=True, presence=runtime.notifier.presence_check())
    if match is None:
        raise ApiError("match_not_found", f"no match {match_id!r}")
    game = _game(match.game)
    return match, game, game.state_from_json(match.state)


@dataclass
class _Command:
    caller: Caller
    build: Callable[[Game, int], Any]
    now: float


async def _seated_command(runtime: Runtime, match_id: str, caller: Caller,
                          build: Callable[[Game, int], Any]) -> Applied:
    """A seated player's command, applied with whatever else arrived for this match meanwhile (group commit)."""
    command = _Command(caller, build, runtime.clock())
    result: Applied = await runtime.commands.submit(match_id, command, partial(_run_batch, runtime))
    return result


async def _run_batch(runtime: Runtime, match_id: str, commands: list[_Command]) -> list[Applied | Exception]:
    """One transaction for a batch: lock, apply each command in arrival order, store, commit, then publish."""

    async def apply_all(session: AsyncSession) -> tuple[Applied, list[Applied | Exception]]:
        results: list[Applied | Exception] = []
        match, game, state = await _locked_match(runtime, session, match_id)
        seats = runtime.cache.seats_if(match_id, match.seats_taken) or [
            seat_dict(s, official=False) for s in await repo.seats(session, match_id)]
        events: list[dict[str, Any]] = []
        for command in commands:
            try:
                seat = seat_of(seats, command.caller)
                outcome = game.apply(state, command.build(game, seat), now=command.now)
            except (ApiError, GameError) as refused:  # refused alone: the rules left the state as it was
                results.append(refused)
                continue
            state = outcome.state
            mine = _stamped(outcome.events)
            events += mine
            results.append(Applied(match, game, state, seat, mine, game.summary(state)["phase"]))
        if events and await _store(runtime, session, match, game, state, events, commands[-1].now):
            await stats.record_end(session, match)
        return Applied(match, game, state, None, events), results

    batch, results = await _in_transaction(runtime, match_id, apply_all)
    try:
        await _published(runtime, batch)
    except Exception:  # committed: the callers' answers stand (a retry would apply the commands twice)
        log.exception("publishing match %s after commit failed; long-polls catch up on the next change", match_id)
        runtime.cache.forget(match_id)
    return results


async def act(runtime: Runtime, match_id: str, caller: Caller, body: Mapping[str, Any]) -> Applied:
    """`POST /action`: speak, vote, skip, whisper, last_words, guess_word."""
    return await _seated_command(runtime, match_id, caller, lambda game, seat: game.parse_action(body, seat))


async def concede(runtime: Runtime, match_id: str, caller: Caller) -> Applied:
    return await _seated_command(runtime, match_id, caller, lambda game, seat: game.concede(seat))


def _host_abort(game: Game, seat: int) -> Any:
    if seat != 0:
        raise ApiError("not_host", "only the host (seat 0) can abort")
    return game.abort("host_cancelled")


async def abort(runtime: Runtime, match_id: str, caller: Caller) -> Applied:
    """Host-only, waiting-only; an already aborted match answers 200 unchanged."""
    return await _seated_command(runtime, match_id, caller, _host_abort)


async def fire_timer(runtime: Runtime, match_id: str, token: int) -> bool:
    """Submit the Timeout command for a due deadline; a stale token changes nothing."""
    now = runtime.clock()

    async def fire(session: AsyncSession) -> Applied | None:
        # SKIP LOCKED: if another process (or a command) holds the match, it is handled there or next loop.
        match = await repo.get(session, match_id, lock=True, skip_locked=True,
                               presence=runtime.notifier.presence_check())
        if match is None or match.timer_token != token:
            return None
        game = _game(match.game)
        outcome = game.apply(game.state_from_json(match.state), game.timeout(token), now=now)
        events = _stamped(outcome.events)
        if events and await _store(runtime, session, match, game, outcome.state, events, now):
            await stats.record_end(session, match)
        return Applied(match, game, outcome.state, None, events)

    # Behind this process's own batches for the match (a fair lock, so a stream of commands cannot starve the
    # timer); SKIP LOCKED only passes over a row another process holds.
    applied = await _in_transaction(runtime, match_id, fire)
    if applied is None:
        return False
    await _published(runtime, applied)
    return bool(applied.events)


async def janitor_abort(runtime: Runtime, match_id: str, idle_since: datetime) -> bool:
    """Abort a waiting room with no join since `idle_since` (reason `janitor_timeout`); re-checked under the lock."""
    now = runtime.clock()

    async def abort_idle(session: AsyncSession) -> Applied | None:
        match, game, state = await _locked_match(runtime, session, match_id)
        if match.status != "waiting" or match.updated_at >= idle_since:
            return None
        outcome = game.apply(state, game.abort("janitor_timeout"), now=now)
        events = _stamped(outcome.events)
        if await _store(runtime, session, match, game, outcome.state, events, now):
            await stats.record_end(session, match)
        return Applied(match, game, outcome.state, None, events)

    applied = await _in_transaction(runtime, match_id, abort_idle)
    if applied is None:
        return False
    await _published(runtime, applied)
    return True
