"""The gate table, 100 %: every action in every one of the twelve stages is accepted where `stages.GATES` allows
it and refused elsewhere with `stage_forbids` (409) and the DM's line."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from app.games.base import GameError
from app.games.script_kill.actions import ACTIONS
from app.games.script_kill.config import ScriptKillConfig
from app.games.script_kill.errors import ERRORS
from app.games.script_kill.stages import FORBIDDEN, GATES, SUB_STAGES
from app.games.script_kill.state import MatchState
from tests.games.script_kill.helpers import GAME, T0, expire, table


@cache
def state_in(index: int) -> MatchState:
    """A fresh table in sub-stage `index`, reached by the clock alone (0: the waiting room, gm_init)."""
    if index == 0:
        config = ScriptKillConfig(timing="compressed", script="tiny")
        return GAME.new_match(config, "p0", "P0", seed=1, now=T0).state
    played = table(seed=1)
    while played.state.stage_index < index:
        expire(played)
    assert played.state.phase == SUB_STAGES[index].id
    return played.state


def body_for(option: dict[str, Any]) -> dict[str, Any]:
    """A body built from an `allowed_actions` entry's own option lists."""
    kind = option["type"]
    body: dict[str, Any] = {"type": kind}
    first = {key: option[key][0] for key in ("items", "clues", "locations", "powers", "targets") if option.get(key)}
    if kind == "inspect" or kind == "reveal_clue":
        body.update({"item": first["items"]} if "items" in first else {"clue": first["clues"]})
    if kind == "investigate":
        body["location"] = first["locations"]
    if kind == "use_power":
        body.update(power=first["powers"], target=first.get("targets", first.get("locations")))
    if kind == "use_item":
        body.update(item=first["items"], target=first.get("targets"))
    if kind in ("trade", "private_chat"):
        body["to"] = first["targets"]
    if kind == "trade":
        body["item"] = first["items"]
    if kind == "vote":
        body["target"] = first["targets"]
    if kind in ("speak", "private_chat"):
        body["text"] = "我有话要说"
    return body


GUESS: dict[str, dict[str, Any]] = {
    "inspect": {"item": "i01"}, "reveal_clue": {"item": "i01"}, "speak": {"text": "我"},
    "investigate": {"location": "study"}, "use_power": {"power": "p1"}, "use_item": {"item": "i03"},
    "trade": {"to": 1, "item": "i02"}, "private_chat": {"to": 1, "text": "嘘"}, "vote": {"target": 1},
}
CASES = [(n, action) for n in range(len(SUB_STAGES)) for action in ACTIONS]


def test_the_table_covers_every_action_and_stage() -> None:
    assert set(GATES) == set(ACTIONS) == set(FORBIDDEN)
    assert len(CASES) == 12 * 12


@pytest.mark.parametrize(("index", "action"), CASES, ids=[f"{SUB_STAGES[n].id}-{a}" for n, a in CASES])
def test_gate(index: int, action: str) -> None:
    state = state_in(index)
    allowed = SUB_STAGES[index].id in GATES[action]
    if allowed:
        offers = [(seat, o) for seat in range(6) for o in GAME.allowed_actions(state, seat) if o["type"] == action]
        assert offers, f"nobody is offered {action} in {state.phase}"
        seat, option = offers[0]
        assert option["deadline_ts"] == state.deadline_ts
        out = GAME.apply(state, GAME.parse_action(body_for(option), seat), now=T0 + 5000)
        assert out.events or out.reply is not None
        return
    for seat in range(len(state.players)):
        assert all(o["type"] != action for o in GAME.allowed_actions(state, seat))
        with pytest.raises(GameError) as refused:
            GAME.apply(state, GAME.parse_action({"type": action, **GUESS.get(action, {})}, seat), now=T0 + 5000)
        assert refused.value.code == "stage_forbids"
        assert refused.value.message == FORBIDDEN[action]
    assert ERRORS["stage_forbids"].status == 409
