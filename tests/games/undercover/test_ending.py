"""Win conditions and the result."""

from __future__ import annotations

from tests.games.undercover.rules import Speak

from .helpers import Table


def test_civilian_win_by_vote() -> None:
    table = Table.started(n_players=6, n_undercover=2, last_words=False)
    first, second = table.undercovers
    table.play_round(first)
    assert table.state.status == "in_progress"
    table.play_round(second)
    result = table.state.result
    assert result is not None
    pair = table.state.wordpair
    assert pair is not None
    assert result == {
        "winner_camp": "civilian",
        "winning_seats": table.seats("civilian", alive=False),
        "losing_seats": [first, second] if first < second else [second, first],
        "reason": "all_undercovers_eliminated",
        "summary": "平民胜：第 2 轮后卧底全部出局",
        "wordpair": {"civilian": pair.civilian, "undercover": pair.undercover},
    }
    finished = table.last("match_finished")
    assert finished["visibility"] == "public"
    assert {k: finished[k] for k in result} == result
    assert table.state.status == table.state.phase == "finished"
    assert table.state.timer is None and table.state.deadline_ts is None
    table.fail(Speak(seat=0, text="hi"), "match_finished")


def test_undercover_majority() -> None:
    table = Table.started(n_players=6, n_undercover=2, last_words=False)
    table.play_round(table.civilians[0])
    table.play_round(table.civilians[0])
    result = table.state.result
    assert result is not None and result["winner_camp"] == "undercover"
    assert result["reason"] == "undercover_majority"
    assert result["winning_seats"] == table.undercovers
    assert table.state.round_index == 2


def test_blanks_count_with_undercovers() -> None:
    table = Table.started(n_players=7, n_undercover=1, n_blank=2, last_words=False)
    table.play_round(table.civilians[0])
    result = table.state.result
    assert result is not None and result["reason"] == "undercover_majority"
    assert result["winning_seats"] == sorted(table.undercovers + table.blanks)


def test_max_rounds_reached() -> None:
    table = Table.started(n_players=8, n_undercover=1, max_rounds=2, last_words=False)
    table.play_round(table.civilians[0])
    table.play_round(table.civilians[0])
    result = table.state.result
    assert result is not None
    assert (result["winner_camp"], result["reason"]) == ("undercover", "max_rounds_reached")
    assert table.state.round_index == 2
    assert [e["phase"] for e in table.all_of("phase_started")][-1] == "reveal_round_2"


def test_max_rounds_still_lets_the_last_round_win() -> None:
    table = Table.started(n_players=6, n_undercover=1, max_rounds=1)
    table.play_round(table.undercovers[0])
    assert table.state.result is not None and table.state.result["reason"] == "all_undercovers_eliminated"


def test_exactly_one_round_resolved_per_round() -> None:
    table = Table.started(n_players=10, n_undercover=2, n_blank=1, last_words=False)
    while table.state.status == "in_progress":
        table.play_round(table.civilians[0])
    rounds = [e["round"] for e in table.all_of("round_resolved")]
    assert rounds == sorted(set(rounds))
