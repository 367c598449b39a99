"""Word pairs that stay fair (issue 19): the deal avoids pairs the players saw recently, and a report finds pairs
whose undercover side wins too often or too rarely.

The band: at equal skill the undercover side wins about 25–35 % in public sources (WiS, CK-Arena); a pair whose
undercover win rate after at least `MIN_GAMES` finished matches lies outside [`BAND_LOW`, `BAND_HIGH`] is listed
for an operator to fix or retire (too close words favour the undercovers, too distant ones expose them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_GAMES = 30
BAND_LOW, BAND_HIGH = 0.20, 0.45
MIN_FRESH = 1  # the deal falls back to the whole library when fewer fresh pairs than this are left


def wordpair_key(a: str, b: str) -> str:
    """A pair's key, the same whichever word the deal gave the civilians."""
    first, second = sorted((a, b))
    return f"{first}|{second}"


def fresh_pairs(pairs: Sequence[tuple[str, str]], avoid: Iterable[str]) -> list[tuple[str, str]]:
    """The candidate pairs without those in `avoid`, or all of them when that would leave too few."""
    seen = set(avoid)
    fresh = [pair for pair in pairs if wordpair_key(*pair) not in seen]
    return fresh if len(fresh) >= MIN_FRESH else list(pairs)


@dataclass(frozen=True)
class PairRecord:
    """One pair's finished matches and how many its undercover side won."""

    key: str
    games: int
    undercover_wins: int

    @property
    def undercover_win_rate(self) -> float:
        return self.undercover_wins / self.games if self.games else 0.0

    @property
    def out_of_band(self) -> bool:
        return self.games >= MIN_GAMES and not BAND_LOW <= self.undercover_win_rate <= BAND_HIGH


def records(finished: Iterable[tuple[str, str | None]]) -> list[PairRecord]:
    """Per pair, from (pair key, winner_camp) of finished matches; sorted by key."""
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    for key, winner in finished:
        games[key] = games.get(key, 0) + 1
        wins[key] = wins.get(key, 0) + (winner is not None and winner != "civilian")  # a blank wins with them
    return [PairRecord(key, games[key], wins[key]) for key in sorted(games)]
