"""Timers as data: warnings at half time, expiry, stale or early tokens ignored."""

from __future__ import annotations

import math

from tests.games.undercover.rules import Speak, Timeout, Vote, apply

from .helpers import Table


def test_speak_timer_shape() -> None:
    table = Table.started(speak_timeout=60)
    timer = table.state.timer
    assert timer is not None and timer.kind == "speak_warning"
    assert timer.due == table.now + 30
    assert table.state.deadline_ts == int(table.now + 60)


def test_speak_warning_then_expiry() -> None:
    table = Table.started(speak_timeout=60)
    token = table.state.timer.token  # type: ignore[union-attr]
    events = table.fire()
    assert table.types(events) == ["turn_warning"]
    assert events[0]["visibility"] == "private:seat:0" and events[0]["deadline_ts"] == table.state.deadline_ts
    timer = table.state.timer
    assert timer is not None and timer.kind == "speak_expire" and timer.token == token + 1
    events = table.fire()
    assert table.types(events) == ["speech_skipped", "your_turn_to_speak"]
    assert events[0]["reason"] == "timeout" and events[0]["seat"] == 0
    assert table.state.current_speaker_seat == 1


def test_stale_early_and_orphan_timeouts_are_ignored() -> None:
    table = Table.started()
    timer = table.state.timer
    assert timer is not None
    for command, now in [
        (Timeout(token=timer.token - 1), timer.due + 100),
        (Timeout(token=timer.token + 1), timer.due + 100),
        (Timeout(token=timer.token), timer.due - 0.001),
    ]:
        outcome = apply(table.state, command, now=now)
        assert outcome.state is table.state and outcome.events == []
    table.fire()
    outcome = apply(table.state, Timeout(token=timer.token), now=timer.due + 1000)
    assert outcome.events == []
    waiting = Table()
    assert apply(waiting.state, Timeout(token=0), now=1e12).events == []


def test_timer_fired_twice_is_harmless() -> None:
    table = Table.started()
    timer = table.state.timer
    assert timer is not None
    first = apply(table.state, Timeout(token=timer.token), now=timer.due)
    second = apply(first.state, Timeout(token=timer.token), now=timer.due)
    assert first.events and second.events == [] and second.state is first.state


def test_speech_replaces_the_timer() -> None:
    table = Table.started()
    old = table.state.timer
    table.do(Speak(seat=0, text="一种东西"))
    new = table.state.timer
    assert old is not None and new is not None and new.token > old.token and new.kind == "speak_warning"
    assert apply(table.state, Timeout(token=old.token), now=old.due + 999).events == []


def test_vote_warning_and_expiry() -> None:
    table = Table.started(n_players=6, n_undercover=1, vote_timeout=90, last_words=False)
    table.speak_all()
    assert table.state.timer is not None and table.state.timer.kind == "vote_warning"
    table.do(Vote(seat=0, target_seat=1))
    table.do(Vote(seat=2, target_seat=1))
    events = table.fire()
    w = events[0]
    assert w == {**w, "type": "vote_warning", "visibility": "public", "round": 1, "missing_count": 4,
                 "missing_seats": [1, 3, 4, 5]}
    events = table.fire()
    assert table.types(events)[:2] == ["vote_abstained", "round_resolved"]
    assert events[0]["seats"] == [1, 3, 4, 5]
    assert events[1]["eliminated_seat"] == 1 and events[1]["vote_breakdown"] == {"1": 2}


def test_the_clock_runs_out_everywhere() -> None:
    table = Table.started(n_players=5, n_undercover=1, n_blank=1, last_words=True, blank_guess=True)
    for _ in range(500):
        if table.state.status != "in_progress":
            break
        table.fire()
    assert table.state.status == "finished"
    assert table.state.round_index <= table.config.max_rounds
    assert table.state.timer is None


def test_phase_deadlines_use_whole_seconds() -> None:
    table = Table.started(speak_timeout=7)
    table.do(Speak(seat=0, text="一种东西"), dt=0.25)
    assert table.now % 1 == 0.25
    assert table.state.deadline_ts == math.ceil(table.now + 7) == int(table.now) + 8
