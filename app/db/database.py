"""The database handle: short units of work for reading and for writing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import aiosqlite
from sqlalchemy import event, make_url, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import PoolResetState
from sqlalchemy.util import await_

from app.db import direct
from app.encoding import dump_json_text, load_json

log = logging.getLogger("wodi.db")
JSON_CODEC: dict[str, Any] = {"json_serializer": dump_json_text, "json_deserializer": load_json}
LOCK_WAIT = 30.0  # seconds a SQLite writer waits for the file's write lock held by another connection
LOCK_RETRY = 0.005
CHECKPOINT_EVERY = 200  # SQLite writes between two checkpoints of the write-ahead log


class _OnTheLoop(aiosqlite.Connection):
    """aiosqlite's connection with its calls run on the event loop's own thread instead of its worker's.

    For the writer only: a write transaction is a handful of statements of well under a millisecond each, and
    handing each to a thread and back cost more CPU than the statement (a thread hop, a wake-up of the loop and the
    GIL changing hands: about a sixth of the server's CPU per finished game, docs/measurements). The one wait a
    write can meet — another connection holding the file's write lock — is taken asynchronously (`_begin`)."""

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)


def _sqlite_engine(url: str, begin: str | None, pool_size: int) -> AsyncEngine:
    """SQLite with WAL. aiosqlite's own BEGIN is disabled: writers say BEGIN IMMEDIATE (on the loop's thread,
    `_OnTheLoop`), readers run in autocommit on aiosqlite's threads (each SELECT sees a committed snapshot)."""
    on_loop: dict[str, Any] = {}
    if begin is not None:
        path = make_url(url).database or ""

        async def connect() -> aiosqlite.Connection:
            return await _OnTheLoop(partial(sqlite3.connect, path, check_same_thread=False), iter_chunk_size=64)

        on_loop["async_creator"] = connect
    # A fixed pool: overflow connections would be opened and closed under load, each with its own thread.
    # A connection goes back to the pool as it is: a rollback is sent only if a transaction is still open (a
    # unit of work that failed before its own rollback), not a thread hop on every check-in.
    engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=pool_size, max_overflow=0,
                                 pool_timeout=60, pool_reset_on_return=None, **JSON_CODEC, **on_loop)

    @event.listens_for(engine.sync_engine, "reset")
    def _reset(dbapi_connection: Any, _record: Any, state: PoolResetState) -> None:
        if state.asyncio_safe and not state.terminate_only and dbapi_connection.driver_connection.in_transaction:
            dbapi_connection.rollback()

    # The writer never sleeps inside SQLite (that would stop the loop): a busy file is waited for in `_begin`.
    busy = 0 if begin is not None else 30000

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # The writer leaves checkpoints (the one step that waits for the disk) to `Database._checkpoint`, on a
        # reader's thread; readers keep SQLite's automatic ones off the loop too.
        checkpoints = 0 if begin is not None else 1000
        for pragma in ("busy_timeout=30000", "journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL",
                       f"wal_autocheckpoint={checkpoints}", f"busy_timeout={busy}"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    if begin is not None:

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: Any) -> None:
            """Take the file's write lock; while another connection (another process, a second app in this
            one) holds it, retry every few milliseconds for up to `LOCK_WAIT` seconds without blocking the loop."""
            raw: sqlite3.Connection = conn.connection.driver_connection._conn
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    raw.execute(begin)
                    direct.observed(begin)
                    return
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                await_(asyncio.sleep(LOCK_RETRY))

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
        self._commits = 0
        self._checkpointing: asyncio.Task[None] | None = None
        self.checkpoints = 0  # checkpoints of the SQLite write-ahead log done

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[AsyncSession]:
        """A read-only unit of work; rolled back at the end."""
        async with _closing(self._reads()) as session:
            yield session

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[AsyncSession]:
        """A write unit of work: committed when the block ends normally, rolled back on error."""
        if self._sqlite_write_lock is None:
            async with _closing(self._writes()) as session, session.begin():
                yield session
            return
        async with self._sqlite_write_lock:
            async with _closing(self._writes()) as session, session.begin():
                yield session
            self._commits += 1
            if self._commits >= CHECKPOINT_EVERY and (self._checkpointing is None or self._checkpointing.done()):
                self._commits = 0
                self._checkpointing = asyncio.create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (what SQLite's automatic checkpoint does every 1,000
        pages), on a reader's thread: its disk flush never holds up the event loop the writer runs on."""
        try:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except Exception:  # the next one tries again; the log only grows meanwhile
            log.warning("SQLite checkpoint failed", exc_info=True)

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        await self.engine.dispose()
        if self._write_engine is not self.engine:
            await self._write_engine.dispose()


@asynccontextmanager
async def _closing(session: AsyncSession) -> AsyncIterator[AsyncSession]:
    """`session`, closed at the end of the block.

    After a unit of work that ended normally the session is closed directly: its transaction is committed (or, for
    a reader, there is none), so the close only hands the connection back to the pool and never suspends — a
    cancellation has no point at which to interrupt it. `AsyncSession.__aexit__` instead runs every close in a task
    of its own behind `asyncio.shield`: a task and three turns of the event loop per unit of work, and on a busy
    loop each turn waits behind every other ready callback (docs/measurements/2026-12-06-loop-turns.md). After an
    error the close may roll back over the network, so it goes through `__aexit__` and its shield as before."""
    try:
        yield session
    except BaseException:
        await session.__aexit__(None, None, None)
        raise
    await session.close()
