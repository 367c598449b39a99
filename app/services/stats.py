"""Agent statistics when a match ends: winners +1 win, losers +1 loss, aborted matches count as aborts only."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.models import Match
from app.protocol.registry import AnyGame


async def record_end(session: AsyncSession, match: Match, game: AnyGame) -> None:
    """Call once, in the transaction of the command that ended the match; the game names its sides' counters."""
    seats = {s.seat: s.agent_id for s in await repo.seats(session, match.match_id) if s.agent_id}
    if match.status == "aborted" or not match.result:
        for agent_id in seats.values():
            await agents_repo.add_stats(session, agent_id, aborts=1)
        return
    result = match.result
    camp_counter = game.side_stats.get(result["winner_camp"])
    for seat in result["winning_seats"]:
        if seat in seats:
            extra = {camp_counter: 1} if camp_counter else {}
            await agents_repo.add_stats(session, seats[seat], wins=1, **extra)
    for seat in result["losing_seats"]:
        if seat in seats:
            await agents_repo.add_stats(session, seats[seat], losses=1)
