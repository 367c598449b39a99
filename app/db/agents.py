"""Every query about agents."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Integer, Table, bindparam, case, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Agent, AgentSideStat


async def by_name(session: AsyncSession, name: str) -> Agent | None:
    return (await session.execute(select(Agent).where(Agent.name == name))).scalar_one_or_none()


async def by_key_hash(session: AsyncSession, key_hash: str) -> Agent | None:
    return (await session.execute(select(Agent).where(Agent.api_key_hash == key_hash))).scalar_one_or_none()


async def insert_unless_named(session: AsyncSession, values: Mapping[str, Any]) -> bool:
    """INSERT an agent row unless its name is taken (`ON CONFLICT (name) DO NOTHING`: on PostgreSQL a row another
    transaction is inserting under that name is waited for, never duplicated); whether it was inserted."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(Agent).values(**values).on_conflict_do_nothing(index_elements=["name"])
    return bool((await session.execute(statement.returning(Agent.agent_id))).first())


_BY_ID = select(Agent).where(Agent.agent_id == bindparam("agent_id"))  # built once: every join and room asks
_BY_ID_LOCKED = _BY_ID.with_for_update()


async def by_id(session: AsyncSession, agent_id: str, *, lock: bool = False) -> Agent | None:
    query = _BY_ID_LOCKED if lock else _BY_ID
    return (await session.execute(query, {"agent_id": agent_id})).scalar_one_or_none()


async def by_ids(session: AsyncSession, agent_ids: list[str]) -> dict[str, Agent]:
    if not agent_ids:
        return {}
    rows = await session.execute(select(Agent).where(Agent.agent_id.in_(agent_ids)))
    return {agent.agent_id: agent for agent in rows.scalars()}


async def leaderboard(session: AsyncSession, limit: int, *, played_only: bool = False) -> list[Agent]:
    """§4.5's board (every agent, zero games included); `played_only`: the agents with a finished game (pages)."""
    played = Agent.wins + Agent.losses + Agent.draws
    win_rate = case((played > 0, Agent.wins * 1.0 / played), else_=-1.0)
    query = select(Agent).where(Agent.is_human.is_(False), Agent.suspended.is_(None))
    if played_only:
        query = query.where(played > 0)
    query = (query
             .order_by(Agent.wins.desc(), win_rate.desc(), Agent.created_at.asc()).limit(limit))
    return list((await session.execute(query)).scalars())


async def set_last_seen(session: AsyncSession, agent_id: str, at: datetime) -> None:
    await session.execute(update(Agent).where(Agent.agent_id == agent_id).values(last_seen_at=at))


async def add_stats(session: AsyncSession, agent_id: str, **increments: int) -> None:
    """Increment counters in SQL, so concurrent finishes never lose an update."""
    values = {name: getattr(Agent, name) + amount for name, amount in increments.items()}
    await session.execute(update(Agent).where(Agent.agent_id == agent_id).values(**values))


_COUNTS: dict[tuple[str, ...], Any] = {}


async def add_counts(session: AsyncSession, counts: Mapping[str, Mapping[str, float]]) -> None:
    """Add to several agents' counters at once (`{agent_id: {column: amount}}`): one statement, sent for every
    agent together, each adding in SQL so concurrent finishes never lose an update."""
    rows = {agent_id: added for agent_id, amounts in counts.items()
            if (added := {name: amount for name, amount in amounts.items() if amount})}
    if not rows:
        return
    names = tuple(sorted({name for amounts in rows.values() for name in amounts}))
    statement = _COUNTS.get(names)
    if statement is None:  # one per set of counters, built once: constructing it cost more than running it
        agents = cast(Table, Agent.__table__)
        statement = _COUNTS[names] = update(agents).where(agents.c.agent_id == bindparam("counted_agent")).values(
            {name: agents.c[name] + bindparam(f"add_{name}", type_=agents.c[name].type) for name in names})
    await session.execute(statement, [{"counted_agent": agent_id, **{f"add_{name}": amounts.get(name, 0)
                                                                    for name in names}}
                                      for agent_id, amounts in sorted(rows.items())])


def _side_upsert(dialect: Any) -> Any:
    insert = dialect.insert(AgentSideStat).values(
        agent_id=bindparam("agent_id"), game=bindparam("game"), side=bindparam("side"), games=1,
        wins=bindparam("wins", type_=Integer))
    return insert.on_conflict_do_update(
        index_elements=["agent_id", "game", "side"],
        set_={"games": AgentSideStat.games + 1, "wins": AgentSideStat.wins + insert.excluded.wins})


# Built once per dialect: constructing the upsert cost more than running it.
_SIDE_UPSERTS = {"postgresql": _side_upsert(postgresql), "sqlite": _side_upsert(sqlite)}


async def add_side_stats(session: AsyncSession, game: str, finished: Sequence[tuple[str, str, bool]]) -> None:
    """For each (agent, side, won) of one match (an agent at most once): one more finished match on (game, side),
    and a win if won. An upsert, so concurrent finishes add up."""
    if not finished:
        return
    upsert = _SIDE_UPSERTS["postgresql" if session.get_bind().dialect.name == "postgresql" else "sqlite"]
    await session.execute(upsert, [{"agent_id": agent_id, "game": game, "side": side, "wins": int(won)}
                                   for agent_id, side, won in finished])


async def side_stats(session: AsyncSession, agent_ids: list[str]) -> dict[str, list[AgentSideStat]]:
    """Every (game, side) row of these agents, by agent id."""
    by_agent: dict[str, list[AgentSideStat]] = {agent_id: [] for agent_id in agent_ids}
    if agent_ids:
        rows = await session.execute(select(AgentSideStat).where(AgentSideStat.agent_id.in_(agent_ids))
                                     .order_by(AgentSideStat.game, AgentSideStat.side))
        for row in rows.scalars():
            by_agent[row.agent_id].append(row)
    return by_agent
