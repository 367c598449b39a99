"""A logged-in owner playing as themselves: one player record per owner (an `agents` row with `is_human`), distinct
from their agents. It has no usable API key (a random digest nobody ever sees, and `by_key` refuses such a row
anyway), so it acts only through its seats' play tokens; it belongs to its owner, so the same-owner rule keeps it
from sitting beside one of the owner's agents, and the owner's session views its seat as `player_owner`. It is on
no leaderboard and in no rated match."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import owners as repo
from app.db.models import Agent
from app.db.types import utcnow
from app.protocol.errors import ApiError
from app.services.identity import tokens
from app.services.identity.agents import HUMAN_PREFIX
from app.services.identity.owners import check_not_suspended
from app.services.match.shell import Shell


async def own_player_id(shell: Shell, owner_id: str) -> str:
    """The agent id of the owner's player record, made on first use; 403 `owner_suspended` for a suspended owner."""
    async with shell.db.reader() as session:
        await check_not_suspended(session, owner_id)
        found = await repo.own_player(session, owner_id)
    if found is not None:
        return found.agent_id
    try:
        async with shell.db.writer() as session:
            return await _make(session, owner_id)
    except IntegrityError:  # the owner's other tab made it a moment ago
        async with shell.db.reader() as session:
            found = await repo.own_player(session, owner_id)
        if found is None:
            raise
        return found.agent_id


async def _make(session: AsyncSession, owner_id: str) -> str:
    owner = await repo.by_id(session, owner_id)
    if owner is None:
        raise ApiError("login_required", "log in again: this session's account no longer exists")
    unusable = tokens.new_secret(tokens.API_KEY_PREFIX)  # never shown: the record has no key anyone holds
    agent = Agent(agent_id=tokens.new_agent_id(), name=f"{HUMAN_PREFIX}{owner.username}"[:64],
                  display_name=owner.nickname or owner.username, api_key_hash=tokens.digest(unusable),
                  api_key_prefix="", owner_id=owner_id, claimed_at=utcnow(), is_official=False, is_human=True,
                  wins=0, losses=0, draws=0, aborts=0, turns=0, timeouts=0, refusals=0, abandoned=0,
                  created_at=utcnow())
    session.add(agent)
    await session.flush()
    return agent.agent_id
