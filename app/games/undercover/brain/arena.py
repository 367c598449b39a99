"""Undercover's arena (`BotPlay.arena`): persona bots against a random-voting baseline, on the bots' simulator.

    python -m app.bots.arena --games 200 [--seed 1] [--every 25]     (undercover is the default game)

Every game is played twice from the same seed (same deal, same seats, same personas, same speeches until
the votes differ): once with the personas' brains, once with every bot voting uniformly at random among the
seats it may vote for. Prints progress, the civilian win rate of both runs and the margin, per-persona
figures, and one SUMMARY line. The game mix cycles through `CONFIGS`.
"""

from __future__ import annotations

import random
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from app.games.brains import Simulate
from app.games.kit.game import parse_config
from app.games.undercover.config import UndercoverConfig

# The personas' last words and the blank's guess are extensions (off by default): the arena turns them on.
CONFIGS: tuple[dict[str, Any], ...] = (
    {"n_players": 6, "n_undercover": 1, "last_words": True},
    {"n_players": 6, "n_undercover": 2, "last_words": True},
    {"n_players": 7, "n_undercover": 2, "tie_break": "revote", "last_words": True},
    {"n_players": 8, "n_undercover": 2, "tie_break": "noop_then_random", "last_words": True},
    {"n_players": 8, "n_undercover": 2, "n_blank": 1, "last_words": True, "blank_guess": True},
)


@dataclass
class PersonaFigures:
    civilian_games: int = 0
    civilian_wins: int = 0
    other_games: int = 0  # as undercover or blank
    other_wins: int = 0
    civilian_votes: int = 0
    civilian_votes_right: int = 0  # a civilian's vote for an undercover or blank


@dataclass
class GameRecord:
    """What one simulated game means here: the winner, every seat's role and persona, votes and refusals."""

    winner: str | None
    roles: list[str]
    personas: list[str]
    votes: list[tuple[int, int]] = field(default_factory=list)  # (voter, target), as the rules accepted them
    errors: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    winning_seats: list[int] = field(default_factory=list)


def record_of(table: Any) -> GameRecord:
    """The `GameRecord` of one simulated game (`app.bots.sim.TableRecord`)."""
    return GameRecord(winner=table.winner, roles=[table.sides.get(seat, "") for seat in range(len(table.personas))],
                      personas=list(table.personas),
                      votes=[(seat, int(body["target_seat"])) for seat, body in table.moves
                             if body.get("type") == "vote"],
                      errors=Counter(table.errors), rounds=table.state.round_index,
                      winning_seats=list(table.result.get("winning_seats") or []))


def play_game(simulate: Simulate, config: UndercoverConfig, personas: Sequence[Any], seed: int, *,
              baseline: bool = False, observe: Any = None) -> GameRecord:
    """One game on the simulator; `baseline`: every seat votes uniformly at random."""
    sides = frozenset({"civilian", "undercover", "blank"}) if baseline else frozenset()
    return record_of(simulate(config.model_dump(), personas, seed, baseline_sides=sides, observe=observe))


@dataclass
class Tally:
    games: int = 0
    civilian_wins: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    personas: dict[str, PersonaFigures] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.civilian_wins += record.winner == "civilian"
        self.winners[record.winner or "none"] += 1
        self.errors.update(record.errors)
        for seat, slug in enumerate(record.personas):
            figures = self.personas.setdefault(slug, PersonaFigures())
            role = record.roles[seat]
            won = record.winner == "civilian" if role == "civilian" else record.winner in ("undercover", "blank")
            if role == "civilian":
                figures.civilian_games += 1
                figures.civilian_wins += won
            else:
                figures.other_games += 1
                figures.other_wins += won
        for voter, target in record.votes:
            if record.roles[voter] == "civilian":
                figures = self.personas[record.personas[voter]]
                figures.civilian_votes += 1
                figures.civilian_votes_right += record.roles[target] != "civilian"

    @property
    def civilian_rate(self) -> float:
        return self.civilian_wins / self.games if self.games else 0.0


