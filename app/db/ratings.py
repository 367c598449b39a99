"""Every query about ratings: per-agent ratings, side anchors, the history, and the rated matches to replay."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Agent, AgentRating, Match, RatingAnchor, RatingChange


async def ratings(session: AsyncSession, game: str, agent_ids: list[str], *,
                  lock: bool = False) -> dict[str, AgentRating]:
    if not agent_ids:
        return {}
    query = select(AgentRating).where(AgentRating.game == game, AgentRating.agent_id.in_(agent_ids))
    if lock:
        query = query.with_for_update()
    return {row.agent_id: row for row in (await session.execute(query)).scalars()}


async def all_ratings(session: AsyncSession, agent_ids: list[str]) -> dict[str, list[AgentRating]]:
    by_agent: dict[str, list[AgentRating]] = {agent_id: [] for agent_id in agent_ids}
    if agent_ids:
        query = select(AgentRating).where(AgentRating.agent_id.in_(agent_ids)).order_by(AgentRating.game)
        for row in (await session.execute(query)).scalars():
            by_agent[row.agent_id].append(row)
    return by_agent


async def anchors(session: AsyncSession, game: str, composition: str, *, lock: bool = False) -> dict[
        str, RatingAnchor]:
    query = select(RatingAnchor).where(RatingAnchor.game == game, RatingAnchor.composition == composition)
    if lock:
        query = query.with_for_update()
    return {row.side: row for row in (await session.execute(query)).scalars()}


async def history(session: AsyncSession, agent_id: str, game: str) -> list[RatingChange]:
    query = (select(RatingChange).where(RatingChange.agent_id == agent_id, RatingChange.game == game)
             .order_by(RatingChange.id))
    return list((await session.execute(query)).scalars())


async def ladder(session: AsyncSession, game: str, limit: int) -> list[tuple[Agent, AgentRating]]:
    """The rated agents of `game`, best conservative rating first (then oldest agent first)."""
    query = (select(Agent, AgentRating).join(AgentRating, AgentRating.agent_id == Agent.agent_id)
             .where(AgentRating.game == game, Agent.suspended.is_(None))
             .order_by(AgentRating.conservative.desc(), Agent.created_at.asc()).limit(limit))
    return [(agent, rating) for agent, rating in (await session.execute(query)).all()]


async def finished_matches(session: AsyncSession) -> list[Match]:
    """Every finished match, in the order they ended: by finish time, then id (rebuild judges each again)."""
    query = select(Match).where(Match.status == "finished").order_by(Match.finished_at, Match.match_id)
    return list((await session.execute(query)).scalars())


async def pairing_rated_since(session: AsyncSession, game: str, pairing: str, since: datetime,
                              match_id: str) -> bool:
    """A rated match of `game` with this `pairing` finished since `since` (other than `match_id`)."""
    query = (select(Match.match_id).where(Match.game == game, Match.pairing == pairing, Match.rated.is_(True),
                                          Match.finished_at >= since, Match.match_id != match_id).limit(1))
    return (await session.execute(query)).first() is not None


async def ensure(session: AsyncSession, rows: list[AgentRating] | list[RatingAnchor]) -> None:
    """Insert these rows where none exists yet (first rated match of an agent or a composition), so that the
    following `FOR UPDATE` read finds and locks every one of them even when two matches end at once."""
    if not rows:
        return
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    model = type(rows[0])
    columns = [c.key for c in model.__table__.columns]
    values = [{c: getattr(row, c) for c in columns} for row in rows]
    await session.execute(dialect.insert(model).values(values).on_conflict_do_nothing())


async def forget_all(session: AsyncSession) -> None:
    """Drop every rating, anchor and history row (rebuild recomputes them)."""
    for table in (RatingChange, AgentRating, RatingAnchor):
        await session.execute(delete(table))
