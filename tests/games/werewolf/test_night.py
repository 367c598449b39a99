"""The night: the pack's decision, the seer, the guard, the witch, and dawn."""

from __future__ import annotations

from tests.games.werewolf.rules import NightAction, Vote

from .helpers import Table

TWELVE = {"n_players": 12}


def test_night_one_follows_the_deal_and_wakes_the_night_roles() -> None:
    t = Table.started()
    assert t.state.phase == "night_round_1"
    woken = {e["seat"] for e in t.all_of("your_turn_to_act")}
    assert woken == {*t.wolves, t.one("seer")}
    assert t.state.timer is not None and t.state.timer.kind == "night_expire"


def test_a_strict_majority_of_living_wolves_decides_at_once() -> None:
    t = Table.started(n_players=9)
    a, b, c = t.wolves
    victim, other = t.good[0], t.good[1]
    t.do(NightAction(seat=a, action="kill", target_seat=victim))
    t.do(NightAction(seat=b, action="kill", target_seat=other))
    assert not t.state.night.wolves_done
    t.do(NightAction(seat=b, action="kill", target_seat=victim))  # a wolf may change its mind
    assert t.state.night.wolves_done and t.state.night.victim == victim
    assert t.last("wolves_decided")["by"] == "majority"
    assert t.last("wolves_decided")["visibility"] == "private:role:werewolf"
    t.fail(NightAction(seat=c, action="kill", target_seat=other), "night_action_done")


def test_two_wolves_must_agree() -> None:
    t = Table.started()
    a, b = t.wolves
    t.do(NightAction(seat=a, action="kill", target_seat=t.good[0]))
    t.do(NightAction(seat=b, action="kill", target_seat=t.good[1]))
    assert not t.state.night.wolves_done
    assert t.state.night.step == "wolves"
    split = t.last("pack_split")
    assert split["visibility"] == "private:role:werewolf" and split["choices"] == {
        str(a): t.good[0], str(b): t.good[1]}


def test_at_the_deadline_a_split_pack_takes_the_lowest_tied_seat() -> None:
    t = Table.started()
    a, b = t.wolves
    low, high = sorted(t.good)[:2]
    t.do(NightAction(seat=a, action="kill", target_seat=high))
    t.do(NightAction(seat=b, action="kill", target_seat=low))
    t.act("seer", "pass")
    t.fire()
    assert t.last("wolves_decided")["target_seat"] == low and t.last("wolves_decided")["by"] == "deadline"


def test_a_seat_beats_no_kill_in_a_tie_and_silence_is_no_kill() -> None:
    t = Table.started()
    a, b = t.wolves
    t.do(NightAction(seat=a, action="pass"))
    t.do(NightAction(seat=b, action="kill", target_seat=t.good[0]))
    t.fire()
    assert t.last("wolves_decided")["target_seat"] == t.good[0]
    silent = Table.started()
    silent.fire()
    assert silent.last("wolves_decided")["target_seat"] is None


def test_the_whole_pack_passing_is_no_kill_and_a_peaceful_night() -> None:
    t = Table.started()
    t.night(None)
    assert t.last("night_result")["peaceful"] is True and t.last("night_result")["dead_seats"] == []
    assert t.state.stage == "speak"


def test_the_seer_learns_a_camp_privately_and_only_once_a_night() -> None:
    t = Table.started()
    seer, wolf = t.one("seer"), t.wolves[0]
    t.act("seer", "check", wolf)
    result = t.last("seer_result")
    assert result["visibility"] == f"private:seat:{seer}"
    assert (result["camp"], result["is_werewolf"]) == ("werewolf", True)
    t.fail(NightAction(seat=seer, action="check", target_seat=t.good[0]), "night_action_done")
    other = Table.started()
    other.fail(NightAction(seat=other.one("seer"), action="check", target_seat=other.one("seer")), "invalid_target")


def test_roles_without_the_action_are_refused_without_telling_others_roles() -> None:
    t = Table.started()
    villager = t.seats("villager")[0]
    t.fail(NightAction(seat=villager, action="kill", target_seat=t.wolves[0]), "not_your_night_role")
    t.fail(NightAction(seat=t.wolves[0], action="check", target_seat=villager), "not_your_night_role")
    t.fail(NightAction(seat=t.one("witch"), action="poison", target_seat=villager), "not_your_night_turn")
    t.fail(Vote(seat=villager, target_seat=t.wolves[0]), "wrong_phase")


