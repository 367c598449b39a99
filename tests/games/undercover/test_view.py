"""Projections: players, you, public fields, visibility."""

from __future__ import annotations

import pytest

from app.games.base import GameError
from app.protocol.viewer import can_see
from tests.games.undercover.rules import (
    Concede,
    Vote,
    players_view,
    public_fields,
    role_set,
    wordpair,
    you_view,
)

from .helpers import Table


def test_players_view_hides_living_roles() -> None:
    table = Table.started(n_players=6, n_undercover=1)
    out = table.civilians[0]
    table.do(Concede(seat=out))
    for row in players_view(table.state, god=False):
        if row["seat"] == out:
            assert row == {"seat": out, "name": f"p{out}", "display_name": f"P{out}", "alive": False,
                           "eliminated_in": "round_1", "revealed_role": "civilian"}
        else:
            assert set(row) == {"seat", "name", "display_name", "alive"}


def test_players_view_god() -> None:
    table = Table.started(n_players=6, n_undercover=1)
    rows = players_view(table.state, god=True)
    assert [(r["role"], r["word"]) for r in rows] == [(p.role, p.word) for p in table.state.players]


def test_you_view_through_a_round() -> None:
    table = Table.started(n_players=6, n_undercover=1, first_speaker=0, last_words=False)
    me = you_view(table.state, 0)
    assert me == {"seat": 0, "alive": True, "role": table.role(0), "word": table.state.players[0].word,
                  "your_turn": True, "next_action": "speak", "has_voted_this_round": None,
                  "allowed_actions": [{"type": "speak", "deadline_ts": table.state.deadline_ts},
                                      {"type": "skip", "deadline_ts": table.state.deadline_ts},
                                      {"type": "concede"}]}
    assert you_view(table.state, 1)["next_action"] == "wait_for_speak_round"
    assert you_view(table.state, 1)["your_turn"] is False
    table.speak_all()
    assert you_view(table.state, 1)["next_action"] == "vote"
    assert you_view(table.state, 1)["has_voted_this_round"] is False
    table.do(Vote(seat=1, target_seat=2))
    assert you_view(table.state, 1)["next_action"] == "wait_for_vote_resolution"
    assert you_view(table.state, 1)["has_voted_this_round"] is True


def test_you_view_eliminated_waiting_and_finished() -> None:
    waiting = Table()
    assert you_view(waiting.state, 0)["next_action"] == "wait_for_next_phase"
    assert you_view(waiting.state, 0)["role"] is None
    table = Table.started(n_players=6, n_undercover=1)
    out = table.civilians[-1]
    table.do(Concede(seat=out))
    assert you_view(table.state, out)["next_action"] == "eliminated"
    table.do(Concede(seat=table.undercovers[0]))
    assert you_view(table.state, 0)["next_action"] == "none"
    with pytest.raises(GameError):
        you_view(table.state, 17)


def test_reveal_wait() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    out = table.civilians[0]
    table.play_round(out)
    other = table.civilians[0]
    assert you_view(table.state, other)["next_action"] == "wait_for_next_phase"


def test_public_fields() -> None:
    table = Table.started(first_speaker=2)
    fields = public_fields(table.state)
    assert fields == {"current_speaker_seat": 2, "deadline_ts": table.state.deadline_ts, "round_index": 1,
                      "alive_count": 6, "pk_candidates": [], "result": None}


def test_role_set_and_visibility() -> None:
    table = Table.started(n_undercover=2)
    u = table.undercovers[0]
    c = table.civilians[0]
    assert role_set(table.state, u) == frozenset({"undercover"})
    assert role_set(Table().state, 0) == frozenset()

    def is_visible(visibility: str, seat: int | None, god: bool) -> bool:
        roles = role_set(table.state, seat) if seat is not None else frozenset()
        return can_see(visibility, god=god, seat=seat, roles=roles)

    assert is_visible("public", None, False)
    assert is_visible(f"private:seat:{c}", c, False)
    assert not is_visible(f"private:seat:{c}", u, False)
    assert not is_visible(f"private:seat:{c}", None, False)
    assert is_visible("private:role:undercover", u, False)
    assert not is_visible("private:role:undercover", c, False)
    assert is_visible("private:host", 0, False)
    assert not is_visible("private:host", 1, False)
    assert not is_visible("god_only", 0, False)
    assert not is_visible("private:bogus", 0, False)
    assert is_visible("god_only", None, True)
    assert is_visible("private:seat:3", None, True)
    assert not is_visible("private:seat:1", 11, False)


def test_wordpair() -> None:
    assert wordpair(Table().state) is None
    table = Table.started()
    assert wordpair(table.state) == table.state.wordpair.model_dump()  # type: ignore[union-attr]
