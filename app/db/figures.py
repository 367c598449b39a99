"""The few counts an operator's dashboard reads from the database (`GET /metrics`): each one indexed."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, WebhookDelivery

LIVE = ("waiting", "in_progress")


@dataclass
class Figures:
    live: dict[tuple[str, str], int] = field(default_factory=dict)  # (game, status) → matches
    timers: int = 0
    webhook_queue: int = 0


async def live_counts(session: AsyncSession) -> dict[tuple[str, str], int]:
    """(game, status) → matches waiting or in progress."""
    rows = await session.execute(select(Match.game, Match.status, func.count()).where(Match.status.in_(LIVE))
                                 .group_by(Match.game, Match.status))
    return {(game, status): count for game, status, count in rows.all()}


async def read(session: AsyncSession) -> Figures:
    live = await live_counts(session)
    timers = await session.scalar(select(func.count()).select_from(Match).where(Match.timer_due.is_not(None)))
    queue = await session.scalar(select(func.count()).select_from(WebhookDelivery)
                                 .where(WebhookDelivery.status == "pending"))
    return Figures(live, timers or 0, queue or 0)
