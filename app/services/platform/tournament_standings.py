"""A tournament's standings, computed from its tables' results alone (issue 31; `docs/agents/tournaments.md`).

Pure. Every entrant's game scores its result plus the side adjustment:

    points = (1 if won else 0) + 1/2 - rate(side)

where `rate(side)` is the share of seats on that side that won, over every finished table of the event (reference
seats included), smoothed as (wins + 1) / (seats + 2). A side that wins less often scores more for a win and loses
less for a loss, so the harder side is no handicap; on average a game is worth 1/2 whatever the side. A seat taken
over (the entrant missed its start or timed out; the takeover rule) counts as a loss.

Ties are broken by, in order: Buchholz (the sum over an entrant's games of the mean score of the other entrants
at that table), direct results (among the tied entrants: +1 for each shared table it won and the other lost, -1 the
other way round), the order of entry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DIGITS = 4


@dataclass(frozen=True)
class Game:
    """One seat of one finished table: who sat there (`agent`: None for a reference seat), its side, whether it
    won, whether its entrant forfeited (taken over)."""

    table: tuple[int, int]  # (round, table)
    agent: str | None
    side: str
    won: bool
    forfeit: bool = False


def side_rates(games: Sequence[Game]) -> dict[str, float]:
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    for game in games:
        seats[game.side] += 1
        wins[game.side] += game.won  # the seat's side won (a taken-over seat still plays for its side)
    return {side: (wins[side] + 1) / (seats[side] + 2) for side in seats}


def points(game: Game, rates: Mapping[str, float]) -> float:
    return (0.0 if game.forfeit or not game.won else 1.0) + 0.5 - rates[game.side]


def standings(entrants: Sequence[str], games: Sequence[Game]) -> list[dict[str, Any]]:
    """Rows in rank order: agent, rank, score, games, wins, forfeits, sides, buchholz, direct."""
    rates = side_rates(games)
    mine = [g for g in games if g.agent is not None and g.agent in entrants]
    by_table: dict[tuple[int, int], list[Game]] = defaultdict(list)
    for game in mine:
        by_table[game.table].append(game)
    score = dict.fromkeys(entrants, 0.0)
    for game in mine:
        score[game.agent or ""] += points(game, rates)
    buchholz = dict.fromkeys(entrants, 0.0)
    for game in mine:
        others = [score[o.agent or ""] for o in by_table[game.table] if o.agent != game.agent]
        if others:
            buchholz[game.agent or ""] += sum(others) / len(others)
    key = {a: (round(score[a], DIGITS), round(buchholz[a], DIGITS)) for a in entrants}
    groups: dict[tuple[float, float], list[str]] = defaultdict(list)
    for agent in entrants:
        groups[key[agent]].append(agent)
    direct = dict.fromkeys(entrants, 0)
    for tied in groups.values():
        for table in by_table.values():
            present = [g for g in table if g.agent in tied]
            for a in present:
                for b in present:
                    if a.agent != b.agent:
                        a_won, b_won = a.won and not a.forfeit, b.won and not b.forfeit
                        direct[a.agent or ""] += (a_won and not b_won) - (b_won and not a_won)
    order = sorted(entrants, key=lambda a: (-key[a][0], -key[a][1], -direct[a], entrants.index(a)))
    rows = []
    for rank, agent in enumerate(order, 1):
        played = [g for g in mine if g.agent == agent]
        sides: dict[str, int] = defaultdict(int)
        for game in played:
            sides[game.side] += 1
        rows.append({"agent_id": agent, "rank": rank, "score": key[agent][0], "buchholz": key[agent][1],
                     "direct": direct[agent], "games": len(played),
                     "wins": sum(1 for g in played if g.won and not g.forfeit),
                     "forfeits": sum(1 for g in played if g.forfeit), "sides": dict(sorted(sides.items()))})
    return rows
