"""Every query about matches, seats and events."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Table, and_, bindparam, func, insert, or_, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only, with_expression

from app.db import direct
from app.db.models import Agent, BenchmarkGame, Decision, Event, Match, Seat
from app.db.rows import as_read

LIVE = ("waiting", "in_progress")
CLIENT_LOCKS = 0x57_0D_C1  # advisory-lock space of one client's quick starts
# What room lists show of a match and of a seat: never the state JSON or a seat's (proxy) meta.
LISTED = load_only(Match.match_id, Match.game, Match.status, Match.phase, Match.n_players, Match.seats_taken,
                   Match.events_total, Match.created_at, Match.result, Match.fill_now, Match.seats_for, Match.showcase,
                   Match.config,
                   raiseload=True)
LISTED_SEAT = (load_only(Seat.match_id, Seat.seat, Seat.agent_id, Seat.name, Seat.display_name, raiseload=True),
               # whether the seat is a reference seat (`Seat.is_reference`), told by the database: `meta` is private
               with_expression(Seat.listed_reference, and_(
                   Seat.agent_id.is_(None), Seat.meta["persona"].as_string().is_not(None),
                   Seat.meta["dice"].as_string().is_not(None))))


MATCHES = cast(Table, Match.__table__)
EVENTS = cast(Table, Event.__table__)
SEATS = cast(Table, Seat.__table__)
# What a command may change; `save` writes these back.
MUTABLE = ("state", "version", "events_total", "status", "phase", "result", "seats_taken", "timer_due", "timer_kind",
           "timer_token", "updated_at", "finished_at", "rated", "content", "pairing")


def _direct_build(dialect: Dialect) -> direct.Statements:
    return direct.Statements(MATCHES, EVENTS, cast(Table, Decision.__table__), MUTABLE, dialect)


def direct_statements(session: AsyncSession) -> direct.Statements | None:
    """The command path's statements on the session's driver connection, or None (`app.db.direct`)."""
    return direct.statements(session, _direct_build)


async def get(session: AsyncSession, match_id: str, *, lock: bool = False, skip_locked: bool = False) -> Match | None:
    """The match row as a detached `Match`; with `lock`, held `FOR UPDATE` until the transaction ends (one
    writer per match). With `skip_locked`, a row another transaction holds reads as missing instead of waiting.

    Commands change the object in memory and write it back with `save`: plain Core statements on the hot path,
    since the ORM's identity map and unit of work cost more than the rules themselves."""
    fast = direct_statements(session) if lock else None
    if fast is not None and not fast.locks_by_read:  # SQLite: the transaction's BEGIN IMMEDIATE is the lock
        found = await fast.get(session, match_id)
        return None if found is None else as_read(Match, found)
    query = (_LOCKED_SKIPPING if skip_locked else _LOCKED) if lock else _ROW
    row = (await session.execute(query, {"match_id": match_id})).mappings().first()
    return None if row is None else as_read(Match, row)


# Built once: constructing a statement (and its cache key) cost more CPU than PostgreSQL took to run it.
_ROW = select(MATCHES).where(MATCHES.c.match_id == bindparam("match_id"))
_LOCKED = _ROW.with_for_update()
_LOCKED_SKIPPING = _ROW.with_for_update(skip_locked=True)
_VERSION = select(MATCHES.c.version).where(MATCHES.c.match_id == bindparam("match_id"))


async def save(session: AsyncSession, match: Match, events: Sequence[dict[str, Any]] = ()) -> None:
    """Write back what a command changed (the row is locked by `get(lock=True)`), and append its `events` (on
    PostgreSQL with the row's write, in one statement)."""
    values = {column: getattr(match, column) for column in MUTABLE}
    added = _event_rows(match.match_id, events, match.updated_at)
    fast = direct_statements(session)
    if fast is not None and await fast.save(session, match.match_id, values, added):
        return
    await session.execute(update(MATCHES).where(MATCHES.c.match_id == match.match_id).values(values))
    if added:
        await session.execute(insert(EVENTS), added)


async def mark_fill_now(session: AsyncSession, match_id: str) -> None:
    """The official bots are to take the room's open seats at once (a host called them in)."""
    await session.execute(update(MATCHES).where(MATCHES.c.match_id == match_id).values(fill_now=True))


