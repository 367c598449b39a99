"""Who sits down when a request takes a seat (create, join, quick start): identity.md §3.2 and issue 17.

In order: a Bearer key's agent; else a logged-in owner (session cookie, from one of our pages) as their own player
record; else a guest under the name in `player.name` (or `player.display_name`); else 400 `identity_required`.
"""

from __future__ import annotations

from fastapi import Request

from app.api.deps import client_ip, require_same_origin
from app.api.match_schemas import GUEST_NAME_MAX, PlayerInfo
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity import agents as agent_service
from app.services.identity import clients, people
from app.services.identity.agents import Agent
from app.services.match.seating import Sitter


async def sitter_of(request: Request, runtime: Runtime, agent: Agent | None, owner_id: str | None,
                    player: PlayerInfo | None) -> Sitter:
    """The sitter of a seat-taking request; every seat a person takes counts in the client IP's writes."""
    if agent is not None:
        await agent_service.mark_seen(runtime, agent)
        runtime.limiter.hit("writes", agent.agent_id, runtime.settings.rate_limit_writes_per_minute, 60)
        return Sitter(agent_id=agent.agent_id, client=clients.key_of(agent_id=agent.agent_id,
                                                                     agent_owner=agent.owner_id))
    runtime.limiter.hit("writes", f"ip:{client_ip(request)}", runtime.settings.rate_limit_writes_per_minute, 60)
    if owner_id is not None:
        require_same_origin(request, runtime)  # the cookie rides along on any request: only our pages may use it
        return Sitter(agent_id=await people.own_player_id(runtime, owner_id), client=clients.key_of(owner_id=owner_id))
    name = ((player.name or player.display_name) if player else None) or ""
    name = name.strip()
    if not name:
        raise ApiError("identity_required", "send Authorization: Bearer <api_key>, or play as a guest with "
                       "player.name (the name to show)", field="player.name")
    if len(name) > GUEST_NAME_MAX:
        raise ApiError("bad_request", f"player.name: at most {GUEST_NAME_MAX} characters", field="player.name")
    return Sitter(guest_name=name, client=clients.key_of(ip=client_ip(request)))
