"""The `config` of a werewolf match, and the role compositions it may deal.

`roles` is a preset name (`"6p"` … `"12p"`) or a composition `{role: count}`; left out, it is the
preset for `n_players`. The issue's three presets are kept as given; 7, 8, 10 and 11 seats get
the nearest sensible table (one more villager, or the next preset's gods):

| preset | wolves | villagers | gods |
|---|---|---|---|
| 6p | 2 | 2 | seer, witch |
| 7p | 2 | 3 | seer, witch |
| 8p | 2 | 3 | seer, witch, hunter |
| 9p | 3 | 3 | seer, witch, hunter |
| 10p | 3 | 4 | seer, witch, hunter |
| 11p | 3 | 4 | seer, witch, hunter, guard |
| 12p | 4 | 4 | seer, witch, hunter, guard |

A composition must sum to `n_players`, hold 1+ wolves, at most one of each god, and wolves must be
fewer than the rest; under `win_rule="side"` it needs at least one villager and one god (an empty
side would be "all dead" before the first night). Bounds: `night_timeout` 1–600 s, `speak_timeout`
1–600 s (also the clock for last words and the hunter's shot), `vote_timeout` 1–900 s,
`max_rounds` 1–2×`n_players` (default `n_players`). Unknown keys are refused; every error names
the first bad field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from app.games.kit.config import COMPETE_MODE, TAKEOVER_AFTER_TIMEOUTS, max_rounds_by_size, roles_by_size, roles_schema

Role = Literal["werewolf", "villager", "seer", "witch", "hunter", "guard"]
Camp = Literal["village", "werewolf"]
ROLES: tuple[Role, ...] = ("werewolf", "villager", "seer", "witch", "hunter", "guard")
GODS: tuple[Role, ...] = ("seer", "witch", "hunter", "guard")
TieBreak = Literal["random", "revote", "noop_then_random"]
WinRule = Literal["side", "all"]
Reveal = Literal["none", "team", "role"]

PRESETS: Mapping[str, Mapping[Role, int]] = {
    "6p": {"werewolf": 2, "villager": 2, "seer": 1, "witch": 1},
    "7p": {"werewolf": 2, "villager": 3, "seer": 1, "witch": 1},
    "8p": {"werewolf": 2, "villager": 3, "seer": 1, "witch": 1, "hunter": 1},
    "9p": {"werewolf": 3, "villager": 3, "seer": 1, "witch": 1, "hunter": 1},
    "10p": {"werewolf": 3, "villager": 4, "seer": 1, "witch": 1, "hunter": 1},
    "11p": {"werewolf": 3, "villager": 4, "seer": 1, "witch": 1, "hunter": 1, "guard": 1},
    "12p": {"werewolf": 4, "villager": 4, "seer": 1, "witch": 1, "hunter": 1, "guard": 1},
}


_ROLES_SCHEMA = roles_schema(PRESETS, ROLES, "a preset (6p…12p) or a composition {role: count} adding up to "
                             "n_players; default: the preset for n_players")


def camp_of(role: Role) -> Camp:
    """Wolves are the werewolf camp; villagers and gods are the village."""
    return "werewolf" if role == "werewolf" else "village"


def _bad(field: str, message: str) -> PydanticCustomError:
    return PydanticCustomError("invalid_config", message, {"field": field})


class WerewolfConfig(BaseModel):
    """A validated, immutable match configuration; `model_dump()` is the full resolved config
    (`roles` always resolved to a composition)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    n_players: int = Field(6, ge=6, le=12, description="seats at the table")
    roles: Annotated[dict[Role, int], _ROLES_SCHEMA] = Field(default_factory=dict)
    win_rule: WinRule = Field("side", description="side (屠边): wolves win when every villager or every god is "
                                                  "dead; all (屠城): when every good seat is dead")
    reveal_role_on_death: Reveal = Field("none", description="what the public sees of a dead seat's card")
    first_night_last_words: bool = Field(True, description="night 1's dead say last words (later night deaths "
                                                           "never do; the voted-out always do)")
    night_timeout: int = Field(60, ge=1, le=600, description="seconds for the night's first step, and again for "
                                                             "the witch's step")
    speak_timeout: int = Field(60, ge=1, le=600, description="seconds per speech, last words and hunter's shot")
    vote_timeout: int = Field(60, ge=1, le=900, description="seconds for a vote")
    tie_break: TieBreak = Field("revote", description="a tied vote: revote (PK of the tied), random, or "
                                                      "noop_then_random")
    allow_whisper: bool = Field(True, description="wolves may whisper to each other at night")
    max_rounds: int = Field(0, ge=1, description="the wolves win if night max_rounds + 1 would fall; default "
                                                 "n_players")
    compete_mode: bool = COMPETE_MODE
    takeover_after_timeouts: int | None = TAKEOVER_AFTER_TIMEOUTS

    _roles = roles_by_size(PRESETS, 6)
    _max_rounds = max_rounds_by_size(6)

    @model_validator(mode="after")
    def _check_together(self) -> WerewolfConfig:
        roles, n = self.roles, self.n_players
        if any(count < 0 for count in roles.values()):
            raise _bad("roles", "role counts must not be negative")
        if sum(roles.values()) != n:
            raise _bad("roles", f"the roles add up to {sum(roles.values())} seats, not n_players={n}")
        wolves = roles.get("werewolf", 0)
        if wolves < 1:
            raise _bad("roles", "there must be at least one werewolf")
        if wolves >= n - wolves:
            raise _bad("roles", "werewolves must be fewer than the rest of the table")
        if any(roles.get(god, 0) > 1 for god in GODS):
            raise _bad("roles", "at most one of each god (seer, witch, hunter, guard)")
        gods = sum(roles.get(god, 0) for god in GODS)
        if self.win_rule == "side" and (roles.get("villager", 0) < 1 or gods < 1):
            raise _bad("roles", "win_rule 'side' needs at least one villager and one god")
        if self.max_rounds > 2 * n:
            raise _bad("max_rounds", "max_rounds must be at most 2 × n_players")
        return self

    def count(self, role: Role) -> int:
        """How many seats are dealt `role`."""
        return self.roles.get(role, 0)
