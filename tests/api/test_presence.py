"""Several server processes on one PostgreSQL database (two app instances here): a process alone on the database
serves its cached matches without a version check, and stops doing so before any other process can commit."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from app.db import matches as repo
from app.main import create_app
from app.services.pg_notifier import PRESENCE_LOCK, PostgresNotifier, asyncpg_dsn
from tests.api.table import Table
from tests.conftest import _wipe, make_settings

pytestmark = pytest.mark.postgres


def notifier(app: FastAPI) -> PostgresNotifier:
    chosen = app.state.runtime.notifier
    assert isinstance(chosen, PostgresNotifier)
    return chosen


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    assert condition()


@contextlib.asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        yield client


async def test_a_process_alone_steps_down_before_a_second_one_can_write(database_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        a = await stack.enter_async_context(serving(first))
        await until(lambda: notifier(first).sole_epoch is not None)
        table = Table(a, 4)
        await table.open()
        speaker = (await table.snap(None))["current_speaker_seat"]
        before = await table.snap(speaker)  # cached by the first process, which is alone: no version check
        # From here on the first process hears nothing from the second one through NOTIFY, as if delivery lagged:
        # only the presence hand-over keeps its reads current.
        monkeypatch.setattr(notifier(first), "deliver", lambda *_args: None)
        b = await stack.enter_async_context(serving(second))
        # At once, before the first process may even have heard the second one's hello: the write must wait until
        # the first has stepped down.
        acted = await b.post(f"/api/matches/{table.match_id}/action", headers=table.h(speaker),
                             json={"type": "speak", "text": "这个东西很常见"})
        assert acted.status_code == 200, acted.text
        assert notifier(first).sole_epoch is None and notifier(second).sole_epoch is None
        after = await table.snap(speaker)  # on the first process: its own write, made through the second, is there
        assert after["events_total"] > before["events_total"]
        assert after["current_speaker_seat"] != speaker
        assert [e["text"] for e in after["public_log"] if e["type"] == "speech_posted"] == ["这个东西很常见"]


async def test_the_last_process_left_becomes_alone_again_with_a_new_epoch(database_url: str) -> None:
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        await stack.enter_async_context(serving(first))
        notifier(first).ALONE_RECHECK = 0.05
        await until(lambda: notifier(first).sole_epoch is not None)
        alone_before = notifier(first).sole_epoch
        async with serving(second):
            await until(lambda: notifier(first).sole_epoch is None)
            await asyncio.sleep(0.3)  # several rechecks while the second process is there: still not alone
            assert notifier(first).sole_epoch is None and notifier(second).sole_epoch is None
        await until(lambda: notifier(first).sole_epoch is not None)
        assert notifier(first).sole_epoch != alone_before  # entries checked in the earlier epoch are checked again


async def test_losing_the_listen_connection_leaves_sole_mode_at_once(database_url: str) -> None:
    app = create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        client = await stack.enter_async_context(serving(app))
        await until(lambda: notifier(app).sole_epoch is not None)
        epoch = notifier(app).sole_epoch
        listener = notifier(app)._listener
        assert listener is not None
        pid = listener.get_server_pid()
        async with app.state.runtime.db.reader() as session:
            assert (await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})).scalar_one()
        await until(lambda: notifier(app).sole_epoch != epoch)
        # The locks went with the connection; the process reconnects, finds itself alone, and starts a new epoch.
        await until(lambda: notifier(app).sole_epoch is not None)
        assert notifier(app).sole_epoch != epoch
        table = Table(client, 4)
        await table.open()
        assert (await table.snap(0))["status"] == "in_progress"


async def test_a_process_without_its_listen_connection_cannot_write_behind_a_lone_one(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second process's LISTEN connection dies (its shared hold with it) and cannot come back, so the first
    becomes alone. A write through the second must still not commit behind the first's back: its transaction
    asks for the presence lock shared, is refused, says hello and tries again once the first has stepped down."""
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        a = await stack.enter_async_context(serving(first))
        b = await stack.enter_async_context(serving(second))
        table = Table(a, 4)
        await table.open()
        speaker = (await table.snap(None))["current_speaker_seat"]
        lone = notifier(first)
        lone.ALONE_RECHECK = 0.05
        monkeypatch.setattr(lone, "deliver", lambda *_args: None)  # blind to NOTIFY: only presence protects it
        cut = notifier(second)
        cut._dsn = "postgresql://postgres@127.0.0.1:1/nowhere"  # its reconnects fail from now on
        listener = cut._listener
        assert listener is not None
        async with second.state.runtime.db.reader() as session:
            await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": listener.get_server_pid()})
        await until(lambda: lone.sole_epoch is not None)
        before = await table.snap(speaker)  # served by the lone first process from its cache
        lone.ALONE_RECHECK = 30.0  # once it steps down, it stays down for the rest of the test
        acted = await b.post(f"/api/matches/{table.match_id}/action", headers=table.h(speaker),
                             json={"type": "speak", "text": "这个东西很常见"})
        assert acted.status_code == 200, acted.text
        assert lone.sole_epoch is None
        after = await table.snap(speaker)
        assert after["events_total"] > before["events_total"]
        assert [e["text"] for e in after["public_log"] if e["type"] == "speech_posted"] == ["这个东西很常见"]


