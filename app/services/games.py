"""Which games this server offers. Adding a game = one line here plus its package under app/games/."""

from __future__ import annotations

from app.games.undercover.game import UndercoverGame
from app.protocol import registry


def install_games() -> None:
    registry.register(UndercoverGame())
