"""Werewolf through the protocol's projection, played by random agents that only send what
`allowed_actions` offers.

Every offered action (with any of its offered targets) must be accepted. At every phase change and at the end:
the anonymous snapshot holds no living seat's role and only public events; the spectator sees every role; each
seat's `you` and `private_log` hold exactly its own events and no card it may not know; the player_owner view
equals the player_agent view but for `viewer_role` and `can_act`; after the end everyone sees everything.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.werewolf.game import GAME as WEREWOLF_GAME
from app.protocol.projection import MatchView, snapshot
from app.protocol.viewer import Viewer
from tests.games.werewolf.rules import Command, MatchState

from .helpers import T0
from .test_properties import claims, knows

GAME = WEREWOLF_GAME
CONFIGS: list[dict[str, Any]] = [
    {"n_players": 6}, {"n_players": 9, "reveal_role_on_death": "role"}, {"n_players": 12, "win_rule": "all"},
    {"n_players": 8, "tie_break": "random", "first_night_last_words": False},
    {"n_players": 10, "tie_break": "noop_then_random", "reveal_role_on_death": "team"},
]


def _view(state: MatchState, events: list[dict[str, Any]]) -> MatchView:
    return MatchView(match_id="m", game="werewolf", status=state.status, phase=state.phase, config={},
                     created_at="t", invite_url="u", seats_open=0, events_total=len(events),
                     official_seats=frozenset())


def _own(state: MatchState, seat: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    mine = {"public", f"private:seat:{seat}", *(f"private:role:{r}" for r in GAME.role_set(state, seat))}
    return [e for e in events if e["visibility"] in mine]


def check_layers(state: MatchState, events: list[dict[str, Any]]) -> None:
    view = _view(state, events)
    over = state.status in ("finished", "aborted")
    anonymous = snapshot(GAME, view, state, Viewer("anonymous"), events)
    spectator = snapshot(GAME, view, state, Viewer("spectator"), events)
    assert spectator["roles"] == {str(p.seat): p.role for p in state.players}
    assert all("role" in row for row in spectator["players"])
    if over:
        assert anonymous["roles"] == spectator["roles"] and len(anonymous["spectator_log"]) + len(
            anonymous["public_log"]) == len(events)
        return
    assert "roles" not in anonymous and "night_actions" not in anonymous and "you" not in anonymous
    assert all("role" not in row for row in anonymous["players"])
    assert anonymous["public_log"] == [e for e in events if e["visibility"] == "public"]
    for seat in range(len(state.players)):
        agent = snapshot(GAME, view, state, Viewer("player_agent", seat), events)
        owner = snapshot(GAME, view, state, Viewer("player_owner", seat), events)
        for body in (agent, owner):
            body.pop("viewer_role")
            body["viewer_capabilities"].pop("can_act")
        assert agent == owner
        assert agent["you"]["private_log"] == [e for e in _own(state, seat, events) if e["visibility"] != "public"]
        for event in agent["you"]["private_log"]:
            for subject, kind in claims(event):
                assert subject >= 0 and knows(state, seat, subject, kind), (seat, event)
        assert agent["you"]["role"] == state.players[seat].role


def body_for(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {"type": option["type"]}
    if "action" in option:
        body["action"] = option["action"]
    if option.get("targets"):
        body["target_seat"] = rng.choice(option["targets"])
    elif option["type"] == "shoot":
        body["target_seat"] = None
    if option["type"] in ("speak", "whisper", "last_words"):
        body["text"] = "我是好人" if option["type"] != "whisper" else "今晚刀谁"
    if option["type"] == "vote":
        body["comment"] = "投他"
    return body


def play(config: dict[str, Any], seed: int) -> tuple[MatchState, list[dict[str, Any]]]:
    rng = random.Random(seed)
    outcome = GAME.new_match(GAME.parse_config(config), "p0", "P0", seed=seed, now=T0)
    state, events, now = outcome.state, list(outcome.events), T0
    for seat in range(1, config["n_players"]):
        outcome = GAME.apply(state, GAME.join(f"p{seat}", f"P{seat}"), now=now)
        state, events = outcome.state, events + outcome.events
    for _ in range(5000):
        if state.status != "in_progress":
            break
        now += 1
        phase = state.phase
        options = {s: [a for a in GAME.allowed_actions(state, s) if a["type"] != "concede"]
                   for s in range(len(state.players))}
        acting = [s for s, opts in options.items() if opts]
        if acting and rng.random() < 0.9:
            seat = rng.choice(acting)
            if rng.random() < 0.01 and {"type": "concede"} in GAME.allowed_actions(state, seat):
                command: Command = GAME.concede(seat)
            else:
                command = GAME.parse_action(body_for(rng.choice(options[seat]), rng), seat)
        else:
            timer = GAME.summary(state)["timer"]
            assert timer is not None
            now = max(now, timer["due"])
            command = GAME.timeout(timer["token"])
        outcome = GAME.apply(state, command, now=now)
        state, events = outcome.state, events + outcome.events
        if state.phase != phase:
            check_layers(state, events)
    return state, events


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['n_players']}p")
def test_random_agents_play_what_they_are_offered_to_the_end(config: dict[str, Any], seed: int) -> None:
    state, events = play(config, seed)
    assert state.status == "finished" and events[-1]["type"] == "match_finished"
    check_layers(state, events)
