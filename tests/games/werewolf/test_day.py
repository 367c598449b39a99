"""The day: the dead who act (the hunter's shot, last words), speeches, votes and ties."""

from __future__ import annotations

from tests.games.werewolf.rules import LastWords, NightAction, Shoot, Skip, Speak, Vote

from .helpers import Table

NINE = {"n_players": 9}


def test_first_night_victims_have_last_words_then_the_day_speaks_in_seat_order() -> None:
    t = Table.started()
    victim = t.seats("villager")[0]
    t.night(victim)
    assert t.state.phase == "last_words_round_1" and t.state.pending[0].seat == victim
    t.fail(Speak(seat=t.good[0] if t.good[0] != victim else t.good[1], text="我先说"), "not_your_turn_to_speak")
    t.do(LastWords(seat=victim, text="我是平民"))
    assert t.state.phase == "speak_round_1"
    assert t.state.speaking_order == t.state.living_seats()


def test_without_first_night_last_words_and_after_night_one_the_night_dead_say_nothing() -> None:
    t = Table.started(first_night_last_words=False)
    t.night(t.seats("villager")[0])
    assert t.state.phase == "speak_round_1"
    t2 = Table.started()
    t2.night(None)
    t2.day(None)
    t2.night(t2.seats("villager")[0])
    assert t2.state.phase == "speak_round_2"


def test_speak_or_skip_say_last_words_and_silence_passes() -> None:
    t = Table.started()
    villager, seer = t.seats("villager")[0], t.one("seer")
    t.night(villager, witch=("poison", seer))
    first, second = sorted([villager, seer])
    t.do(Speak(seat=first, text="遗言"))
    assert t.last("last_words_posted")["seat"] == first
    t.fire()
    skipped = t.last("last_words_skipped")
    assert (skipped["seat"], skipped["reason"]) == (second, "timeout")
    assert t.state.stage == "speak"


def test_the_voted_out_seat_has_last_words_then_night_falls() -> None:
    t = Table.started()
    t.night(None)
    target = t.seats("villager")[0]
    t.speak_all()
    t.vote_out(target)
    assert t.state.phase == "last_words_round_1" and t.state.pending[0].seat == target
    t.do(Skip(seat=target))
    assert t.state.phase == "night_round_2"


def test_a_killed_hunter_shoots_and_shows_his_card() -> None:
    t = Table.started(**NINE)
    hunter, wolf = t.one("hunter"), t.wolves[0]
    t.night(hunter)
    assert t.state.phase == "hunter_round_1"
    assert t.last("your_turn_to_shoot")["visibility"] == f"private:seat:{hunter}"
    t.fail(Shoot(seat=t.good[0], target_seat=wolf), "not_your_shot")
    t.fail(Shoot(seat=hunter, target_seat=hunter), "invalid_target")
    t.do(Shoot(seat=hunter, target_seat=wolf))
    assert t.last("hunter_shot")["revealed_role"] == "hunter"
    assert not t.state.players[wolf].alive and t.state.players[wolf].death_cause == "shot"
    assert t.state.players[hunter].revealed_role == "hunter"
    # night 1 gives last words: the hunter's, then his victim's
    assert [(p.seat, p.kind) for p in t.state.pending] == [(hunter, "last_words"), (wolf, "last_words")]


def test_a_poisoned_hunter_cannot_shoot() -> None:
    t = Table.started(**NINE)
    hunter = t.one("hunter")
    t.night(None, witch=("poison", hunter))
    assert t.state.phase == "last_words_round_1"
    assert [p.kind for p in t.state.pending] == ["last_words"]


def test_a_voted_out_hunter_shoots_and_a_silent_one_passes() -> None:
    t = Table.started(**NINE)
    hunter = t.one("hunter")
    t.night(None)
    t.speak_all()
    t.vote_out(hunter)
    assert t.state.phase == "hunter_round_1"
    t.fire()
    assert t.last("hunter_passed")["reason"] == "timeout"
    assert t.state.phase == "last_words_round_1"


