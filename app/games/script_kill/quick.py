"""开一局 for 剧本杀 (issue 33): a person opens a room for friends. The host takes seat 0 and shares the invite link;
two to five friends (people or agents) sit down; the official bots, the NPCs, take the last `npc_seats` (0–3,
seed 002's 补位NPC) when the host starts (`POST /api/matches/{id}/fill`) or after `WODI_BOT_FILL_AFTER`.

| choice | config |
|---|---|
| `script` | `script` (a shipped script id; default: the config's default script) |
| `timing` | `timing`: `standard` (about two hours) or `compressed` (at most ten minutes: a short evening) |
| `npc_seats` | `npc_seats` (0–3, default 3): with 3, the host and two friends are enough to start |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from app.games.kit import parse_choices
from app.games.script_kill.config import MAX_NPC_SEATS, N_PLAYERS, default_script, known_script
from app.games.script_kill.package import load_script, script_ids
from app.games.script_kill.stages import SUB_STAGES, Timing


class ScriptKillQuickStart(BaseModel):
    """The choices of the 开一局 form for a room of friends."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    script: str = Field(default_factory=default_script, description="the script (a shipped script id)",
                        json_schema_extra={"enum": list[JsonValue](script_ids())})
    timing: Timing = Field("standard", description="standard (about 2 hours) or compressed (at most 10 minutes)")
    npc_seats: int = Field(MAX_NPC_SEATS, ge=0, le=MAX_NPC_SEATS,
                           description=f"how many of the {N_PLAYERS} seats NPCs may fill (0–{MAX_NPC_SEATS})")

    @field_validator("script")
    @classmethod
    def _known(cls, script: str) -> str:
        return known_script(script)


def quick_config(choices: Mapping[str, Any] | None) -> dict[str, Any]:
    """The config the choices ask for."""
    picked = parse_choices(ScriptKillQuickStart, choices)
    return {"n_players": N_PLAYERS, "script": picked.script, "timing": picked.timing, "npc_seats": picked.npc_seats}


def quick_options() -> dict[str, Any]:
    """The scripts (id, title, whether it is a test script) and each timing's minutes in all."""
    scripts = [{"id": sid, "title": load_script(sid).title, "test_only": load_script(sid).test_only}
               for sid in script_ids()]
    minutes = {timing: round(sum(getattr(s, timing) for s in SUB_STAGES) / 60) for timing in ("standard", "compressed")}
    return {"scripts": scripts, "minutes": minutes, "seats": N_PLAYERS, "invites": True}
