"""Several processes on PostgreSQL: a command's notification carries what it committed, so another process's cache
moves on without reading the match (`match_cache.carry` / `MatchCache.carried`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, cast

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.database import Database
from app.services.delivery.pg_notifier import CARRY_CHANNEL, CHANNEL, PostgresNotifier
from app.services.match import matches
from app.services.match.match_cache import CachedMatch, MatchCache
from tests.api.table import Table, lowest_other

pytestmark = pytest.mark.postgres


class Reads:
    """The database as a cache sees it, with reading switched off on demand: what a test must not see read; and
    with `held` cleared, a read that has read waits there before it hands back what it read."""

    def __init__(self, db: Database) -> None:
        self.db, self.allowed = db, True
        self.held = asyncio.Event()
        self.held.set()
        self.reading = asyncio.Event()  # set once a read has read and waits for `held`
        self.count = 0  # units of work read

    def reader(self) -> AbstractAsyncContextManager[AsyncSession]:
        assert self.allowed, "the cache read the match from the database"
        self.count += 1
        return self._reader()

    @asynccontextmanager
    async def _reader(self) -> AsyncIterator[AsyncSession]:
        async with self.db.reader() as session:
            yield session
        self.reading.set()
        await self.held.wait()


class Other:
    """Another process's cache and listener, in this test's process."""

    def __init__(self, app: FastAPI, writing: Callable[[str], bool], apply: bool = True) -> None:
        runtime = app.state.runtime
        self.reads = Reads(runtime.db)
        self.carries: list[str] = []
        self.notifier = PostgresNotifier(runtime.settings.database_url, on_carry=self._carried)
        self.cache = MatchCache(cast(Database, self.reads), self.notifier, writing, only_writer=False)
        self.apply = apply

    def _carried(self, match_id: str, carry: str) -> None:
        self.carries.append(carry)
        if self.apply:
            self.cache.carried(match_id, carry)


@pytest.fixture
async def other(app: FastAPI) -> AsyncIterator[Callable[..., Any]]:
    started: list[Other] = []

    async def start(writing: Callable[[str], bool] = lambda _match_id: False, apply: bool = True) -> Other:
        process = Other(app, writing, apply)
        await process.notifier.start()
        assert process.notifier.connected.is_set()
        started.append(process)
        return process

    yield start
    for process in started:
        await process.notifier.stop()


def same(a: CachedMatch, b: CachedMatch) -> None:
    assert (a.version, a.row, a.seats, a.events) == (b.version, b.row, b.seats, b.events)
    assert a.game.state_to_json(a.state) == b.game.state_to_json(b.state)


async def _turn(table: Table) -> None:
    """One seat whose turn it is acts (a speech or a vote)."""
    for seat in range(table.n):
        snap = await table.snap(seat)
        body = lowest_other(table, seat, snap) if snap["you"]["your_turn"] else None
        if body is not None:
            assert (await table.act(seat, body)).status_code == 200
            return
    raise AssertionError("nobody's turn")


async def _holds(woken: asyncio.Task[CachedMatch], why: str) -> None:
    await asyncio.sleep(0.01)
    assert not woken.done(), why


async def _gets_as_read(app: FastAPI, b: Other, woken: asyncio.Task[CachedMatch], version: int) -> None:
    """`woken` gets `version` without reading, and it is what a read of the match gives now."""
    got = await asyncio.wait_for(woken, 1)
    assert got.version == version
    b.reads.allowed = True
    same(got, await MatchCache(app.state.runtime.db, b.notifier, lambda _m: False, only_writer=False)
         .get(got.match_id))


async def _until(check: Callable[[], bool]) -> None:
    for _ in range(300):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the notification never arrived")


async def test_another_process_cache_moves_on_by_the_notification_as_a_read_would_leave_it(
        app: FastAPI, client: httpx.AsyncClient, other: Callable[..., Any]) -> None:
    table = Table(client, 4)
    await table.open()
    b = await other()
    start = await b.cache.get(table.match_id)
    b.reads.allowed = False
    for _ in range(3):
        await _turn(table)
    await _until(lambda: b.cache.state_at(table.match_id, start.version + 3) is not None)
    carried = await b.cache.get(table.match_id, at_least=start.row["events_total"] + 1)
    assert carried.version == start.version + 3
    b.reads.allowed = True
    read = await MatchCache(app.state.runtime.db, b.notifier, lambda _m: False, only_writer=False).get(table.match_id)
    same(carried, read)


async def test_a_carry_that_comes_before_this_process_own_write_through_waits_for_it_instead_of_a_read(
        app: FastAPI, client: httpx.AsyncClient, other: Callable[..., Any]) -> None:
    """The process's own commit of version v+1 is answered a loop turn after the database has it; the next
    commit's carry (v+2) may arrive first. It is kept, and a waiter woken for it holds until the write-through
    brings the entry to v+1, then gets v+2 — no read."""
    table = Table(client, 4)
    await table.open()
    recorder = await other(apply=False)
    b = await other(writing=lambda _m: True, apply=False)
    start = await b.cache.get(table.match_id)
    b.reads.allowed = False
    await _turn(table)
    await _turn(table)
    await _until(lambda: len(recorder.carries) == 2)
    own, later = recorder.carries
    b.cache.carried(table.match_id, later)  # before "our own" v+1 is written through
    assert b.cache.state_at(table.match_id, start.version + 2) is None
    woken = asyncio.create_task(b.cache.get(table.match_id, at_least=start.row["events_total"] + 2))
    await _holds(woken, "the waiter holds for the write-through")
    b.cache.carried(table.match_id, own)  # stands in for the write-through of v+1
    await _gets_as_read(app, b, woken, start.version + 2)


async def test_a_carry_that_comes_while_the_match_is_read_back_is_applied_to_what_the_read_brings(
        app: FastAPI, client: httpx.AsyncClient, other: Callable[..., Any]) -> None:
    """A join's commit makes the other processes drop their copy (its seats changed), and the waiters it wakes read
    the match back; the next commit's carry may arrive while they read. It is kept and applied to what the read
    brings, so a waiter woken by that next commit reads nothing more."""
    table = Table(client, 4)
    await table.open()
    recorder = await other(apply=False)
    b = await other(apply=False)
    start = await b.cache.get(table.match_id)
    b.cache.forget(table.match_id)  # as the empty carry of a join's commit does
    b.reads.held.clear()
    reading = asyncio.create_task(b.cache.get(table.match_id, at_least=start.row["events_total"]))
    await asyncio.wait_for(b.reads.reading.wait(), 5)  # it has read `start`'s version, and not handed it back yet
    b.reads.allowed = False
    await _turn(table)
    await _until(lambda: len(recorder.carries) == 1)
    b.cache.carried(table.match_id, recorder.carries[0])  # arrives during the read
    woken = asyncio.create_task(b.cache.get(table.match_id, at_least=start.row["events_total"] + 1))
    await _holds(woken, "the waiter holds for the read under way")
    b.reads.held.set()
    await _gets_as_read(app, b, woken, start.version + 1)
    assert (await asyncio.wait_for(reading, 5)).version >= start.version


async def test_first_reads_of_a_match_at_once_share_one_read_of_it(
        client: httpx.AsyncClient, other: Callable[..., Any]) -> None:
    """The seats of a table just dealt all ask at once; each checks the version, and the match is read once for
    all of them (a read under way is what a carry arriving meanwhile is kept for)."""
    table = Table(client, 4)
    await table.open()
    b = await other()
    b.reads.held.clear()  # the three version checks read, then wait together
    asking = [asyncio.create_task(b.cache.get(table.match_id)) for _ in range(3)]
    await _until(lambda: b.reads.count == 3)
    b.reads.held.set()
    got = await asyncio.wait_for(asyncio.gather(*asking), 5)
    assert {entry.version for entry in got} == {got[0].version}
    assert b.reads.count == 3 + 1, "three version checks, then one read of the match shared by the three"


async def test_a_notification_too_long_to_carry_still_wakes_and_the_waiter_reads(
        app: FastAPI, other: Callable[..., Any]) -> None:
    b = await other()
    runtime = app.state.runtime
    waiting = asyncio.create_task(b.notifier.wait("m-long", 0, 5))
    async with runtime.db.writer() as session:
        await runtime.notifier.stage(session, "m-long", 7, None, "1 " + "字" * 3000)  # 9,000 bytes
    assert await asyncio.wait_for(waiting, 5) == 7
    assert b.carries == []


async def test_the_carry_reaches_a_listener_before_the_wake_up_of_its_commit(
        app: FastAPI, client: httpx.AsyncClient) -> None:
    """The receiving process relies on it: the cache moves on before the waiters wake."""
    table = Table(client, 4)
    await table.open()
    heard: list[tuple[str, str]] = []
    listener = await asyncpg.connect(make_url(app.state.runtime.settings.database_url)
                                     .set(drivername="postgresql").render_as_string(False))
    try:
        for channel in (CARRY_CHANNEL, CHANNEL):
            await listener.add_listener(channel, lambda _c, _p, channel, payload: heard.append((channel, payload)))
        for _ in range(3):
            await _turn(table)
        await _until(lambda: sum(channel == CHANNEL for channel, _ in heard) >= 3)
    finally:
        await listener.close()
    mine = [(channel, payload) for channel, payload in heard if table.match_id in payload.split(" ")[0]]
    assert [channel for channel, _ in mine] == [CARRY_CHANNEL, CHANNEL] * 3
    for (_, carried), (_, woke) in zip(mine[::2], mine[1::2], strict=True):
        seq = int(woke.split(":")[2])
        assert carried.split(" ", 2)[2].startswith("{") and f'"events_total":{seq}' in carried


async def test_a_revoked_play_token_drops_the_other_process_copy_of_the_seats(
        app: FastAPI, client: httpx.AsyncClient, other: Callable[..., Any]) -> None:
    """A suspended agent's seat gets a new play token without a new seat; another process that kept its seats would
    go on accepting the old token. The commit tells it to drop its copy, and its next read has the new digest."""
    table = Table(client, 4)
    await table.open()
    b = await other()
    before = await b.cache.get(table.match_id)
    assert await matches.vacate(app.state.runtime, table.match_id, before.seats[1]["agent_id"]) == "conceded"
    await _until(lambda: b.carries[-1:] == [""])
    assert b.cache.seats(table.match_id, before.row["seats_taken"]) is None
    after = await b.cache.get(table.match_id)
    assert after.seats[1]["play_token_hash"] != before.seats[1]["play_token_hash"]
    assert after.seats[0] == before.seats[0]
