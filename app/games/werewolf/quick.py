"""The quick start (开一局, issue 33): a person picks a table size and a pace in the lobby form and plays seat 0; the
official bots take every other seat. The table is the classic preset for its size (`config.PRESETS`): 6 seats
(2 wolves, 2 villagers, seer, witch), 9 (3 wolves, 3 villagers, seer, witch, hunter) or 12 (4 wolves, 4 villagers,
seer, witch, hunter, guard).

| pace | `night_timeout` | `speak_timeout` (also last words, the hunter's shot) | `vote_timeout` |
|---|---|---|---|
| `quick` (快速) | 30 s | 45 s | 30 s |
| `standard` (标准, default) | 45 s | 60 s | 45 s |
| `relaxed` (从容) | 90 s | 120 s | 90 s |

Everything else is the game's default (屠边, no card shown on death, the wolves may whisper).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from app.games.kit import PresetForm, pace_options, parse_choices, preset_config
from app.games.werewolf.config import PRESETS

Seats = Literal[6, 9, 12]

PACES: dict[str, dict[str, int]] = {
    "quick": {"night_timeout": 30, "speak_timeout": 45, "vote_timeout": 30},
    "standard": {"night_timeout": 45, "speak_timeout": 60, "vote_timeout": 45},
    "relaxed": {"night_timeout": 90, "speak_timeout": 120, "vote_timeout": 90},
}


class WerewolfQuickStart(PresetForm):
    """The choices of werewolf's 开一局 form."""

    n_players: Seats = Field(6, description="seats at the table, you included: 6, 9 or 12 (the classic presets)")


def quick_config(choices: Mapping[str, Any] | None) -> dict[str, Any]:
    """The config the choices ask for (see the module docstring)."""
    return preset_config(parse_choices(WerewolfQuickStart, choices), PACES)


def quick_options() -> dict[str, Any]:
    """The form's extras: each table size's roles, and each pace's clocks."""
    tables = [{"n_players": n, "roles": dict(PRESETS[f"{n}p"])} for n in (6, 9, 12)]
    return {"tables": tables, "paces": pace_options(PACES)}
