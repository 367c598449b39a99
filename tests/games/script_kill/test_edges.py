"""Edges: the waiting room, concessions, abort, stale timers, JSON round trips, powers' private results."""

from __future__ import annotations

import pytest

from app.games.base import GameError
from tests.games.script_kill.helpers import GAME, T0, act, expire, play, run, table


def test_every_state_of_a_game_survives_json() -> None:
    played = play(seed=5)
    for state in played.states:
        assert GAME.state_from_json(GAME.state_to_json(state)) == state


def test_a_stale_or_early_timer_changes_nothing() -> None:
    played = table()
    timer = played.state.timer
    assert timer is not None
    early = GAME.apply(played.state, GAME.timeout(timer.token), now=timer.due - 1)
    stale = GAME.apply(played.state, GAME.timeout(timer.token - 1), now=timer.due + 1)
    assert early.events == stale.events == [] and early.state is played.state


def test_the_room_refuses_a_seventh_player_and_actions_before_the_deal() -> None:
    config = GAME.parse_config({"timing": "compressed", "script": "tiny"})
    room = GAME.new_match(config, "p0", "P0", seed=1, now=T0).state
    with pytest.raises(GameError) as early:
        GAME.apply(room, GAME.parse_action({"type": "list_clues"}, 0), now=T0)
    assert early.value.code == "stage_forbids"
    with pytest.raises(GameError, match="already has a seat"):
        GAME.apply(room, GAME.join("p0", "P0"), now=T0)
    played = table()
    with pytest.raises(GameError) as full:
        run(played, GAME.join("p9", "P9"))
    assert full.value.code == "match_full"


def test_unknown_config_and_script_are_refused() -> None:
    assert GAME.parse_config({"n_players": 6}).n_players == 6  # what every protocol client sends
    for raw, field in (({"timing": "slow"}, "timing"), ({"script": "nope"}, "script"), ({"n_players": 5}, "n_players"),
                       ({"seats": 6}, "seats")):
        with pytest.raises(GameError) as bad:
            GAME.parse_config(raw)
        assert bad.value.code == "invalid_config" and bad.value.detail["field"] == field


def test_concessions_leave_the_rest_to_finish() -> None:
    played = table()
    run(played, GAME.concede(3))
    with pytest.raises(GameError) as gone:
        act(played, 3, type="ready")
    assert gone.value.code == "you_are_eliminated"
    for seat in (0, 1, 2, 4):
        act(played, seat, type="ready")
    assert played.state.phase == "script_handout"
    act(played, 5, type="ready")
    assert played.state.phase == "self_intro"
    assert GAME.allowed_actions(played.state, 3) == [] and GAME.you_view(played.state, 3)["next_action"] == "eliminated"
    for seat in (0, 1, 2, 4, 5):
        run(played, GAME.concede(seat))
    assert played.state.status == "finished" and played.state.result is not None
    assert played.state.result["reason"] == "everyone_left"


def test_abort_only_while_waiting_but_the_janitor_may_clear_a_running_match() -> None:
    played = table()
    with pytest.raises(GameError) as refused:
        run(played, GAME.abort("host_cancelled"))
    assert refused.value.code == "match_not_waiting"
    run(played, GAME.abort("janitor_timeout"))
    assert played.state.status == "aborted" and GAME.summary(played.state)["result"] is not None


def test_a_power_shows_its_result_to_its_user_only() -> None:
    played = table()
    while played.state.phase != "explore_r1":
        expire(played)
    user = played.state.seat_of("c2")
    target = played.state.seat_of("c4")
    events = act(played, user, type="use_power", power="p1", target=target)
    public = [e for e in events if e["visibility"] == "public"]
    private = [e for e in events if e["visibility"] != "public"]
    assert [e["type"] for e in public] == ["power_used"] and "result" not in public[0]
    assert private[0]["visibility"] == "private:character:c2"
    assert [i["id"] for i in private[0]["result"]["items"]] == ["i01"]
    assert GAME.you_view(played.state, user)["power"]["used"] is True
    assert all(o["type"] != "use_power" for o in GAME.allowed_actions(played.state, user))


def test_the_result_is_written_at_the_ending_and_reported_when_the_review_ends() -> None:
    played = table()
    while played.state.phase != "review":
        expire(played)
    assert played.state.result is not None and GAME.summary(played.state)["result"] is None
    assert GAME.public_fields(played.state)["ending"] == played.state.result["ending"]
    expire(played)
    assert GAME.summary(played.state)["status"] == "finished"
    assert GAME.summary(played.state)["result"] == played.state.result
    assert GAME.seat_sides(played.state)[played.state.seat_of("c4")] == "culprit"


def test_take_over_marks_the_seat_once() -> None:
    played = table()
    events = run(played, GAME.take_over(2))
    assert [e["type"] for e in events] == ["seat_taken_over"]
    assert run(played, GAME.take_over(2)) == []
    assert GAME.players_view(played.state, god=False)[2]["taken_over"] is True
    assert GAME.parse_config({"takeover_after_timeouts": 2}).takeover_after_timeouts == 2


def test_a_location_power_peeks_at_the_cards_nobody_drew_there() -> None:
    played = table()
    while played.state.phase != "explore_r1":
        expire(played)
    doctor = played.state.seat_of("c3")
    other = (doctor + 1) % 6
    act(played, other, type="investigate", location="study")  # k01, drawn by another seat: gone for everyone
    with pytest.raises(GameError) as bad:
        act(played, doctor, type="use_power", power="p4", target="cellar")  # not open yet
    assert bad.value.code == "invalid_target"
    events = act(played, doctor, type="use_power", power="p4", target="study")
    result = next(e for e in events if e["type"] == "power_result")
    assert [c["id"] for c in result["result"]["clues"]] == ["k02"] and result["visibility"] == "private:character:c3"
