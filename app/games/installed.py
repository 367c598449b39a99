"""Which games this server offers: one line per game (its `Game` and its rule bot), plus its package under
app/games/ and its page module static/js/games/<name>.js. The first line is the default game.

`app.runtime` registers them with `app.protocol.registry` at start-up; nothing else names a game.
"""

from __future__ import annotations

from typing import Any

from app.games.undercover.game import UndercoverGame


def installed() -> list[tuple[Any, Any]]:
    """(game, brain or None) for every game, the default first."""
    return [
        (UndercoverGame(), None),
    ]
