"""Singleton jobs across processes (the lobby bot filler): whoever holds a PostgreSQL advisory lock runs it.

The lock lives on a dedicated connection, so a process that dies releases it and another takes over within a
few seconds. On SQLite (one process) the job simply runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import asyncpg

from app.services.delivery.pg_notifier import asyncpg_dsn

log = logging.getLogger("wodi.leader")
RETRY = 3.0


async def run_as_leader(database_url: str, key: int, job: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run `job` while this process holds advisory lock `key` (forever on SQLite); retry otherwise."""
    if database_url.startswith("sqlite"):
        await job()
        return
    dsn = asyncpg_dsn(database_url)
    while True:
        try:
            await _lead_once(dsn, key, job)
        except (OSError, asyncpg.PostgresError) as exc:
            log.warning("leadership connection failed (%s)", exc)
        await asyncio.sleep(RETRY)


async def _lead_once(dsn: str, key: int, job: Callable[[], Coroutine[Any, Any, None]]) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        if not await connection.fetchval("SELECT pg_try_advisory_lock($1)", key):
            return
        log.info("leading job %s", key)
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _conn: lost.set())
        task = asyncio.create_task(job())
        watcher = asyncio.create_task(lost.wait())
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
        for pending in (task, watcher):
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pending
    finally:
        if not connection.is_closed():
            await connection.close()
