"""Which games this server offers: one line per game (its `Game` and its rule bot), plus its package under
app/games/ and its page module static/js/games/<name>.js. The first line is the default game.

`app.runtime` registers them with `app.protocol.registry` at start-up; the bot players (which may run in another
process) find a game's brain through `brains()`, and what else its brain offers them (arena, LLM voice, recap
prompt: `app.games.brains.BotPlay`) through `bot_play()`. Nothing else names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from app.games.avalon import brain as avalon_brain
from app.games.avalon.game import GAME as AVALON
from app.games.brains import BotPlay
from app.games.script_kill import brain as script_kill_brain
from app.games.script_kill.config import npc_seats as script_kill_npc_seats
from app.games.script_kill.game import GAME as SCRIPT_KILL
from app.games.undercover import brain as undercover_brain
from app.games.undercover.game import GAME as UNDERCOVER
from app.games.werewolf import brain as werewolf_brain
from app.games.werewolf.game import GAME as WEREWOLF

Brain = Callable[..., dict[str, Any] | None]

BOT_SEATS: dict[str, Callable[[Mapping[str, Any]], int]] = {"script_kill": script_kill_npc_seats}
"""Game name → the most empty seats the lobby's official bots may fill in one room, given its stored config (seed
002: 0–3 NPCs, the room's `npc_seats`; a script_kill room starts with at least 3 agents or people). Games not
listed: any number."""


def bot_seats(game: str, config: Mapping[str, Any]) -> int | None:
    """The most open seats the official bots may take in a room of `game` with this stored config (None: any)."""
    cap = BOT_SEATS.get(game)
    return None if cap is None else cap(config)


@cache
def _games() -> list[tuple[Any, BotPlay | None]]:
    """(game, its brain's `BotPlay` or None): one line per game, the default first."""
    return [
        (UNDERCOVER, undercover_brain.PLAY),
        (WEREWOLF, werewolf_brain.PLAY),
        (SCRIPT_KILL, script_kill_brain.PLAY),
        (AVALON, avalon_brain.PLAY),
    ]


def installed() -> list[tuple[Any, Brain | None]]:
    """(game, brain or None) for every game, the default first."""
    return [(game, play.decide if play else None) for game, play in _games()]


@cache
def brains() -> dict[str, Brain]:
    """Game name → its rule bot (`app.protocol.registry.Brain` states the contract)."""
    return {game.name: brain for game, brain in installed() if brain is not None}


@cache
def bot_play() -> dict[str, BotPlay]:
    """Game name → its brain's `BotPlay` (every game with a brain)."""
    return {game.name: play for game, play in _games() if play is not None}
