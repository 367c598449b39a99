"""The viewer layers over random script_kill games (hypothesis draws the seed and who stays silent).

After every step: the anonymous snapshot holds only public events and no character's private text (script, secret,
a found clue's text before it is public); each seat sees exactly the public events, its own seat's, its
character's and the private chats it is party to — in its snapshot and in its events page — and no other
character's private text; the spectator (live god view) sees everything; after the end every viewer sees every
event.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import GameError
from app.games.script_kill.state import MatchState
from app.protocol.projection import MatchView, events_page, snapshot
from app.protocol.viewer import Viewer
from tests.games.script_kill.helpers import GAME, choose, expire, table


def _view(state: MatchState, events: list[dict[str, Any]]) -> MatchView:
    return MatchView(match_id="m", game="script_kill", status=state.status, phase=state.phase, config={},
                     created_at="t", invite_url="u", seats_open=0, events_total=len(events),
                     official_seats=frozenset())


def _own(state: MatchState, seat: int, visibility: str) -> bool:
    character = state.players[seat].character
    pair = visibility.removeprefix("private:pair:").split(":") if visibility.startswith("private:pair:") else []
    return visibility in ("public", f"private:seat:{seat}", f"private:character:{character}") or str(seat) in pair


def _private_texts(state: MatchState, character: str) -> list[str]:
    c = state.script.character(character)
    return [c.script, c.secret]


def check(state: MatchState, events: list[dict[str, Any]]) -> None:
    view = _view(state, events)
    over = state.status in ("finished", "aborted")
    anonymous = snapshot(GAME, view, state, Viewer("anonymous"), events)
    spectator = snapshot(GAME, view, state, Viewer("spectator"), events)
    assert len(spectator["public_log"]) + len(spectator["spectator_log"]) == len(events)
    if over:
        assert anonymous["public_log"] + anonymous["spectator_log"] == spectator["public_log"] + spectator[
            "spectator_log"]
        page = events_page(GAME, view, state, Viewer("anonymous"), 0, events, limit=10_000)
        assert len(page["events"]) == len(events)
        return
    assert anonymous["public_log"] == [e for e in events if e["visibility"] == "public"]
    assert not {"hands", "spectator_log", "you"} & anonymous.keys()
    if state.phase != "review":  # the ending names the culprit and the tally publicly
        assert not {"culprit", "tally"} & anonymous.keys()
    text = json.dumps(anonymous, ensure_ascii=False)
    for p in state.players:
        if p.character is not None:
            assert not any(t in text for t in _private_texts(state, p.character))
    for seat in range(len(state.players)):
        agent = snapshot(GAME, view, state, Viewer("player_agent", seat), events)
        seen = agent["public_log"] + agent["you"]["private_log"]
        expected = [e for e in events if _own(state, seat, e["visibility"])]
        assert sorted(e["seq"] for e in seen) == [e["seq"] for e in expected]
        page = events_page(GAME, view, state, Viewer("player_agent", seat), 0, events, limit=10_000)
        assert page["events"] == expected
        text = json.dumps(agent, ensure_ascii=False)
        for other in state.players:
            if other.seat != seat and other.character is not None:
                assert not any(t in text for t in _private_texts(state, other.character)), (seat, other.seat)
        assert "hands" not in agent and ("culprit" not in agent or state.phase == "review")


@settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), silent=st.sets(st.integers(0, 5), max_size=3), every=st.integers(8, 20))
def test_script_kill_viewer_layers(seed: int, silent: set[int], every: int) -> None:
    played = table(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while played.state.status == "in_progress":
        state = played.state
        moves = [(s, b) for s in range(6) if s not in silent and (b := choose(state, s, rng)) is not None]
        if not moves or rng.random() < 0.02:
            expire(played)
        else:
            seat, body = rng.choice(moves)
            try:
                out = GAME.apply(state, GAME.parse_action(body, seat), now=played.now)
            except GameError:
                continue
            played.state, played.events = out.state, played.events + out.events
        steps += 1
        if steps % every == 0:
            check(played.state, played.events)
    check(played.state, played.events)