def test_the_hunters_shot_can_end_the_match() -> None:
    t2 = Table.started(roles={"werewolf": 1, "villager": 2, "seer": 1, "witch": 1, "hunter": 1})
    hunter, wolf = t2.one("hunter"), t2.wolves[0]
    t2.night(hunter)
    t2.do(Shoot(seat=hunter, target_seat=wolf))
    assert t2.state.result is not None and t2.state.result["winner_camp"] == "village"
    assert t2.state.pending == []


def test_speakers_go_in_seat_order_and_only_the_current_one_speaks() -> None:
    t = Table.started()
    t.night(None)
    order = t.state.speaking_order
    assert order == sorted(order)
    t.fail(Speak(seat=order[1], text="插话"), "not_your_turn_to_speak")
    t.do(Skip(seat=order[0]))
    t.fire()
    assert t.last("speech_skipped")["reason"] == "timeout" and t.last("speech_skipped")["seat"] == order[1]


def test_votes_are_parallel_and_each_seat_votes_once_for_another_living_seat() -> None:
    t = Table.started()
    t.night(None)
    t.speak_all()
    a, b = t.state.living_seats()[:2]
    t.fail(Vote(seat=a, target_seat=a), "invalid_target")
    t.do(Vote(seat=a, target_seat=b))
    t.fail(Vote(seat=a, target_seat=b), "already_voted")


def test_no_votes_at_all_sends_nobody_out() -> None:
    t = Table.started()
    t.night(None)
    t.speak_all()
    t.fire()
    resolved = t.last("round_resolved")
    assert resolved["eliminated_seat"] is None and resolved["reason"] == "no_votes"
    assert t.state.phase == "night_round_2"


def _tie(t: Table) -> tuple[int, int]:
    living = t.state.living_seats()
    a, b = living[0], living[1]
    for voter in living:
        t.do(Vote(seat=voter, target_seat=b if voter in (a, *living[2::2]) else a))
    return a, b


def test_revote_gives_the_tied_seats_a_pk() -> None:
    t = Table.started(tie_break="revote")
    t.night(None)
    t.speak_all()
    a, b = _tie(t)
    assert t.last("vote_tied")["tied_seats"] == [a, b]
    assert t.state.phase == "speak_round_1" and t.state.pk and t.state.speaking_order == [a, b]
    t.speak_all()
    t.fail(Vote(seat=a, target_seat=b), "wrong_phase")
    voter = t.state.living_seats()[2]
    t.fail(Vote(seat=voter, target_seat=t.state.living_seats()[3]), "invalid_target")
    t.vote_out(b)
    assert t.last("round_resolved")["eliminated_seat"] == b
    assert t.last("round_resolved")["tie_break_applied"] == "revote"


def test_random_tie_break_draws_among_the_tied() -> None:
    t = Table.started(tie_break="random")
    t.night(None)
    t.speak_all()
    a, b = _tie(t)
    resolved = t.last("round_resolved")
    assert resolved["eliminated_seat"] in (a, b) and resolved["tie_break_applied"] == "random"


def test_noop_then_random() -> None:
    t = Table.started(tie_break="noop_then_random")
    t.night(None)
    t.speak_all()
    _tie(t)
    assert t.last("round_resolved")["noop"] is True and t.state.phase == "night_round_2"
    t.night(None)
    t.speak_all()
    a, b = _tie(t)
    assert t.last("round_resolved")["eliminated_seat"] in (a, b)


def test_night_actions_are_refused_by_day() -> None:
    t = Table.started()
    t.night(None)
    t.fail(NightAction(seat=t.wolves[0], action="kill", target_seat=t.good[0]), "wrong_phase")
    t.fail(LastWords(seat=t.wolves[0], text="x"), "wrong_phase")


def test_noop_then_random_counts_consecutive_ties_only() -> None:
    t = Table.started(tie_break="noop_then_random")
    t.night(None)
    t.speak_all()
    _tie(t)
    t.night(None)
    t.day(None)  # nobody votes: not a tie, and the streak ends
    t.night(None)
    t.speak_all()
    _tie(t)
    assert t.last("round_resolved")["noop"] is True
