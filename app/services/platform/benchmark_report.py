"""A benchmark's report, computed from the facts of its finished games (pure; issue 30).

- Per side: games, wins, win rate and its 95 % Wilson score interval (`app.ratings.model.wilson`).
- The duplicate delta: for each deal both the agent and the reference (in the agent's seat) played, the agent's
  result minus the reference's (1 a win, 0 otherwise), so each deal gives -1, 0 or +1. The report gives their mean
  and a 95 % percentile bootstrap interval: `BOOTSTRAP_RESAMPLES` resamples of the deals with replacement, drawn by
  `random.Random(BOOTSTRAP_SEED)` — the same games always give the same interval.
- Timeouts (turns whose clock ran out) and refusals (commands the server refused), decision latency p50/p95
  (nearest rank), tokens and cost when the agent reported `usage`, and each game-declared figure's mean over the
  games where the game gave it, for the agent and for the reference in the same seats.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.ratings.model import wilson

BOOTSTRAP_SEED = 30
BOOTSTRAP_RESAMPLES = 2000


@dataclass
class GameFacts:
    """What one planned game contributes: the agent's side, both results, and the agent's decisions."""

    index: int
    side: str
    agent_won: bool | None  # None: the agent's match did not end with a result it played out
    reference_won: bool | None
    timeouts: int = 0
    refusals: int = 0
    decisions: int = 0
    latencies: list[float] = field(default_factory=list)
    reported: int = 0  # decisions that reported usage
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    figures: dict[str, float] = field(default_factory=dict)
    reference_figures: dict[str, float] = field(default_factory=dict)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank `q`-th percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def bootstrap_interval(deltas: Sequence[int], *, seed: int = BOOTSTRAP_SEED,
                       resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """The 95 % percentile bootstrap interval of the mean of `deltas` (None for none)."""
    if not deltas:
        return None
    rng = random.Random(seed)
    n = len(deltas)
    means = sorted(sum(rng.choices(deltas, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def _rate(wins: int, games: int) -> dict[str, Any]:
    interval = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games if games else None,
            "interval": [round(interval[0], 4), round(interval[1], 4)] if interval else None}


def _means(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    names = sorted({name for row in rows for name in row})
    return {name: round(sum(vals) / len(vals), 4)
            for name in names if (vals := [row[name] for row in rows if name in row])}


def report(sides: Sequence[str], facts: Sequence[GameFacts], *, ended_reason: str | None = None) -> dict[str, Any]:
    """The report over the played games (`sides`: the game's sides, in its order; a side no game was played on
    still appears, with zero games)."""
    played = [f for f in facts if f.agent_won is not None]
    by_side = {side: _rate(sum(1 for f in played if f.side == side and f.agent_won),
                           sum(1 for f in played if f.side == side)) for side in sides}
    paired = [f for f in played if f.reference_won is not None]
    deltas = [int(bool(f.agent_won)) - int(bool(f.reference_won)) for f in paired]
    interval = bootstrap_interval(deltas)
    wins = sum(1 for f in played if f.agent_won)
    latencies = [x for f in facts for x in f.latencies]
    reported = [f for f in played if f.reported]
    tokens = sum(f.input_tokens + f.output_tokens for f in reported)
    cost = sum(f.cost_usd for f in reported)
    reported_wins = sum(1 for f in reported if f.agent_won)
    return {
        "games": len(played),
        "ended_reason": ended_reason,
        "overall": _rate(wins, len(played)),
        "sides": by_side,
        "reference": _rate(sum(1 for f in paired if f.reference_won), len(paired)),
        "duplicate": {"deals": len(deltas), "delta": round(sum(deltas) / len(deltas), 4) if deltas else None,
                      "interval": [round(interval[0], 4), round(interval[1], 4)] if interval else None,
                      "better": deltas.count(1), "same": deltas.count(0), "worse": deltas.count(-1),
                      "method": f"percentile bootstrap, {BOOTSTRAP_RESAMPLES} resamples, seed {BOOTSTRAP_SEED}"},
        "timeouts": sum(f.timeouts for f in facts),
        "refusals": sum(f.refusals for f in facts),
        "decisions": sum(f.decisions for f in facts),
        "latency_s": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "n": len(latencies)},
        "usage": {"games": len(reported), "input_tokens": sum(f.input_tokens for f in reported),
                  "output_tokens": sum(f.output_tokens for f in reported), "cost_usd": round(cost, 6),
                  "tokens_per_game": round(tokens / len(reported), 1) if reported else None,
                  "cost_per_game": round(cost / len(reported), 6) if reported else None,
                  "tokens_per_win": round(tokens / reported_wins, 1) if reported_wins else None,
                  "cost_per_win": round(cost / reported_wins, 6) if reported_wins else None},
        "per_game": [{"index": f.index, "side": f.side, "won": f.agent_won, "reference_won": f.reference_won,
                      "tokens": f.input_tokens + f.output_tokens, "cost_usd": round(f.cost_usd, 6)} for f in facts],
        "figures": {"agent": _means([f.figures for f in played]),
                    "reference": _means([f.reference_figures for f in paired])},
    }
