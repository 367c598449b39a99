"""Who may write to a PostgreSQL database: any number of shared-mode processes, or one single-process one.

A single-process server (`WODI_SINGLE_PROCESS=true`) serves its cache without asking the database, which is
right only while no other process writes. So at start-up it takes advisory lock `WRITERS_LOCK` exclusively and
every shared-mode process takes it shared, each on a connection of its own held for the process's life: whichever
process would break the rule fails to start, saying why in one line. Nothing is taken or released afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import asyncpg

from app.services.delivery.pg_notifier import asyncpg_dsn

log = logging.getLogger("wodi.writers")
WRITERS_LOCK = 0x57_0D_50_2E
REFUSED = {
    True: "WODI_SINGLE_PROCESS=true, but another Wodi server process is using this database: stop it first",
    False: "a Wodi server process with WODI_SINGLE_PROCESS=true is using this database: stop it first, or "
           "run it with WODI_SINGLE_PROCESS=false",
}


class DatabaseInUse(RuntimeError):
    """Start-up refused: the database is held by a process of the other mode (or by another single process)."""


async def hold_writers_lock(database_url: str, single: bool,
                            on_lost: Callable[[asyncpg.Connection], None]) -> asyncpg.Connection:
    """Take `WRITERS_LOCK` (exclusively when `single`) without waiting, or raise `DatabaseInUse`; the returned
    connection holds it until closed. `on_lost`: the connection (and with it the lock) went away."""
    conn = await asyncpg.connect(asyncpg_dsn(database_url), server_settings={"application_name": "wodi-writers"})
    take = "SELECT pg_try_advisory_lock($1)" if single else "SELECT pg_try_advisory_lock_shared($1)"
    if not await conn.fetchval(take, WRITERS_LOCK):
        await conn.close()
        log.error(REFUSED[single])
        raise DatabaseInUse(REFUSED[single])
    conn.add_termination_listener(on_lost)
    return conn
