"""Every query about matches, seats and events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, case, false, func, insert, not_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from app.db.models import Event, Match, Seat

LIVE = ("waiting", "in_progress")
# What room lists show of a match and of a seat: never the state JSON or a seat's (proxy) meta.
LISTED = load_only(Match.match_id, Match.game, Match.status, Match.phase, Match.n_players, Match.seats_taken,
                   Match.events_total, Match.created_at, Match.result, raiseload=True)
LISTED_SEAT = load_only(Seat.match_id, Seat.seat, Seat.agent_id, Seat.name, Seat.display_name, raiseload=True)


MATCHES = Match.__table__
EVENTS = Event.__table__
# What a command may change; `save` writes these back.
MUTABLE = ("state", "version", "events_total", "status", "phase", "result", "seats_taken", "timer_due", "timer_kind",
           "timer_token", "updated_at", "finished_at")


class HeldExclusively(Exception):  # a condition, not a failure of this code (the name needs no Error suffix)
    """The write may not go ahead: another server process is alone on the database (or this one no longer is)."""

    def __init__(self, check: PresenceCheck) -> None:
        super().__init__(check)
        self.check = check


@dataclass(frozen=True)
class PresenceCheck:
    """What a write transaction must prove in the statement that locks the match (PostgreSQL advisory locks).

    `shared`: a bigint key taken shared for the transaction; refused while another session holds it exclusively.
    `holder`: if set, checked after `shared`: the bigint key `holder` must be held exclusively by some session (this
    process's LISTEN session, which took it when it connected): that session is still alive.
    `generation`: the caller's own bookkeeping (which sole epoch the proof was made for); not sent."""

    shared: int
    holder: int | None = None
    generation: int = 0


def _proof(check: PresenceCheck) -> Any:
    taken = func.pg_try_advisory_xact_lock_shared(check.shared, type_=Boolean)
    if check.holder is None:
        return taken
    # Asking for the token lock *shared* fails only against an exclusive holder: the live LISTEN session. (Other
    # writes whose proof failed hold it shared until they roll back, and must not make the session look alive.)
    alive = not_(func.pg_try_advisory_xact_lock_shared(check.holder, type_=Boolean))
    return case((taken, alive), else_=false())  # CASE: the shared lock first, then the check


async def get(session: AsyncSession, match_id: str, *, lock: bool = False, skip_locked: bool = False,
              presence: PresenceCheck | None = None) -> Match | None:
    """The match row as a detached `Match`; with `lock`, held `FOR UPDATE` until the transaction ends (one
    writer per match). With `skip_locked`, a row another transaction holds reads as missing instead of waiting.
    With `presence` (PostgreSQL), the same statement proves it, or `HeldExclusively` is raised.

    Commands change the object in memory and write it back with `save`: plain Core statements on the hot path,
    since the ORM's identity map and unit of work cost more than the rules themselves."""
    query = select(MATCHES).where(MATCHES.c.match_id == match_id)
    if presence is not None:
        query = query.add_columns(_proof(presence).label("presence_proved"))
    if lock:
        query = query.with_for_update(skip_locked=skip_locked)
    row = (await session.execute(query)).mappings().first()
    if row is None:
        return None
    values = dict(row)
    if presence is not None and not values.pop("presence_proved"):
        raise HeldExclusively(presence)
    return Match(**values)


async def save(session: AsyncSession, match: Match) -> None:
    """Write back what a command changed (the row is locked by `get(lock=True)`)."""
    values = {column: getattr(match, column) for column in MUTABLE}
    await session.execute(update(MATCHES).where(MATCHES.c.match_id == match.match_id).values(values))


async def version_of(session: AsyncSession, match_id: str) -> int | None:
    """Just the row's version: enough to tell whether a cached copy is current."""
    query = select(MATCHES.c.version).where(MATCHES.c.match_id == match_id)
    return (await session.execute(query)).scalar_one_or_none()


async def seats(session: AsyncSession, match_id: str) -> list[Seat]:
    rows = await session.execute(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat))
    return list(rows.scalars())


async def events_after(session: AsyncSession, match_id: str, after_seq: int, upto_seq: int) -> list[dict[str, Any]]:
    """Events `after_seq < seq <= upto_seq`: bounded by the match row read, so state and log agree."""
    query = (
        select(Event.body)
        .where(Event.match_id == match_id, Event.seq > after_seq, Event.seq <= upto_seq)
        .order_by(Event.seq)
    )
    return [dict(body) for body in (await session.execute(query)).scalars()]


async def add_events(session: AsyncSession, match_id: str, events: Sequence[dict[str, Any]], at: datetime) -> None:
    rows = [{"match_id": match_id, "seq": e["seq"], "type": e["type"], "visibility": e["visibility"], "body": e,
             "created_at": at} for e in events]
    await session.execute(insert(EVENTS), rows)


async def live_seat_of(session: AsyncSession, agent_id: str) -> tuple[Match, Seat] | None:
    """The agent's newest waiting or in-progress match and its seat there."""
    query = (
        select(Match, Seat)
        .join(Seat, Seat.match_id == Match.match_id)
        .where(Seat.agent_id == agent_id, Match.status.in_(LIVE))
        .order_by(Match.created_at.desc())
        .limit(1)
    )
    row = (await session.execute(query)).first()
    return (row[0], row[1]) if row else None


async def listing(
    session: AsyncSession, *, status: str | None, newest_first: bool, agent_id: str | None, game: str | None,
    seats_open: int | None, limit: int,
) -> list[Match]:
    query = select(Match).options(LISTED)
    if status:
        query = query.where(Match.status == status)
    if game:
        query = query.where(Match.game == game)
    if seats_open is not None:
        query = query.where(Match.status == "waiting", Match.n_players - Match.seats_taken == seats_open)
    if agent_id:
        query = query.where(Match.match_id.in_(select(Seat.match_id).where(Seat.agent_id == agent_id)))
    order = Match.created_at.desc() if newest_first else Match.created_at.asc()
    return list((await session.execute(query.order_by(order, Match.match_id).limit(limit))).scalars())


async def matches_of_agents(session: AsyncSession, agent_ids: Sequence[str], limit: int) -> list[Match]:
    if not agent_ids:
        return []
    seated = select(Seat.match_id).where(Seat.agent_id.in_(agent_ids))
    query = (select(Match).options(LISTED).where(Match.match_id.in_(seated))
             .order_by(Match.created_at.desc()).limit(limit))
    return list((await session.execute(query)).scalars())


async def seats_of(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, list[Seat]]:
    result: dict[str, list[Seat]] = {m: [] for m in match_ids}
    if match_ids:
        rows = await session.execute(select(Seat).options(LISTED_SEAT).where(Seat.match_id.in_(match_ids))
                                     .order_by(Seat.seat))
        for seat in rows.scalars():
            result[seat.match_id].append(seat)
    return result


async def due_timers(session: AsyncSession, now: float, limit: int = 100) -> list[tuple[str, int]]:
    query = (
        select(Match.match_id, Match.timer_token)
        .where(Match.timer_due.is_not(None), Match.timer_due <= now)
        .order_by(Match.timer_due)
        .limit(limit)
    )
    return [(m, int(t or 0)) for m, t in (await session.execute(query)).all()]


async def next_due(session: AsyncSession) -> float | None:
    return (await session.execute(select(func.min(Match.timer_due)))).scalar_one_or_none()


async def stale_waiting(session: AsyncSession, before: datetime, limit: int = 100) -> list[str]:
    query = (
        select(Match.match_id)
        .where(Match.status == "waiting", Match.updated_at < before)
        .order_by(Match.updated_at)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())

