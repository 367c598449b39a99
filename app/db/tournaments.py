"""Every query about tournaments, their entries and their tables."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Agent, Match, Tournament, TournamentEntry, TournamentTable, Webhook

ENTRY, RUNNING, FINISHED, CANCELLED = "entry", "running", "finished", "cancelled"
LIVE = (ENTRY, RUNNING)


async def get(session: AsyncSession, tournament_id: str, *, lock: bool = False,
              skip_locked: bool = False) -> Tournament | None:
    """With `lock`, held FOR UPDATE until the transaction ends (one process moves an event at a time); with
    `skip_locked`, a row another transaction holds reads as missing instead of waiting."""
    query = select(Tournament).where(Tournament.tournament_id == tournament_id)
    if lock:
        query = query.with_for_update(skip_locked=skip_locked)
    return (await session.execute(query)).scalar_one_or_none()


async def listed(session: AsyncSession, statuses: Sequence[str], limit: int) -> list[Tournament]:
    query = (select(Tournament).where(Tournament.status.in_(statuses))
             .order_by(Tournament.starts_at.desc()).limit(limit))
    return list((await session.execute(query)).scalars())


async def live_ids(session: AsyncSession) -> list[str]:
    query = select(Tournament.tournament_id).where(Tournament.status.in_(LIVE))
    return list((await session.execute(query)).scalars())


async def due(session: AsyncSession, now: float, limit: int = 50) -> list[str]:
    query = (select(Tournament.tournament_id).where(Tournament.due.is_not(None), Tournament.due <= now)
             .order_by(Tournament.due).limit(limit))
    return list((await session.execute(query)).scalars())


async def next_due(session: AsyncSession) -> float | None:
    return (await session.execute(select(func.min(Tournament.due)))).scalar_one_or_none()


async def entries(session: AsyncSession, tournament_id: str) -> list[TournamentEntry]:
    query = (select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id)
             .order_by(TournamentEntry.number))
    return list((await session.execute(query)).scalars())


async def entry(session: AsyncSession, tournament_id: str, agent_id: str) -> TournamentEntry | None:
    query = select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id,
                                          TournamentEntry.agent_id == agent_id)
    return (await session.execute(query)).scalar_one_or_none()


async def tables(session: AsyncSession, tournament_id: str) -> list[TournamentTable]:
    query = (select(TournamentTable).where(TournamentTable.tournament_id == tournament_id)
             .order_by(TournamentTable.round, TournamentTable.idx))
    return list((await session.execute(query)).scalars())


async def of_match(session: AsyncSession, match_id: str) -> TournamentTable | None:
    query = select(TournamentTable).where(TournamentTable.match_id == match_id)
    return (await session.execute(query)).scalar_one_or_none()


async def agents(session: AsyncSession, agent_ids: Sequence[str], *, lock: bool = False) -> dict[str, Agent]:
    """`lock`: the rows locked as a join locks its agent's row (one agent's seatings one at a time), in id order and
    without waiting: a row another transaction holds raises (PostgreSQL's `55P03`) instead of queueing behind it."""
    if not agent_ids:
        return {}
    query = select(Agent).where(Agent.agent_id.in_(agent_ids))
    rows = await session.execute(query.order_by(Agent.agent_id).with_for_update(nowait=True) if lock else query)
    return {a.agent_id: a for a in rows.scalars()}


async def hooks_for(session: AsyncSession, agent_ids: Sequence[str], event: str) -> list[tuple[str, str]]:
    """(agent id, webhook id) of the enabled webhooks of `agent_ids` that take `event`."""
    if not agent_ids:
        return []
    query = select(Webhook).where(Webhook.agent_id.in_(agent_ids), Webhook.enabled.is_(True))
    return [(h.agent_id, h.webhook_id) for h in (await session.execute(query)).scalars() if event in h.events]


async def matches(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, Match]:
    if not match_ids:
        return {}
    rows = await session.execute(select(Match).where(Match.match_id.in_(match_ids)))
    return {m.match_id: m for m in rows.scalars()}