async def test_a_lone_process_whose_connection_stops_answering_leaves_sole_mode(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The LISTEN connection's server process is frozen (SIGSTOP): no ping is answered, so the lease runs out
    (PostgreSQL would keep the frozen session's locks for a good while yet), and after the ping times out the
    process reconnects and, once the frozen session is gone, is alone again in a new epoch."""
    monkeypatch.setattr(PostgresNotifier, "HEARTBEAT", 0.05)
    monkeypatch.setattr(PostgresNotifier, "SOLE_LEASE", 0.3)
    monkeypatch.setattr(PostgresNotifier, "PING_TIMEOUT", 1.0)
    app = create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        await stack.enter_async_context(serving(app))
        lone = notifier(app)
        await until(lambda: lone.sole_epoch is not None)
        epoch = lone.sole_epoch
        listener = lone._listener
        assert listener is not None
        pid = listener.get_server_pid()
        os.kill(pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(0.5)
            assert lone.sole_epoch is None  # the lease ran out while the ping went unanswered
            await until(lambda: lone._session is not None and lone._session[0] != pid)  # gave up on it, reconnected
            assert lone.sole_epoch is None  # the frozen session still holds its locks
        finally:
            os.kill(pid, signal.SIGCONT)
        await until(lambda: lone.sole_epoch not in (None, epoch))  # the frozen session was ended: alone again
        async with app.state.runtime.db.reader() as session:
            gone = (await session.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                          {"pid": pid})).scalar_one()
        assert gone == 0


async def test_a_process_whose_session_ended_unnoticed_cannot_write_behind_a_new_lone_one(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first process is alone; PostgreSQL ends its LISTEN session and the process does not notice (as in the
    moment before it reads the connection's end). A second process becomes alone. The first one's next write must
    not commit on the strength of a sole lock it no longer holds: its proof fails, it reconnects and says hello,
    and the write goes through once the second has stepped down; the second (blinded to NOTIFY) reads it back."""
    monkeypatch.setattr(PostgresNotifier, "HEARTBEAT", 30.0)  # no ping to notice the lost session either
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        a = await stack.enter_async_context(serving(first))
        old = notifier(first)
        await until(lambda: old.sole_epoch is not None)
        table = Table(a, 4)
        await table.open()
        speaker = (await table.snap(None))["current_speaker_seat"]
        listener = old._listener
        assert listener is not None
        listener.remove_termination_listener(old._connection_lost)
        async with first.state.runtime.db.reader() as session:
            await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": listener.get_server_pid()})
        await asyncio.sleep(0.2)
        assert old._exclusive  # still believes it is alone
        new = notifier(second)
        new.ALONE_RECHECK = 0.05
        await stack.enter_async_context(serving(second))
        await until(lambda: new.sole_epoch is not None)
        b_reads = httpx.AsyncClient(transport=httpx.ASGITransport(app=second), base_url="http://testserver")
        await stack.enter_async_context(b_reads)
        before = (await b_reads.get(f"/api/matches/{table.match_id}", headers=table.h(speaker))).json()
        monkeypatch.setattr(new, "deliver", lambda *_args: None)
        new.ALONE_RECHECK = 30.0
        acted = await a.post(f"/api/matches/{table.match_id}/action", headers=table.h(speaker),
                             json={"type": "speak", "text": "这个东西很常见"})
        assert acted.status_code == 200, acted.text
        assert new.sole_epoch is None
        after = (await b_reads.get(f"/api/matches/{table.match_id}", headers=table.h(speaker))).json()
        assert after["events_total"] > before["events_total"]
        assert [e["text"] for e in after["public_log"] if e["type"] == "speech_posted"] == ["这个东西很常见"]


async def test_refused_proofs_do_not_vouch_for_each_other(database_url: str) -> None:
    """The lone proof asks for the LISTEN session's token lock shared: only that session, holding it exclusively,
    makes it fail. A write whose proof failed (session gone) holds the token shared until it rolls back; a second
    write at the same moment must fail its proof too, not read the first one's hold as a live session."""
    app = create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        client = await stack.enter_async_context(serving(app))
        await until(lambda: notifier(app).sole_epoch is not None)  # no `_try_alone` holding PRESENCE_LOCK now
        table = Table(client, 4)
        await table.open(fill=False)
        token = 2**40 + 4242
        check = repo.PresenceCheck(shared=PRESENCE_LOCK, holder=token)
        session_ = await asyncpg.connect(asyncpg_dsn(database_url))
        await session_.execute("SELECT pg_advisory_lock($1::bigint)", token)
        engine = create_async_engine(database_url)
        stack.push_async_callback(engine.dispose)
        async with AsyncSession(engine) as first, AsyncSession(engine) as second:
            assert await repo.get(first, table.match_id, presence=check) is not None  # the session is alive
            await first.rollback()
            await session_.close()  # the LISTEN session is gone
            with pytest.raises(repo.HeldExclusively):
                await repo.get(first, table.match_id, presence=check)  # refused, and its transaction stays open
            with pytest.raises(repo.HeldExclusively):
                await repo.get(second, table.match_id, presence=check)
