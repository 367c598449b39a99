"""The match config: the table size, the role set (a preset per count, or a custom set), Lady of the Lake, the
clocks and the protocol's switches. The rules this encodes are in `docs/_shared/avalon-rules.md`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.games.kit.config import COMPETE_MODE, TAKEOVER_AFTER_TIMEOUTS, roles_by_size, roles_schema

Role = Literal["merlin", "percival", "loyal_servant", "assassin", "morgana", "mordred", "oberon", "minion"]
GOOD_ROLES: tuple[Role, ...] = ("merlin", "percival", "loyal_servant")
EVIL_ROLES: tuple[Role, ...] = ("assassin", "morgana", "mordred", "oberon", "minion")
ROLES: tuple[Role, ...] = GOOD_ROLES + EVIL_ROLES
REPEATABLE = ("loyal_servant", "minion")
EVIL_COUNT = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
QUEST_SIZES = {5: (2, 3, 2, 3, 3), 6: (2, 3, 4, 3, 4), 7: (2, 3, 3, 4, 4), 8: (3, 4, 4, 5, 5),
               9: (3, 4, 4, 5, 5), 10: (3, 4, 4, 5, 5)}

PRESETS: Mapping[str, Mapping[Role, int]] = {
    "5p": {"merlin": 1, "percival": 1, "loyal_servant": 1, "assassin": 1, "morgana": 1},
    "6p": {"merlin": 1, "percival": 1, "loyal_servant": 2, "assassin": 1, "morgana": 1},
    "7p": {"merlin": 1, "percival": 1, "loyal_servant": 2, "assassin": 1, "morgana": 1, "oberon": 1},
    "8p": {"merlin": 1, "percival": 1, "loyal_servant": 3, "assassin": 1, "morgana": 1, "minion": 1},
    "9p": {"merlin": 1, "percival": 1, "loyal_servant": 4, "assassin": 1, "morgana": 1, "mordred": 1},
    "10p": {"merlin": 1, "percival": 1, "loyal_servant": 4, "assassin": 1, "morgana": 1, "mordred": 1,
            "oberon": 1},
}

_ROLES_SCHEMA = roles_schema(PRESETS, ROLES, "a preset (5p…10p) or a set {role: count}: exactly one merlin and "
                             "one assassin, at most one of percival, morgana, mordred, oberon, the good/evil split of "
                             "n_players; default: the preset for n_players")


def is_evil(role: str | None) -> bool:
    return role in EVIL_ROLES


class AvalonConfig(BaseModel):
    """A validated, immutable match configuration (`roles` always resolved to a set)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    n_players: int = Field(5, ge=5, le=10, description="seats at the table (good/evil 3/2, 4/2, 4/3, 5/3, 6/3, 6/4)")
    roles: Annotated[dict[Role, int], _ROLES_SCHEMA] = Field(default_factory=dict, description="the role set: a "
                                                             "preset name or {role: count}; default: the preset "
                                                             "for n_players")
    lady_of_the_lake: bool = Field(False, description="after quests 2, 3 and 4 the holder of the Lady learns one "
                                                      "seat's side, and that seat takes the Lady")
    speak_timeout: int = Field(90, ge=1, le=600, description="seconds for the leader's proposal, each speech and "
                                                             "the Lady's examination")
    vote_timeout: int = Field(60, ge=1, le=600, description="seconds for the team vote, and again for the quest "
                                                            "cards")
    assassin_timeout: int = Field(180, ge=1, le=900, description="seconds for the evil seats to confer and the "
                                                                 "assassin to name a seat")
    compete_mode: bool = COMPETE_MODE
    takeover_after_timeouts: int | None = TAKEOVER_AFTER_TIMEOUTS

    _roles = roles_by_size(PRESETS, 5)

    @field_validator("roles")
    @classmethod
    def _check(cls, roles: dict[Role, int], info: ValidationInfo) -> dict[Role, int]:
        n = info.data.get("n_players")
        if n is None:
            return roles
        if any(count < 0 for count in roles.values()):
            raise ValueError("role counts must not be negative")
        if sum(roles.values()) != n:
            raise ValueError(f"the roles add up to {sum(roles.values())} seats, not n_players={n}")
        evil = sum(roles.get(role, 0) for role in EVIL_ROLES)
        if evil != EVIL_COUNT[n]:
            raise ValueError(f"{n} players need {n - EVIL_COUNT[n]} good and {EVIL_COUNT[n]} evil seats, not "
                             f"{n - evil}/{evil}")
        if roles.get("merlin", 0) != 1 or roles.get("assassin", 0) != 1:
            raise ValueError("a role set has exactly one merlin and one assassin")
        if any(roles.get(role, 0) > 1 for role in ROLES if role not in REPEATABLE):
            raise ValueError("at most one of each named role (percival, morgana, mordred, oberon)")
        return {role: roles[role] for role in ROLES if roles.get(role)}

    @property
    def quest_sizes(self) -> tuple[int, ...]:
        return QUEST_SIZES[self.n_players]

    def fails_needed(self, quest: int) -> int:
        """Quest `quest` (1–5) fails on this many fail cards: two on the fourth quest of 7+ players."""
        return 2 if quest == 4 and self.n_players >= 7 else 1
