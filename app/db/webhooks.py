"""Every query about webhooks and their delivery queue."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Seat, Webhook, WebhookDelivery

DELIVERIES = cast(Table, WebhookDelivery.__table__)


async def for_agent(session: AsyncSession, agent_id: str) -> list[Webhook]:
    query = select(Webhook).where(Webhook.agent_id == agent_id).order_by(Webhook.created_at)
    return list((await session.execute(query)).scalars())


async def count_for_agent(session: AsyncSession, agent_id: str) -> int:
    query = select(func.count()).select_from(Webhook).where(Webhook.agent_id == agent_id)
    return int((await session.execute(query)).scalar_one())


async def get(session: AsyncSession, webhook_id: str) -> Webhook | None:
    return await session.get(Webhook, webhook_id)


async def remove(session: AsyncSession, agent_id: str, webhook_id: str) -> bool:
    result = await session.execute(delete(Webhook).where(Webhook.webhook_id == webhook_id,
                                                         Webhook.agent_id == agent_id))
    return bool(getattr(result, "rowcount", 0))


async def agents_with_webhooks(session: AsyncSession) -> set[str]:
    rows = await session.execute(select(Webhook.agent_id).where(Webhook.enabled.is_(True)).distinct())
    return {str(agent) for agent in rows.scalars()}


async def seated_hooks(session: AsyncSession, match_id: str) -> list[tuple[int, str, list[str]]]:
    """(seat, webhook_id, events) of every enabled webhook of an agent seated in the match."""
    rows = (await session.execute(_SEATED_HOOKS, {"match_id": match_id})).all()
    return [(int(seat), str(hook), list(events)) for seat, hook, events in rows]


# Built once (on PostgreSQL every command asks): constructing it cost more than running it.
_SEATED_HOOKS = (select(Seat.seat, Webhook.webhook_id, Webhook.events)
                 .join(Webhook, Webhook.agent_id == Seat.agent_id)
                 .where(Seat.match_id == bindparam("match_id"), Webhook.enabled.is_(True)))


async def enqueue(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Queue deliveries inside the caller's transaction (so they commit, or vanish, with what they report)."""
    if rows:
        await session.execute(insert(DELIVERIES), list(rows))


async def claim_due(session: AsyncSession, now: float, lease_until: float, limit: int) -> list[WebhookDelivery]:
    """Take up to `limit` due pending deliveries: lock them (`SKIP LOCKED`, so two processes never take the same
    one; SQLite has a single writer anyway) and push their `next_attempt_at` to `lease_until`, which is when
    another sender may try again should this process die while sending."""
    query = (select(WebhookDelivery).where(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now)
             .order_by(WebhookDelivery.next_attempt_at).limit(limit).with_for_update(skip_locked=True))
    due = list((await session.execute(query)).scalars())
    for delivery in due:
        delivery.next_attempt_at = lease_until
    return due


async def next_due(session: AsyncSession) -> float | None:
    query = select(func.min(WebhookDelivery.next_attempt_at)).where(WebhookDelivery.status == "pending")
    value = (await session.execute(query)).scalar_one_or_none()
    return float(value) if value is not None else None


async def finish(session: AsyncSession, delivery_id: str, values: dict[str, Any]) -> None:
    await session.execute(update(WebhookDelivery).where(WebhookDelivery.delivery_id == delivery_id).values(values))


async def record_attempt(session: AsyncSession, webhook_id: str, values: dict[str, Any]) -> None:
    await session.execute(update(Webhook).where(Webhook.webhook_id == webhook_id).values(values))


async def disable_if_failing_since(session: AsyncSession, webhook_id: str, before: datetime, reason: str) -> bool:
    """Disable the webhook if it has been failing since before `before`; True when this call disabled it."""
    result = await session.execute(update(Webhook).where(
        Webhook.webhook_id == webhook_id, Webhook.enabled.is_(True), Webhook.failing_since < before,
    ).values(enabled=False, disabled_reason=reason))
    return bool(getattr(result, "rowcount", 0))


async def drop_pending(session: AsyncSession, webhook_id: str, reason: str, at: datetime) -> None:
    """A disabled webhook's queue is closed: its pending deliveries fail with `reason`."""
    await session.execute(update(WebhookDelivery)
                          .where(WebhookDelivery.webhook_id == webhook_id, WebhookDelivery.status == "pending")
                          .values(status="failed", last_error=reason, finished_at=at))


async def recent_deliveries(session: AsyncSession, webhook_id: str, limit: int) -> list[WebhookDelivery]:
    query = (select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
             .order_by(WebhookDelivery.created_at.desc()).limit(limit))
    return list((await session.execute(query)).scalars())


async def purge_finished(session: AsyncSession, before: datetime) -> int:
    """Forget deliveries that ended (delivered, failed, expired) before `before`."""
    result = await session.execute(delete(WebhookDelivery).where(
        WebhookDelivery.status != "pending",
        or_(WebhookDelivery.finished_at < before, WebhookDelivery.finished_at.is_(None))))
    return int(getattr(result, "rowcount", 0) or 0)
