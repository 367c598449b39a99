"""The werewolf config: presets, compositions, defaults, and the errors that name the bad field."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from app.games.werewolf.config import PRESETS, ROLES, WerewolfConfig
from tests.games.werewolf.rules import parse_config


@pytest.mark.parametrize("n", range(6, 13))
def test_every_table_size_has_a_default_composition(n: int) -> None:
    config = parse_config({"n_players": n})
    assert sum(config.roles.values()) == n and config.roles == PRESETS[f"{n}p"]


def test_the_issues_presets() -> None:
    assert PRESETS["6p"] == {"werewolf": 2, "villager": 2, "seer": 1, "witch": 1}
    assert PRESETS["9p"] == {"werewolf": 3, "villager": 3, "seer": 1, "witch": 1, "hunter": 1}
    assert PRESETS["12p"] == {"werewolf": 4, "villager": 4, "seer": 1, "witch": 1, "hunter": 1, "guard": 1}


def test_defaults() -> None:
    dumped = parse_config(None).model_dump()
    assert dumped == {
        "n_players": 6, "roles": PRESETS["6p"], "win_rule": "side", "reveal_role_on_death": "none",
        "first_night_last_words": True, "night_timeout": 60, "speak_timeout": 60, "vote_timeout": 60,
        "tie_break": "revote", "allow_whisper": True, "max_rounds": 6, "compete_mode": False,
        "takeover_after_timeouts": None,
    }


def test_a_preset_by_name_and_a_composition() -> None:
    assert parse_config({"n_players": 9, "roles": "9p"}).roles == PRESETS["9p"]
    roles = {"werewolf": 2, "villager": 3, "seer": 1, "guard": 1}
    assert parse_config({"n_players": 7, "roles": roles}).roles == roles


@pytest.mark.parametrize(("raw", "field"), [
    ({"n_players": 5}, "n_players"),
    ({"n_players": 13}, "n_players"),
    ({"n_players": 6, "roles": "9p"}, "roles"),
    ({"roles": "12"}, "roles"),
    ({"roles": {"werewolf": 2, "villager": 3}}, "roles"),
    ({"roles": {"werewolf": 0, "villager": 4, "seer": 1, "witch": 1}}, "roles"),
    ({"roles": {"werewolf": 3, "villager": 1, "seer": 1, "witch": 1}}, "roles"),
    ({"roles": {"werewolf": 2, "villager": 2, "seer": 2}}, "roles"),
    ({"roles": {"werewolf": 2, "villager": 2, "wizard": 2}}, "roles"),
    ({"roles": {"werewolf": 2, "villager": 4}}, "roles"),
    ({"roles": {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "guard": 1}}, "roles"),
    ({"roles": {"werewolf": -1, "villager": 5, "seer": 1, "witch": 1}}, "roles"),
    ({"win_rule": "city"}, "win_rule"),
    ({"reveal_role_on_death": "all"}, "reveal_role_on_death"),
    ({"tie_break": "coin"}, "tie_break"),
    ({"night_timeout": 0}, "night_timeout"),
    ({"vote_timeout": "60"}, "vote_timeout"),
    ({"max_rounds": 13}, "max_rounds"),
    ({"n_undercover": 1}, "n_undercover"),
])
def test_bad_configs_name_their_field(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(GameError) as caught:
        parse_config(raw)
    assert caught.value.code == "invalid_config" and caught.value.detail["field"] == field, caught.value.message


def test_the_all_rule_allows_a_table_without_villagers() -> None:
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "guard": 1}
    assert parse_config({"roles": roles, "win_rule": "all"}).roles == roles


def test_config_is_not_an_object() -> None:
    with pytest.raises(GameError) as caught:
        parse_config([1, 2])  # type: ignore[arg-type]
    assert caught.value.detail["field"] == "config"


def test_the_config_schema_documents_presets_and_every_field() -> None:
    schema = WerewolfConfig.model_json_schema()
    roles = schema["properties"]["roles"]["anyOf"]
    assert roles[0]["enum"] == list(PRESETS) and set(roles[1]["properties"]) == set(ROLES)
    assert all("description" in field for field in schema["properties"].values())
