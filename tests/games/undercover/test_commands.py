"""Parsing HTTP action bodies into commands (`actions.parse_action`)."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameError
from app.games.undercover.game import GAME
from tests.games.undercover.rules import (
    Concede,
    GuessWord,
    LastWords,
    Skip,
    Speak,
    Vote,
    Whisper,
)

parse_command = GAME.parse_action


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"type": "speak", "text": "hi"}, Speak(seat=2, text="hi")),
        ({"type": "speak", "text": "hi", "analysis": {"a": 1}}, Speak(seat=2, text="hi", analysis={"a": 1})),
        ({"type": "skip"}, Skip(seat=2)),
        ({"type": "vote", "target_seat": 3}, Vote(seat=2, target_seat=3)),
        ({"type": "vote", "target_seat": 3, "comment": "x"}, Vote(seat=2, target_seat=3, comment="x")),
        ({"type": "skip", "analysis": {"a": 1}, "expected_seq": 4}, Skip(seat=2, analysis={"a": 1}, expected_seq=4)),
        ({"type": "whisper", "target_seat": 1, "text": "t"}, Whisper(seat=2, target_seat=1, text="t")),
        ({"type": "last_words", "text": "bye"}, LastWords(seat=2, text="bye")),
        ({"type": "guess_word", "word": "咖啡"}, GuessWord(seat=2, word="咖啡")),
        ({"type": "concede"}, Concede(seat=2)),
    ],
)
def test_parses(raw: dict[str, Any], expected: object) -> None:
    assert parse_command(raw, 2) == expected


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"type": "dance"},
        {"type": "timeout", "token": 1},
        {"type": "join", "name": "x", "display_name": "y"},
        {"type": 5},
        {"type": "speak"},
        {"type": "speak", "text": 5},
        {"type": "vote"},
        {"type": "vote", "target_seat": "3"},
        {"type": "vote", "target_seat": True},
        {"type": "vote", "target_seat": 3.5},
        {"type": "speak", "text": "x", "analysis": [1]},
        {"type": "whisper", "text": "x"},
        {"type": "guess_word"},
        {"type": "skip", "seat": 5},
        {"type": "vote", "target_seat": 3, "spent_ms": 5},
        {"type": "speak", "text": "x", "target_seat": 1},
    ],
)
def test_bad_request(raw: dict[str, Any]) -> None:
    with pytest.raises(GameError) as caught:
        parse_command(raw, 0)
    assert caught.value.code == "bad_request"


def test_not_an_object() -> None:
    with pytest.raises(GameError) as caught:
        parse_command("speak", 0)  # type: ignore[arg-type]
    assert caught.value.code == "bad_request"


def test_missing_field_is_named() -> None:
    with pytest.raises(GameError) as caught:
        parse_command({"type": "vote"}, 0)
    assert caught.value.detail["field"] == "target_seat"


def test_unknown_field_is_refused_and_named() -> None:
    with pytest.raises(GameError) as caught:
        parse_command({"type": "vote", "target_seat": 3, "spent_ms": 5}, 0)
    assert caught.value.code == "bad_request"
    assert caught.value.detail["field"] == "spent_ms"
