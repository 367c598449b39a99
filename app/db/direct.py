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

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

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
        self._save = _Compiled(update(matches).where(matches.c.match_id == bindparam("key"))
                               .values({name: bindparam(name) for name in mutable}), dialect, [*mutable, "key"])
        event_names = [column.name for column in events.columns]
        self._events = _Compiled(insert(events), dialect, event_names)
        decision_names = [column.name for column in decisions.columns if not column.primary_key]
        self._decisions = _Compiled(insert(decisions), dialect, decision_names)

    async def get(self, session: AsyncSession, match_id: str) -> dict[str, Any] | None:
        observed(self._get.sql)
        rows = await (await _driver(session)).execute_fetchall(self._get.sql, self._get.binds({"key": match_id}))
        if not rows:
            return None
        return {name: process(value) if process else value
                for name, process, value in zip(self._columns, self._results, rows[0], strict=True)}

    async def save(self, session: AsyncSession, match_id: str, values: dict[str, Any]) -> bool:
        """Write the row back; False where this session's transaction is not the driver's (then nothing ran)."""
        return await self._write(session, self._save, [{**values, "key": match_id}])

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


async def notify(session: AsyncSession, channel: str, payload: str) -> bool:
    """PostgreSQL: `pg_notify` inside the session's transaction on the asyncpg connection (delivered when it
    commits); False where that transaction is not open there yet (the caller then notifies through the session)."""
    if session.bind is None or session.bind.dialect.name != "postgresql":
        return False
    driver = await _driver(session)
    if driver is None:
        return False
    observed(NOTIFY)
    await driver.execute(NOTIFY, channel, payload)
    return True


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
