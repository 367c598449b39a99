"""The database handle: short units of work, with one writer at a time per match."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine


def _sqlite_engine(url: str, begin: str | None, pool_size: int) -> AsyncEngine:
    """SQLite with WAL. aiosqlite's own BEGIN is disabled: writers say BEGIN IMMEDIATE, readers run in
    autocommit (each SELECT sees a committed snapshot; saving two thread hops per read)."""
    # A fixed pool: overflow connections would be opened and closed under load, each with its own thread.
    engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=pool_size, max_overflow=0,
                                 pool_timeout=60)

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


class KeyedLocks:
    """One asyncio lock per key, kept only while someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            users = self._locks[key][1] - 1
            if users:
                self._locks[key] = (lock, users)
            else:
                del self._locks[key]


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
            self.engine = create_async_engine(url, pool_size=pool_size, max_overflow=0, pool_timeout=60)
            self._write_engine = self.engine
        # Readers never write and read one row or an append-only range, so they run in autocommit: no BEGIN and
        # ROLLBACK round trips around each SELECT (on SQLite the reader engine is in autocommit already).
        read_engine = self.engine if self.is_sqlite else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._reads = async_sessionmaker(read_engine, expire_on_commit=False)
        self._writes = async_sessionmaker(self._write_engine, expire_on_commit=False)
        # SQLite has one writer per file anyway; queueing here avoids busy-waiting inside SQLite.
        self._sqlite_write_lock = asyncio.Lock() if self.is_sqlite else None
        # PostgreSQL: commands for one match queue here, in memory, before they take a pooled connection; the
        # row lock still serialises them across processes, but a burst of votes no longer holds one pooled
        # connection per waiting voter and starves every other request of connections.
        self._match_locks = KeyedLocks()

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work; rolled back at the end."""
        async with self._reads() as session:
            yield session

    @asynccontextmanager
    async def writer(self, match_id: str | None = None) -> AsyncIterator[AsyncSession]:
        """A write unit of work: committed when the block ends normally, rolled back on error. Commands on a
        match name it, so this process sends them to the database one at a time."""
        guard: AbstractAsyncContextManager[Any]
        if self._sqlite_write_lock is not None:
            guard = self._sqlite_write_lock
        elif match_id is not None:
            guard = self._match_locks.hold(match_id)
        else:
            guard = nullcontext()
        async with guard, self._writes() as session, session.begin():
            yield session

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._write_engine is not self.engine:
            await self._write_engine.dispose()
