"""Creating, joining, dealing and aborting."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.games.undercover.rules import Abort, Join, apply, new_match, parse_config

from .helpers import PAIRS, T0, Table


def test_new_match_seats_the_host() -> None:
    outcome = new_match(parse_config({}), "alice", "Alice", 1, T0)
    state, events = outcome.state, outcome.events
    assert state.status == state.phase == "waiting"
    assert [p.name for p in state.players] == ["alice"]
    assert [e["type"] for e in events] == ["match_created", "player_joined"]
    assert [e["seq"] for e in events] == [1, 2]
    assert events[0]["visibility"] == "public"
    assert events[0]["config"]["max_rounds"] == 6
    assert events[0]["players"] == [{"seat": 0, "name": "alice", "display_name": "Alice"}]
    assert events[1]["seat"] == 0 and events[1]["ts"] == T0


def test_join_takes_seats_in_order() -> None:
    table = Table()
    events = table.do(Join(name="bob", display_name="Bob"))
    assert table.types(events) == ["player_joined"]
    assert events[0]["seat"] == 1 and events[0]["visibility"] == "public"
    assert table.state.status == "waiting"


def test_duplicate_player() -> None:
    table = Table()
    table.fail(Join(name="p0", display_name="again"), "duplicate_player")


def test_empty_name_is_bad_request() -> None:
    Table().fail(Join(name=" ", display_name="x"), "bad_request")


def test_full_then_not_waiting() -> None:
    table = Table.started()
    table.fail(Join(name="late", display_name="Late"), "match_full")
    aborted = Table()
    aborted.do(Abort(reason="host_cancelled"))
    aborted.fail(Join(name="late", display_name="Late"), "match_not_waiting")


def test_deal_events_in_order() -> None:
    table = Table.started(n_players=6, n_undercover=2)
    deal = table.events[table.types().index("match_started"):]
    assert table.types(deal) == (
        ["match_started", "roles_dealt"] + ["role_assigned"] * 6
        + ["fellow_role_hint", "phase_started", "your_turn_to_speak"]
    )
    started, dealt = deal[0], deal[1]
    assert started == {**started, "n_players": 6, "n_undercover": 2, "n_blank": 0, "visibility": "public"}
    assert "roles" not in started and "wordpair" not in started
    assert dealt["visibility"] == "god_only" and len(dealt["roles"]) == 6
    assert table.state.status == "in_progress" and table.state.phase == "speak_round_1"


def test_roles_and_words() -> None:
    table = Table.started(n_players=8, n_undercover=2, n_blank=1)
    roles = Counter(p.role for p in table.state.players)
    assert roles == {"civilian": 5, "undercover": 2, "blank": 1}
    pair = table.state.wordpair
    assert pair is not None and {pair.civilian, pair.undercover} == set(PAIRS[0])
    for p in table.state.players:
        expected = {"civilian": pair.civilian, "undercover": pair.undercover, "blank": None}[p.role or ""]
        assert p.word == expected
        assigned = next(e for e in table.all_of("role_assigned") if e["seat"] == p.seat)
        assert assigned["visibility"] == f"private:seat:{p.seat}"
        assert (assigned["role"], assigned["word"]) == (p.role, p.word)


def test_fellow_hint_and_reveal() -> None:
    hidden = Table.started(n_undercover=2)
    hint = hidden.last("fellow_role_hint")
    assert hint["visibility"] == "private:role:undercover" and hint["n_undercover"] == 2
    assert "本局共 2 名卧底（含你）" in hint["note"]
    assert not hidden.all_of("fellow_role_revealed")
    for flags in ({"fellow_roles_visible": True}, {"allow_whisper": True}):
        table = Table.started(n_undercover=2, **flags)
        revealed = table.last("fellow_role_revealed")
        assert revealed["visibility"] == "private:role:undercover"
        assert revealed["fellow_seats"] == table.undercovers


def test_first_turn() -> None:
    table = Table.started(first_speaker=3)
    phase = table.last("phase_started")
    turn = table.last("your_turn_to_speak")
    assert phase["phase"] == "speak_round_1" and phase["round_index"] == 1 and phase["pk"] is False
    assert phase["speaking_order"] == [3, 4, 5, 0, 1, 2]
    assert turn["visibility"] == "private:seat:3"
    assert turn["deadline_ts"] == phase["deadline_ts"] == table.state.deadline_ts
    assert table.state.current_speaker_seat == 3


def test_random_first_speaker_is_a_seat() -> None:
    firsts = {Table.started(seed, first_speaker="random").state.current_speaker_seat for seed in range(30)}
    assert len(firsts) > 1 and firsts <= set(range(6))


def test_deal_varies_with_seed_and_orientation() -> None:
    words = {Table.started(seed).state.wordpair.civilian for seed in range(20)}  # type: ignore[union-attr]
    assert words == {"咖啡", "奶茶"}


def test_no_pairs_refuses_the_last_join() -> None:
    table = Table(pairs=[], n_players=4, n_undercover=1)
    table.do(Join(name="p1", display_name="P1"))
    table.do(Join(name="p2", display_name="P2"))
    error = table.fail(Join(name="p3", display_name="P3"), "invalid_config")
    assert error.detail["field"] == "wordpair_tag"


def test_abort_waiting_room() -> None:
    table = Table()
    events = table.do(Abort(reason="host_cancelled"))
    assert table.types(events) == ["match_aborted"]
    assert events[0]["reason"] == "host_cancelled" and events[0]["visibility"] == "public"
    assert table.state.status == "aborted" and table.state.phase == "waiting"  # §4 names no phase `aborted`
    assert table.state.result == {"winner_camp": None, "reason": "host_cancelled",
                                  "summary": table.state.result["summary"]}  # type: ignore[index]
    again = apply(table.state, Abort(reason="host_cancelled"), now=T0 + 9)
    assert again.state is table.state and again.events == []


def test_abort_refused_once_started_or_finished() -> None:
    table = Table.started()
    table.fail(Abort(reason="host_cancelled"), "match_not_waiting")
    finished = Table.started(n_players=4, n_undercover=1)
    finished.play_round(finished.undercovers[0])
    assert finished.state.status == "finished"
    finished.fail(Abort(reason="janitor_timeout"), "match_finished")


def test_janitor_may_clear_a_running_match() -> None:
    table = Table.started()
    table.do(Abort(reason="janitor_timeout"))
    assert table.state.status == "aborted" and table.state.timer is None


@pytest.mark.parametrize("n", [4, 7, 12])
def test_any_table_size_deals(n: int) -> None:
    table = Table.started(n_players=n, n_undercover=1)
    assert len(table.state.players) == n and table.state.status == "in_progress"
