"""The owner's dashboards: their agents and their agents' matches."""

from __future__ import annotations

from typing import Any

from app.db import matches as match_repo
from app.db import owners as repo
from app.protocol.errors import ApiError
from app.services.identity import owners as owner_service
from app.services.match.shell import Shell


async def agents(shell: Shell, owner_id: str) -> dict[str, Any]:
    base = shell.settings.base_url
    async with shell.db.reader() as session:
        owner = await repo.by_id(session, owner_id)
        if owner is None:
            raise ApiError("login_required", "this session's owner no longer exists")
        rows = await repo.agents_of(session, owner_id)
    return {"owner": owner_service.owner_body(owner), "agents": [
        {"agent_id": a.agent_id, "name": a.name, "display_name": a.display_name, "wins": a.wins, "losses": a.losses,
         "draws": a.draws, "total_matches": a.wins + a.losses + a.draws, "profile_url": f"{base}/agents/{a.name}",
         "api_key_prefix": a.api_key_prefix, "claimed_at": a.claimed_at.isoformat() if a.claimed_at else None}
        for a in rows]}


async def matches(shell: Shell, owner_id: str, limit: int) -> dict[str, Any]:
    async with shell.db.reader() as session:
        mine = await repo.agent_ids_of(session, owner_id)
        found = await match_repo.matches_of_agents(session, sorted(mine), limit)
        seats = await match_repo.seats_of(session, [m.match_id for m in found])
    return {"matches": [
        {"match_id": m.match_id, "game": m.game, "status": m.status, "phase": m.phase,
         "created_at": m.created_at.isoformat(), "move_count": m.events_total,
         "invite_url": shell.settings.match_url(m.match_id), "result": m.result,
         "players": [{"seat": s.seat, "name": s.name, "agent_id": s.agent_id, "is_mine": s.agent_id in mine}
                     for s in seats[m.match_id]]}
        for m in found]}
