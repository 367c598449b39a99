"""The rating model: pure functions over plain data (no database, no clock).

One `Skill` (μ, σ) per agent per game, updated by openskill's Plackett–Luce model. Each side of a match is one
team; every team also fields a *side anchor*: a pseudo-player per (game, player count, role composition, side)
that the same model rates in every match of that composition. The anchors learn how much the deal itself favours
a side, so the expected result of a match accounts for the side each seat was dealt: an agent on a side that
usually loses loses little when it does and gains a lot when it wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0
SIGMA = MU / 3
ANCHOR_SIGMA = SIGMA / 2
PROVISIONAL_UNDER = 30
MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Skill:
    """A rating: the model's belief μ ± σ about one agent (or one side anchor)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """The displayed rating, μ − 3σ: the skill the agent has with ~99.7 % confidence."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match, as the rating sees it."""

    agent_id: str
    side: str
    won: bool


@dataclass(frozen=True)
class Rated:
    """What one rated match changes: every agent's and every anchor's new skill."""

    agents: dict[str, Skill]
    anchors: dict[str, Skill]


def composition(n_players: int, seats: Iterable[SeatResult]) -> str:
    """The key of a match's role composition, e.g. `6:a=4,b=2` (player count, then seats per side, sorted)."""
    counts = Counter(seat.side for seat in seats)
    return f"{n_players}:" + ",".join(f"{side}={counts[side]}" for side in sorted(counts))


def default_anchor(side_size: int, largest_side: int) -> Skill:
    """The documented starting point of a side anchor: it makes up for the side's size (openskill sums a team's μ),
    so at equal skill every side team starts at even odds; the anchors then learn the real odds."""
    return Skill(MU * (largest_side - side_size), ANCHOR_SIGMA)


def _teams(seats: list[SeatResult]) -> list[str]:
    return sorted({seat.side for seat in seats})


def default_anchors(seats: list[SeatResult]) -> dict[str, Skill]:
    """Every side's starting anchor for this match's composition."""
    sizes = Counter(seat.side for seat in seats)
    largest = max(sizes.values())
    return {side: default_anchor(size, largest) for side, size in sizes.items()}


def rate(seats: list[SeatResult], skills: Mapping[str, Skill], anchors: Mapping[str, Skill]) -> Rated:
    """Rate one finished match. `skills`: the seated agents' current skill (missing: a new agent); `anchors`:
    the composition's side anchors (missing: the default). Winners rank first, losers second (ties allowed)."""
    anchors = {**default_anchors(seats), **anchors}
    sides = _teams(seats)
    members = {side: [s for s in seats if s.side == side] for side in sides}
    teams = [[_rating(anchors[side])] + [_rating(skills.get(s.agent_id, Skill())) for s in members[side]]
             for side in sides]
    ranks = [0.0 if any(s.won for s in members[side]) else 1.0 for side in sides]
    if len(set(ranks)) == 1:  # nobody won or everybody did: the match says nothing about skill
        return Rated({s.agent_id: skills.get(s.agent_id, Skill()) for s in seats}, dict(anchors))
    updated = MODEL.rate(teams, ranks=ranks)
    new_agents: dict[str, Skill] = {}
    new_anchors: dict[str, Skill] = {}
    for side, team in zip(sides, updated, strict=True):
        new_anchors[side] = Skill(team[0].mu, team[0].sigma)
        for seat, rating in zip(members[side], team[1:], strict=True):
            new_agents[seat.agent_id] = Skill(rating.mu, rating.sigma)
    return Rated(new_agents, new_anchors)


def expected_win(seats: list[SeatResult], skills: Mapping[str, Skill], anchors: Mapping[str, Skill]) -> dict[
        str, float]:
    """Each side's predicted chance of winning, side anchors included."""
    anchors = {**default_anchors(seats), **anchors}
    sides = _teams(seats)
    teams = [[_rating(anchors[side])] + [_rating(skills.get(s.agent_id, Skill())) for s in seats if s.side == side]
             for side in sides]
    return dict(zip(sides, MODEL.predict_win(teams), strict=True))


def _rating(skill: Skill) -> PlackettLuceRating:
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float] | None:
    """The 95 % Wilson score interval of a win rate (None before the first game)."""
    if games == 0:
        return None
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * ((p * (1 - p) + z * z / (4 * games)) / games) ** 0.5
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)
