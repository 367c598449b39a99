"""The owner's dashboards: their agents and their agents' matches."""

from __future__ import annotations

from typing import Any

from app.db import agents as agents_repo
from app.db import matches as match_repo
from app.db import owners as repo
from app.protocol.errors import ApiError
from app.services.identity import agents as agent_service
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


async def rotate_key(shell: Shell, owner_id: str, name: str) -> dict[str, Any]:
    """A new API key for one of the owner's agents (a leaked key, an agent whose key was lost): the old key is
    refused everywhere once this returns, and the new one is shown once. 404 `agent_not_found` for an agent the
    owner has not claimed (or its own player record, which has no key)."""
    async with shell.db.reader() as session:
        await owner_service.check_not_suspended(session, owner_id)
        agent = await agents_repo.by_name(session, name.strip().lower())
    if agent is None or agent.owner_id != owner_id or agent.is_human:
        raise ApiError("agent_not_found", f"no agent {name!r} among yours")
    key, prefix = await agent_service.rotate(shell, agent.agent_id)
    return {"name": agent.name, "api_key": key, "api_key_prefix": prefix}


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
