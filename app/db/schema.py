"""The schema revision this code runs on, checked when a server starts.

A server started on a database that was not migrated (`alembic upgrade head`), or was migrated by another release,
would fail later, on the first request that touches what differs. It refuses to start instead, saying why in one
line. A test keeps `HEAD` equal to the newest file in `migrations/versions/`.
"""

from __future__ import annotations

import logging

from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger("wodi.schema")
HEAD = "0017_usage_games"


class SchemaMismatch(RuntimeError):
    """Start-up refused: the database's schema is not the one this release runs on."""


async def revision(engine: AsyncEngine) -> str | None:
    """The database's Alembic revision, or None when it was never migrated."""
    async with engine.connect() as conn:
        if not await conn.run_sync(lambda sync: inspect(sync).has_table("alembic_version")):
            return None
        return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one_or_none()


async def check(engine: AsyncEngine) -> None:
    """Raise `SchemaMismatch` (and log it) unless the database is at `HEAD`."""
    found = await revision(engine)
    if found == HEAD:
        return
    if found is None:
        message = (f"the database has no schema: run `alembic upgrade head` (`make migrate`) before starting the "
                   f"server (this release needs revision {HEAD})")
    else:
        message = (f"the database is at schema revision {found}, this release needs {HEAD}: stop every server "
                   f"process, run `alembic upgrade head` (`make migrate`), then start them (docs: operate/upgrading)")
    log.error(message)
    raise SchemaMismatch(message)
