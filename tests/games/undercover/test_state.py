"""The state survives a JSON round trip at every point of a game."""

from __future__ import annotations

import json

from app.games.undercover.game import GAME as UNDERCOVER_GAME
from tests.games.undercover.rules import Join, Speak, apply, state_from_json, state_to_json

from .helpers import Table


def test_round_trip_through_json_text() -> None:
    table = Table.started(n_players=8, n_undercover=2, n_blank=1, tie_break="revote", allow_whisper=True)
    table.speak_all()
    table.vote_out(table.civilians[0], except_voters=(7,))
    data = state_to_json(table.state)
    text = json.dumps(data, ensure_ascii=False)
    restored = state_from_json(text)
    assert restored == table.state
    assert state_from_json(data) == table.state
    assert state_to_json(restored) == data
    assert isinstance(next(iter(restored.votes)), int)


def test_restored_state_plays_on_identically() -> None:
    table = Table.started()
    restored = state_from_json(json.dumps(state_to_json(table.state)))
    a = apply(table.state, Speak(seat=0, text="一种东西"), now=table.now + 1)
    b = apply(restored, Speak(seat=0, text="一种东西"), now=table.now + 1)
    assert a.events == b.events and a.state == b.state


def test_apply_never_mutates_its_input() -> None:
    table = Table.started()
    before = state_to_json(table.state)
    apply(table.state, Speak(seat=0, text="一种东西"), now=table.now + 1)
    assert state_to_json(table.state) == before


def test_game_namespace() -> None:
    GAME = UNDERCOVER_GAME
    assert GAME.name == "undercover"
    config = GAME.parse_config({"n_players": 4, "n_undercover": 1})
    outcome = GAME.new_match(config, "a", "A", seed=5, now=0.0)
    assert GAME.state_from_json(GAME.state_to_json(outcome.state)) == outcome.state
    assert GAME.parse_action({"type": "skip"}, 0).request.type == "skip"  # type: ignore[union-attr]
    assert GAME.players_view(outcome.state, god=False)[0]["name"] == "a"
    assert GAME.you_view(outcome.state, 0)["seat"] == 0
    assert GAME.public_fields(outcome.state)["alive_count"] == 1
    assert GAME.role_set(outcome.state, 0) == frozenset()
    assert GAME.god_fields(outcome.state) == {"wordpair": None}
    joined = GAME.apply(outcome.state, Join(name="b", display_name="B"), now=1.0)
    assert [e["type"] for e in joined.events] == ["player_joined"]
