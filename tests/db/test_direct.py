"""`app.db.direct`: the command path's statements run on the session's driver connection (on PostgreSQL all but
the locked read, which begins the transaction); what they read and write is what the session's own statements
read and write."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import httpx
from fastapi import FastAPI
from sqlalchemy import make_url, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import database, direct
from app.db import decisions as decisions_repo
from app.db import matches as repo
from app.db.database import Database
from tests.api.table import Table


def _db(app: FastAPI) -> Database:
    db: Database = app.state.runtime.db
    return db


async def test_the_row_reads_and_writes_as_through_the_session(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    db = _db(app)
    async with db.reader() as session:
        through_session = dict((await session.execute(
            select(repo.MATCHES).where(repo.MATCHES.c.match_id == table.match_id))).mappings().one())
    async with db.writer() as session:
        assert repo.direct_statements(session) is not None
        match = await repo.get(session, table.match_id, lock=True)
        assert match is not None
        read = {column: getattr(match, column) for column in through_session}
        assert read == through_session
        assert all(type(read[k]) is type(through_session[k]) for k in read)
        finished = datetime(2026, 12, 4, 12, 0, 1, 250000, tzinfo=UTC)
        match.version, match.result, match.finished_at = 99, {"winner": "平民", "n": [1, 2]}, finished
        match.rated = True
        await repo.save(session, match)
    async with db.reader() as session:
        again = dict((await session.execute(
            select(repo.MATCHES).where(repo.MATCHES.c.match_id == table.match_id))).mappings().one())
    changed = {k for k in again if again[k] != through_session[k]}
    assert changed == {"version", "result", "finished_at", "rated"}
    assert (again["version"], again["result"], again["finished_at"], again["rated"]) == (
        99, {"winner": "平民", "n": [1, 2]}, finished, True)


async def test_events_and_decisions_read_back_as_written(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    db = _db(app)
    async with db.reader() as session:
        total = (await session.execute(select(repo.MATCHES.c.events_total).where(
            repo.MATCHES.c.match_id == table.match_id))).scalar_one()
    at = datetime(2026, 12, 4, 12, 0, 2, tzinfo=UTC)
    added = [{"seq": total + 1, "type": "note", "visibility": "public", "text": "「引号」 \\ \"q\"", "ts": "x"},
             {"seq": total + 2, "type": "note", "visibility": "seat:1", "n": 1.5, "none": None, "ts": "y"}]
    row: dict[str, Any] = {"match_id": table.match_id, "seat": 1, "agent_id": None, "by": "agent",
                           "outcome": "accepted", "due": True, "at_seq": total, "at": 1796400000.25,
                           "roles": ["平民"], "you": {"seat": 1, "word": "苹果"}, "sent": {"type": "speak"},
                           "reply": None, "usage": None, "input_tokens": 0, "output_tokens": 7, "cost_usd": 0.5}
    async with _direct_seen() as seen, db.writer() as session:
        await repo.get(session, table.match_id, lock=True)  # as a command does: on PostgreSQL it begins
        await repo.add_events(session, table.match_id, added, at)
        await decisions_repo.add(session, [row])
    assert [sql.split()[:3] for sql in seen if sql.startswith("INSERT")] == [
        ["INSERT", "INTO", "events"], ["INSERT", "INTO", "decisions"]]  # both went direct
    async with db.reader() as session:
        assert await repo.events_after(session, table.match_id, total, total + 2) == added
        created = (await session.execute(text("SELECT created_at FROM events WHERE match_id = :m AND seq = :s"),
                                         {"m": table.match_id, "s": total + 1})).scalar_one()
        decisions = await decisions_repo.of_match(session, table.match_id, seat=1)
    assert created is not None
    mine = [d for d in decisions if d.at_seq == total and d.output_tokens == 7]
    assert len(mine) == 1
    assert {k: getattr(mine[0], k) for k in row} == row


@contextlib.asynccontextmanager
async def _direct_seen() -> AsyncIterator[list[str]]:
    """The statements run on the driver connection meanwhile (`app.db.direct.OBSERVERS`)."""
    seen: list[str] = []
    direct.OBSERVERS.append(seen.append)
    try:
        yield seen
    finally:
        direct.OBSERVERS.remove(seen.append)


async def test_a_write_before_the_transaction_began_stays_on_the_session(app: FastAPI,
                                                                         client: httpx.AsyncClient) -> None:
    """On PostgreSQL nothing goes direct before a statement has begun the session's transaction (it would run
    outside it); the write then goes through the session, and reads back the same."""
    table = Table(client, 4)
    await table.open()
    db = _db(app)
    async with db.reader() as session:
        match = await repo.get(session, table.match_id)
    assert match is not None
    match.version = 77
    async with _direct_seen() as seen, db.writer() as session:
        await repo.save(session, match)
    assert any(sql.startswith("UPDATE matches") for sql in seen) == db.is_sqlite
    async with db.reader() as session:
        assert await repo.version_of(session, table.match_id) == 77


async def test_a_connection_left_in_a_transaction_is_rolled_back_on_return(app: FastAPI) -> None:
    """The SQLite pools send no rollback on a clean check-in; a connection returned mid-transaction is still rolled
    back, so its write lock does not outlive it (on PostgreSQL the pool's own rollback-on-return does this)."""
    db = _db(app)
    engine = db._write_engine  # the pool under test
    async with engine.connect() as conn:
        if db.is_sqlite:
            driver = (await conn.get_raw_connection()).driver_connection
            # A transaction SQLAlchemy does not know of: only the check-in's reset can end it.
            await driver.execute("BEGIN IMMEDIATE")
            await driver.execute("UPDATE matches SET version = version WHERE 1 = 0")
            assert driver.in_transaction
        else:  # asyncpg's transactions go through SQLAlchemy's adapter: left open, then closed without a commit
            await conn.execute(text("UPDATE matches SET version = version WHERE 1 = 0"))
    async with db.writer() as session:  # waits for the lock (and fails after 30 s) if it were still held
        await session.execute(text("UPDATE matches SET version = version WHERE 1 = 0"))
    if db.is_sqlite:
        async with engine.connect() as conn:
            assert not (await conn.get_raw_connection()).driver_connection.in_transaction


async def test_the_sqlite_writer_runs_on_the_loop_and_waits_for_a_busy_file_without_stopping_it(
        app: FastAPI, client: httpx.AsyncClient) -> None:
    """SQLite: the writer's statements run on the event loop's thread (no thread hop per statement); when another
    connection holds the file's write lock, the writer waits for it asynchronously — the loop keeps running — and
    writes once it is free. PostgreSQL: a writer waiting for a row lock another connection holds leaves the loop
    running too, and writes once it is released."""
    table = Table(client, 4)
    await table.open()
    db = _db(app)
    async with db.writer() as session:
        await session.execute(text("SELECT 1"))
        raw = await (await session.connection()).get_raw_connection()
        if db.is_sqlite:
            assert type(raw.driver_connection).__name__ == "_OnTheLoop"
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    running = asyncio.create_task(ticker())
    try:
        async with _held(db, table.match_id):
            writing = asyncio.create_task(_bump(db, table.match_id))
            await asyncio.sleep(0.3)
            assert not writing.done()  # it waits for the lock …
            assert ticks >= 10  # … and the loop went on meanwhile
        await asyncio.wait_for(writing, 10)
    finally:
        running.cancel()
    async with db.reader() as session:
        version = (await session.execute(select(repo.MATCHES.c.version).where(
            repo.MATCHES.c.match_id == table.match_id))).scalar_one()
    assert version == 4242


async def test_a_writer_that_fails_or_is_cancelled_writes_nothing_and_gives_its_connection_back(
        app: FastAPI, client: httpx.AsyncClient) -> None:
    """The SQLite writer closes its session itself (not in a task of its own, as `AsyncSession.__aexit__` would):
    a unit of work that raises is rolled back, one cancelled while it waits for a busy file gives up its place,
    and after both every pooled connection is back and the next writer writes."""
    table = Table(client, 4)
    await table.open()
    db = _db(app)
    # The writer's own pool (SQLite). On PostgreSQL readers and background work share the pool, so its count moves
    # on its own; there the next writer writing is the check.
    pool = db._write_engine.sync_engine.pool if db.is_sqlite else None
    idle = pool.checkedout() if pool is not None else 0  # type: ignore[attr-defined]
    with contextlib.suppress(RuntimeError):
        async with db.writer() as session:
            await session.execute(repo.MATCHES.update().where(repo.MATCHES.c.match_id == table.match_id)
                                  .values(version=999))
            raise RuntimeError("the unit of work fails after its write")
    assert pool is None or pool.checkedout() == idle  # type: ignore[attr-defined]
    async with _held(db, table.match_id):
        waiting = asyncio.create_task(_bump(db, table.match_id))
        await asyncio.sleep(0.2)
        assert not waiting.done()
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
    for _ in range(500):  # the cancelled one's connection comes back as its cleanup finishes
        if pool is None or pool.checkedout() == idle:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.01)
    assert pool is None or pool.checkedout() == idle  # type: ignore[attr-defined]
    async with db.reader() as session:
        assert await repo.version_of(session, table.match_id) not in (999, 4242)
    await asyncio.wait_for(_bump(db, table.match_id), 10)
    async with db.reader() as session:
        assert await repo.version_of(session, table.match_id) == 4242


