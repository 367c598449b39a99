"""Seats that never go dead (issue 19), and the reliability counters beside ratings.

Every timeout that moved a match counts, for each seat that was due to act, one turn and one timeout on its agent
(and one more in the seat's run of consecutive timeouts); a command a due seat sends counts one turn and ends the
run. With `config.takeover_after_timeouts: N`, the seat whose run reaches N is marked by the game
(`registry.TakesOver`) and, from then on, played by the game's registered rule bot inside the same transactions
that move the match: whenever it is due, the bots' seat loop (`app.bots.seat.turn`) picks its action and it is
applied as that seat's command.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.seat import seat_view, turn
from app.db import agents as agents_repo
from app.db import decisions as decisions_repo
from app.db import matches as repo
from app.db.models import Match, Seat
from app.games.base import GameError
from app.protocol import registry
from app.protocol.projection import MatchView
from app.protocol.registry import AnyGame
from app.protocol.turns import turn_of
from app.protocol.viewer import TERMINAL
from app.services.match import decisions, quick_end

log = logging.getLogger("wodi.takeover")
PERSONA = "yingyan"  # the data-driven persona of app.bots: the steadiest stand-in
MAX_BOT_MOVES = 64  # per command: more means a bot that keeps answering without moving the match on


def counts_runs(match: Match) -> bool:
    """Whether a seat's run of timeouts is kept: for takeover, and in a quick start (whose person's run ends it
    early: `app.services.match.quick_end`)."""
    return threshold(match.config) is not None or bool(match.fill_now)


def threshold(config: Mapping[str, Any]) -> int | None:
    """`config.takeover_after_timeouts` (None: takeover off, the protocol's flow unchanged)."""
    value = config.get("takeover_after_timeouts")
    return value if type(value) is int and value >= 1 else None


def due_seats(game: AnyGame, state: Any, seats: Sequence[int]) -> list[int]:
    """The seats that must act now (`app.protocol.turns`)."""
    return [seat for seat in seats if turn_of(game, state, seat) is not None]


class DueBefore(dict[int, bool]):
    """Seat → whether it had to act in `state` (the state a batch started from), worked out for a seat when first
    asked: a batch asks only of the seats that sent a command, not of every seat at the table."""

    def __init__(self, game: AnyGame, state: Any) -> None:
        super().__init__()
        self._game, self._state = game, state

    def __missing__(self, seat: int) -> bool:
        due = self[seat] = turn_of(self._game, self._state, seat) is not None
        return due


def _turns(game: AnyGame, state: Any, seats: Sequence[int]) -> dict[int, float | None]:
    """Each due seat → the deadline of its turn."""
    return {seat: turn.deadline for seat in seats if (turn := turn_of(game, state, seat)) is not None}


def timed_out_seats(game: AnyGame, before: Any, after: Any, seats: Sequence[int]) -> list[int]:
    """The seats a timeout cost their turn: due before it, and after it either not due or due for a new
    deadline (a warning leaves the turn and its deadline as they were)."""
    was, now = _turns(game, before, seats), _turns(game, after, seats)
    return [seat for seat, deadline in was.items() if seat not in now or now[seat] != deadline]


def taken_seats(game: AnyGame, state: Any) -> list[int]:
    """The seats the game marks `taken_over` (`TakesOver`'s contract)."""
    return [row["seat"] for row in game.players_view(state, god=False) if row.get("taken_over")]


async def acted(session: AsyncSession, match: Match, due_before: Mapping[int, bool], applied: Sequence[int]) -> None:
    """After a batch: a seat that acted while due ends its run of timeouts (where runs are counted). Its turn and any
    refusal are counted into the agent's record when the match ends (`stats.record_end`, from its decisions)."""
    ended = [s for s in applied if due_before[s]]
    if counts_runs(match) and ended:
        await session.execute(update(Seat).where(Seat.match_id == match.match_id, Seat.seat.in_(ended),
                                                 Seat.timeouts_in_row > 0).values(timeouts_in_row=0))


async def timed_out(session: AsyncSession, match: Match, game: AnyGame, due: Sequence[int], seats: Sequence[Seat],
                    state: Any, now: float) -> tuple[Any, list[dict[str, Any]]]:
    """After a timeout that moved the match: count it for every seat in `due` (`seats`: the match's seat rows);
    take over a seat whose run reached the threshold, and in a quick start every official bot's seat still in play
    as soon as one of them missed a turn (`stand_ins`). Returns the state and the game's events of the takeovers."""
    limit = threshold(match.config)
    rows = {s.seat: s for s in seats}
    taking: list[int] = []
    for seat in due:
        row = rows.get(seat)
        if row is None:
            continue
        if counts_runs(match):  # the run only matters (and is only reset) for takeover and quick starts
            row.timeouts_in_row += 1
        if row.agent_id:
            await agents_repo.add_stats(session, row.agent_id, turns=1, timeouts=1)
        if limit is not None and not row.taken_over and row.timeouts_in_row >= limit:
            taking.append(seat)
    taking += [seat for seat in await stand_ins(session, match, game, state, due, seats) if seat not in taking]
    events: list[dict[str, Any]] = []
    for seat in sorted(taking):
        command = registry.takeover_command(game, seat)
        if command is None or registry.brain(game.name) is None:
            log.warning("match %s: seat %s is to be taken over but game %s has no takeover or no brain",
                        match.match_id, seat, game.name)
            continue
        outcome = game.apply(state, command, now=now)
        state, events = outcome.state, events + outcome.events
        rows[seat].taken_over = bool(outcome.events)  # no event: the match ended in this timeout
    return state, events


async def stand_ins(session: AsyncSession, match: Match, game: AnyGame, state: Any, due: Sequence[int],
                    seats: Sequence[Seat]) -> list[int]:
    """In a quick start, the seats the server plays from now on because an official bot missed its turn: every
    official agent's seat not taken over yet and still in play (its `players` row not `alive: false`, or it owes a
    move all the same). None once the match has ended. The bots of a table are played by one process, so one missed
    turn means that process is not playing the table (stopped, or cut off from this server) and the person would
    otherwise wait out every bot's clock. `GET /api/bots/seats` no longer lists a taken-over seat; a bots' process
    still playing it finds it never due (`drive` moves for it in the transaction that makes it due)."""
    if (not quick_end.is_quick(match) or all(seat == quick_end.PERSON for seat in due)
            or game.summary(state)["status"] in TERMINAL):
        return []
    candidates = {s.agent_id: s.seat for s in seats if s.seat != quick_end.PERSON and s.agent_id and not s.taken_over}
    official = {agent_id for agent_id, agent in (await agents_repo.by_ids(session, list(candidates))).items()
                if agent.is_official}
    if not official & {s.agent_id for s in seats if s.seat in due}:
        return []  # the seat that missed its turn is not an official bot's (an agent that joined the room)
    out = {row["seat"] for row in game.players_view(state, god=False) if row.get("alive") is False}
    taken = sorted(seat for agent_id, seat in candidates.items() if agent_id in official
                   and (seat not in out or turn_of(game, state, seat) is not None))  # out, but still owing a move
    if taken:
        log.warning("match %s: a quick start's bot missed its turn; the server plays seats %s from now on",
                    match.match_id, taken)
    return taken


async def drive(session: AsyncSession, match: Match, game: AnyGame, state: Any, pending: list[dict[str, Any]],
                now: float, stamp: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> tuple[
                    Any, list[dict[str, Any]]]:
    """While a taken-over seat is due, apply the bot's move as that seat's command. `pending`: this transaction's
    stamped events so far (not yet stored). Returns the state and the bot moves' stamped events."""
    brain = registry.brain(game.name)
    if brain is None or game.summary(state)["status"] in TERMINAL:
        return state, []
    taken = taken_seats(game, state)
    if not taken:
        return state, []
    log_so_far = await repo.events_after(session, match.match_id, 0, match.events_total) + pending
    rows = await repo.seats(session, match.match_id)
    personas = {row.seat: str(row.meta.get("persona") or PERSONA) for row in rows}
    dice = {row.seat: str(row.meta.get("dice") or match.match_id) for row in rows}  # a seeded seat replays alike
    added: list[dict[str, Any]] = []
    for _ in range(MAX_BOT_MOVES):
        seat = next(iter(due_seats(game, state, taken)), None)
        if seat is None or game.summary(state)["status"] in TERMINAL:
            break
        events = log_so_far + added
        at_seq = events[-1]["seq"] if events else 0
        rng = random.Random(f"{dice.get(seat, match.match_id)}:{at_seq}:{seat}")
        body = turn(brain, seat_view(game, state, seat, events, _view(match, game, state, events)),
                    personas.get(seat, PERSONA), rng)
        try:
            if body is None:
                raise GameError("bad_request", "the bot had nothing to send")
            outcome = game.apply(state, game.parse_action(body, seat), now=now)
        except GameError as refused:
            log.warning("match %s: the bot playing seat %s was refused (%s); its clock runs on",
                        match.match_id, seat, refused.code)
            break
        stamped = stamp(outcome.events)
        await decisions_repo.add(session, [decisions.record(
            game, state, match_id=match.match_id, seat=seat, agent_id=None, by="bot", outcome="accepted",
            at_seq=at_seq, at=now, sent=body,
            reply={"accepted": True, "seq": stamped[0]["seq"] if stamped else at_seq})])
        state, added = outcome.state, added + stamped
    return state, added


def _view(match: Match, game: AnyGame, state: Any, events: Sequence[dict[str, Any]]) -> MatchView:
    summary = game.summary(state)
    return MatchView(match_id=match.match_id, game=match.game, status=summary["status"], phase=summary["phase"],
                     config=match.config, created_at=(match.created_at or datetime.now(UTC)).isoformat(),
                     invite_url="", seats_open=0, events_total=events[-1]["seq"] if events else 0,
                     official_seats=frozenset())
