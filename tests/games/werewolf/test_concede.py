"""Concession at night and by day, the last wolf conceding, and abort."""

from __future__ import annotations

from tests.games.werewolf.rules import Abort, Concede, Join, NightAction, Vote, players_view

from .helpers import Table


def test_a_concession_shows_the_role_whatever_the_config() -> None:
    t = Table.started(reveal_role_on_death="none")
    seer = t.one("seer")
    t.do(Concede(seat=seer))
    assert t.last("player_conceded")["revealed_role"] == "seer"
    row = players_view(t.state, god=False)[seer]
    assert row["revealed_role"] == "seer" and row["conceded"] is True
    t.fail(Concede(seat=seer), "you_are_eliminated")


def test_a_wolf_conceding_at_night_withdraws_its_choice_and_the_pack_may_now_agree() -> None:
    t = Table.started(n_players=9)
    a, b, c = t.wolves
    t.do(NightAction(seat=a, action="kill", target_seat=t.good[0]))
    t.do(NightAction(seat=b, action="kill", target_seat=t.good[1]))
    t.do(Concede(seat=b))
    assert t.state.night.wolf_choices == {a: t.good[0]}
    assert not t.state.night.wolves_done  # 1 of 2 living wolves is no majority
    t.do(NightAction(seat=c, action="kill", target_seat=t.good[0]))
    assert t.state.night.victim == t.good[0]


def test_the_seer_conceding_at_night_is_no_longer_waited_for() -> None:
    t = Table.started()
    t.kill(t.seats("villager")[0])
    assert t.state.night.step == "wolves"
    t.do(Concede(seat=t.one("seer")))
    assert t.state.night.step == "witch"


def test_the_witch_conceding_in_her_step_brings_dawn() -> None:
    t = Table.started()
    t.night(t.seats("villager")[0], witch=None)
    t.do(Concede(seat=t.one("witch")))
    assert t.state.stage == "last_words"


def test_the_last_wolf_conceding_ends_the_match_for_the_village() -> None:
    t = Table.started(roles={"werewolf": 1, "villager": 3, "seer": 1, "witch": 1})
    t.do(Concede(seat=t.wolves[0]))
    result = t.state.result
    assert result is not None and result["winner_camp"] == "village"
    t.fail(Concede(seat=t.good[0]), "match_finished")


def test_a_conceding_hunter_does_not_shoot() -> None:
    t = Table.started(n_players=9)
    t.night(None)
    t.do(Concede(seat=t.one("hunter")))
    assert t.state.stage == "speak" and t.state.pending == []


def test_votes_for_a_seat_that_concedes_are_void() -> None:
    t = Table.started()
    t.night(None)
    t.speak_all()
    a, b, c = t.state.living_seats()[:3]
    t.do(Vote(seat=a, target_seat=c))
    t.do(Concede(seat=c))
    assert t.last("votes_voided")["voter_seats"] == [a] and a not in t.state.votes
    t.do(Vote(seat=a, target_seat=b))


def test_concede_in_a_waiting_room_and_abort() -> None:
    t = Table(n_players=6)
    t.fail(Concede(seat=0), "match_not_in_progress")
    t.do(Abort(reason="host_cancelled"))
    assert t.state.status == "aborted" and t.state.result == {
        "winner_camp": None, "reason": "host_cancelled", "summary": "房主取消了对局"}
    assert t.do(Abort(reason="host_cancelled")) == []
    running = Table.started()
    running.fail(Abort(reason="host_cancelled"), "match_not_waiting")
    running.do(Abort(reason="janitor_timeout"))
    assert running.state.timer is None
    running.fail(Join(name="late", display_name="Late"), "match_not_waiting")
