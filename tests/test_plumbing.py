"""Issue 27's target, kept: a game's plumbing (`tools.plumbing`'s count) is at most 60 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.plumbing import GAMES, count

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_games_plumbing_is_at_most_60_lines(game: str) -> None:
    assert 0 < count(ROOT / "app" / "games" / game) <= 60
