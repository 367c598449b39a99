"""The stack's floor: the cheapest requests FastAPI, uvicorn and SQLAlchemy (async) can answer, with Wodi's own
database handle (`app.db.database.Database`: SQLite's write lock taken on the loop, WAL, a fixed pool) and no
Wodi code above it — no key, no rules, no events beyond one row. `python -m tools.bench_floor` serves it under
uvicorn with the server's settings and measures each route's CPU per request.

Routes (the `{key}` is one of ten rows, as ten tables):
- `GET /bare` — the yardstick `tools.bench_cpu` divides by: a small JSON object;
- `POST /post/{key}` — a JSON body read and validated as FastAPI reads an action's, nothing written;
- `POST /empty/{key}` — that, and an empty write transaction (`BEGIN IMMEDIATE … COMMIT` on SQLite);
- `POST /append/{key}` — that, with the least a command can write: the row's sequence moved on (`UPDATE …
  RETURNING`) and one event row inserted — two statements;
- `POST /command/{key}` — the shape of Wodi's action transaction: the row read, one event inserted, the row
  updated — three statements, each through `AsyncSession.execute`;
- `POST /direct/{key}` — the same three statements the way Wodi's command path runs them (`app.db.direct`): SQL
  compiled once, run on the session's driver connection inside its transaction (on PostgreSQL the locked read
  stays on the session: it begins the transaction there).
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Body, FastAPI
from sqlalchemy import Column, Integer, MetaData, String, Table, Text, bindparam, delete, insert, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from app.db.database import Database
from app.main import GC_THRESHOLDS

TABLES = 10
metadata = MetaData()
rows = Table("floor_rows", metadata, Column("id", String, primary_key=True), Column("seq", Integer, nullable=False),
             Column("state", Text, nullable=False))
events = Table("floor_events", metadata, Column("row_id", String, primary_key=True),
               Column("seq", Integer, primary_key=True), Column("body", Text, nullable=False))
READ = select(rows.c.seq, rows.c.state).where(rows.c.id == bindparam("key")).with_for_update()  # SQLite: no-op
APPEND = insert(events)
UPDATE = update(rows).where(rows.c.id == bindparam("key")).values(seq=bindparam("seq"), state=bindparam("state"))
ADVANCE = update(rows).where(rows.c.id == bindparam("key")).values(seq=rows.c.seq + 1).returning(rows.c.seq)
Body_ = Body(description="an action's body, say `{\"type\": \"speak\", \"text\": \"…\"}`")
database = Database(os.environ.get("WODI_FLOOR_DATABASE_URL", "sqlite+aiosqlite:///floor.db"))


@asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    async with database.writer() as session:
        await (await session.connection()).run_sync(metadata.create_all)
        await session.execute(delete(events))
        await session.execute(delete(rows))
        await session.execute(insert(rows), [{"id": str(i), "seq": 0, "state": "{}"} for i in range(TABLES)])
    # As the server does once it has started (`app.main._tune_collector`): the collector's first generation less
    # often, and what start-up built frozen out of its view.
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()
    yield
    async with database.writer() as session:  # leave the run's database as it was found (PostgreSQL: the bench's)
        await (await session.connection()).run_sync(metadata.drop_all)
    await database.dispose()


app = FastAPI(lifespan=lifespan)


def _answer(seq: int) -> dict[str, Any]:
    return {"accepted": True, "seq": seq, "phase": "speaking"}


@app.get("/bare")
async def bare() -> dict[str, Any]:
    return {"ok": True, "seq": 1, "phase": "speaking"}


@app.post("/post/{key}")
async def post_only(key: str, body: dict[str, Any] = Body_) -> dict[str, Any]:
    return _answer(1)


@app.post("/empty/{key}")
async def empty(key: str, body: dict[str, Any] = Body_) -> dict[str, Any]:
    async with database.writer():
        pass
    return _answer(1)


@app.post("/append/{key}")
async def append(key: str, body: dict[str, Any] = Body_) -> dict[str, Any]:
    async with database.writer() as session:
        seq = (await session.execute(ADVANCE, {"key": key})).scalar_one()
        await session.execute(APPEND, {"row_id": key, "seq": seq, "body": str(body.get("text", ""))})
    return _answer(seq)


@app.post("/command/{key}")
async def command(key: str, body: dict[str, Any] = Body_) -> dict[str, Any]:
    async with database.writer() as session:
        seq, state = (await session.execute(READ, {"key": key})).one()
        await session.execute(APPEND, {"row_id": key, "seq": seq + 1, "body": str(body.get("text", ""))})
        await session.execute(UPDATE, {"key": key, "seq": seq + 1, "state": state})
    return _answer(seq + 1)


class _Sql:
    """A statement compiled once for the write engine's dialect, its parameters in the driver's order."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql, self.order = str(compiled), list(compiled.positiontup or ())

    def binds(self, values: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(values[name] for name in self.order)


_direct: dict[str, _Sql] = {}


async def _driver(session: AsyncSession) -> Any:
    return (await (await session.connection()).get_raw_connection()).driver_connection


@app.post("/direct/{key}")
async def direct(key: str, body: dict[str, Any] = Body_) -> dict[str, Any]:
    async with database.writer() as session:
        if not _direct:
            dialect = database._write_engine.dialect
            _direct.update(read=_Sql(READ, dialect), append=_Sql(APPEND.values(row_id=bindparam("key"),
                           seq=bindparam("seq"), body=bindparam("body")), dialect), update=_Sql(UPDATE, dialect))
        if database.is_sqlite:
            driver = await _driver(session)
            seq, state = (await driver.execute_fetchall(_direct["read"].sql, _direct["read"].binds({"key": key})))[0]
            await driver.execute(_direct["append"].sql, _direct["append"].binds(
                {"key": key, "seq": seq + 1, "body": str(body.get("text", ""))}))
            await driver.execute(_direct["update"].sql, _direct["update"].binds(
                {"key": key, "seq": seq + 1, "state": state}))
        else:
            seq, state = (await session.execute(READ, {"key": key})).one()
            driver = await _driver(session)
            await driver.execute(_direct["append"].sql, *_direct["append"].binds(
                {"key": key, "seq": seq + 1, "body": str(body.get("text", ""))}))
            await driver.execute(_direct["update"].sql, *_direct["update"].binds(
                {"key": key, "seq": seq + 1, "state": state}))
    return _answer(seq + 1)
