"""Every query about decisions (what seats were shown and sent, and the usage they reported)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, case, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.matches import direct_statements
from app.db.models import Decision


@dataclass(frozen=True)
class Spent:
    """The usage one agent reported in one match: decisions that reported any, tokens and cost."""

    reported: int
    input_tokens: int
    output_tokens: int
    cost_usd: float


DECISIONS = cast(Table, Decision.__table__)


async def add(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Write decision rows (`decisions.record`) with one statement: no unit of work on the command path."""
    if not rows:
        return
    fast = direct_statements(session)
    if fast is not None and await fast.add_decisions(session, rows):
        return
    await session.execute(insert(DECISIONS), list(rows))


async def of_match(session: AsyncSession, match_id: str, seat: int | None = None) -> list[Decision]:
    """A match's decisions (one seat's, or every seat's) in the order they were taken."""
    query = select(Decision).where(Decision.match_id == match_id)
    if seat is not None:
        query = query.where(Decision.seat == seat)
    return list((await session.execute(query.order_by(Decision.seat, Decision.id))).scalars())


async def of_matches(session: AsyncSession, match_ids: Sequence[str]) -> list[Decision]:
    """The decisions of several matches, by match, seat and order."""
    if not match_ids:
        return []
    query = select(Decision).where(Decision.match_id.in_(match_ids))
    return list((await session.execute(query.order_by(Decision.match_id, Decision.seat, Decision.id))).scalars())


async def reliability_in(session: AsyncSession, match_id: str) -> dict[str, tuple[int, int]]:
    """Per agent of one match: its turns (accepted decisions taken while its seat was due) and its refusals."""
    turns = func.sum(case(((Decision.outcome == "accepted") & Decision.due, 1), else_=0))
    refusals = func.sum(case((Decision.outcome == "refused", 1), else_=0))
    query = (select(Decision.agent_id, turns, refusals)
             .where(Decision.match_id == match_id, Decision.by == "agent", Decision.agent_id.is_not(None),
                    Decision.outcome.in_(("accepted", "refused")))
             .group_by(Decision.agent_id))
    return {str(agent_id): (int(t or 0), int(r or 0)) for agent_id, t, r in (await session.execute(query)).all()}


async def spent_in(session: AsyncSession, match_id: str) -> dict[str, Spent]:
    """Agent id → what its own decisions in the match reported (agents that reported nothing are left out)."""
    query = (select(Decision.agent_id, func.count(Decision.usage), func.sum(Decision.input_tokens),
                    func.sum(Decision.output_tokens), func.sum(Decision.cost_usd))
             .where(Decision.match_id == match_id, Decision.by == "agent", Decision.agent_id.is_not(None),
                    Decision.usage.is_not(None))
             .group_by(Decision.agent_id))
    return {str(agent_id): Spent(int(n), int(tin or 0), int(tout or 0), float(cost or 0.0))
            for agent_id, n, tin, tout, cost in (await session.execute(query)).all() if n}


def usage_counts(spent: Spent, *, won: bool) -> dict[str, float]:
    """What one finished match's usage adds to the agent's totals (`agents_repo.add_counts` writes it)."""
    return {"input_tokens": spent.input_tokens, "output_tokens": spent.output_tokens, "cost_usd": spent.cost_usd,
            "usage_games": 1, "usage_wins": int(won)}