async def version_of(session: AsyncSession, match_id: str) -> int | None:
    """Just the row's version: enough to tell whether a cached copy is current."""
    fast = direct_statements(session)
    if fast is not None and fast.locks_by_read:  # PostgreSQL; a SQLite reader runs on aiosqlite's threads anyway
        return await fast.version(session, match_id)
    return (await session.execute(_VERSION, {"match_id": match_id})).scalar_one_or_none()


async def seats(session: AsyncSession, match_id: str) -> list[Seat]:
    """A match's seats as the session's own objects: for a unit of work that changes them."""
    loaded = await session.execute(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat))
    return list(loaded.scalars())


_SEATS_OF = select(SEATS).where(SEATS.c.match_id == bindparam("match_id")).order_by(SEATS.c.seat)


async def seat_rows(session: AsyncSession, match_id: str) -> list[Seat]:
    """A match's seats to read, outside the session (changing one writes nothing): one Core statement built once,
    each row a `Seat` without the ORM's load (0.6 ms for six seats through `seats`)."""
    return [as_read(Seat, row) for row in (await session.execute(_SEATS_OF, {"match_id": match_id})).mappings()]


async def events_after(session: AsyncSession, match_id: str, after_seq: int, upto_seq: int) -> list[dict[str, Any]]:
    """Events `after_seq < seq <= upto_seq`: bounded by the match row read, so state and log agree."""
    query = (
        select(Event.body)
        .where(Event.match_id == match_id, Event.seq > after_seq, Event.seq <= upto_seq)
        .order_by(Event.seq)
    )
    return [dict(body) for body in (await session.execute(query)).scalars()]


def _event_rows(match_id: str, events: Sequence[dict[str, Any]], at: datetime) -> list[dict[str, Any]]:
    return [{"match_id": match_id, "seq": e["seq"], "type": e["type"], "visibility": e["visibility"], "body": e,
             "created_at": at} for e in events]


async def add_events(session: AsyncSession, match_id: str, events: Sequence[dict[str, Any]], at: datetime) -> None:
    rows = _event_rows(match_id, events, at)
    fast = direct_statements(session)
    if fast is not None and await fast.add_events(session, rows):
        return
    await session.execute(insert(EVENTS), rows)


class LiveSeat(NamedTuple):
    """Where an agent sits now: the match, its status and the seat."""

    match_id: str
    status: str
    seat: int


# Built once: a statement object caches its own cache key, so each call only binds the agent.
_LIVE_SEAT = (select(MATCHES.c.match_id, MATCHES.c.status, SEATS.c.seat)
              .join(SEATS, SEATS.c.match_id == MATCHES.c.match_id)
              .where(SEATS.c.agent_id == bindparam("agent_id"), MATCHES.c.status.in_(LIVE),
                     SEATS.c.conceded.is_(False))  # a seat that conceded has left its table
              .order_by(MATCHES.c.created_at.desc()).limit(1))


async def mark_conceded(session: AsyncSession, match_id: str, seats: Sequence[int]) -> None:
    """These seats conceded: they no longer hold their agents (`live_seat_of`), and the rating rule reads it."""
    if seats:
        await session.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat.in_(sorted(set(seats))),
                                                 Seat.conceded.is_(False)).values(conceded=True))


async def live_seat_of(session: AsyncSession, agent_id: str) -> LiveSeat | None:
    """The agent's newest waiting or in-progress match and its seat there, unless it conceded that seat."""
    row = (await session.execute(_LIVE_SEAT, {"agent_id": agent_id})).first()
    return None if row is None else LiveSeat(*row)


async def busy(session: AsyncSession, agent_ids: Sequence[str]) -> set[str]:
    """Those of `agent_ids` that hold a seat at a waiting or running match (`live_seat_of`, for many at once)."""
    if not agent_ids:
        return set()
    query = (select(Seat.agent_id).join(Match, Match.match_id == Seat.match_id)
             .where(Seat.agent_id.in_(agent_ids), Match.status.in_(LIVE), Seat.conceded.is_(False)))
    return {agent_id for agent_id in (await session.execute(query)).scalars() if agent_id}


