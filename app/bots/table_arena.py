"""Arena for any game with a side-based result, on the generic in-process simulator (`app.bots.table_sim`).

    python -m app.bots.arena --game werewolf --games 300 [--seed 1] [--every 100]

For each preset of the game (`PRESETS`), every game is dealt once and played from the same seed in every
line-up of brains: all persona bots; all random-acting baseline; and, for each side, that side's seats in
persona and the others random. For each line-up it prints every side's win rate with a 95 % Wilson interval,
then the headline — a side's win rate with persona bots against with the random baseline, the other side
random in both — and one SUMMARY line per preset. A game whose result names an `ending` (script_kill's
perfect / normal / failure) also gets each line-up's ending distribution.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from app.bots.personas import PERSONAS, Persona
from app.bots.table_sim import Brain, TableRecord, play_table
from app.games.installed import brains, installed
from app.protocol.registry import AnyGame

PRESETS: Mapping[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "werewolf": (("6p", {"n_players": 6}), ("9p", {"n_players": 9}), ("12p", {"n_players": 12})),
    "avalon": tuple((f"{n}p", {"n_players": n}) for n in range(5, 11)),
    "script_kill": (("compressed", {"timing": "compressed"}),
                    ("tiny", {"timing": "compressed", "script": "tiny"})),
}
Z95 = NormalDist().inv_cdf(0.975)


@dataclass
class Lineup:
    """Which sides play the persona brain (the rest play the random baseline)."""

    persona_sides: frozenset[str]
    label: str
    wins: Counter[str] = field(default_factory=Counter)
    games: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)  # the result's `ending`, for games that name one

    def add(self, record: TableRecord) -> None:
        self.games += 1
        self.wins[record.winner or "none"] += 1
        self.errors.update(record.errors)
        if record.result.get("ending"):
            self.endings[str(record.result["ending"])] += 1

    def rate(self, side: str) -> float:
        return self.wins[side] / self.games if self.games else 0.0


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p, z2 = wins / games, Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * (p * (1 - p) / games + z2 / (4 * games * games)) ** 0.5 / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def lineups(sides: Sequence[str]) -> list[Lineup]:
    """All persona, all random, and each side alone in persona."""
    rows = [Lineup(frozenset(sides), "persona vs persona"), Lineup(frozenset(), "random vs random")]
    for side in sides:
        others = " + ".join(s for s in sides if s != side)
        rows.append(Lineup(frozenset({side}), f"persona {side} vs random {others}"))
    return rows


def seats(seed: int, preset: str, index: int, n: int) -> tuple[list[Persona], int]:
    """The seat personas and the engine seed of game `index` of a preset."""
    dice = random.Random(f"arena:{seed}:{preset}:{index}")
    personas: list[Persona] = []
    while len(personas) < n:
        batch = list(PERSONAS)
        dice.shuffle(batch)
        personas += batch
    return personas[:n], dice.getrandbits(64)


def run_preset(game: AnyGame, brain: Brain, preset: str, config: dict[str, Any], games: int, seed: int,
               every: int, out: Any) -> list[Lineup]:
    """Play `games` deals of one preset in every line-up."""
    rows = lineups(game.sides)
    n = game.n_players(game.parse_config(dict(config)))
    started = time.perf_counter()
    for index in range(games):
        personas, game_seed = seats(seed, preset, index, n)
        for row in rows:
            plain = frozenset(game.sides) - row.persona_sides
            row.add(play_table(game, config, personas, brain, game_seed, baseline_sides=plain))
        if every and ((index + 1) % every == 0 or index + 1 == games):
            print(f"  [arena] {game.name} {preset}: {index + 1}/{games} deals, "
                  f"{time.perf_counter() - started:.1f}s", file=out, flush=True)
    return rows


def report(game: AnyGame, preset: str, rows: list[Lineup], seed: int) -> str:
    """One preset's table, headline and SUMMARY line."""
    sides = list(game.sides)
    lines = [f"{game.name} {preset}: {rows[0].games} deals (seed {seed}), each played in {len(rows)} line-ups",
             f"  {'line-up':<36}" + "".join(f"{side + ' win':<28}" for side in sides)]
    for row in rows:
        cells = []
        for side in sides:
            low, high = wilson(row.wins[side], row.games)
            cells.append(f"{row.rate(side):>6.1%} [{low:.1%}–{high:.1%}]".ljust(28))
        lines.append(f"  {row.label:<36}" + "".join(cells))
        if row.endings:
            shares = ", ".join(f"{name} {count / row.games:.1%}" for name, count in sorted(row.endings.items()))
            lines.append(f"  {'':<36}endings: {shares}")
    every_random = rows[1]
    summary = [f"SUMMARY arena game={game.name} preset={preset} deals={rows[0].games} seed={seed}"]
    for side, row in zip(sides, rows[2:], strict=True):
        margin = (row.rate(side) - every_random.rate(side)) * 100
        lines.append(f"  {side} win rate: persona {row.rate(side):.1%} vs random baseline "
                     f"{every_random.rate(side):.1%} (other side random in both): {margin:+.1f} points")
        summary.append(f"persona_{side}_win={row.rate(side):.1%} baseline_{side}_win={every_random.rate(side):.1%} "
                       f"margin_{side}={margin:+.1f}pp")
    errors = sum((row.errors for row in rows), Counter[str]())
    lines.append(f"  refused actions: {dict(errors) or 'none'}")
    summary.append(f"refused_actions={sum(errors.values())}")
    return "\n".join([*lines, " ".join(summary)])


def main(game_name: str, games: int, seed: int, every: int, out: Any = None) -> None:
    """Run every preset of `game_name` and print the reports."""
    out = out or sys.stdout
    game = next((g for g, _ in installed() if g.name == game_name), None)
    brain = brains().get(game_name)
    if game is None or brain is None or game_name not in PRESETS:
        raise SystemExit(f"no arena for game {game_name!r}")
    for preset, config in PRESETS[game_name]:
        rows = run_preset(game, brain, preset, config, games, seed, every, out)
        print(report(game, preset, rows, seed), file=out, flush=True)
