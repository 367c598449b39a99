"""Quality of the official bots: bot-only games on the pure engine, and every figure issue 21 names.

    python -m app.games.undercover.brain.quality --games 500 [--seed 1] [--arena-games N]

Plays `--games` games at each of two 6-player tables (1 undercover; 1 undercover + 1 blank, with last words
and the blank's guess on) on the bots' simulator (`app.bots.sim`), watching every decision through its
`observe`, then prints:

- per persona, its most-used run of six characters (normalised: letters and digits) and the share of its
  speeches it appears in (target ≤ 10 %);
- within-game repeats: a sentence a seat already said (speech, last words or vote comment) in that game
  (target 0);
- the share of round-2+ speeches that name another seat (`N号`) or quote what it said (target ≥ 1/3);
- false vote comments: each comment's claims compared with the state the voter saw (target 0);
- the undercover side's win rate at the 1-undercover table and the blank seat's win rate at the blank table,
  each with a 95 % Wilson interval (targets 25–40 % and ≤ 25 %);
- the arena margin of persona civilians over the random-voting baseline (`arena`, target ≥ 25 pp);
- a persona classifier (character 1–3-gram naive Bayes) trained on the speeches of half the games and
  tested on the other half (target ≥ 70 %, six classes);
- refused actions (target 0), and one SUMMARY line.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from app.bots.arena import simulator
from app.bots.personas import PERSONAS, Persona
from app.games.brains import Simulate
from app.games.installed import bot_play, installed
from app.games.kit.game import parse_config
from app.games.undercover.brain import arena
from app.games.undercover.brain.arena import GameRecord, play_game
from app.games.undercover.brain.claims import comment_claims
from app.games.undercover.brain.context import context_from_snapshot
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.text import normalise

TABLES: dict[str, dict[str, Any]] = {
    "undercover": {"n_players": 6, "n_undercover": 1, "last_words": True},
    "blank": {"n_players": 6, "n_undercover": 1, "n_blank": 1, "last_words": True, "blank_guess": True},
}
RUN = 6  # characters in a "run"
SENTENCE_END = re.compile(r"[。！？!?…~～；;\n]+")
SEAT_REF = re.compile(r"(\d+)号")
QUOTED = re.compile(r"[「“]([^」”]+)[」”]")


@dataclass
class Act:
    """One decision of one seat: the snapshot it was handed and the body it chose."""

    game: int
    seat: int
    persona: str
    snapshot: dict[str, Any]
    body: dict[str, Any] | None

    @property
    def kind(self) -> str:
        return str((self.body or {}).get("type") or "none")

    @property
    def text(self) -> str:
        body = self.body or {}
        return str(body.get("text") or body.get("comment") or "")

    @property
    def round(self) -> int:
        return int(self.snapshot.get("round_index") or 0)


@dataclass
class Games:
    """Everything the watched games produced."""

    acts: list[Act] = field(default_factory=list)
    records: dict[str, list[GameRecord]] = field(default_factory=lambda: defaultdict(list))

    def speeches(self) -> list[Act]:
        return [a for a in self.acts if a.kind == "speak"]


def simulate() -> Simulate:
    """The simulator with this game and its brain bound."""
    game = next(g for g, _ in installed() if g.name == "undercover")
    return simulator(game, bot_play()["undercover"])


def play(games: int, seed: int) -> Games:
    """`games` games at each table of `TABLES`; personas shuffled per game."""
    sim = simulate()
    out = Games()
    number = 0
    for index in range(games):
        for name, raw in TABLES.items():
            config = parse_config(UndercoverConfig, dict(raw))
            dice = random.Random(f"quality:{seed}:{name}:{index}")
            personas: list[Persona] = list(PERSONAS)
            dice.shuffle(personas)
            game = number

            def observe(seat: int, snapshot: dict[str, Any], body: dict[str, Any] | None,
                        _game: int = game, _personas: Sequence[Persona] = personas) -> None:
                out.acts.append(Act(_game, seat, _personas[seat].slug, snapshot, body))

            out.records[name].append(play_game(sim, config, personas, dice.getrandbits(64), observe=observe))
            number += 1
    return out


# ----------------------------------------------------------------------------------------- speech figures


def top_runs(speeches: Iterable[Act]) -> dict[str, tuple[str, float, int]]:
    """Per persona: its most-used run of `RUN` characters, the share of its speeches holding it, speeches."""
    holding: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    for act in speeches:
        norm = normalise(act.text)
        totals[act.persona] += 1
        holding[act.persona].update({norm[i:i + RUN] for i in range(len(norm) - RUN + 1)})
    result = {}
    for persona, total in totals.items():
        run, count = holding[persona].most_common(1)[0] if holding[persona] else ("", 0)
        result[persona] = (run, count / total, total)
    return result


def sentences(text: str) -> list[str]:
    """The normalised sentences of a text (empty pieces dropped)."""
    return [s for s in (normalise(piece) for piece in SENTENCE_END.split(text)) if s]


def repeats(acts: Iterable[Act]) -> list[tuple[int, int, str]]:
    """(game, seat, sentence) for every sentence a seat said a second time in one game."""
    said: dict[tuple[int, int], set[str]] = defaultdict(set)
    found = []
    for act in acts:
        if act.kind not in ("speak", "last_words", "vote") or not act.text:
            continue
        mine = said[(act.game, act.seat)]
        for sentence in sentences(act.text):
            if sentence in mine:
                found.append((act.game, act.seat, sentence))
            mine.add(sentence)
    return found


def names_or_quotes(act: Act) -> bool:
    """The speech names another seat (`N号`) or quotes, in 「」 or “”, a phrase another seat said."""
    if any(int(n) != act.seat for n in SEAT_REF.findall(act.text)):
        return True
    quoted = [normalise(q) for q in QUOTED.findall(act.text)]
    said = [normalise(str(e.get("text") or "")) for e in act.snapshot.get("public_log") or []
            if e.get("type") == "speech_posted" and e.get("seat") != act.seat]
    return any(q and q in text for q in quoted for text in said)


def naming_share(speeches: Iterable[Act]) -> tuple[int, int]:
    """(speeches naming or quoting another seat, speeches) from round 2 on."""
    later = [a for a in speeches if a.round >= 2]
    return sum(names_or_quotes(a) for a in later), len(later)


# ----------------------------------------------------------------------------------------- vote comments

def false_comments(acts: Iterable[Act]) -> tuple[list[tuple[str, str]], int, Counter[str]]:
    """(claim, comment) for each false claim, the number of comments, and the claims checked by kind."""
    false, checked = [], Counter[str]()
    comments = 0
    for act in acts:
        comment = (act.body or {}).get("comment")
        if act.kind != "vote" or not comment:
            continue
        comments += 1
        ctx = context_from_snapshot(act.snapshot)
        for claim, true in comment_claims(str(comment), ctx, int((act.body or {})["target_seat"])):
            checked[claim] += 1
            if not true:
                false.append((claim, str(comment)))
    return false, comments, checked


# ----------------------------------------------------------------------------------------- play figures


def wilson(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 0.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def undercover_side(records: Sequence[GameRecord]) -> tuple[int, int]:
    return sum(r.winner in ("undercover", "blank") for r in records), len(records)


def blank_seat(records: Sequence[GameRecord]) -> tuple[int, int]:
    """Games the blank's seat won (alone by guessing, or with the undercovers), and blank games."""
    wins = games = 0
    for record in records:
        for seat, role in enumerate(record.roles):
            if role == "blank":
                games += 1
                wins += seat in record.winning_seats
    return wins, games


