"""Recompute every rating from the match log: judge every finished match again, in the order they ended, with the
rule the live end applies (`app.services.rating.ratings.judge`), and replay the rated ones."""

from __future__ import annotations

from app.db import matches as matches_repo
from app.db import ratings as repo
from app.db.database import Database
from app.protocol import registry
from app.services.rating import ratings


async def rebuild(db: Database, rules: ratings.Rules) -> int:
    """Forget every rating, anchor and history row, then judge each finished match again and replay the rated
    ones; returns how many were replayed. One transaction: readers see the old ratings or the new ones, never a
    half-built ladder. A match rated before this rule existed and failing it now is no longer rated."""
    async with db.writer() as session:
        await repo.forget_all(session)
        matches = await repo.finished_matches(session)
        for match in matches:  # judged in order: the repeat window sees only those rated before each one
            match.rated = False
        seats = await matches_repo.seats_of(session, [m.match_id for m in matches], full=True)
        replayed = 0
        for match in matches:
            if not ratings.competitive(match.config):
                continue
            game = registry.get(match.game)
            if game is None:
                raise SystemExit(f"match {match.match_id} is of game {match.game!r}, which is not installed")
            sides = game.seat_sides(game.state_from_json(match.state))
            if await ratings.judge(session, match, sides, seats[match.match_id], rules) is None:
                await ratings.apply(session, match, game.name, sides, seats[match.match_id])
                replayed += 1
    return replayed
