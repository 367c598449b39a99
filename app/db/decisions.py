"""Every query about decisions (what seats were shown and sent, and the usage they reported)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, Text, bindparam, case, func, insert, select
from sqlalchemy import cast as sql_cast
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


@dataclass(frozen=True)
class Figures:
    """What one agent's decisions in one match add to its record: its reliability — turns (accepted decisions
    taken while its seat was due) and refusals; None if it took or was refused none — and the usage it reported
    (None: it reported none)."""

    reliability: tuple[int, int] | None
    spent: Spent | None


def reported_usage() -> Any:
    """A decision that reported usage. A decision without stores JSON `null`, which SQL's `IS NOT NULL` counts."""
    return Decision.usage.is_not(None) & (sql_cast(Decision.usage, Text) != "null")


def _figures_query() -> Any:
    reported = reported_usage()
    acted = func.sum(case((Decision.outcome.in_(("accepted", "refused")), 1), else_=0))
    turns = func.sum(case(((Decision.outcome == "accepted") & Decision.due, 1), else_=0))
    refusals = func.sum(case((Decision.outcome == "refused", 1), else_=0))
    spent = [func.sum(case((reported, column))) for column in
             (Decision.input_tokens, Decision.output_tokens, Decision.cost_usd)]
    return (select(Decision.agent_id, acted, turns, refusals, func.sum(case((reported, 1), else_=0)), *spent)
            .where(Decision.match_id == bindparam("match_id"), Decision.by == "agent", Decision.agent_id.is_not(None))
            .group_by(Decision.agent_id))


_FIGURES = _figures_query()  # built once: constructing it cost more than running it


async def figures_in(session: AsyncSession, match_id: str) -> dict[str, Figures]:
    """Per agent of one match, with one query: its reliability (if it took or was refused any decision) and its
    usage (if it reported any). Agents with neither are left out."""
    figures: dict[str, Figures] = {}
    rows = (await session.execute(_FIGURES, {"match_id": match_id})).all()
    for agent_id, acted, turns, refusals, n, tin, tout, cost in rows:
        spent = Spent(int(n), int(tin or 0), int(tout or 0), float(cost or 0.0)) if n else None
        if acted or spent is not None:
            figures[str(agent_id)] = Figures((int(turns or 0), int(refusals or 0)) if acted else None, spent)
    return figures


def usage_counts(spent: Spent, *, won: bool) -> dict[str, float]:
    """What one finished match's usage adds to the agent's totals (`agents_repo.add_counts` writes it)."""
    return {"input_tokens": spent.input_tokens, "output_tokens": spent.output_tokens, "cost_usd": spent.cost_usd,
            "usage_games": 1, "usage_wins": int(won)}