async def _bump(db: Database, match_id: str) -> None:
    async with db.writer() as session:
        await session.execute(repo.MATCHES.update().where(repo.MATCHES.c.match_id == match_id).values(version=4242))


@contextlib.asynccontextmanager
async def _held(db: Database, match_id: str) -> AsyncIterator[None]:
    """Another connection holding the lock a writer of this match needs: the file's (SQLite), the row's (PG)."""
    if db.is_sqlite:
        other = sqlite3.connect(make_url(db.url).database or "", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    engine = create_async_engine(db.url)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1 FROM matches WHERE match_id = :m FOR UPDATE"), {"m": match_id})
            yield
            await conn.rollback()
    finally:
        await engine.dispose()


async def test_the_sqlite_write_ahead_log_is_checkpointed_off_the_writer(app: FastAPI) -> None:
    """The writer's connections never checkpoint (the disk flush would hold up the loop they run on); every
    `CHECKPOINT_EVERY` writes a reader's thread does, so the log is copied back and does not grow without end.
    On PostgreSQL there is nothing of the kind: writes just commit."""
    db = _db(app)
    before = await _wal_frames(db)
    for _ in range(database.CHECKPOINT_EVERY + 1):
        async with db.writer() as session:
            await session.execute(text("UPDATE matches SET version = version WHERE 1 = 0"))
    if db.is_sqlite:
        async with db.writer() as session:
            raw = await (await session.connection()).get_raw_connection()
            cursor = await raw.driver_connection.execute("PRAGMA wal_autocheckpoint")
            assert (await cursor.fetchone())[0] == 0
        assert db._checkpointing is not None  # the reader's checkpoint was started …
        await db._checkpointing
        assert db.checkpoints >= 1  # … and done
        assert await _wal_frames(db) is not None
    else:
        assert before is None


async def _wal_frames(db: Database) -> tuple[int, int, int] | None:
    if not db.is_sqlite:
        return None
    async with db.reader() as session:
        row = (await session.execute(text("PRAGMA wal_checkpoint(PASSIVE)"))).one()
    return int(row[0]), int(row[1]), int(row[2])


async def test_a_staged_notification_is_sent_on_commit_with_or_without_a_save(app: FastAPI,
                                                                              client: httpx.AsyncClient) -> None:
    """PostgreSQL: `direct.notify` stages a notification; a command's `save` carries it in its own statement, and
    one no save follows (a room's lobby wake-up) is sent before the commit — either way delivered once it commits."""
    db = _db(app)
    if db.is_sqlite:
        async with db.writer() as session:
            assert not await direct.notify(session, "wodi_test", "x")  # one process: nothing to send
        return
    table = Table(client, 4)
    await table.open()
    received: list[str] = []
    listener = await asyncpg.connect(make_url(db.url).set(drivername="postgresql").render_as_string(False))
    try:
        await listener.add_listener("wodi_test", lambda *args: received.append(args[-1]))
        async with db.writer() as session:
            match = await repo.get(session, table.match_id, lock=True)
            assert match is not None
            assert await direct.notify(session, "wodi_test", "with a save")
            await repo.save(session, match)
        async with db.writer() as session:
            await repo.get(session, table.match_id, lock=True)
            assert await direct.notify(session, "wodi_test", "alone")
        for _ in range(200):
            if len(received) == 2:
                break
            await asyncio.sleep(0.01)
        assert received == ["with a save", "alone"]
    finally:
        await listener.close()
