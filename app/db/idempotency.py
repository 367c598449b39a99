"""Every query about idempotency keys."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import IdempotentRequest


async def claim(session: AsyncSession, scope: str, key: str, fingerprint: str, now: datetime,
                expired: datetime, abandoned: datetime) -> None:
    """Insert the pending row, first clearing this key's expired answer or abandoned claim; the caller's commit
    raises `IntegrityError` when another request holds the key."""
    row = IdempotentRequest
    await session.execute(delete(row).where(
        row.scope == scope, row.idem_key == key,
        or_(row.created_at < expired, and_(row.status.is_(None), row.created_at < abandoned))))
    session.add(IdempotentRequest(scope=scope, idem_key=key, fingerprint=fingerprint, created_at=now))


async def get(session: AsyncSession, scope: str, key: str) -> IdempotentRequest | None:
    query = select(IdempotentRequest).where(IdempotentRequest.scope == scope, IdempotentRequest.idem_key == key)
    return (await session.execute(query)).scalar_one_or_none()


async def answer(session: AsyncSession, scope: str, key: str, status: int, response: dict[str, Any]) -> None:
    row = IdempotentRequest
    await session.execute(update(row).where(row.scope == scope, row.idem_key == key)
                          .values(status=status, response=response))


async def release(session: AsyncSession, scope: str, key: str) -> None:
    row = IdempotentRequest
    await session.execute(delete(row).where(row.scope == scope, row.idem_key == key, row.status.is_(None)))


async def purge(session: AsyncSession, before: datetime) -> int:
    """Delete every key older than `before`; returns how many."""
    result = await session.execute(delete(IdempotentRequest).where(IdempotentRequest.created_at < before))
    return int(getattr(result, "rowcount", 0) or 0)
