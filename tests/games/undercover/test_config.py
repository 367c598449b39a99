"""Config validation: defaults, bounds, cross-field rules, unknown keys."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from tests.games.undercover.rules import UndercoverConfig, parse_config

DEFAULTS = {
    "n_players": 6, "n_undercover": 2, "n_blank": 0, "speak_timeout": 60, "vote_timeout": 90,
    "max_rounds": 6, "tie_break": "random", "wordpair_tag": None, "allow_whisper": False,
    "fellow_roles_visible": False, "first_speaker": 0, "last_words": False, "blank_guess": False,
    "compete_mode": False,
    "takeover_after_timeouts": None,
}


def test_defaults_resolve_max_rounds() -> None:
    assert parse_config(None).model_dump() == DEFAULTS
    assert parse_config({}).model_dump() == DEFAULTS


def test_max_rounds_follows_n_players() -> None:
    assert parse_config({"n_players": 9}).max_rounds == 9
    assert parse_config({"n_players": 9, "max_rounds": None}).max_rounds == 9
    assert parse_config({"n_players": 9, "max_rounds": 18}).max_rounds == 18


def test_accepts_every_option() -> None:
    raw = {**DEFAULTS, "n_players": 12, "n_undercover": 3, "n_blank": 2, "tie_break": "revote",
           "wordpair_tag": "生活", "allow_whisper": True, "first_speaker": "random", "max_rounds": 1,
           "last_words": True, "blank_guess": True, "compete_mode": True}
    assert parse_config(raw).model_dump() == raw


def test_every_extension_is_off_by_default() -> None:
    """Issue 18 §1: a default room plays exactly the protocol (no last words, no blank's guess, no refusals)."""
    config = parse_config({})
    assert (config.last_words, config.blank_guess, config.compete_mode) == (False, False, False)


def test_dump_round_trips() -> None:
    config = parse_config({"n_players": 8, "tie_break": "noop_then_random"})
    assert parse_config(config.model_dump()) == config


def test_frozen() -> None:
    with pytest.raises(Exception):  # noqa: B017
        parse_config({}).n_players = 7  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"n_players": 3}, "n_players"),
        ({"n_players": 13}, "n_players"),
        ({"n_players": "6"}, "n_players"),
        ({"n_players": True}, "n_players"),
        ({"n_undercover": 0}, "n_undercover"),
        ({"n_undercover": 3}, "n_undercover"),
        ({"n_players": 4, "n_undercover": 1, "n_blank": 1}, "n_undercover"),
        ({"n_blank": -1}, "n_blank"),
        ({"speak_timeout": 0}, "speak_timeout"),
        ({"speak_timeout": 601}, "speak_timeout"),
        ({"speak_timeout": 1.5}, "speak_timeout"),
        ({"vote_timeout": 901}, "vote_timeout"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 13}, "max_rounds"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"wordpair_tag": 5}, "wordpair_tag"),
        ({"allow_whisper": "yes"}, "allow_whisper"),
        ({"fellow_roles_visible": 1}, "fellow_roles_visible"),
        ({"first_speaker": 6}, "first_speaker"),
        ({"first_speaker": -1}, "first_speaker"),
        ({"first_speaker": "last"}, "first_speaker"),
        ({"last_words": None}, "last_words"),
        ({"rounds": 3}, "rounds"),
        ({"blank_guess": "yes"}, "blank_guess"),
        ({"compete_mode": 1}, "compete_mode"),
        ({"n_players": 6, "ranked": True}, "ranked"),
    ],
)
def test_invalid_field_is_named(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(GameError) as caught:
        parse_config(raw)
    assert caught.value.code == "invalid_config"
    assert caught.value.detail["field"] == field


def test_unknown_key_message() -> None:
    with pytest.raises(GameError, match="unknown config field: colour"):
        parse_config({"colour": "red"})


def test_first_bad_field_wins() -> None:
    with pytest.raises(GameError) as caught:
        parse_config({"n_players": 99, "tie_break": "x"})
    assert caught.value.detail["field"] == "n_players"


def test_not_an_object() -> None:
    with pytest.raises(GameError) as caught:
        parse_config([1, 2])  # type: ignore[arg-type]
    assert caught.value.detail["field"] == "config"


def test_model_is_the_config_type() -> None:
    assert isinstance(parse_config({}), UndercoverConfig)
