"""Every query about spectators' guesses (`spectator_guesses`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Owner, SpectatorGuess
from app.db.types import utcnow


async def put(session: AsyncSession, match_id: str, owner_id: str, round_no: int, seats: Sequence[int]) -> None:
    """The spectator's guess for this round: a new row, or the round's earlier guess replaced (row-locked)."""
    query = select(SpectatorGuess).where(SpectatorGuess.match_id == match_id, SpectatorGuess.owner_id == owner_id,
                                         SpectatorGuess.round == round_no).with_for_update()
    row = (await session.execute(query)).scalar_one_or_none()
    if row is None:
        session.add(SpectatorGuess(match_id=match_id, owner_id=owner_id, round=round_no, seats=list(seats),
                                   made_at=utcnow()))
    else:
        row.seats, row.made_at = list(seats), utcnow()
    await session.flush()


async def of_match(session: AsyncSession, match_id: str, owner_id: str | None = None) -> list[SpectatorGuess]:
    """The match's guesses (one spectator's with `owner_id`), oldest first."""
    query = select(SpectatorGuess).where(SpectatorGuess.match_id == match_id)
    if owner_id is not None:
        query = query.where(SpectatorGuess.owner_id == owner_id)
    return list((await session.execute(query.order_by(SpectatorGuess.round, SpectatorGuess.id))).scalars())


# Built once (every match's end asks, and most matches have no guesses): constructing them cost more than running.
_TO_SCORE = select(SpectatorGuess.id, SpectatorGuess.seats).where(SpectatorGuess.match_id == bindparam("match_id"))
_GUESSES = cast(Table, SpectatorGuess.__table__)
_SCORED = (update(_GUESSES).where(_GUESSES.c.id == bindparam("guess"))  # Core: one statement for many rows
           .values(hits=bindparam("hits"), misses=bindparam("misses")))


async def score(session: AsyncSession, match_id: str, hidden: frozenset[int]) -> int:
    """Mark every guess of the ended match with its hits and misses; how many there were."""
    rows = (await session.execute(_TO_SCORE, {"match_id": match_id})).all()
    if rows:
        await session.execute(_SCORED, [{"guess": guess, "hits": len(set(seats) & hidden),
                                         "misses": len(set(seats) - hidden)} for guess, seats in rows])
    return len(rows)


async def names(session: AsyncSession, owner_ids: Sequence[str]) -> Mapping[str, Owner]:
    if not owner_ids:
        return {}
    rows = await session.execute(select(Owner).where(Owner.owner_id.in_(owner_ids)))
    return {owner.owner_id: owner for owner in rows.scalars()}


async def board(session: AsyncSession, limit: int) -> list[dict[str, Any]]:
    """Spectators by points (hits − misses over every scored guess), then hits, then fewer guesses."""
    points = func.sum(SpectatorGuess.hits - SpectatorGuess.misses)
    query = (select(SpectatorGuess.owner_id, points.label("points"), func.sum(SpectatorGuess.hits).label("hits"),
                    func.sum(SpectatorGuess.misses).label("misses"), func.count().label("guesses"),
                    func.count(func.distinct(SpectatorGuess.match_id)).label("matches"))
             .where(SpectatorGuess.hits.is_not(None)).group_by(SpectatorGuess.owner_id)
             .order_by(points.desc(), func.sum(SpectatorGuess.hits).desc(), func.count().asc(),
                       SpectatorGuess.owner_id).limit(limit))
    return [dict(row._mapping) for row in await session.execute(query)]
