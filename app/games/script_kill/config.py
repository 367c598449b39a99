"""The match config: the seat count, the timing preset, which script is played, and the competitive switch.

- `n_players`: always 6 (every script seats six); protocol clients send it, another count is `invalid_config`.
- `timing`: `standard` (default; the seed's durations, 127 min from the deal plus up to 3 for the room to fill) or
  `compressed` (every stage shortened, at most 10 minutes in all: tests, bots, quick games). `stages.SUB_STAGES`
  lists both.
- `script`: a shipped script id (`app/games/script_kill/scripts/<id>.json`); default: the first full
  (not `test_only`) script, or `tiny` while none is shipped.
- `compete_mode`: as in the other games, read by the services (rated; spectators see the god view only after the
  end); the rules do not change.
- `npc_seats` (0–3, default 3; seed 002's 补位NPC): the most seats the official bots (the NPCs) take in the room;
  the others wait for players (`app.games.installed.bot_seats`). The rules do not read it.
- `takeover_after_timeouts` (null = off): as in the other games, the official bot plays a seat that let this many
  stage clocks run out in a row without acting (once the game has a brain).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer

from app.games.kit.config import COMPETE_MODE, TAKEOVER_AFTER_TIMEOUTS
from app.games.script_kill.package import load_script, script_ids
from app.games.script_kill.stages import Timing

N_PLAYERS = 6
MAX_NPC_SEATS = 3  # seed 002: 6人本 + 0–3 补位NPC


@cache
def default_script() -> str:
    """The first shipped script that is not a test script (`tiny` when there is none)."""
    full = [sid for sid in script_ids() if not load_script(sid).test_only]
    return full[0] if full else "tiny"


class ScriptKillConfig(BaseModel):
    """A validated, immutable match configuration."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    n_players: int = Field(N_PLAYERS, description=f"the seat count: a script seats exactly {N_PLAYERS}")
    timing: Timing = Field("standard", description="standard (about 2 hours) or compressed (at most 10 minutes)")
    script: str = Field(default_factory=default_script, description="the script id (a shipped package)")
    compete_mode: bool = COMPETE_MODE
    npc_seats: int | None = Field(None, ge=0, le=MAX_NPC_SEATS, description=(
        f"the most seats NPCs (the official bots) fill, 0–{MAX_NPC_SEATS}; the others wait for players (absent: "
        f"{MAX_NPC_SEATS})"))
    takeover_after_timeouts: int | None = TAKEOVER_AFTER_TIMEOUTS

    @model_serializer(mode="wrap")
    def _opt_in(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """`npc_seats` is echoed only when the room set it (a protocol client's config stays as it was)."""
        data: dict[str, Any] = handler(self)
        if self.npc_seats is None:
            data.pop("npc_seats", None)
        return data

    @field_validator("n_players")
    @classmethod
    def _seats(cls, n: int) -> int:
        if n != N_PLAYERS:
            raise ValueError(f"a 剧本杀 script seats exactly {N_PLAYERS} players; "
                             f"n_players {n} cannot be played")
        return n

    @field_validator("script")
    @classmethod
    def _known(cls, script: str) -> str:
        return known_script(script)


def known_script(script: str) -> str:
    """A shipped script's id, or a `ValueError` naming the shipped ones (the config's and the form's check)."""
    if script not in script_ids():
        raise ValueError(f"unknown script {script!r}; shipped: {', '.join(script_ids())}")
    return script


def npc_seats(config: Mapping[str, Any]) -> int:
    """The most open seats the official bots take in a room of this (stored) config."""
    value = config.get("npc_seats")
    return MAX_NPC_SEATS if value is None else int(value)
