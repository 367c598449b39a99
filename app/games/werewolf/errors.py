"""The werewolf game's own error codes (the protocol's standard codes live in app/protocol/errors.py)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.games.base import ErrorSpec

ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({
    "not_your_night_role": ErrorSpec(403, "your role has no such night action"),
    "not_your_night_turn": ErrorSpec(409, "your role does not act at this point of the night"),
    "night_action_done": ErrorSpec(409, "you have already acted this night"),
    "potion_used": ErrorSpec(409, "that potion is already used"),
    "no_victim_to_save": ErrorSpec(409, "there is nobody you can save tonight"),
    "witch_cannot_save_self": ErrorSpec(422, "the witch may save herself only on the first night"),
    "guard_same_target": ErrorSpec(422, "the guard cannot protect the same seat two nights in a row"),
    "not_your_shot": ErrorSpec(409, "only a hunter who has just died may shoot, and only now"),
})
