"""Agent statistics and ratings when a match ends: winners +1 win, losers +1 loss, aborted matches count as aborts
only; and per (game, side) — the side each seat was dealt, as the game names it — one more game, and a win if it won."""

from __future__ import annotations

from collections import Counter, defaultdict

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import decisions as decisions_repo
from app.db import matches as repo
from app.db.models import Match
from app.protocol.registry import AnyGame
from app.services.rating import guesses, ratings


async def record_end(session: AsyncSession, match: Match, game: AnyGame, state: object,
                     rules: ratings.Rules) -> None:
    """Call once, in the transaction of the command that ended the match (`state`: the state it ended in)."""
    seat_rows = await repo.seat_rows(session, match.match_id)
    await ratings.record(session, match, game, state, seat_rows, rules)
    if match.showcase:  # the platform's exhibition counts on no board; its spectators' guesses still score
        if match.status != "aborted" and match.result:
            await guesses.score_ended(session, match.match_id, game.sides, game.seat_sides(state))
        return
    counts: defaultdict[str, Counter[str]] = defaultdict(Counter)  # written with one statement at the end
    figures = await decisions_repo.figures_in(session, match.match_id)
    for agent_id, of_agent in figures.items():
        # the reliability record: derived once from the decisions, not counted per command
        if of_agent.reliability is not None:
            turns, refusals = of_agent.reliability
            counts[agent_id].update(turns=turns, refusals=refusals)
    for row in seat_rows:
        if row.agent_id and row.taken_over:  # abandoned: neither a win nor a loss, whatever the bot did
            counts[row.agent_id]["abandoned"] += 1
    seats = {s.seat: s.agent_id for s in seat_rows if s.agent_id and not s.taken_over}
    if match.status == "aborted" or not match.result:
        for agent_id in seats.values():
            counts[agent_id]["aborts"] += 1
        await agents_repo.add_counts(session, counts)
        return
    result = match.result
    winning_agents = {seats[s] for s in result["winning_seats"] if s in seats}
    for agent_id, of_agent in figures.items():
        if of_agent.spent is not None:
            counts[agent_id].update(decisions_repo.usage_counts(of_agent.spent, won=agent_id in winning_agents))
    sides = game.seat_sides(state)
    await guesses.score_ended(session, match.match_id, game.sides, sides)
    winners, losers = set(result["winning_seats"]), set(result["losing_seats"])
    on_sides: list[tuple[str, str, bool]] = []  # (agent, side, won): written with one statement
    for seat, agent_id in sorted(seats.items()):
        if seat in winners:
            counts[agent_id]["wins"] += 1
        elif seat in losers:
            counts[agent_id]["losses"] += 1
        else:
            continue
        if seat in sides:
            on_sides.append((agent_id, sides[seat], seat in winners))
    await agents_repo.add_side_stats(session, game.name, on_sides)
    await agents_repo.add_counts(session, counts)
