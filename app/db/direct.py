"""The command path's statements run on the session's own driver connection.

A command writes the same four statements every time: the match row read (locked), the row written back, the
events inserted, the decisions inserted. Through `AsyncSession.execute` each costs about 0.3 ms of CPU (the ORM
session's bookkeeping, the statement's cache key, a greenlet switch per driver call, on SQLite three to four thread
hops of aiosqlite); on the driver connection it costs the driver's call and the column types' own conversions —
about a fifth (docs/measurements/2026-12-04-lean-path.md).

SQLAlchemy still writes each statement: it is compiled once per dialect from the Core construct, and its values
pass through the columns' own bind and result processors, so a value reads and writes exactly as through the
session. The statements run inside the session's transaction:

- SQLite (aiosqlite): the session's connection is begun first (the writer's `BEGIN IMMEDIATE` is the lock), so
  all four go direct.
- PostgreSQL (asyncpg): SQLAlchemy's adapter begins its transaction with the first statement it runs, and the
  locked read (`FOR UPDATE`) is that statement; the write, the events and the decisions then go to the asyncpg
  connection, which is in that transaction (`is_in_transaction`; where it is not, they stay on the session).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, event, func, insert, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement
from sqlalchemy.util import await_

Processor = Callable[[Any], Any] | None
# Called with each statement run here (SQLAlchemy's engine events do not see them): `tools.statement_counts`.
OBSERVERS: list[Callable[[str], None]] = []


DIRECT = ("sqlite", "postgresql")  # aiosqlite, asyncpg


def usable(session: AsyncSession) -> bool:
    """Whether this session's statements may go direct (SQLite through aiosqlite, PostgreSQL through asyncpg)."""
    return session.bind is not None and session.bind.dialect.name in DIRECT


class _Compiled:
    """One statement, compiled once per dialect; `binds` converts a row of values into the driver's parameters."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, names: Sequence[str]) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=list(names)))
        self.sql = str(compiled)
        order = list(compiled.positiontup or ())
        processors = {name: bind.type.dialect_impl(dialect).bind_processor(dialect)
                      for name, bind in compiled.binds.items()}
        self._order: list[tuple[str, Processor]] = [(name, processors.get(name)) for name in order]

    def binds(self, values: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(process(values[name]) if process else values[name] for name, process in self._order)


class Statements:
    """The command path's statements on one table set, for one dialect."""

    def __init__(self, matches: Table, events: Table, decisions: Table, mutable: Sequence[str],
                 dialect: Dialect) -> None:
        self.locks_by_read = dialect.name == "postgresql"  # the locked read stays on the session (`get`)
        self._columns = [column.name for column in matches.columns]
        # Read direct on SQLite only (on PostgreSQL the read begins the transaction, on the session).
        self._results: list[Processor] = [] if self.locks_by_read else [
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in matches.columns]
        self._get = _Compiled(select(matches).where(matches.c.match_id == bindparam("key")), dialect, ["key"])
        self._version = _Compiled(select(matches.c.version).where(matches.c.match_id == bindparam("key")), dialect,
                                  ["key"])
        self._update = (update(matches).where(matches.c.match_id == bindparam("key"))
                        .values({name: bindparam(name) for name in mutable}))
        self._mutable = [*mutable, "key"]
        self._save = _Compiled(self._update, dialect, self._mutable)
        self._event_table = events
        self._dialect = dialect
        self._saves: dict[tuple[int, int], _Compiled] = {}  # PostgreSQL: (events, notifications) → one statement
        event_names = [column.name for column in events.columns]
        self._events = _Compiled(insert(events), dialect, event_names)
        decision_names = [column.name for column in decisions.columns if not column.primary_key]
        self._decisions = _Compiled(insert(decisions), dialect, decision_names)

    async def version(self, session: AsyncSession, match_id: str) -> int | None:
        """The row's version, read on a reader's session (autocommit: no transaction to join) straight from the
        driver on PostgreSQL — the check every long-poll of a process sharing the database makes first."""
        observed(self._version.sql)
        driver: Any = (await (await session.connection()).get_raw_connection()).driver_connection
        version = await driver.fetchval(self._version.sql, *self._version.binds({"key": match_id}))
        return None if version is None else int(version)

    async def get(self, session: AsyncSession, match_id: str) -> dict[str, Any] | None:
        observed(self._get.sql)
        rows = await (await _driver(session)).execute_fetchall(self._get.sql, self._get.binds({"key": match_id}))
        if not rows:
            return None
        return {name: process(value) if process else value
                for name, process, value in zip(self._columns, self._results, rows[0], strict=True)}

    async def save(self, session: AsyncSession, match_id: str, values: dict[str, Any],
                   events: Sequence[dict[str, Any]] = ()) -> bool:
        """Write the row back and insert `events`; False where this session's transaction is not the driver's (then
        nothing ran). On PostgreSQL one statement does both and sends the notifications staged so far
        (`notify`): `WITH e AS (INSERT INTO events …) UPDATE matches … RETURNING pg_notify(…)`, one round trip
        where there were three."""
        if not self.locks_by_read:
            return await self._write(session, self._save, [{**values, "key": match_id}]) and (
                not events or await self._write(session, self._events, events))
        driver = await _driver(session)
        if driver is None:
            return False
        staged = _staged(session, take=True)
        statement = self._combined(len(events), len(staged))
        row = {**values, "key": match_id}
        for i, event_row in enumerate(events):
            row.update({f"e{i}_{name}": value for name, value in event_row.items()})
        for i, (channel, payload) in enumerate(staged):
            row.update({f"n{i}_channel": channel, f"n{i}_payload": payload})
        observed(statement.sql)
        await driver.execute(statement.sql, *statement.binds(row))
        return True

    def _combined(self, n_events: int, n_notified: int) -> _Compiled:
        compiled = self._saves.get((n_events, n_notified))
        if compiled is None:
            names = list(self._mutable)
            statement = self._update
            if n_events:
                columns = self._event_table.columns
                rows = [{c.name: bindparam(f"e{i}_{c.name}", type_=c.type) for c in columns} for i in range(n_events)]
                names += [f"e{i}_{c.name}" for i in range(n_events) for c in columns]
                statement = statement.add_cte(insert(self._event_table).values(rows).cte("new_events"))
            if n_notified:
                statement = statement.returning(*(func.pg_notify(bindparam(f"n{i}_channel"), bindparam(f"n{i}_payload"))
                                                  for i in range(n_notified)))
                names += [f"n{i}_{part}" for i in range(n_notified) for part in ("channel", "payload")]
            compiled = self._saves[(n_events, n_notified)] = _Compiled(statement, self._dialect, names)
        return compiled

    async def add_events(self, session: AsyncSession, rows: Sequence[dict[str, Any]]) -> bool:
        return await self._write(session, self._events, rows)

    async def add_decisions(self, session: AsyncSession, rows: Sequence[dict[str, Any]]) -> bool:
        return await self._write(session, self._decisions, rows)

    async def _write(self, session: AsyncSession, statement: _Compiled, rows: Sequence[dict[str, Any]]) -> bool:
        driver = await _driver(session)
        if driver is None:
            return False
        observed(statement.sql)
        params = [statement.binds(row) for row in rows]
        if len(params) > 1:
            await driver.executemany(statement.sql, params)
        elif self.locks_by_read:  # asyncpg takes one row's values as positional arguments
            await driver.execute(statement.sql, *params[0])
        else:
            await driver.execute(statement.sql, params[0])
        return True


