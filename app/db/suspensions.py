"""Every query about suspensions (the operator's moderation)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Agent, Match, Seat, Suspension
from app.db.types import utcnow

LIVE = ("waiting", "in_progress")


async def active(session: AsyncSession, subject: str, subject_id: str) -> Suspension | None:
    query = select(Suspension).where(Suspension.subject == subject, Suspension.subject_id == subject_id,
                                     Suspension.lifted_at.is_(None))
    return (await session.execute(query.limit(1))).scalar_one_or_none()


async def add(session: AsyncSession, subject: str, subject_id: str, name: str, reason: str) -> Suspension:
    row = Suspension(subject=subject, subject_id=subject_id, name=name, reason=reason, created_at=utcnow())
    session.add(row)
    await session.flush()
    return row


async def lift(session: AsyncSession, subject: str, subject_id: str, reason: str | None) -> datetime | None:
    """Mark the subject's active suspension lifted; its time, or None when there was none."""
    at = utcnow()
    done = await session.execute(update(Suspension).where(
        Suspension.subject == subject, Suspension.subject_id == subject_id, Suspension.lifted_at.is_(None))
        .values(lifted_at=at, lift_reason=reason))
    return at if getattr(done, "rowcount", 0) else None


async def listing(session: AsyncSession, *, include_lifted: bool, limit: int) -> list[Suspension]:
    query = select(Suspension).order_by(Suspension.id.desc()).limit(limit)
    if not include_lifted:
        query = query.where(Suspension.lifted_at.is_(None))
    return list((await session.execute(query)).scalars())


async def set_code(session: AsyncSession, agent_ids: list[str], code: str | None) -> None:
    if agent_ids:
        await session.execute(update(Agent).where(Agent.agent_id.in_(agent_ids)).values(suspended=code))


async def live_seats(session: AsyncSession, agent_ids: list[str]) -> list[tuple[str, str]]:
    """(match_id, agent_id) of every waiting or running match these agents sit in."""
    if not agent_ids:
        return []
    query = (select(Seat.match_id, Seat.agent_id).join(Match, Match.match_id == Seat.match_id)
             .where(Seat.agent_id.in_(agent_ids), Match.status.in_(LIVE)).order_by(Match.created_at))
    return [(match_id, agent_id) for match_id, agent_id in (await session.execute(query)).all() if agent_id]
