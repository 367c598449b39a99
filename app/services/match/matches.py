"""Match commands: create, join, act, concede, abort, timeouts. One writer per match (seam 4).

Each command runs in one transaction that locks the match row, applies the pure rules, appends the
events, bumps `version` and commits; only then are long-polls woken (and, through the notifier, the scheduler).
Every write to an existing match waits its turn in the match's queue (`shell.commands`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import decisions as decisions_repo
from app.db import matches as repo
from app.db import rows
from app.db.models import Agent, Match, Seat
from app.games.base import GameError
from app.games.installed import bot_seats
from app.protocol import registry, screening
from app.protocol.errors import ApiError
from app.protocol.registry import Game
from app.protocol.viewer import TERMINAL
from app.services.identity import clients, tokens
from app.services.match import decisions, effects, lobby, quick_end, takeover
from app.services.match.match_cache import MatchCache, seat_dict
from app.services.match.seating import Caller, Sitter, check_can_sit, check_room_takes, seat_of
from app.services.match.shell import Shell
from app.services.rating import ratings

log = logging.getLogger("wodi.matches")
Check = Callable[[AsyncSession, str], Awaitable[None]]  # (session, client digest) → raises to refuse
# (session, open seats, the names seated already) → who takes the open seats
Pick = Callable[[AsyncSession, int, list[str]], Awaitable[list[Sitter]]]
SEATS_FOR = ("all", "agents", "people")  # the room option of who may sit: people and agents, agents, people
RECENT_MATCHES = 20  # a deal avoids what any of its players drew in their last this many dealt matches


@dataclass
class Applied:
    """What a committed command produced, for the response."""

    match: Match
    game: Game
    state: Any
    seat: int | None
    events: list[dict[str, Any]]
    phase: str | None = None  # the phase right after this command (a batch may move on further)
    reply: dict[str, Any] | None = None  # a read-only command's answer (`registry.Replies`)


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def _game(name: str) -> Game:
    game = registry.get(name)
    if game is None:
        raise ApiError("invalid_config", f"unknown game {name!r}; known: {', '.join(registry.names())}",
                       field="game")
    return game


async def _store(shell: Shell, session: AsyncSession, match: Match, game: Game, state: Any,
                 events: list[dict[str, Any]], now: float, before: Any | None, *,
                 seats_changed: bool = False) -> tuple[Any, list[dict[str, Any]]]:
    """Let the bot move for any taken-over seat that is due, run the side effects (`effects`), write the row and
    the (stamped) events. Returns the state and events as stored (the bot's moves included). `seats_changed`: the
    transaction changed a taken seat (other processes must not keep their copy of the seats)."""
    stored = effects.Stored(shell, session, match, game, before, match.status, state, events, now,
                            seats_changed=seats_changed)
    if match.status not in TERMINAL:
        stored.state, moves = await takeover.drive(session, match, game, state, events, now, _stamped)
        stored.events = events + moves
    _update_row(match, game, stored.state, stored.events[-1]["seq"], now)
    await effects.run(stored)
    await repo.save(session, match, stored.events)
    return stored.state, stored.events


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


async def _published(shell: Shell, applied: Applied, new_seats: Sequence[tuple[Seat, _Sitting]] = ()) -> None:
    """After commit: write through to this process's cache, then wake long-polls and the scheduler."""
    if applied.events:
        shell.cache.committed(applied.match, applied.game, applied.state, applied.events,
                              [seat_dict(seat, sitting.official, sitting.human) for seat, sitting in new_seats])
        await shell.notifier.publish(applied.match.match_id, applied.events[-1]["seq"], applied.match.timer_due)


def _display_name(agent: Agent, player: Mapping[str, Any] | None) -> str:
    wanted = str((player or {}).get("display_name") or "").strip()[:128]
    return wanted or agent.display_name or agent.name


@dataclass
class _Sitting:
    """The seat a sitter takes: the agent (None for a guest), the machine name and the name shown."""

    agent: Agent | None
    name: str
    display_name: str
    client: str | None = None  # a guest's client digest

    @property
    def agent_id(self) -> str | None:
        return self.agent.agent_id if self.agent else None

    @property
    def official(self) -> bool:
        return bool(self.agent and self.agent.is_official)

    @property
    def human(self) -> bool:
        return bool(self.agent and self.agent.is_human)


def _guest_hosted_from(seats: Sequence[Seat], client: str) -> bool:
    """The room's host (seat 0) is a guest from this very client: friends around one table share an address (one
    Wi-Fi), so in a room a guest opened, guests from the host's address may take every seat. Anyone else's room
    takes one guest per client (squatting, issue 26)."""
    return any(seat.seat == 0 and seat.agent_id is None and seat.client == client for seat in seats)


async def _sitting(session: AsyncSession, shell: Shell, match_id: str | None, seats: list[Seat], sitter: Sitter,
                   body: Mapping[str, Any], seat_meta: dict[str, Any], seats_for: str) -> _Sitting:
    """Check that the sitter may sit here (the room's `seats_for`; an agent's one table and one owner's one seat; a
    client's one guest seat) and name the seat. A guest's machine name is drawn (`guest-` + 6 hex): the name they
    typed is only shown, so it can never pass for an agent's handle."""
    if sitter.agent_id is None:
        check_room_takes(seats_for, person=True, match_id=match_id)
        client = clients.digest(shell.settings.secret_key, sitter.client)
        if any(seat.client == client for seat in seats) and not _guest_hosted_from(seats, client):
            raise ApiError("guest_already_seated", "a guest from this client already sits in this room: one guest "
                           "seat per client (invite a friend to join from their own device, or log in)",
                           match_id=match_id)
        return _Sitting(None, f"guest-{secrets.token_hex(3)}", str(sitter.guest_name), client)
    agent = await _locked_agent(session, sitter.agent_id)
    check_room_takes(seats_for, person=agent.is_human, match_id=match_id)
    await check_can_sit(session, match_id, seats, agent, seat_meta, shell.settings)
    return _Sitting(agent, agent.name, _display_name(agent, body.get("player")))


async def create(shell: Shell, sitter: Sitter, body: Mapping[str, Any], seat_meta: dict[str, Any], *,
                 fill_now: bool = False, check: Check | None = None, bots: Pick | None = None) -> tuple[Applied, str]:
    """Open a waiting room with the caller in seat 0; returns it and seat 0's play token. With `fill_now` the
    official bots are asked to take every other seat at once (the lobby wake-up is sent on commit) and the room
    remembers the client that opened it (`quick_client`); `check(session, client)` runs first in the same
    transaction (the quick start's share of the pool). `bots(session, open_seats, seated_names)` names the agents
    that take the open seats in the same transaction, before the wake-up (the quick start's official bots: a full
    table is dealt before the room's creation is answered)."""
    game = _game(str(body.get("game") or registry.default_name()))
    config = game.parse_config(body.get("config"))
    seats_for = str(body.get("seats_for") or "all")
    if seats_for not in SEATS_FOR:
        raise ApiError("invalid_config", f"seats_for: one of {', '.join(SEATS_FOR)}", field="seats_for")
    now = shell.clock()
    token = tokens.new_secret(tokens.PLAY_TOKEN_PREFIX)
    client = clients.digest(shell.settings.secret_key, sitter.client)
    async with shell.db.writer() as session:
        if check is not None:
            await check(session, client)
        sitting = await _sitting(session, shell, None, [], sitter, body, seat_meta, seats_for)
        outcome = game.new_match(config, sitting.name, sitting.display_name, seed=secrets.randbits(64), now=now)
        match = Match(match_id=tokens.new_match_id(), game=game.name, config=game.config_to_json(config),
                      n_players=game.n_players(config), seats_taken=1, fill_now=fill_now,
                      quick_client=client if fill_now else None, seats_for=seats_for,
                      created_at=datetime.fromtimestamp(now, UTC))
        _update_row(match, game, outcome.state, outcome.events[-1]["seq"], now)
        await rows.insert_whole(session, match)  # first: its seats and events refer to it
        host = _seat(match.match_id, 0, sitting, token, seat_meta)
        await rows.insert_whole(session, host)
        events = _stamped(outcome.events)
        await repo.add_events(session, match.match_id, events, match.updated_at)
        state, taken = outcome.state, [(host, sitting)]
        more: list[dict[str, Any]] = []
        if bots is not None:  # stored as a batch of joins is (its wake-up staged with it)
            state, more, seated = await _seat_picked(session, shell, match, game, state, [host], bots, now)
            events, taken = events + more, taken + seated
        if not more:
            await shell.notifier.stage(session, match.match_id, events[-1]["seq"], match.timer_due)
        lobby_seq = lobby.next_seq(shell.notifier) if fill_now else 0
        if fill_now:
            await shell.notifier.stage(session, lobby.LOBBY, lobby_seq, None)
        applied = Applied(match, game, state, 0, events)
    await _published(shell, applied, taken)
    if fill_now:
        await shell.notifier.publish(lobby.LOBBY, lobby_seq)
    return applied, token


def _seat(match_id: str, seat: int, sitting: _Sitting, token: str, meta: dict[str, Any]) -> Seat:
    """A new seat with every column set, so it reads the same before and after it is written."""
    return Seat(match_id=match_id, seat=seat, agent_id=sitting.agent_id, name=sitting.name,
                display_name=sitting.display_name, play_token_hash=tokens.digest(token), meta=meta,
                joined_at=datetime.now(UTC), client=sitting.client, last_seen_at=None, timeouts_in_row=0,
                taken_over=False, acted=False, conceded=False)


async def _locked_agent(session: AsyncSession, agent_id: str) -> Agent:
    # Locking the agent row serialises one agent's create/join calls, so "one agent, one table" holds.
    agent = await agents_repo.by_id(session, agent_id, lock=True)
    if agent is None:
        raise ApiError("invalid_api_key", "unknown or rotated API key")
    return agent


@dataclass
class _Join:
    """One sitter's join, queued with whatever else joins the same match meanwhile."""

    shell: Shell
    sitter: Sitter
    body: Mapping[str, Any]
    seat_meta: dict[str, Any]
    token: str
    now: float


async def join(shell: Shell, match_id: str, sitter: Sitter, body: Mapping[str, Any],
               seat_meta: dict[str, Any]) -> tuple[Applied, str]:
    """Take the next free seat; the rules deal when the table fills. Joins that queue for the same match together
    (the bots filling a quick start) take their seats in one transaction (group commit, as votes do)."""
    job = _Join(shell, sitter, body, seat_meta, tokens.new_secret(tokens.PLAY_TOKEN_PREFIX), shell.clock())
    applied: Applied = await shell.commands.submit(match_id, job, _join_batch)
    return applied, job.token


async def _join_batch(match_id: str, joins: list[_Join]) -> list[Applied | Exception]:
    """One transaction: lock the match, seat each sitter in arrival order (a refused one alone changes nothing:
    its checks and the rules run before any write), store, commit, then publish once."""
    shell = joins[0].shell  # one queue per process: every join of a batch comes from the same one
    async with shell.db.writer() as session:
        match, game, state = await _locked_match(session, match_id, shell.cache)
        seats = await repo.seat_rows(session, match_id)
        state, events, results, taken = await _take_seats(session, shell, match, game, state, seats, joins)
    await _published(shell, Applied(match, game, state, None, events), taken)
    return results


async def _take_seats(session: AsyncSession, shell: Shell, match: Match, game: Game, state: Any, seats: list[Seat],
                      joins: Sequence[_Join]) -> tuple[Any, list[dict[str, Any]], list[Applied | Exception],
                                                       list[tuple[Seat, _Sitting]]]:
    """Seat each sitter of `joins` after `seats` (a refused one is its error in the results and changes nothing),
    then store what they changed: (the state and events as stored, each join's result, the seats taken)."""
    results: list[Applied | Exception] = []
    taken: list[tuple[Seat, _Sitting]] = []
    before, events = state, []
    for job in joins:
        try:
            sitting = await _sitting(session, shell, match.match_id, seats, job.sitter, job.body, job.seat_meta,
                                     match.seats_for or "all")
            outcome = game.apply(state, await _join_command(session, game, match, seats, sitting), now=job.now)
        except (ApiError, GameError) as refused:
            results.append(refused)
            continue
        state = outcome.state
        if isinstance(game, registry.RemembersContent):
            match.content = game.content_key(state)
        seat = _seat(match.match_id, len(seats), sitting, job.token, job.seat_meta)
        await rows.insert_whole(session, seat)
        seats.append(seat)
        taken.append((seat, sitting))
        mine = _stamped(outcome.events)
        events += mine
        results.append(Applied(match, game, state, seat.seat, mine))
    if events:
        match.seats_taken = len(seats)
        state, events = await _store(shell, session, match, game, state, events, joins[-1].now, before)
    return state, events, results, taken


async def _seat_picked(session: AsyncSession, shell: Shell, match: Match, game: Game, state: Any,
                       seats: list[Seat], pick: Pick, now: float) -> tuple[Any, list[dict[str, Any]],
                                                                           list[tuple[Seat, _Sitting]]]:
    """The agents `pick` names take the open seats after `seats` (`_take_seats`): (the state and events as stored,
    the seats taken); no events when it names none."""
    open_seats = match.n_players - len(seats)
    joins = [_Join(shell, bot, {}, {}, tokens.new_secret(tokens.PLAY_TOKEN_PREFIX), now)
             for bot in await pick(session, open_seats, [seat.name for seat in seats])]
    if not joins:
        return state, [], []
    state, events, _, taken = await _take_seats(session, shell, match, game, state, seats, joins)
    return state, events, taken


async def _join_command(session: AsyncSession, game: Game, match: Match, seats: list[Seat],
                        sitting: _Sitting) -> Any:
    """The join; the one that fills the table (and so deals) avoids what its players' recent deals drew."""
    if not isinstance(game, registry.RemembersContent) or len(seats) + 1 < match.n_players:
        return game.join(sitting.name, sitting.display_name)
    seated = [s.agent_id for s in seats if s.agent_id] + ([sitting.agent_id] if sitting.agent_id else [])
    recent = await repo.recent_content(session, seated, RECENT_MATCHES)
    return game.join_avoiding(sitting.name, sitting.display_name, recent)


async def _locked_match(session: AsyncSession, match_id: str, cache: MatchCache) -> tuple[Match, Game, Any]:
    """The match row, locked; its state from `cache` when that holds the row's version, else parsed."""
    match = await repo.get(session, match_id, lock=True)
    if match is None:
        raise ApiError("match_not_found", f"no match {match_id!r}")
    game = _game(match.game)
    state = cache.state_at(match_id, match.version)
    return match, game, game.state_from_json(match.state) if state is None else state


@dataclass
class _Command:
    shell: Shell
    caller: Caller
    build: Callable[[Game, int], Any]
    now: float
    expected_seq: int | None = None
    concedes: bool = False
    screen: screening.Screen = field(default_factory=screening.Screen)
    sent: dict[str, Any] | None = None  # the decision as recorded (`decisions`): the body, without `usage`
    usage: decisions.Usage | None = None


async def _seated_command(shell: Shell, match_id: str, caller: Caller, build: Callable[[Game, int], Any],
                          expected_seq: int | None = None, screen: screening.Screen | None = None,
                          sent: dict[str, Any] | None = None, usage: decisions.Usage | None = None, *,
                          concedes: bool = False) -> Applied:
    """A seated player's command, applied with whatever else arrived for this match meanwhile (group commit)."""
    command = _Command(shell, caller, build, shell.clock(), expected_seq, concedes=concedes,
                       screen=screen or screening.Screen(), sent=sent, usage=usage)
    result: Applied = await shell.commands.submit(match_id, command, _run_batch)
    return result


def _check_fresh(command: _Command, events_total: int) -> None:
    """`expected_seq`: the caller acts on the view it last saw; refuse if the match has moved on since."""
    if command.expected_seq is not None and events_total > command.expected_seq:
        raise ApiError("stale_state", f"the match has moved on to seq {events_total} since seq "
                       f"{command.expected_seq}; read it again and act on what is current",
                       events_total=events_total, expected_seq=command.expected_seq)


async def _run_batch(match_id: str, commands: list[_Command]) -> list[Applied | Exception]:
    """One transaction for a batch: lock, apply each command in arrival order, store, commit, then publish."""
    shell = commands[0].shell  # one queue per process: every command of a batch comes from the same one
    results: list[Applied | Exception] = []
    async with shell.db.writer() as session:
        match, game, state = await _locked_match(session, match_id, shell.cache)
        seats = shell.cache.seats(match_id, match.seats_taken) or [
            seat_dict(s, official=False) for s in await repo.seat_rows(session, match_id)]
        events: list[dict[str, Any]] = []
        due_before = takeover.DueBefore(game, state)  # asked only of the seats that act in this batch
        applied: list[int] = []
        moved: list[int] = []  # seats whose command moved the match (a concession aside): rating evidence
        conceded: list[int] = []
        before = state
        agents = {s["seat"]: s["agent_id"] for s in seats}
        recorded: list[dict[str, Any]] = []  # the batch's decisions, written with one statement
        for command in commands:
            seat: int | None = None
            at_seq = events[-1]["seq"] if events else match.events_total
            try:
                seat = seat_of(seats, command.caller)
                built = command.build(game, seat)
                # Per command: an earlier command of this batch may have moved the match on.
                _check_fresh(command, at_seq)
                outcome = game.apply(state, built, now=command.now)
                # The seam's text screen (app.protocol.screening): refuse in compete_mode, else flag the events.
                command.screen.settle(outcome.events, seat, compete_mode=screening.compete_mode(match.config))
            except (ApiError, GameError) as refused:  # refused alone: the rules left the state as it was
                if seat is not None:
                    refused.detail["allowed_actions"] = game.allowed_actions(state, seat)
                    if command.sent is not None:
                        recorded.append(decisions.record(
                            game, state, match_id=match_id, seat=seat, agent_id=agents.get(seat), by="agent",
                            outcome="refused", at_seq=at_seq, at=command.now, sent=command.sent,
                            reply=decisions.refusal(refused.code, refused.message), usage=command.usage,
                            due=due_before[seat]))
                results.append(refused)
                continue
            applied.append(seat)
            if built == game.concede(seat):
                conceded.append(seat)
            elif outcome.events:
                moved.append(seat)
            mine = _stamped(outcome.events)
            result = Applied(match, game, outcome.state, seat, mine, game.summary(outcome.state)["phase"],
                             registry.reply_of(outcome))
            if command.sent is not None:
                recorded.append(decisions.record(
                    game, state, match_id=match_id, seat=seat, agent_id=agents.get(seat), by="agent",
                    outcome="accepted", at_seq=at_seq, at=command.now, sent=command.sent,
                    reply=_reply(result), usage=command.usage, due=due_before[seat]))
            state = outcome.state
            events += mine
            results.append(result)
            if command.concedes and seat == quick_end.PERSON and quick_end.is_quick(match):
                state, ended = quick_end.end(game, state, "player_conceded", command.now)
                ended = _stamped(ended)
                events += ended
                # the answer says how the match stands after the same transaction ended it
                results[-1] = replace(result, state=state, events=mine + ended, phase=game.summary(state)["phase"])
        await decisions_repo.add(session, recorded)
        await takeover.acted(session, match, due_before, applied)
        await ratings.record_acts(session, match, moved)
        await repo.mark_conceded(session, match_id, conceded)
        if events:
            state, events = await _store(shell, session, match, game, state, events, commands[-1].now,
                                        before)
    try:
        await _published(shell, Applied(match, game, state, None, events))
    except Exception:  # committed: the callers' answers stand (a retry would apply the commands twice)
        log.exception("publishing match %s after commit failed; long-polls catch up on the next change", match_id)
        shell.cache.forget(match_id)
    return results


def _reply(applied: Applied) -> dict[str, Any]:
    """An accepted command's answer as the API renders it (recorded with the decision)."""
    seq = applied.events[0]["seq"] if applied.events else applied.match.events_total
    extra = applied.game.action_response(applied.state, applied.seat, applied.events)
    return {"accepted": True, "seq": seq, "phase": applied.phase or applied.match.phase, **extra,
            **(applied.reply or {})}


async def act(shell: Shell, match_id: str, caller: Caller, body: Mapping[str, Any]) -> Applied:
    """`POST /action`: any of the game's actions (`Game.actions`); refused with 409 `stale_state` if the body's
    `expected_seq` is older than the match. An optional `usage` (`decisions.Usage`) is recorded with the decision,
    never passed to the game."""
    action = {k: v for k, v in body.items() if k not in ("expected_seq", "usage")}
    expected = body.get("expected_seq")
    if expected is not None and (type(expected) is not int or expected < 0):
        raise ApiError("bad_request", "expected_seq must be a non-negative integer", field="expected_seq")
    usage = decisions.usage_of(body.get("usage"))
    return await _seated_command(shell, match_id, caller, lambda game, seat: game.parse_action(action, seat),
                                 expected, screening.screen_action(action), action, usage)


async def concede(shell: Shell, match_id: str, caller: Caller) -> Applied:
    return await _seated_command(shell, match_id, caller, lambda game, seat: game.concede(seat),
                                 sent={"type": "concede"}, concedes=True)


def _host_abort(game: Game, seat: int) -> Any:
    if seat != 0:
        raise ApiError("not_host", "only the host (seat 0) can abort")
    return game.abort("host_cancelled")


async def abort(shell: Shell, match_id: str, caller: Caller) -> Applied:
    """Host-only, waiting-only; an already aborted match answers 200 unchanged."""
    return await _seated_command(shell, match_id, caller, _host_abort)


async def fill(shell: Shell, match_id: str, caller: Caller,
               check: Callable[[AsyncSession, int], Awaitable[None]] | None = None,
               bots: Pick | None = None) -> Match:
    """The host (seat 0) of a waiting room calls in the official bots: the room is marked `fill_now` and the bot
    filler woken, so they take every open seat at once — when the room takes agents and leaves them no more seats
    than its game allows (`app.games.installed.bot_seats`, read from the room's config; else 409
    `seats_left_for_players`). `check(session, open_seats)` runs in the same transaction (the pool's capacity), and
    `bots(session, open_seats, seated_names)` names agents that take open seats in it (as `create`'s). A room
    already marked answers unchanged."""

    async def mark() -> Match:
        events: list[dict[str, Any]] = []
        taken: list[tuple[Seat, _Sitting]] = []
        async with shell.db.writer() as session:
            match, game, state = await _locked_match(session, match_id, shell.cache)
            rows_ = await repo.seat_rows(session, match_id)
            if seat_of([seat_dict(s, official=False) for s in rows_], caller) != 0:
                raise ApiError("not_host", "only the host (seat 0) can call in the bots")
            if match.status != "waiting":
                raise ApiError("match_not_waiting", f"the match is {match.status}, not waiting for players",
                               status=match.status)
            if match.fill_now:
                return match
            open_seats = match.n_players - match.seats_taken
            check_room_takes(match.seats_for or "all", person=False, match_id=match_id)
            cap = bot_seats(match.game, match.config or {})
            if cap is not None and open_seats > cap:
                raise ApiError("seats_left_for_players", f"{open_seats} seats are open and the bots take at most "
                               f"{cap} in this room: wait until {open_seats - cap} more players sit down",
                               seats_open=open_seats, bot_seats=cap)
            if check is not None:
                await check(session, open_seats)
            await repo.mark_fill_now(session, match_id)
            match.fill_now = True
            if bots is not None:
                state, events, taken = await _seat_picked(session, shell, match, game, state, rows_, bots,
                                                          shell.clock())
            seq = lobby.next_seq(shell.notifier)
            await shell.notifier.stage(session, lobby.LOBBY, seq, None)
        if events:
            await _published(shell, Applied(match, game, state, None, events), taken)
        await shell.notifier.publish(lobby.LOBBY, seq)
        return match

    result: Match = await shell.commands.alone(match_id, mark)
    return result


async def fire_timer(shell: Shell, match_id: str, token: int) -> bool:
    """Submit the Timeout command for a due deadline, in its turn in the match's queue (so a stream of commands
    cannot starve it); a stale token changes nothing. True when it changed the match."""
    now = shell.clock()

    async def fire() -> bool:
        async with shell.db.writer() as session:
            # SKIP LOCKED: if another process holds the match, the timer is handled there or on the next loop.
            match = await repo.get(session, match_id, lock=True, skip_locked=True)
            if match is None or match.timer_token != token:
                return False
            game = _game(match.game)
            before = game.state_from_json(match.state)
            outcome = game.apply(before, game.timeout(token), now=now)
            state, events = outcome.state, _stamped(outcome.events)
            if events:
                seats = await repo.seats(session, match_id)
                missed = takeover.timed_out_seats(game, before, state, [s.seat for s in seats])
                holders = {s.seat: s.agent_id for s in seats}
                await decisions_repo.add(session, [decisions.record(
                    game, before, match_id=match_id, seat=seat, agent_id=holders.get(seat), by="agent",
                    outcome="timeout", at_seq=match.events_total, at=now) for seat in missed])
                state, marks = await takeover.timed_out(session, match, game, missed, seats, state, now)
                if quick_end.idle(match, seats, shell.settings.quick_start_idle_turns):
                    state, ended = quick_end.end(game, state, "player_idle", now)
                    marks = marks + ended
                state, events = await _store(shell, session, match, game, state, events + _stamped(marks), now,
                                        before)
        await _published(shell, Applied(match, game, state, None, events))
        return bool(events)

    return await shell.commands.alone(match_id, fire)


async def janitor_abort(shell: Shell, match_id: str, idle_since: datetime) -> bool:
    """Abort a waiting room with no join since `idle_since` (reason `janitor_timeout`); re-checked under the lock."""
    now = shell.clock()

    async def abort_idle() -> bool:
        async with shell.db.writer() as session:
            match, game, state = await _locked_match(session, match_id, shell.cache)
            if match.status != "waiting" or match.updated_at >= idle_since:
                return False
            outcome = game.apply(state, game.abort("janitor_timeout"), now=now)
            state, events = await _store(shell, session, match, game, outcome.state, _stamped(outcome.events), now,
                                        state)
        await _published(shell, Applied(match, game, state, None, events))
        return True

    return await shell.commands.alone(match_id, abort_idle)


async def vacate(shell: Shell, match_id: str, agent_id: str) -> str | None:
    """The operator suspended the agent sitting in this match: its seat is taken over by the rule bot where the room
    has takeover (`config.takeover_after_timeouts`), else conceded; a waiting room is cleared as the janitor clears
    one. The seat's play token is revoked with it, so the agent cannot act or read its seat without its key either.
    Returns what was done ("taken_over", "conceded", "aborted"), or None when nothing was left to do (the
    match ended, or the seat is out already)."""
    now = shell.clock()

    async def leave() -> str | None:
        async with shell.db.writer() as session:
            match, game, state = await _locked_match(session, match_id, shell.cache)
            row = next((s for s in await repo.seats(session, match_id) if s.agent_id == agent_id), None)
            if row is None or match.status in TERMINAL:
                return None
            how, command = _vacating(match, game, row.seat)
            try:
                outcome = game.apply(state, command, now=now)
            except GameError:  # conceding a seat already out of the game: nothing to do
                return None
            if not outcome.events:
                return None
            row.taken_over = row.taken_over or how == "taken_over"
            row.play_token_hash = tokens.digest(secrets.token_hex(16))  # the seat's play token is refused from now
            state, events = await _store(shell, session, match, game, outcome.state, _stamped(outcome.events), now,
                                        state, seats_changed=True)
        shell.cache.forget(match_id)  # its seats hold the old token's digest
        await _published(shell, Applied(match, game, state, None, events))
        return how

    result: str | None = await shell.commands.alone(match_id, leave)
    return result


def _vacating(match: Match, game: Game, seat: int) -> tuple[str, Any]:
    if match.status == "waiting":
        return "aborted", game.abort("janitor_timeout")
    command = registry.takeover_command(game, seat) if takeover.threshold(match.config) is not None else None
    if command is not None and registry.brain(game.name) is not None:
        return "taken_over", command
    return "conceded", game.concede(seat)


async def end_away(shell: Shell, match_id: str, seen_before: datetime) -> bool:
    """End a running quick start whose person has not been seen since `seen_before` (reason `player_left`,
    `app.services.match.quick_end`); re-checked under the lock."""
    now = shell.clock()

    async def end() -> bool:
        async with shell.db.writer() as session:
            match, game, state = await _locked_match(session, match_id, shell.cache)
            if not quick_end.away(match, await repo.seats(session, match_id), seen_before):
                return False
            ended, stamped = quick_end.end(game, state, "player_left", now)
            if not stamped:
                return False
            ended, events = await _store(shell, session, match, game, ended, _stamped(stamped), now, state)
        await _published(shell, Applied(match, game, ended, None, events))
        return True

    return await shell.commands.alone(match_id, end)


async def record_rewrite(shell: Shell, match_id: str, proposal: Any) -> bool:
    """After the end: the game's checked version of `proposal` (`registry.Rewrites`), appended in the match's queue
    like any command (one writer). False when the game refuses it or there is nothing (left) to rewrite."""
    now = shell.clock()

    async def write() -> Applied | None:
        async with shell.db.writer() as session:
            match, game, state = await _locked_match(session, match_id, shell.cache)
            if not isinstance(game, registry.Rewrites) or game.rewrite_source(state) is None:
                return None
            try:
                outcome = game.rewrite(state, proposal, now=now)
            except GameError as refused:
                log.info("match %s: rewrite refused: %s", match_id, refused.message)
                return None
            state, events = await _store(shell, session, match, game, outcome.state, _stamped(outcome.events), now,
                                        state)
        applied = Applied(match, game, state, None, events)
        await _published(shell, applied)
        return applied

    return await shell.commands.alone(match_id, write) is not None
