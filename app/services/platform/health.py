"""Readiness: the database answers."""

from __future__ import annotations

from app.protocol.errors import ApiError
from app.services.match.shell import Shell


async def database_ready(shell: Shell) -> str:
    """The database's dialect name once it answered a query; 503 `service_unavailable` if it does not."""
    try:
        await shell.db.ping()
    except Exception as exc:
        raise ApiError("service_unavailable", "database unreachable", reason=type(exc).__name__) from exc
    return shell.db.engine.dialect.name
