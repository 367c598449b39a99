"""Avalon's secrecy while the match runs: no viewer reads a role, a vote or a card it may not know — Merlin never
sees Mordred, Percival's candidates carry no names, no card choice shows before the end, no vote before all are in,
Oberon and the good seats never read the evil seats' talk."""

from __future__ import annotations

from typing import Any

from app.games.avalon.rules import KNOWS_EVIL
from app.games.avalon.state import State

CARDS = ("success", "fail")


def _walk(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in _walk(v))]
    if isinstance(value, list):
        return [x for v in value for x in _walk(v)]
    return [value]


def secrets(state: State, seat: int | None, snap: dict[str, Any]) -> None:
    assert not {"roles", "votes", "cards", "lady_results", "spectator_log"} & snap.keys()
    for row in snap["players"]:
        assert "role" not in row and "side" not in row, row
    seen = snap["public_log"] + (snap["you"]["private_log"] if seat is not None else [])
    for event in seen:
        assert event["type"] not in ("card_chosen", "roles_dealt"), event
        assert "card" not in event and "choice" not in event, event
        if event["type"] == "vote_cast":
            assert set(event) == {"seq", "type", "visibility", "seat", "ts"}, event
        if event["type"] == "evil_conferred":
            assert seat is not None and state.role(seat) in KNOWS_EVIL, (seat, event)
        if event["type"] == "role_dealt":
            assert event["seat"] == seat, event
        if event["type"] == "lady_result":
            assert event["seat"] == seat, event
    if seat is None:
        return
    you, role = snap["you"], state.role(seat)
    assert you["role"] == role
    assert you.get("your_card") in (None, *CARDS)
    mordred = state.seats_of("mordred")
    if role == "merlin":
        assert not set(mordred) & set(you["evil_seats"]), you
        assert set(you["evil_seats"]) == {s for s in range(len(state.players)) if state.evil(s)} - set(mordred)
    if role == "percival":
        assert you["merlin_candidates"] == sorted(state.seats_of("merlin", "morgana"))
        assert all(isinstance(s, int) for s in you["merlin_candidates"])
    if role == "oberon" or not state.evil(seat):
        assert "evil_seats" not in you or role == "merlin"
    for value in _walk(you):  # nobody's role but its own appears in its block
        if isinstance(value, str) and value in ("merlin", "morgana", "mordred", "assassin", "oberon", "percival"):
            assert value == role, (seat, value)
