"""Which deal, which seat and which side: the rotation a benchmark (and a tournament) plays (issue 30).

Pure over a `Game`: a deal is fixed by its seed (`Game.new_match`'s only randomness), and the side of each seat is
what `seat_sides` says right after the deal. The agent plays each side the deals offer in proportion to the
side's share of seats — every side at least once when there are at least as many games as sides — and, within a
side, the seats of that side in turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from app.protocol.registry import AnyGame
from app.services.platform.reference_pool import ReferencePool

MAX_DRAWS = 200  # deals tried for one planned game before giving up on the side it wants


@dataclass(frozen=True)
class PlannedGame:
    """Game `index` of a plan: the deal's seed, the agent's seat and side, and every seat's reference persona
    (the agent's seat's is the one that plays the deal's duplicate baseline)."""

    index: int
    seed: int
    seat: int
    side: str
    personas: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "personas": list(self.personas)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlannedGame:
        return cls(int(data["index"]), int(data["seed"]), int(data["seat"]), str(data["side"]),
                   tuple(data["personas"]))


def dealt_sides(game: AnyGame, config: Any, seed: int) -> dict[int, str]:
    """Each seat's side in the deal of `seed` (names do not change a deal: the seed is its only randomness)."""
    n = game.n_players(config)
    state = game.new_match(config, "seat0", "seat0", seed=seed, now=0.0).state
    for seat in range(1, n):
        state = game.apply(state, game.join(f"seat{seat}", f"seat{seat}"), now=0.0).state
    return game.seat_sides(state)


def quotas(shares: Mapping[str, int], games: int) -> dict[str, int]:
    """Games per side in proportion to `shares` (seats per side), by largest remainder, with every side at least
    one game when `games` allows."""
    sides = sorted(shares, key=lambda s: (-shares[s], s))
    total = sum(shares.values())
    floor = 1 if games >= len(sides) else 0
    counts = {side: max(floor, games * shares[side] // total) for side in sides}
    while sum(counts.values()) > games:  # the floors overshot: take from the largest
        biggest = max(sides, key=lambda s: (counts[s] - floor, shares[s]))
        counts[biggest] -= 1
    remainders = sorted(sides, key=lambda s: (-(games * shares[s] / total - counts[s]), s))
    for side in remainders[: games - sum(counts.values())]:
        counts[side] += 1
    return counts


def side_order(counts: Mapping[str, int]) -> list[str]:
    """The sides interleaved smoothly (each next game goes to the side furthest behind its share)."""
    total = sum(counts.values())
    done: Counter[str] = Counter()
    order = []
    for step in range(total):
        side = min((s for s in sorted(counts) if done[s] < counts[s]),
                   key=lambda s: (done[s] + 1) / counts[s] - (step + 1) / total)
        done[side] += 1
        order.append(side)
    return order


def plan(game: AnyGame, config: Any, games: int, pool: ReferencePool, seed: int) -> list[PlannedGame]:
    """`games` planned games for one agent seat; the same arguments give the same plan."""
    rng = random.Random(f"{pool.version}:{game.name}:{seed}")
    first = rng.getrandbits(31)
    shares = Counter(dealt_sides(game, config, first).values())
    turns: Counter[str] = Counter()
    planned = []
    next_seed: int | None = first
    for index, side in enumerate(side_order(quotas(shares, games))):
        for _ in range(MAX_DRAWS):
            deal_seed = next_seed if next_seed is not None else rng.getrandbits(31)
            next_seed = None
            sides = dealt_sides(game, config, deal_seed)
            seats = sorted(s for s, named in sides.items() if named == side)
            if seats:
                break
        else:
            raise ValueError(f"no deal in {MAX_DRAWS} gave a seat on side {side!r}")
        seat = seats[turns[side] % len(seats)]
        turns[side] += 1
        personas = tuple(pool.persona(s, index) for s in range(game.n_players(config)))
        planned.append(PlannedGame(index, deal_seed, seat, side, personas))
    return planned