def test_the_witch_learns_the_victim_and_saves_it() -> None:
    t = Table.started()
    victim, witch = next(s for s in t.good if t.role(s) == "villager"), t.one("witch")
    t.night(victim, witch=None)
    informed = t.last("witch_informed")
    assert informed["visibility"] == f"private:seat:{witch}" and informed["victim_seat"] == victim
    t.act("witch", "save")
    assert t.last("night_result")["peaceful"] is True and not t.state.antidote
    assert t.state.players[victim].alive


def test_the_witch_uses_one_potion_a_night_and_each_once() -> None:
    t = Table.started()
    villagers, wolf = t.seats("villager"), t.wolves[0]
    t.night(villagers[0], witch=("poison", wolf))
    assert t.last("night_resolved")["poisoned"] == wolf
    assert t.last("night_result")["dead_seats"] == sorted([villagers[0], wolf])
    t.day(None)
    t.night(villagers[1], witch=None)
    assert t.state.night.step == "witch"
    t.fail(NightAction(seat=t.one("witch"), action="poison", target_seat=t.wolves[0]), "potion_used")
    t.act("witch", "save")
    t.fail(NightAction(seat=t.one("witch"), action="pass"), "wrong_phase")


def test_after_the_antidote_the_witch_is_told_nothing() -> None:
    t = Table.started()
    villagers = t.seats("villager")
    t.night(villagers[0], witch=("save", None))
    t.day(None)
    t.night(villagers[1], witch=None)
    assert t.all_of("witch_informed")[-1]["round"] == 1
    assert t.state.night.step == "witch"
    t.fail(NightAction(seat=t.one("witch"), action="save"), "potion_used")


def test_the_witch_saves_herself_on_the_first_night_only() -> None:
    t = Table.started()
    t.night(t.one("witch"), witch=("save", None))
    assert t.state.players[t.one("witch")].alive
    third = Table.started()
    third.night(None)
    third.day(None)
    third.night(third.one("witch"), witch=None)
    third.fail(NightAction(seat=third.one("witch"), action="save"), "witch_cannot_save_self")
    third.fail(NightAction(seat=third.one("witch"), action="save", target_seat=0), "witch_cannot_save_self")


def test_nobody_to_save_on_a_quiet_night() -> None:
    t = Table.started()
    t.night(None, witch=None)
    t.fail(NightAction(seat=t.one("witch"), action="save"), "no_victim_to_save")


def test_the_guard_blocks_the_kill_but_not_twice_in_a_row() -> None:
    t = Table.started(**TWELVE)
    victim = t.seats("villager")[0]
    t.night(victim, guard=victim)
    assert t.last("night_result")["peaceful"] is True
    t.day(None)
    t.fail(NightAction(seat=t.one("guard"), action="guard", target_seat=victim), "guard_same_target")
    t.act("guard", "guard", t.one("guard"))
    assert t.state.last_guarded == victim and t.state.night.guard_target == t.one("guard")


def test_guarded_and_saved_dies() -> None:
    t = Table.started(**TWELVE)
    victim = t.seats("villager")[0]
    t.night(victim, guard=victim, witch=("save", None))
    assert t.last("night_result")["dead_seats"] == [victim]
    assert t.last("night_resolved")["guarded"] == victim and t.last("night_resolved")["saved"] is True


def test_the_guard_does_not_stop_poison() -> None:
    t = Table.started(**TWELVE)
    target = t.seats("villager")[0]
    t.night(None, guard=target, witch=("poison", target))
    assert t.last("night_result")["dead_seats"] == [target]
    assert t.state.players[target].death_cause == "poisoned"


def test_night_deaths_are_announced_without_their_cause() -> None:
    t = Table.started()
    villagers = t.seats("villager")
    t.night(villagers[0], witch=("poison", villagers[1]))
    public = [e for e in t.events if e["visibility"] == "public" and e["type"] in ("night_result",
                                                                                  "player_eliminated")]
    assert public and all("cause" not in e and "poisoned" not in e for e in public)
    assert "revealed_role" not in public[-1]


def test_silent_night_roles_do_nothing_at_the_deadline() -> None:
    t = Table.started(**TWELVE)
    t.fire()
    assert t.state.night.step == "witch"
    assert t.last("wolves_decided")["target_seat"] is None
    t.fire()
    assert t.last("night_resolved")["guarded"] is None and t.last("night_resolved")["seer_checked"] is None
    assert t.state.stage == "speak" and t.state.antidote and t.state.poison
