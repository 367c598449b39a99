"""Concession in every phase, and the win checks it triggers."""

from __future__ import annotations

from tests.games.undercover.rules import Concede, Speak, Vote

from .helpers import Table, tie


def table6(**config: object) -> Table:
    return Table.started(**{"n_players": 6, "n_undercover": 1, "last_words": False, **config})  # type: ignore[arg-type]


def test_concede_reveals_role() -> None:
    table = table6()
    seat = table.civilians[-1]
    events = table.do(Concede(seat=seat))
    c = events[0]
    assert c == {**c, "type": "player_conceded", "visibility": "public", "seat": seat, "round": 1,
                 "revealed_role": "civilian"}
    player = table.state.players[seat]
    assert not player.alive and player.conceded and player.revealed_role == "civilian"
    assert player.eliminated_in == "round_1"


def test_current_speaker_concedes_and_the_floor_passes() -> None:
    table = Table.where(lambda t: t.role(0) == "civilian", n_players=6, n_undercover=1, first_speaker=0)
    events = table.do(Concede(seat=0))
    assert table.types(events) == ["player_conceded", "your_turn_to_speak"]
    assert events[1]["seat"] == 1 and table.state.current_speaker_seat == 1
    assert table.state.timer is not None and table.state.timer.kind == "speak_warning"


def test_last_speaker_conceding_opens_the_vote() -> None:
    table = Table.where(lambda t: t.role(7) == "civilian", n_players=8, n_undercover=1, first_speaker=0)
    for seat in range(7):
        table.do(Speak(seat=seat, text="一种东西"))
    events = table.do(Concede(seat=7))
    assert table.types(events)[:2] == ["player_conceded", "phase_started"]
    assert table.state.phase == "vote_round_1"
    assert [e["seat"] for e in table.all_of("your_turn_to_vote")] == list(range(7))


def test_a_later_speaker_conceding_is_skipped_in_turn() -> None:
    table = Table.where(lambda t: t.role(2) == "civilian", n_players=6, n_undercover=1, first_speaker=0)
    table.do(Concede(seat=2))
    table.do(Speak(seat=0, text="一种东西"))
    events = table.do(Speak(seat=1, text="一种东西"))
    assert events[-1]["type"] == "your_turn_to_speak" and events[-1]["seat"] == 3


def test_concede_errors() -> None:
    waiting = Table()
    waiting.fail(Concede(seat=0), "match_not_in_progress")
    table = table6()
    seat = table.civilians[0]
    table.do(Concede(seat=seat))
    table.fail(Concede(seat=seat), "you_are_eliminated")
    table.fail(Concede(seat=42), "agent_not_in_match")
    done = table6()
    done.do(Concede(seat=done.undercovers[0]))
    done.fail(Concede(seat=done.civilians[0]), "match_finished")


def test_last_undercover_conceding_ends_with_civilian_win() -> None:
    table = table6()
    undercover = table.undercovers[0]
    table.do(Concede(seat=undercover))
    result = table.state.result
    assert result is not None
    assert result["winner_camp"] == "civilian"
    assert result["reason"] == "all_undercovers_conceded_or_eliminated"
    assert result["losing_seats"] == [undercover]
    assert table.types()[-2:] == ["player_conceded", "match_finished"]
    assert table.state.status == table.state.phase == "finished" and table.state.timer is None


def test_civilians_conceding_hand_the_majority() -> None:
    table = Table.started(n_players=4, n_undercover=1)
    table.do(Concede(seat=table.civilians[0]))
    assert table.state.status == "in_progress"
    table.do(Concede(seat=table.civilians[0]))
    assert table.state.result is not None and table.state.result["reason"] == "undercover_majority"


def test_concede_in_vote_withdraws_and_voids() -> None:
    table = Table.started(n_players=8, n_undercover=1, last_words=False)
    table.speak_all()
    a, b, c, d = table.civilians[:4]
    table.do(Vote(seat=a, target_seat=b))
    table.do(Vote(seat=c, target_seat=b))
    table.do(Vote(seat=b, target_seat=d))
    events = table.do(Concede(seat=b))
    assert table.types(events) == ["player_conceded", "votes_voided", "your_turn_to_vote", "your_turn_to_vote"]
    assert events[1]["voter_seats"] == [a, c] and events[1]["target_seat"] == b
    assert [e["seat"] for e in events[2:]] == [a, c]
    assert b not in events[2]["eligible_targets"]
    assert table.state.votes == {}
    table.do(Vote(seat=a, target_seat=c))


def test_concede_of_the_last_missing_voter_resolves() -> None:
    table = Table.started(n_players=8, n_undercover=1, last_words=False)
    table.speak_all()
    target = table.undercovers[0]
    holdout = table.civilians[-1]
    table.vote_out(target, except_voters=(holdout,))
    assert not table.all_of("round_resolved")
    table.do(Concede(seat=holdout))
    r = table.last("round_resolved")
    assert r["eliminated_seat"] == target
    assert table.state.status == "finished"


def test_pk_candidate_concedes_leaving_one() -> None:
    table = Table.started(n_players=6, n_undercover=1, tie_break="revote", last_words=False)
    table.speak_all()
    civilians = table.civilians
    a, b = civilians[0], civilians[1]
    tie(table, a, b)
    assert table.state.pk
    events = table.do(Concede(seat=a))
    assert table.types(events)[:3] == ["player_conceded", "round_resolved", "phase_started"]
    r = events[1]
    assert r["eliminated_seat"] is None and r["reason"] == "candidate_conceded" and r["noop"] is True
    assert table.state.players[b].alive and table.state.phase == "speak_round_2"
    assert len(table.all_of("round_resolved")) == 1


def test_pk_voter_concedes_and_the_pk_resolves() -> None:
    table = Table.where(lambda t: t.role(7) == "civilian", n_players=8, n_undercover=1,
                        tie_break="revote", last_words=False)
    table.speak_all()
    a, b = [s for s in table.civilians if s != 7][:2]
    tie(table, a, b)
    table.speak_all()
    voters = [s for s in table.state.living_seats() if s not in (a, b)]
    assert voters[-1] == 7
    for voter in voters[:-1]:
        table.do(Vote(seat=voter, target_seat=a))
    table.do(Concede(seat=7))
    r = table.last("round_resolved")
    assert r["eliminated_seat"] == a and r["tie_break_applied"] == "revote"
