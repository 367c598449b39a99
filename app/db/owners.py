"""Every query about owners (the humans behind agents)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Agent, Owner


async def by_username(session: AsyncSession, username: str) -> Owner | None:
    return (await session.execute(select(Owner).where(Owner.username == username))).scalar_one_or_none()


async def by_id(session: AsyncSession, owner_id: str) -> Owner | None:
    return await session.get(Owner, owner_id)


async def agents_of(session: AsyncSession, owner_id: str) -> list[Agent]:
    query = (select(Agent).where(Agent.owner_id == owner_id, Agent.is_human.is_(False))
             .order_by(Agent.created_at.desc()))
    return list((await session.execute(query)).scalars())


async def agent_ids_of(session: AsyncSession, owner_id: str) -> frozenset[str]:
    rows = await session.execute(select(Agent.agent_id).where(Agent.owner_id == owner_id))
    return frozenset(rows.scalars())


async def agent_by_claim_token(session: AsyncSession, token: str, *, lock: bool = False) -> Agent | None:
    query = select(Agent).where(Agent.claim_token == token)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def own_player(session: AsyncSession, owner_id: str) -> Agent | None:
    """The owner's own player record (`is_human`), if it was made."""
    query = select(Agent).where(Agent.owner_id == owner_id, Agent.is_human.is_(True))
    return (await session.execute(query)).scalar_one_or_none()
