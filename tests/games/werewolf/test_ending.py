"""Win conditions: the village, 屠边 (side), 屠城 (all), max_rounds, and what the result carries."""

from __future__ import annotations

from tests.games.werewolf.rules import Shoot

from .helpers import Table


def test_the_village_wins_when_the_last_wolf_is_voted_out() -> None:
    t = Table.started()
    a, b = t.wolves
    t.night(None)
    t.day(a)
    t.night(None)
    t.speak_all()
    t.vote_out(b)
    result = t.state.result
    assert result is not None and result["winner_camp"] == "village"
    assert result["reason"] == "all_werewolves_eliminated"
    assert result["winning_seats"] == [s for s in range(6) if s not in (a, b)] and result["losing_seats"] == [a, b]
    assert result["roles"] == {str(p.seat): p.role for p in t.state.players}
    assert t.events[-1]["type"] == "match_finished" and t.state.timer is None
    assert t.state.pending == []  # the last wolf has no last words: the match is over


def test_side_rule_all_villagers_dead_wins_for_the_wolves() -> None:
    t = Table.started()
    v1, v2 = t.seats("villager")
    t.night(v1)
    t.day(v2)
    assert t.state.result is not None and t.state.result["reason"] == "all_villagers_eliminated"


def test_side_rule_all_gods_dead_wins_for_the_wolves() -> None:
    t = Table.started()
    t.night(t.one("seer"))
    t.day(t.one("witch"))
    assert t.state.result is not None and t.state.result["reason"] == "all_gods_eliminated"


def test_all_rule_needs_every_good_seat_dead() -> None:
    t = Table.started(win_rule="all")
    v1, v2 = t.seats("villager")
    t.night(v1)
    t.day(v2)
    assert t.state.status == "in_progress"
    t.night(t.one("seer"))
    t.day(t.one("witch"))
    result = t.state.result
    assert result is not None and (result["winner_camp"], result["reason"]) == ("werewolf", "all_good_eliminated")


def test_the_village_wins_a_night_that_kills_the_last_wolf_and_the_last_villager() -> None:
    t = Table.started(roles={"werewolf": 1, "villager": 1, "seer": 1, "witch": 1, "hunter": 1, "guard": 1})
    t.night(t.one("villager"), witch=("poison", t.wolves[0]))
    assert t.state.result is not None and t.state.result["winner_camp"] == "village"


def test_max_rounds_reached_is_the_wolves_win() -> None:
    t = Table.started(max_rounds=1)
    t.night(None)
    t.day(None)
    result = t.state.result
    assert result is not None and (result["winner_camp"], result["reason"]) == ("werewolf", "max_rounds_reached")


def test_the_hunters_shot_is_checked_for_a_win_before_last_words() -> None:
    t = Table.started(n_players=9, win_rule="all")
    t.night(t.one("hunter"))
    wolves = t.wolves
    t.do(Shoot(seat=t.one("hunter"), target_seat=wolves[0]))
    assert t.state.status == "in_progress"
    assert t.state.players[wolves[0]].died_in == "day_1"
