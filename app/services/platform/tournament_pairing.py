"""Who sits at which table, and in which seat, in a tournament's next round (issue 31; `docs/agents/tournaments.md`).

Pure: entrants (their score, the sides they have played, whom they have met) in, tables out.

Tables: `ceil(entrants / seats)` tables, the entrants spread evenly over them (a gauntlet seats each entrant
alone); the seats left over are the reference pool's. Of all ways to split the entrants into tables of those
sizes the round takes the first by, in order:

1. two entrants of one owner at one table (when an event allows several per owner);
2. repeated meetings: the square of each pair's earlier shared tables, summed over every pair at a table (two
   entrants meet again only when no split avoids it, and meetings stay as even as the seats allow), then their
   plain sum;
3. side shortfall: more entrants at a table are owed a side than it has seats of that side;
4. Swiss only: the spread of scores at each table (similar scores together).

Small fields are searched exhaustively, larger ones by swapping entrants between tables until no swap helps.
Within a table the deal is fixed by its seed; the reference's seats are drawn by lot (their sides must tell
nothing: the seating is public), and each entrant takes, of the others, the seat whose side it is most owed: its
share of that side's seats over its games (the benchmark's role rotation, `seat_plan`), minus its games on it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

EXHAUSTIVE = 4000  # splits searched one by one up to this many
SWISS, ROUND_ROBIN, GAUNTLET = "swiss", "round_robin", "gauntlet"
FORMATS = (SWISS, ROUND_ROBIN, GAUNTLET)
Pair = frozenset[str]


@dataclass(frozen=True)
class Entrant:
    """An entrant as the pairing sees it (`key`: its agent id; `owner`: its owner, or its own id if unclaimed)."""

    key: str
    owner: str
    score: float = 0.0
    sides: Mapping[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return sum(self.sides.values())


def table_sizes(entrants: int, seats: int, fmt: str) -> list[int]:
    """How many entrants sit at each table."""
    if entrants <= 0:
        return []
    if fmt == GAUNTLET:
        return [1] * entrants
    tables = math.ceil(entrants / seats)
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def need(entrant: Entrant, side: str, shares: Mapping[str, int]) -> float:
    """How far `entrant` is behind its share of `side` if it plays one more game."""
    return (entrant.games + 1) * shares[side] / sum(shares.values()) - entrant.sides.get(side, 0)


def owed(entrant: Entrant, shares: Mapping[str, int]) -> str:
    """The side the entrant is most owed (ties: the side with fewer seats)."""
    return max(sorted(shares, key=lambda s: (shares[s], s)), key=lambda s: need(entrant, s, shares))


Split = list[list[Entrant]]


def _cost(split: Split, met: Mapping[Pair, int], shares: Mapping[str, int], fmt: str) -> tuple[float, ...]:
    same_owner = repeats = squared = shortfall = 0
    spread = 0.0
    for table in split:
        for a, b in itertools.combinations(table, 2):
            same_owner += a.owner == b.owner
            times = met.get(frozenset((a.key, b.key)), 0)
            repeats += times
            squared += times * times
        wanted = Counter(owed(e, shares) for e in table)
        shortfall += sum(max(0, count - shares[side]) for side, count in wanted.items())
        if table:
            mean = sum(e.score for e in table) / len(table)
            spread += sum((e.score - mean) ** 2 for e in table)
    return (same_owner, squared, repeats, shortfall, round(spread, 9) if fmt == SWISS else 0.0)


def _count(sizes: Sequence[int]) -> float:
    total = float(math.factorial(sum(sizes)))
    for size in sizes:
        total /= math.factorial(size)
    for times in Counter(sizes).values():
        total /= math.factorial(times)
    return total


def _splits(pool: Sequence[Entrant], sizes: Sequence[int]) -> list[Split]:
    """Every split of `pool` into tables of `sizes` (tables of equal size unordered)."""
    if not sizes:
        return [[]]
    size, rest = sizes[0], sizes[1:]
    out: list[Split] = []
    same_next = bool(rest) and rest[0] == size
    for chosen in itertools.combinations(range(len(pool)), size):
        if same_next and 0 not in chosen:
            continue  # the first remaining entrant always opens the next table of this size
        left = [e for i, e in enumerate(pool) if i not in chosen]
        out.extend([[pool[i] for i in chosen], *tail] for tail in _splits(left, rest))
    return out


def _improve(split: Split, met: Mapping[Pair, int], shares: Mapping[str, int], fmt: str) -> Split:
    best = _cost(split, met, shares, fmt)
    improved = True
    while improved:
        improved = False
        for (i, a), (j, b) in itertools.combinations(list(enumerate(split)), 2):
            for x, y in itertools.product(range(len(a)), range(len(b))):
                trial = [list(t) for t in split]
                trial[i][x], trial[j][y] = split[j][y], split[i][x]
                cost = _cost(trial, met, shares, fmt)
                if cost < best:
                    split, best, improved = trial, cost, True
                    break
            if improved:
                break
    return split


def group(entrants: Sequence[Entrant], seats: int, fmt: str, met: Mapping[Pair, int],
          shares: Mapping[str, int], rng: random.Random) -> Split:
    """The round's tables (each a list of entrants), by the rule in the module's docstring."""
    sizes = table_sizes(len(entrants), seats, fmt)
    if fmt == GAUNTLET:
        return [[e] for e in entrants]
    order = list(entrants)
    rng.shuffle(order)  # ties between equally good splits fall by lot, not by entry order
    if fmt == SWISS:
        order.sort(key=lambda e: -e.score)
    if _count(sizes) <= EXHAUSTIVE:
        return min(_splits(order, sizes), key=lambda s: _cost(s, met, shares, fmt))
    start, at = [], 0
    for size in sizes:
        start.append(order[at:at + size])
        at += size
    return _improve(start, met, shares, fmt)


def seat(table: Sequence[Entrant], sides: Mapping[int, str], shares: Mapping[str, int],
         rng: random.Random) -> dict[int, Entrant]:
    """Seat → entrant for one table whose deal gives `sides` (seat → side); the seats left are the reference's.

    The reference's seats are drawn by lot first, among all the table's seats: which seats the reference plays is
    public while the match runs, so their sides must be what any seat's side is before the deal is known. (Had the
    entrants chosen first, each taking the side it is most owed, the reference would be left the side nobody was
    owed — the hidden one, in a first round.) The entrants then take the other seats, each the one whose side it
    is most owed."""
    reference = set(rng.sample(sorted(sides), max(0, len(sides) - len(table))))
    free = {seat_no: side for seat_no, side in sides.items() if seat_no not in reference}
    placed: dict[int, Entrant] = {}
    wishes = sorted(((need(e, side, shares), -i, seat_no) for i, e in enumerate(table) for seat_no, side in
                     free.items()), reverse=True)
    done: set[int] = set()
    for _need, negative, seat_no in wishes:
        index = -negative
        if index in done or seat_no not in free:
            continue
        placed[seat_no] = table[index]
        done.add(index)
        del free[seat_no]
    return placed
