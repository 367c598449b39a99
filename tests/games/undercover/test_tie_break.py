"""Ties: random, revote (PK), noop_then_random; all-abstain."""

from __future__ import annotations

from tests.games.undercover.rules import Speak, Vote

from .helpers import Table, tie


def start_vote(**config: object) -> Table:
    table = Table.started(**{"n_players": 6, "n_undercover": 1, "last_words": False, **config})  # type: ignore[arg-type]
    table.speak_all()
    return table


def test_random_tie_break() -> None:
    table = start_vote(tie_break="random")
    tie(table, 0, 1)
    r = table.last("round_resolved")
    assert r["vote_breakdown"] == {"0": 3, "1": 3}
    assert r["eliminated_seat"] in (0, 1) and r["tie_break_applied"] == "random"


def test_random_tie_break_is_seeded() -> None:
    outcomes = set()
    for seed in range(12):
        table = start_vote(tie_break="random", seed=seed)
        tie(table, 0, 1)
        outcomes.add(table.last("round_resolved")["eliminated_seat"])
    assert outcomes == {0, 1}


def test_revote_pk_flow() -> None:
    table = start_vote(tie_break="revote")
    tie(table, 1, 4)
    tied = table.last("vote_tied")
    assert tied == {**tied, "visibility": "public", "round": 1, "tied_seats": [1, 4], "next": "revote",
                    "vote_breakdown": {"1": 3, "4": 3}}
    assert not table.all_of("round_resolved")
    phase = table.last("phase_started")
    assert phase["phase"] == "speak_round_1" and phase["pk"] is True and phase["speaking_order"] == [1, 4]
    assert table.state.pk and table.state.current_speaker_seat == 1
    table.fail(Speak(seat=0, text="我也想说"), "not_your_turn_to_speak")
    table.speak_all()
    phase = table.last("phase_started")
    assert phase["phase"] == "vote_round_1" and phase["pk"] is True
    invites = table.events[-4:]
    assert [e["seat"] for e in invites] == [0, 2, 3, 5]
    assert all(e["eligible_targets"] == [1, 4] for e in invites)
    table.fail(Vote(seat=1, target_seat=4), "wrong_phase")
    table.fail(Vote(seat=0, target_seat=2), "invalid_target")
    for voter in (0, 2, 3):
        table.do(Vote(seat=voter, target_seat=4))
    table.do(Vote(seat=5, target_seat=1))
    r = table.last("round_resolved")
    assert r["eliminated_seat"] == 4 and r["tie_break_applied"] == "revote"
    assert r["vote_breakdown"] == {"1": 1, "4": 3}
    assert len(table.all_of("round_resolved")) == 1
    assert not table.state.pk and table.state.pk_candidates == []


def test_revote_second_tie_is_random() -> None:
    table = start_vote(tie_break="revote")
    tie(table, 1, 4)
    table.speak_all()
    for voter, target in [(0, 1), (2, 4), (3, 1), (5, 4)]:
        table.do(Vote(seat=voter, target_seat=target))
    r = table.last("round_resolved")
    assert r["eliminated_seat"] in (1, 4) and r["tie_break_applied"] == "random"
    assert len(table.all_of("round_resolved")) == 1


def test_revote_pk_all_abstain_is_random_among_tied() -> None:
    table = start_vote(tie_break="revote")
    tie(table, 1, 4)
    table.speak_all(skip=True)
    table.fire()
    table.fire()
    r = table.last("round_resolved")
    assert r["eliminated_seat"] in (1, 4) and r["tie_break_applied"] == "random" and r["vote_breakdown"] == {}


def test_revote_without_eligible_voters_goes_random() -> None:
    table = Table.started(n_players=4, n_undercover=1, tie_break="revote", last_words=False)
    table.speak_all()
    for voter in range(4):  # 0→1, 1→2, 2→3, 3→0: every living seat is tied
        table.do(Vote(seat=voter, target_seat=(voter + 1) % 4))
    assert not table.all_of("vote_tied")
    r = table.last("round_resolved")
    assert r["tie_break_applied"] == "random" and r["vote_breakdown"] == {"0": 1, "1": 1, "2": 1, "3": 1}


def test_noop_then_random() -> None:
    table = start_vote(tie_break="noop_then_random", n_players=8)
    tie(table, 1, 4)
    first = table.last("round_resolved")
    assert first["eliminated_seat"] is None and first["noop"] is True and first["tie_break_applied"] == "noop"
    assert first["revealed_role"] is None
    assert table.state.phase == "speak_round_2" and len(table.state.living_seats()) == 8
    table.speak_all()
    tie(table, 2, 5)
    second = table.last("round_resolved")
    assert second["eliminated_seat"] in (2, 5) and second["tie_break_applied"] == "random"
    assert second["round"] == 2 and table.state.noop_streak == 0


def test_noop_streak_resets_after_a_clear_round() -> None:
    table = start_vote(tie_break="noop_then_random", n_players=8, n_undercover=1)
    tie(table, 1, 4)
    assert table.state.noop_streak == 1
    table.speak_all()
    table.vote_out(table.civilians[0])
    assert table.state.noop_streak == 0
    table.speak_all()
    living = table.civilians
    tie(table, living[0], living[1])
    assert table.last("round_resolved")["noop"] is True


def test_all_abstain_is_random_among_the_living() -> None:
    table = start_vote(tie_break="noop_then_random")
    table.fire()
    events = table.fire()
    assert table.types(events)[:2] == ["vote_abstained", "round_resolved"]
    assert events[0]["seats"] == list(range(6))
    r = events[1]
    assert r["eliminated_seat"] in range(6) and r["tie_break_applied"] == "random" and r["vote_breakdown"] == {}
