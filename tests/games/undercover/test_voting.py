"""Vote rounds: legality, events, resolution, abstention."""

from __future__ import annotations

from tests.games.undercover.rules import Speak, Vote

from .helpers import Table


def voting_table(**config: object) -> Table:
    table = Table.started(**{"last_words": False, **config})  # type: ignore[arg-type]
    table.speak_all()
    return table


def test_vote_events() -> None:
    table = voting_table()
    events = table.do(Vote(seat=1, target_seat=4, comment=" 太模糊 "))
    assert table.types(events) == ["vote_cast", "your_vote_recorded"]
    cast, recorded = events
    assert cast == {**cast, "visibility": "public", "seat": 1, "round": 1, "target_seat": 4, "comment": "太模糊"}
    assert recorded == {**recorded, "visibility": "private:seat:1", "target_seat": 4}
    assert table.state.votes == {1: 4}


def test_vote_errors() -> None:
    table = voting_table()
    table.fail(Vote(seat=1, target_seat=1), "invalid_target")
    table.fail(Vote(seat=1, target_seat=6), "invalid_target")
    table.fail(Vote(seat=1, target_seat=-1), "invalid_target")
    table.fail(Vote(seat=1, target_seat=2, comment="x" * 501), "text_too_long")
    table.fail(Vote(seat=1, target_seat=2, analysis={"x": "y" * 5000}), "bad_request")
    table.do(Vote(seat=1, target_seat=2))
    table.fail(Vote(seat=1, target_seat=3), "already_voted")
    table.fail(Vote(seat=8, target_seat=3), "agent_not_in_match")
    table.fail(Speak(seat=0, text="late"), "wrong_phase")


def test_vote_comment_may_not_leak_own_word() -> None:
    table = voting_table()
    word = table.state.players[1].word
    assert word is not None
    table.fail(Vote(seat=1, target_seat=2, comment=f"我是{word}"), "speech_contains_secret_word")


def test_dead_cannot_vote_nor_be_voted() -> None:
    table = Table.started(n_players=8, n_undercover=1, last_words=False)
    out = table.civilians[0]
    table.play_round(out)
    table.speak_all()
    table.fail(Vote(seat=out, target_seat=table.undercovers[0]), "you_are_eliminated")
    voter = next(s for s in table.state.living_seats())
    table.fail(Vote(seat=voter, target_seat=out), "invalid_target")


def test_private_vote_analysis() -> None:
    table = voting_table()
    events = table.do(Vote(seat=0, target_seat=1, analysis={"confidence": 0.7, "private": True}))
    assert table.types(events) == ["vote_cast", "your_vote_recorded", "analysis_recorded"]
    assert "analysis" not in events[0] and events[2]["visibility"] == "private:seat:0"
    public = table.do(Vote(seat=1, target_seat=0, analysis={"confidence": 0.2}))
    assert public[0]["analysis"] == {"confidence": 0.2}


def test_last_vote_resolves_in_the_same_command() -> None:
    table = voting_table(n_players=6, n_undercover=1)
    target = table.civilians[0]
    table.vote_out(target)
    resolved = table.all_of("round_resolved")
    assert len(resolved) == 1
    r = resolved[0]
    assert r["eliminated_seat"] == target and r["revealed_role"] == "civilian"
    assert r["vote_breakdown"][str(target)] == 5 and sum(r["vote_breakdown"].values()) == 6
    assert r["tie_break_applied"] is None and r["noop"] is False
    assert (r["remaining_civilians"], r["remaining_undercovers"], r["remaining_blanks"]) == (4, 1, 0)
    player = table.state.players[target]
    assert not player.alive and player.eliminated_in == "round_1" and player.revealed_role == "civilian"
    tail = table.types()[table.types().index("round_resolved"):]
    assert tail[:4] == ["round_resolved", "phase_started", "phase_started", "your_turn_to_speak"]
    assert [e["phase"] for e in table.all_of("phase_started")[-2:]] == ["reveal_round_1", "speak_round_2"]


def test_breakdown_keys_are_strings_and_sorted() -> None:
    table = voting_table(n_players=6, n_undercover=1)
    for voter, target in [(0, 5), (1, 2), (2, 5), (3, 2), (4, 5), (5, 0)]:
        table.do(Vote(seat=voter, target_seat=target))
    assert table.last("round_resolved")["vote_breakdown"] == {"0": 1, "2": 2, "5": 3}


def test_has_voted_state_resets_next_round() -> None:
    table = voting_table(n_players=6, n_undercover=1)
    table.vote_out(table.civilians[0])
    assert table.state.votes == {}