# ----------------------------------------------------------------------------------------- persona classifier


def _grams(text: str) -> list[str]:
    norm = normalise(text)
    return [norm[i:i + n] for n in (1, 2, 3) for i in range(len(norm) - n + 1)]


def classifier_accuracy(speeches: Sequence[Act]) -> tuple[float, int]:
    """Naive Bayes over character 1–3-grams: train on even games' speeches, test on odd games'."""
    train = [a for a in speeches if a.game % 2 == 0]
    test = [a for a in speeches if a.game % 2 == 1]
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    priors: Counter[str] = Counter(a.persona for a in train)
    for act in train:
        counts[act.persona].update(_grams(act.text))
    vocab = len(set().union(*counts.values())) if counts else 1
    totals = {p: sum(c.values()) for p, c in counts.items()}

    def score(persona: str, grams: list[str]) -> float:
        c, total = counts[persona], totals[persona] + vocab
        return math.log(priors[persona]) + sum(math.log((c[g] + 1) / total) for g in grams)

    right = sum(max(priors, key=lambda p: score(p, _grams(a.text))) == a.persona for a in test)
    return (right / len(test) if test else 0.0), len(test)


# ----------------------------------------------------------------------------------------- the report


def report(games: Games, arena_tallies: tuple[arena.Tally, arena.Tally], seed: int) -> str:
    speeches = games.speeches()
    runs = top_runs(speeches)
    repeated = repeats(games.acts)
    named, later = naming_share(speeches)
    false, comments, checked = false_comments(games.acts)
    uc_wins, uc_games = undercover_side(games.records["undercover"])
    bl_wins, bl_games = blank_seat(games.records["blank"])
    blank_alone = sum(r.winner == "blank" for r in games.records["blank"])
    persona, baseline = arena_tallies
    margin = (persona.civilian_rate - baseline.civilian_rate) * 100
    accuracy, tested = classifier_accuracy(speeches)
    refused = Counter[str]()
    for records in games.records.values():
        for record in records:
            refused.update(record.errors)
    worst = max(runs.values(), key=lambda r: r[1]) if runs else ("", 0.0, 0)
    n = sum(len(r) for r in games.records.values())
    lo, hi = wilson(uc_wins, uc_games)
    blo, bhi = wilson(bl_wins, bl_games)
    lines = [f"quality: {n} games (seed {seed}): " + ", ".join(f"{len(r)} at the {k} table"
                                                               for k, r in games.records.items()),
             "", "most-used six-character run per persona (share of its speeches; target ≤ 10%):"]
    for p in PERSONAS:
        run, share, total = runs.get(p.slug, ("", 0.0, 0))
        lines.append(f"  {p.slug:<9} {share:6.1%} of {total:>5} speeches  「{run}」")
    lines += [
        f"within-game repeated sentences: {len(repeated)} (target 0)" +
        (f"  e.g. {repeated[:3]}" if repeated else ""),
        f"round-2+ speeches naming or quoting another seat: {_pct(named, later)} ({named}/{later}; target ≥ 33.3%)",
        f"false vote comments: {len(false)} of {comments} comments (claims checked: {dict(checked)}; target 0)" +
        (f"  e.g. {false[:3]}" if false else ""),
        f"undercover-side win rate (6p, 1 undercover): {_pct(uc_wins, uc_games)} ({uc_wins}/{uc_games}), "
        f"95% CI {lo:.1%}–{hi:.1%} (target 25–40%)",
        f"blank seat win rate (6p, 1 undercover + 1 blank): {_pct(bl_wins, bl_games)} ({bl_wins}/{bl_games}), "
        f"95% CI {blo:.1%}–{bhi:.1%}; by guessing the word: {blank_alone} (target ≤ 25%)",
        f"arena ({persona.games} games, arena mix): persona civilians {persona.civilian_rate:.1%} vs random-voting "
        f"baseline {baseline.civilian_rate:.1%}: margin {margin:+.1f} points (target ≥ +25)",
        f"persona classifier (char 1–3-gram naive Bayes, even games → odd games): {accuracy:.1%} of {tested} "
        f"speeches (target ≥ 70%)",
        f"refused actions: {sum(refused.values())} {dict(refused) or ''}(target 0)",
        f"SUMMARY quality games={n} top_run={worst[1]:.1%} repeats={len(repeated)} "
        f"naming={_pct(named, later)} false_comments={len(false)} undercover_win={_pct(uc_wins, uc_games)} "
        f"[{lo:.1%},{hi:.1%}] blank_guessed={_pct(blank_alone, len(games.records['blank']))} "
        f"blank_seat_win={_pct(bl_wins, bl_games)} [{blo:.1%},{bhi:.1%}] "
        f"arena_margin={margin:+.1f}pp classifier={accuracy:.1%} refused={sum(refused.values())}",
    ]
    return "\n".join(lines)


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="games at each table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arena-games", type=int, default=None, help="arena games (default: --games)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games = play(args.games, args.seed)
    tallies = arena.run(simulate(), PERSONAS, args.arena_games or args.games, args.seed, every=0, out=sys.stderr)
    print(report(games, tallies, args.seed))
    print(f"({time.perf_counter() - started:.0f}s)", file=sys.stderr)


if __name__ == "__main__":
    main()