async def listing(
    session: AsyncSession, *, status: str | None, newest_first: bool, agent_id: str | None, game: str | None,
    seats_open: int | None, limit: int, fill_now: bool | None = None, showcase: bool | None = None,
) -> list[Match]:
    # A benchmark's baselines are not listed: one is the deal its agent is playing, played out with every role shown
    # (the run's record links it once that match has ended).
    baselines = select(BenchmarkGame.match_id).where(BenchmarkGame.kind == "reference")
    query = select(Match).options(LISTED).where(Match.match_id.not_in(baselines))
    if fill_now is not None:
        query = query.where(Match.fill_now.is_(fill_now))
    if showcase is not None:
        query = query.where(Match.showcase.is_(showcase))
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


async def seats_of(session: AsyncSession, match_ids: Sequence[str], *, full: bool = False) -> dict[str, list[Seat]]:
    """The seats of these matches as lists show them (`full`: every column, the private `meta` too)."""
    result: dict[str, list[Seat]] = {m: [] for m in match_ids}
    if match_ids:
        query = select(Seat) if full else select(Seat).options(*LISTED_SEAT)
        rows = await session.execute(query.where(Seat.match_id.in_(match_ids)).order_by(Seat.seat))
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



async def live_official_seats(session: AsyncSession) -> int:
    """Seats official bots hold in waiting or running matches."""
    query = (select(func.count()).select_from(Seat).join(Match, Match.match_id == Seat.match_id)
             .join(Agent, Agent.agent_id == Seat.agent_id)
             .where(Match.status.in_(LIVE), Agent.is_official.is_(True)))
    return int((await session.execute(query)).scalar_one())


_LIVE_AGENTS = (select(Seat.agent_id).join(Match, Match.match_id == Seat.match_id)
                .where(Match.status.in_(LIVE), Seat.conceded.is_(False), Seat.agent_id.is_not(None)))


async def officials(session: AsyncSession) -> list[tuple[str, str, bool]]:
    """(agent id, name, whether it cannot sit now: it holds a live seat (`live_seat_of`) or is suspended) of every
    official agent."""
    unavailable = or_(Agent.agent_id.in_(_LIVE_AGENTS), Agent.suspended.is_not(None))
    query = select(Agent.agent_id, Agent.name, unavailable).where(Agent.is_official.is_(True))
    return [(agent_id, name, bool(busy)) for agent_id, name, busy in await session.execute(query)]


async def lock_free(session: AsyncSession, agent_ids: Sequence[str] = (), names: Sequence[str] = ()) -> set[str]:
    """Of the agents `agent_ids` or named `names`, the ids of those that hold no live seat and are not suspended,
    their rows now locked by this transaction. On PostgreSQL a row another transaction holds is skipped (`SKIP
    LOCKED`), not waited for: that agent is being seated elsewhere. SQLite's writers are serialised already."""
    if not agent_ids and not names:
        return set()
    chosen = Agent.agent_id.in_(agent_ids) if agent_ids else Agent.name.in_(names)
    query = (select(Agent.agent_id).where(chosen, Agent.agent_id.not_in(_LIVE_AGENTS), Agent.suspended.is_(None))
             .with_for_update(skip_locked=True))
    return set((await session.execute(query)).scalars())


async def official_seats(session: AsyncSession) -> list[tuple[str, str]]:
    """(agent name, match id) of every live seat an official agent holds and plays (not one the server took over)."""
    query = (select(Agent.name, Seat.match_id).join(Seat, Seat.agent_id == Agent.agent_id)
             .join(Match, Match.match_id == Seat.match_id)
             .where(Agent.is_official.is_(True), Match.status.in_(LIVE), Seat.conceded.is_(False),
                    Seat.taken_over.is_(False)))
    return [(name, match_id) for name, match_id in await session.execute(query)]


async def open_seats_to_fill_now(session: AsyncSession) -> int:
    """Open seats of the waiting rooms the official bots are to fill at once."""
    query = select(func.coalesce(func.sum(Match.n_players - Match.seats_taken), 0)).where(
        Match.status == "waiting", Match.fill_now.is_(True))
    return int((await session.execute(query)).scalar_one())


