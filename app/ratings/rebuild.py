"""Recompute every rating from the match log: the rated matches, in the order they were applied."""

from __future__ import annotations

from app.db import matches as matches_repo
from app.db import ratings as repo
from app.db.database import Database
from app.protocol import registry
from app.services import ratings


async def rebuild(db: Database) -> int:
    """Forget every rating, anchor and history row, then replay each rated match; returns how many were replayed.
    One transaction: readers see the old ratings or the new ones, never a half-built ladder."""
    async with db.writer() as session:
        await repo.forget_all(session)
        matches = await repo.rated_matches(session)
        seats = await matches_repo.seats_of(session, [m.match_id for m in matches])
        for match in matches:
            game = registry.get(match.game)
            if game is None:
                raise SystemExit(f"match {match.match_id} is of game {match.game!r}, which is not installed")
            sides = game.seat_sides(game.state_from_json(match.state))
            await ratings.apply(session, match, game.name, sides, seats[match.match_id])
    return len(matches)
