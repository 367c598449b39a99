"""Issue 27's targets, kept: a game's plumbing (`tools.plumbing`'s count) is at most 60 lines, and the fake game
(a complete game: roles, seat-private events, a god-only secret, its own error code) at most 120 lines in all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.plumbing import GAMES, count

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_games_plumbing_is_at_most_60_lines(game: str) -> None:
    assert 0 < count(ROOT / "app" / "games" / game) <= 60


def test_the_fake_game_is_at_most_120_lines_rules_included() -> None:
    lines = (ROOT / "tests" / "protocol" / "fake_game.py").read_text().splitlines()
    assert 0 < len(lines) <= 120
