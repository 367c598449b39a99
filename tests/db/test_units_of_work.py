"""`Database.reader` and `Database.writer` close their session without a task of their own when the unit of work
ended normally (nothing is left to roll back, so the close cannot suspend), and still return the connection to the
pool after an error or a cancellation."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.database import Database

Unit = Callable[[Database], AbstractAsyncContextManager[AsyncSession]]
UNITS: dict[str, Unit] = {"reader": lambda db: db.reader(), "writer": lambda db: db.writer()}


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A `Database` of the test's own: no background work of an app holds its connections."""
    own = Database(database_url)
    yield own
    await own.dispose()


@contextmanager
def _tasks_created(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every task created meanwhile, through `asyncio.create_task` or the loop's own `create_task`."""
    created: list[Any] = []
    loop = asyncio.get_running_loop()
    module_create, loop_create = asyncio.create_task, loop.create_task

    def counting_module(coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        created.append(coro)
        return module_create(coro, **kwargs)

    def counting_loop(coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        created.append(coro)
        return loop_create(coro, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(asyncio, "create_task", counting_module)
        patch.setattr(loop, "create_task", counting_loop)
        yield created


def _checked_out(db: Database) -> int:
    return sum(engine.pool.checkedout() for engine in {db.engine, db._write_engine})  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", sorted(UNITS))
async def test_a_unit_of_work_that_ends_normally_closes_without_a_task(
        db: Database, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    async with UNITS[kind](db) as session:  # the pool's connection is opened before counting
        await session.execute(text("SELECT 1"))
    with _tasks_created(monkeypatch) as created:
        async with UNITS[kind](db) as session:
            assert (await session.execute(text("SELECT 1"))).scalar_one() == 1
    assert created == [], f"the {kind} ran {created!r} in tasks of their own"
    assert _checked_out(db) == 0


@pytest.mark.parametrize("kind", sorted(UNITS))
async def test_a_unit_of_work_that_fails_returns_its_connection(db: Database, kind: str) -> None:
    with pytest.raises(RuntimeError, match="the caller's own error"):
        async with UNITS[kind](db) as session:
            await session.execute(text("SELECT 1"))
            raise RuntimeError("the caller's own error")
    assert _checked_out(db) == 0
    async with UNITS[kind](db) as session:  # and the pool serves the next one
        assert (await session.execute(text("SELECT 2"))).scalar_one() == 2


async def test_a_cancelled_write_is_rolled_back_and_returns_its_connection(db: Database) -> None:
    async with db.writer() as session:
        await session.execute(text("CREATE TABLE IF NOT EXISTS unit_probe (n INTEGER)"))
    inside = asyncio.Event()

    async def write() -> None:
        async with db.writer() as session:
            await session.execute(text("INSERT INTO unit_probe (n) VALUES (1)"))
            inside.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(write())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _checked_out(db) == 0
    async with db.reader() as session:
        assert (await session.execute(text("SELECT count(*) FROM unit_probe"))).scalar_one() == 0
    async with db.writer() as session:
        await session.execute(text("DROP TABLE unit_probe"))
