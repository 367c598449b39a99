"""Every query about benchmark runs and their matches."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Benchmark, BenchmarkGame, Match

RUNNING = "running"


async def get(session: AsyncSession, benchmark_id: str, *, lock: bool = False) -> Benchmark | None:
    query = select(Benchmark).where(Benchmark.benchmark_id == benchmark_id)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def running_of(session: AsyncSession, agent_id: str) -> Benchmark | None:
    query = select(Benchmark).where(Benchmark.agent_id == agent_id, Benchmark.status == RUNNING).limit(1)
    return (await session.execute(query)).scalar_one_or_none()


async def running_ids(session: AsyncSession) -> list[str]:
    query = select(Benchmark.benchmark_id).where(Benchmark.status == RUNNING)
    return list((await session.execute(query)).scalars())


async def of_agent(session: AsyncSession, agent_id: str, limit: int) -> list[Benchmark]:
    query = (select(Benchmark).where(Benchmark.agent_id == agent_id)
             .order_by(Benchmark.created_at.desc()).limit(limit))
    return list((await session.execute(query)).scalars())


async def games(session: AsyncSession, benchmark_id: str) -> list[BenchmarkGame]:
    query = select(BenchmarkGame).where(BenchmarkGame.benchmark_id == benchmark_id).order_by(
        BenchmarkGame.idx, BenchmarkGame.kind)
    return list((await session.execute(query)).scalars())


async def of_match(session: AsyncSession, match_id: str) -> BenchmarkGame | None:
    query = select(BenchmarkGame).where(BenchmarkGame.match_id == match_id)
    return (await session.execute(query)).scalar_one_or_none()


async def matches(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, Match]:
    if not match_ids:
        return {}
    rows = await session.execute(select(Match).where(Match.match_id.in_(match_ids)))
    return {m.match_id: m for m in rows.scalars()}
