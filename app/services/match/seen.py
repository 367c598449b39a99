"""A read by a quick start's person marks its seat seen (`app.services.match.presence` says how often)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from app.db import matches as repo
from app.protocol.viewer import Viewer
from app.services.match.match_cache import CachedMatch
from app.services.match.quick_end import PERSON
from app.services.match.shell import Shell

log = logging.getLogger("wodi.presence")


async def seen(shell: Shell, cached: CachedMatch, viewer: Viewer) -> None:
    """A read by `viewer`: mark the person's seat of a running quick start seen (a failure only logs)."""
    row = cached.row
    if viewer.role != "player_agent" or viewer.seat != PERSON or not row.get("fill_now"):
        return
    now = shell.clock()
    if row["status"] != "in_progress" or not shell.presence.due(cached.match_id, PERSON, now):
        return
    try:
        async with shell.db.writer() as session:
            await repo.seat_seen(session, cached.match_id, PERSON, datetime.fromtimestamp(now, UTC))
    except Exception:
        log.exception("marking the person of %s seen failed; the next read tries again", cached.match_id)