def game_setup(seed: int, index: int, cast: Sequence[Any]) -> tuple[UndercoverConfig, list[Any], int]:
    """The config, the seat personas (drawn from `cast`) and the engine seed of game `index` of a run seeded
    `seed`."""
    dice = random.Random(f"arena:{seed}:{index}")
    config = parse_config(UndercoverConfig, dict(CONFIGS[index % len(CONFIGS)]))
    personas: list[Any] = []
    while len(personas) < config.n_players:
        batch = list(cast)
        dice.shuffle(batch)
        personas += batch
    return config, personas[: config.n_players], dice.getrandbits(64)


def run(simulate: Simulate, cast: Sequence[Any], games: int, seed: int, every: int,
        out: Any = None) -> tuple[Tally, Tally]:
    """Play `games` games twice (personas, random baseline); progress lines go to `out`."""
    out = out or sys.stdout
    persona, baseline = Tally(), Tally()
    started = time.perf_counter()
    for index in range(games):
        config, personas, game_seed = game_setup(seed, index, cast)
        persona.add(play_game(simulate, config, personas, game_seed))
        baseline.add(play_game(simulate, config, personas, game_seed, baseline=True))
        if every and ((index + 1) % every == 0 or index + 1 == games):
            print(f"  [arena] {index + 1}/{games} games, {time.perf_counter() - started:.1f}s: civilians won "
                  f"{persona.civilian_rate:.1%} (personas) vs {baseline.civilian_rate:.1%} (random votes)",
                  file=out, flush=True)
    return persona, baseline


def arena(simulate: Simulate, cast: Sequence[Any], games: int, seed: int, every: int, out: TextIO) -> str:
    """`BotPlay.arena`: run, then the report."""
    persona, baseline = run(simulate, cast, games, seed, every, out)
    return report(persona, baseline, seed, cast)


def report(persona: Tally, baseline: Tally, seed: int, cast: Sequence[Any]) -> str:
    """The result table and the SUMMARY line."""
    margin = (persona.civilian_rate - baseline.civilian_rate) * 100
    lines = [
        f"arena: {persona.games} games (seed {seed}), mix: " + "; ".join(_label(c) for c in CONFIGS),
        f"civilian win rate: personas {persona.civilian_rate:.1%} ({persona.civilian_wins}/{persona.games})  "
        f"random-vote baseline {baseline.civilian_rate:.1%} ({baseline.civilian_wins}/{baseline.games})  "
        f"margin {margin:+.1f} points",
        f"winners (personas): {dict(persona.winners)}   winners (baseline): {dict(baseline.winners)}",
        "",
        f"{'persona':<11} {'handle':<20} {'civ games':>9} {'civ win':>8} {'baseline':>9} "
        f"{'vote hit':>9} {'uc/blank':>9} {'uc win':>7}",
    ]
    for p in cast:
        f = persona.personas.get(p.slug, PersonaFigures())
        b = baseline.personas.get(p.slug, PersonaFigures())
        lines.append(
            f"{_pad(p.display_name, 10)} {p.handle():<20} {f.civilian_games:>9} "
            f"{_pct(f.civilian_wins, f.civilian_games):>8} "
            f"{_pct(b.civilian_wins, b.civilian_games):>9} {_pct(f.civilian_votes_right, f.civilian_votes):>9} "
            f"{f.other_games:>9} {_pct(f.other_wins, f.other_games):>7}")
    errors = sum(persona.errors.values()) + sum(baseline.errors.values())
    lines += [
        "",
        "civ win = civilian win rate when this persona was a civilian; vote hit = share of its civilian votes that "
        "named an undercover or blank; uc win = win rate as undercover or blank.",
        f"refused actions: {dict(persona.errors + baseline.errors) or 'none'}",
        f"SUMMARY arena games={persona.games} seed={seed} persona_civilian_win={persona.civilian_rate:.1%} "
        f"baseline_civilian_win={baseline.civilian_rate:.1%} margin={margin:+.1f}pp refused_actions={errors}",
    ]
    return "\n".join(lines)


def _pad(text: str, width: int) -> str:
    """Left-align `text` in `width` terminal columns (CJK characters take two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - used)


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def _label(config: dict[str, Any]) -> str:
    parts = [f"{config['n_players']}p {config['n_undercover']}uc"]
    if config.get("n_blank"):
        parts.append(f"{config['n_blank']}blank")
    if config.get("tie_break"):
        parts.append(str(config["tie_break"]))
    return " ".join(parts)