async def quick_bots_of(session: AsyncSession, client: str) -> int:
    """The bot seats (every seat but the person's) of the client's quick starts that are waiting or running."""
    query = select(func.coalesce(func.sum(Match.n_players - 1), 0)).where(
        Match.quick_client == client, Match.fill_now.is_(True), Match.status.in_(LIVE))
    return int((await session.execute(query)).scalar_one())


async def lock_client(session: AsyncSession, client: str) -> None:
    """Serialise one client's quick starts until the transaction ends: a PostgreSQL advisory lock on the client's
    digest (SQLite's writers are serialised already by BEGIN IMMEDIATE)."""
    if session.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(bytes.fromhex(client[:8]), "big", signed=True)
        await session.execute(select(func.pg_advisory_xact_lock(CLIENT_LOCKS, key)))


async def quick_tables_to_end(session: AsyncSession, seen_before: datetime, limit: int = 100) -> list[str]:
    """Running quick starts whose person (seat 0) has not been seen since `seen_before`."""
    seen = func.coalesce(Seat.last_seen_at, Seat.joined_at)
    query = (select(Match.match_id).join(Seat, (Seat.match_id == Match.match_id) & (Seat.seat == 0))
             .where(Match.fill_now.is_(True), Match.quick_client.is_not(None), Match.status == "in_progress",
                    seen < seen_before)
             .order_by(Match.created_at).limit(limit))
    return list((await session.execute(query)).scalars())


async def seat_seen(session: AsyncSession, match_id: str, seat: int, at: datetime) -> None:
    await session.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat).values(last_seen_at=at))


async def seats_for(session: AsyncSession, match_id: str) -> str | None:
    """The room option of who may sit (`all`, `agents`, `people`); None: no such match."""
    query = select(Match.seats_for).where(Match.match_id == match_id)
    return (await session.execute(query)).scalar_one_or_none()


async def is_showcase(session: AsyncSession, match_id: str) -> bool:
    query = select(Match.showcase).where(Match.match_id == match_id)
    return bool((await session.execute(query)).scalar_one_or_none())


async def recent_content(session: AsyncSession, agent_ids: Sequence[str], per_agent: int) -> frozenset[str]:
    """What the deals of each agent's last `per_agent` dealt matches drew (one statement for every agent)."""
    if not agent_ids:
        return frozenset()
    rows = await session.execute(_RECENT_CONTENT, {"agents": sorted(set(agent_ids)), "per_agent": per_agent})
    return frozenset(c for c in rows.scalars() if c)


def _recent_content() -> Any:
    newest = func.row_number().over(partition_by=SEATS.c.agent_id, order_by=MATCHES.c.created_at.desc())
    ranked = (select(MATCHES.c.content, newest.label("newest"))
              .join(SEATS, SEATS.c.match_id == MATCHES.c.match_id)
              .where(SEATS.c.agent_id.in_(bindparam("agents", expanding=True)), MATCHES.c.content.is_not(None))
              .subquery())
    return select(ranked.c.content).where(ranked.c.newest <= bindparam("per_agent"))


_RECENT_CONTENT = _recent_content()  # built once: constructing it cost more than running it


async def finished_content(session: AsyncSession, game: str) -> list[tuple[str, dict[str, Any] | None]]:
    """(content, result) of every finished match of `game` whose deal recorded its content."""
    query = select(Match.content, Match.result).where(Match.game == game, Match.status == "finished",
                                                      Match.content.is_not(None))
    return [(str(content), result) for content, result in (await session.execute(query)).all()]


async def live_showcase(session: AsyncSession) -> str | None:
    """The showcase waiting or in progress (at most one: a partial unique index), or None."""
    query = select(Match.match_id).where(Match.showcase.is_(True), Match.status.in_(LIVE)).limit(1)
    return (await session.execute(query)).scalar_one_or_none()


async def others_live(session: AsyncSession) -> bool:
    """A match other than a showcase is in progress."""
    query = select(Match.match_id).where(Match.showcase.is_(False), Match.status == "in_progress").limit(1)
    return (await session.execute(query)).first() is not None


async def last_showcase_game(session: AsyncSession) -> str | None:
    """The game of the newest showcase, or None."""
    query = select(Match.game).where(Match.showcase.is_(True)).order_by(Match.created_at.desc()).limit(1)
    return (await session.execute(query)).scalar_one_or_none()
