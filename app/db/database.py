"""The database handle: short units of work for reading and for writing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import PoolResetState

from app.encoding import dump_json_text, load_json

JSON_CODEC: dict[str, Any] = {"json_serializer": dump_json_text, "json_deserializer": load_json}


def _sqlite_engine(url: str, begin: str | None, pool_size: int) -> AsyncEngine:
    """SQLite with WAL. aiosqlite's own BEGIN is disabled: writers say BEGIN IMMEDIATE, readers run in
    autocommit (each SELECT sees a committed snapshot; saving two thread hops per read)."""
    # A fixed pool: overflow connections would be opened and closed under load, each with its own thread.
    # A connection goes back to the pool as it is: a rollback is sent only if a transaction is still open (a
    # unit of work that failed before its own rollback), not a thread hop on every check-in.
    engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=pool_size, max_overflow=0,
                                 pool_timeout=60, pool_reset_on_return=None, **JSON_CODEC)

    @event.listens_for(engine.sync_engine, "reset")
    def _reset(dbapi_connection: Any, _record: Any, state: PoolResetState) -> None:
        if state.asyncio_safe and not state.terminate_only and dbapi_connection.driver_connection.in_transaction:
            dbapi_connection.rollback()

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "busy_timeout=30000", "foreign_keys=ON", "synchronous=NORMAL"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    if begin is not None:

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: Any) -> None:
            conn.exec_driver_sql(begin)

    return engine


class Database:
    """Owns the engines. `reader()` and `writer()` are the only ways to a session."""

    def __init__(self, url: str, pool_size: int = 10) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.engine = _sqlite_engine(url, None, pool_size)
            self._write_engine = _sqlite_engine(url, "BEGIN IMMEDIATE", 2)
        else:
            # A fixed pool, as on SQLite: overflow connections were opened and closed again under bursts, each
            # costing a TLS probe, authentication and a fresh prepared-statement cache.
            self.engine = create_async_engine(url, pool_size=pool_size, max_overflow=0, pool_timeout=60, **JSON_CODEC)
            self._write_engine = self.engine
        # Readers never write and read one row or an append-only range, so they run in autocommit: no BEGIN and
        # ROLLBACK round trips around each SELECT (on SQLite the reader engine is in autocommit already).
        read_engine = self.engine if self.is_sqlite else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._reads = async_sessionmaker(read_engine, expire_on_commit=False)
        self._writes = async_sessionmaker(self._write_engine, expire_on_commit=False)
        # SQLite has one writer per file anyway; queueing here avoids busy-waiting inside SQLite. (Writes to one
        # match queue in memory before they take a connection: `app.services.match.group_commit`.)
        self._sqlite_write_lock = asyncio.Lock() if self.is_sqlite else None

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work; rolled back at the end."""
        async with self._reads() as session:
            yield session

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[AsyncSession]:
        """A write unit of work: committed when the block ends normally, rolled back on error."""
        guard: AbstractAsyncContextManager[Any] = self._sqlite_write_lock or nullcontext()
        async with guard, self._writes() as session, session.begin():
            yield session

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._write_engine is not self.engine:
            await self._write_engine.dispose()
