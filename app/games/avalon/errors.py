"""Avalon's own error codes (the protocol's standard codes are in app/protocol/errors.py): one per refusal."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.games.base import ErrorSpec

ERRORS: Mapping[str, ErrorSpec] = MappingProxyType({
    "not_the_leader": ErrorSpec(409, "only the leader proposes the team"),
    "wrong_team_size": ErrorSpec(422, "the team must have exactly the quest's number of seats"),
    "duplicate_team_member": ErrorSpec(422, "a seat can be on the team only once"),
    "not_on_the_team": ErrorSpec(409, "only the seats on the approved team play quest cards"),
    "card_already_played": ErrorSpec(409, "you have already played your card on this quest"),
    "good_cannot_fail": ErrorSpec(422, "a good seat can only play success"),
    "not_the_lady": ErrorSpec(409, "only the holder of the Lady of the Lake examines a seat"),
    "lady_already_held": ErrorSpec(422, "a seat that has held the Lady of the Lake cannot be examined"),
    "evil_only": ErrorSpec(403, "only the evil seats that know each other confer (Oberon does not)"),
    "not_the_assassin": ErrorSpec(409, "only the assassin names Merlin"),
    "target_is_ally": ErrorSpec(422, "the assassin must name a seat it does not know to be evil"),
})
