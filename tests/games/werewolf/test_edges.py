"""Edge cases: stale timers, dead and missing roles, self-targets, whispers switched off."""

from __future__ import annotations

from tests.games.werewolf.rules import Concede, NightAction, Shoot, Timeout, Whisper, apply

from .helpers import Table


def test_stale_early_and_orphan_timeouts_change_nothing() -> None:
    t = Table.started()
    timer = t.state.timer
    assert timer is not None
    for token, now in ((timer.token - 1, timer.due), (timer.token + 1, timer.due), (timer.token, timer.due - 1)):
        outcome = apply(t.state, Timeout(token=token), now=now)
        assert outcome.events == [] and outcome.state is t.state
    t.fire()
    assert apply(t.state, Timeout(token=timer.token), now=timer.due + 99).events == []


def test_wolves_may_kill_a_wolf() -> None:
    t = Table.started(n_players=9)
    target = t.wolves[2]
    t.night(target)
    assert t.last("night_result")["dead_seats"] == [target]


def test_the_guard_may_guard_himself() -> None:
    t = Table.started(n_players=12)
    guard = t.one("guard")
    t.night(guard, guard=guard)
    assert t.state.players[guard].alive


def test_a_dead_witch_is_skipped_and_a_dead_seer_is_not_waited_for() -> None:
    t = Table.started()
    witch, seer = t.one("witch"), t.one("seer")
    t.night(witch, witch=("pass", None))
    t.day(None)
    assert not t.state.players[witch].alive
    t.kill(seer)
    t.act("seer", "pass")
    assert t.state.stage != "night"  # no witch step: dawn came straight after the first step
    assert "witch_informed" not in t.types(t.events[-12:])


def test_a_hunter_killed_and_poisoned_the_same_night_does_not_shoot() -> None:
    t = Table.started(n_players=9)
    hunter = t.one("hunter")
    t.night(hunter, witch=("poison", hunter))
    assert t.state.players[hunter].death_cause == "poisoned"
    assert all(p.kind != "shoot" for p in t.state.pending)


def test_a_shot_that_ends_the_match_leaves_no_last_words() -> None:
    t = Table.started(roles={"werewolf": 1, "villager": 2, "seer": 1, "witch": 1, "hunter": 1})
    hunter, wolf = t.one("hunter"), t.wolves[0]
    t.night(None)
    t.speak_all()
    t.vote_out(hunter)
    t.do(Shoot(seat=hunter, target_seat=wolf))
    assert t.state.status == "finished" and t.state.pending == []


def test_the_dead_cannot_act_at_night() -> None:
    t = Table.started(n_players=9)
    a = t.wolves[0]
    t.do(Concede(seat=a))
    t.fail(NightAction(seat=a, action="kill", target_seat=t.good[0]), "you_are_eliminated")
    t.fail(Whisper(seat=a, target_seat=t.wolves[0], text="x"), "you_are_eliminated")
    t.fail(NightAction(seat=99, action="kill", target_seat=0), "agent_not_in_match")


def test_whispers_switched_off() -> None:
    t = Table.started(allow_whisper=False)
    a, b = t.wolves
    t.fail(Whisper(seat=a, target_seat=b, text="刀谁"), "whisper_not_enabled")


def test_a_lone_wolf_decides_alone_and_cannot_whisper() -> None:
    t = Table.started(roles={"werewolf": 1, "villager": 3, "seer": 1, "witch": 1})
    wolf = t.wolves[0]
    t.fail(Whisper(seat=wolf, target_seat=wolf, text="自言自语"), "whisper_target_not_fellow")
    t.do(NightAction(seat=wolf, action="kill", target_seat=t.good[0]))
    assert t.state.night.wolves_done


def test_reveal_team_shows_the_camp_of_the_voted_out() -> None:
    t = Table.started(reveal_role_on_death="team")
    wolf = t.wolves[0]
    t.night(None)
    t.speak_all()
    t.vote_out(wolf)
    assert t.last("round_resolved")["revealed_camp"] == "werewolf" and "revealed_role" not in t.last(
        "round_resolved")
