"""The quick start (开一局): a person picks a table size, a pace and whether the Lady of the Lake is in play, and
plays seat 0; the official bots take every other seat. The table is the preset for its size (`config.PRESETS`).

| pace | `speak_timeout` (proposals, speeches, the Lady) | `vote_timeout` (votes, quest cards) | `assassin_timeout` |
|---|---|---|---|
| `quick` (快速) | 45 s | 30 s | 90 s |
| `standard` (标准, default) | 90 s | 60 s | 180 s |
| `relaxed` (从容) | 150 s | 90 s | 300 s |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from app.games.avalon.config import EVIL_COUNT, PRESETS, QUEST_SIZES
from app.games.kit import PresetForm, pace_options, parse_choices, preset_config

Seats = Literal[5, 6, 7, 8, 9, 10]

PACES: dict[str, dict[str, int]] = {
    "quick": {"speak_timeout": 45, "vote_timeout": 30, "assassin_timeout": 90},
    "standard": {"speak_timeout": 90, "vote_timeout": 60, "assassin_timeout": 180},
    "relaxed": {"speak_timeout": 150, "vote_timeout": 90, "assassin_timeout": 300},
}


class AvalonQuickStart(PresetForm):
    """The choices of Avalon's 开一局 form."""

    n_players: Seats = Field(5, description="seats at the table, you included: 5 to 10 (the preset for each size)")
    lady_of_the_lake: bool = Field(False, description="the Lady of the Lake after quests 2, 3 and 4")


def quick_config(choices: Mapping[str, Any] | None) -> dict[str, Any]:
    """The config the choices ask for (see the module docstring)."""
    picked = parse_choices(AvalonQuickStart, choices)
    return {**preset_config(picked, PACES), "lady_of_the_lake": picked.lady_of_the_lake}


def quick_options() -> dict[str, Any]:
    """The form's extras: each table size's roles, sides and quest teams, and each pace's clocks."""
    tables = [{"n_players": n, "roles": dict(PRESETS[f"{n}p"]), "evil": EVIL_COUNT[n], "quests": list(QUEST_SIZES[n])}
              for n in range(5, 11)]
    return {"tables": tables, "paces": pace_options(PACES)}