NOTIFY = "SELECT pg_notify($1, $2)"
_STAGED = "wodi.notify"


async def notify(session: AsyncSession, channel: str, payload: str) -> bool:
    """PostgreSQL: `pg_notify` inside the session's transaction on the asyncpg connection (delivered when it
    commits); False where that transaction is not open there yet (the caller then notifies through the session).

    Staged, not sent: the command's `Statements.save` carries it in its own statement; whatever no save took is
    sent just before the transaction commits (`_send_staged`)."""
    if session.bind is None or session.bind.dialect.name != "postgresql":
        return False
    if await _driver(session) is None:
        return False
    _staged(session).append((channel, payload))
    return True


def _staged(session: AsyncSession | Session, *, take: bool = False) -> list[tuple[str, str]]:
    """The notifications staged in the session's current transaction (`take`: and no longer staged)."""
    sync = session.sync_session if isinstance(session, AsyncSession) else session
    transaction = sync.get_transaction()
    known = session.info.get(_STAGED)
    if known is None or known[0] is not transaction:
        known = session.info[_STAGED] = (transaction, [])
    staged: list[tuple[str, str]] = known[1]
    if take:
        session.info[_STAGED] = (transaction, [])
    return staged


@event.listens_for(Session, "before_commit")
def _send_staged(session: Session) -> None:
    """Send the notifications no `save` carried, inside the transaction (so still delivered exactly on commit).
    Runs in SQLAlchemy's greenlet, where the driver's coroutines may be awaited."""
    known = session.info.get(_STAGED)
    if not known or not known[1] or known[0] is not session.get_transaction():
        return
    staged = _staged(session, take=True)
    driver = session.info[_DRIVER][1]  # staging found it: `notify` stages only on the driver's transaction
    for channel, payload in staged:
        observed(NOTIFY)
        await_(driver.execute(NOTIFY, channel, payload))


def observed(sql: str) -> None:
    """Tell the observers of a statement run beneath SQLAlchemy (here, and the SQLite writer's BEGIN)."""
    for observe in OBSERVERS:
        observe(sql)


async def _driver(session: AsyncSession) -> Any:
    """The driver connection under the session's connection, in the session's transaction: aiosqlite's (begun by
    the writer's `BEGIN IMMEDIATE`) or asyncpg's once SQLAlchemy has begun it; None if asyncpg's is not in one."""
    transaction = session.get_transaction()
    known = session.info.get(_DRIVER)
    if known is not None and transaction is not None and known[0] is transaction:
        return known[1]
    connection = await session.connection()
    driver: Any = (await connection.get_raw_connection()).driver_connection
    if connection.dialect.name == "postgresql" and not driver.is_in_transaction():
        return None  # nothing has run on the session yet: its transaction is not open on the server
    session.info[_DRIVER] = (session.get_transaction(), driver)
    return driver


_DRIVER = "wodi.driver"
_BUILT: dict[tuple[str, int], Statements] = {}


def statements(session: AsyncSession, build: Callable[[Dialect], Statements]) -> Statements | None:
    """The statements for this session's dialect (built once), or None where they do not go direct."""
    if not usable(session):
        return None
    dialect = session.bind.dialect  # type: ignore[union-attr]
    key = (dialect.name, id(build))
    built = _BUILT.get(key)
    if built is None:
        built = _BUILT[key] = build(dialect)
    return built
