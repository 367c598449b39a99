"""The arena: bot-only games of any installed game on the simulator (`app.bots.sim`), persona bots against the
random-acting baseline.

    python -m app.bots.arena [--game NAME] --games 300 [--seed 1] [--every 100]   (default: the default game)

A game that declares its own arena (`BotPlay.arena`) prints its own report (the default game's: civilians against
a random-voting baseline, with per-persona figures). Otherwise, for each preset of the game
(`BotPlay.arena_presets`), every game is dealt once and played from the same seed in every
line-up of brains: all persona bots; all random-acting baseline; and, for each side, that side's seats in
persona and the others random. For each line-up it prints every side's win rate with a 95 % Wilson interval,
then the headline — a side's win rate with persona bots against with the random baseline, the other side
random in both — and one SUMMARY line per preset. A game whose result names an `ending` (a murder
mystery's perfect / normal / failure) also gets each line-up's ending distribution.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from app.bots.personas import PERSONAS, Persona
from app.bots.sim import Observer, TableRecord, play
from app.games.brains import BotPlay, Simulate
from app.games.installed import bot_play, installed
from app.protocol.registry import AnyGame

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


def simulator(game: AnyGame, bots: BotPlay) -> Simulate:
    """The simulator with `game`, its brain and its drawing phases bound."""

    def simulate(raw_config: Mapping[str, Any], personas: Sequence[Persona], seed: int, *,
                 baseline_sides: frozenset[str] = frozenset(), observe: Observer | None = None) -> TableRecord:
        return play(game, raw_config, personas, bots.decide, seed, baseline_sides=baseline_sides, draws=bots.draws,
                    observe=observe)

    return simulate


def run_preset(game: AnyGame, bots: BotPlay, preset: str, config: Mapping[str, Any], games: int, seed: int,
               every: int, out: Any) -> list[Lineup]:
    """Play `games` deals of one preset in every line-up."""
    rows = lineups(game.sides)
    n = game.n_players(game.parse_config(dict(config)))
    started = time.perf_counter()
    for index in range(games):
        personas, game_seed = seats(seed, preset, index, n)
        for row in rows:
            plain = frozenset(game.sides) - row.persona_sides
            row.add(play(game, config, personas, bots.decide, game_seed, baseline_sides=plain, draws=bots.draws))
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


def main(argv: list[str] | None = None, out: Any = None) -> None:
    """Run the arena of one game and print its report(s)."""
    games = [game for game, _ in installed()]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=games[0].name, help=f"one of {', '.join(g.name for g in games)}")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=25, help="a progress line every N games (0: none)")
    args = parser.parse_args(argv)
    out = out or sys.stdout
    game = next((g for g in games if g.name == args.game), None)
    bots = bot_play().get(args.game)
    if game is None or bots is None or not (bots.arena or bots.arena_presets):
        raise SystemExit(f"no arena for game {args.game!r}")
    if bots.arena is not None:
        print(bots.arena(simulator(game, bots), PERSONAS, args.games, args.seed, args.every, out), file=out)
        return
    for preset, config in bots.arena_presets:
        rows = run_preset(game, bots, preset, config, args.games, args.seed, args.every, out)
        print(report(game, preset, rows, args.seed), file=out, flush=True)


if __name__ == "__main__":
    main()
