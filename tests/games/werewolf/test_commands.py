"""Action bodies: every action's request schema, and what `parse_action` refuses."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from tests.games.werewolf.rules import ACTIONS, Concede, NightAction, Shoot, Speak, Vote, parse_command


def test_every_action_model_names_its_type_and_forbids_extra_fields() -> None:
    assert set(ACTIONS) == {"night_action", "speak", "skip", "vote", "whisper", "last_words", "shoot", "concede"}
    for name, model in ACTIONS.items():
        schema = model.model_json_schema()
        assert schema["properties"]["type"]["const"] == name
        assert schema["additionalProperties"] is False
        assert {"analysis", "expected_seq"} <= set(schema["properties"])


def test_bodies_become_commands_for_the_seat() -> None:
    assert parse_command({"type": "night_action", "action": "kill", "target_seat": 3}, 1) == NightAction(
        seat=1, action="kill", target_seat=3)
    assert parse_command({"type": "speak", "text": "hi", "expected_seq": 9, "analysis": {"a": 1}}, 2) == Speak(
        seat=2, text="hi", analysis={"a": 1}, expected_seq=9)  # the request is the command: it keeps what was sent
    assert parse_command({"type": "vote", "target_seat": 0, "comment": "狼"}, 4) == Vote(
        seat=4, target_seat=0, comment="狼")
    assert parse_command({"type": "shoot", "target_seat": None}, 5) == Shoot(seat=5, target_seat=None)
    assert parse_command({"type": "concede"}, 1) == Concede(seat=1)


@pytest.mark.parametrize("body", [
    {"type": "fly"},
    {"text": "no type"},
    {"type": "vote", "target_seat": "2"},
    {"type": "vote", "target_seat": True},
    {"type": "vote", "target_seat": 2, "seat": 0},
    {"type": "night_action", "action": "bite", "target_seat": 1},
    {"type": "night_action", "action": "kill", "target": 1},
    {"type": "speak"},
    {"type": "shoot"},
    {"type": "concede", "seat": 3},
    {"type": "speak", "text": "x", "expected_seq": -1},
])
def test_bad_bodies_are_bad_requests_with_field_errors(body: dict[str, Any]) -> None:
    with pytest.raises(GameError) as caught:
        parse_command(body, 0)
    assert caught.value.code == "bad_request"
    assert caught.value.detail["errors"], caught.value.detail


def test_a_body_that_is_not_an_object() -> None:
    with pytest.raises(GameError) as caught:
        parse_command([1], 0)  # type: ignore[arg-type]
    assert caught.value.code == "bad_request"
