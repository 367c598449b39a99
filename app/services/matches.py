"""Match use cases."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.runtime import Runtime


async def active_for(session: AsyncSession, runtime: Runtime, agent_id: str) -> dict[str, Any] | None:
    return None
