"""`you.allowed_actions` in every phase and for every role; each listed action is one the rules accept."""

from __future__ import annotations

from typing import Any

from app.games.base import GameError
from tests.games.undercover.rules import (
    Command,
    Concede,
    GuessWord,
    LastWords,
    Skip,
    Speak,
    Vote,
    Whisper,
    allowed_actions,
    apply,
    you_view,
)

from .helpers import Table, tie


def kinds(table: Table, seat: int) -> list[str]:
    return [a["type"] for a in allowed_actions(table.state, seat)]


def command(kind: str, seat: int, target: int | None) -> Command:
    if kind == "speak":
        return Speak(seat=seat, text="一种常见的东西")
    if kind == "skip":
        return Skip(seat=seat)
    if kind == "vote":
        return Vote(seat=seat, target_seat=target if target is not None else -1)
    if kind == "whisper":
        return Whisper(seat=seat, target_seat=target if target is not None else -1, text="稳住")
    if kind == "last_words":
        return LastWords(seat=seat, text="再见")
    if kind == "guess_word":
        return GuessWord(seat=seat, word="不知道")
    return Concede(seat=seat)


def assert_all_accepted(table: Table) -> None:
    """Every seat's every listed action (with every listed target) is accepted by the rules."""
    for seat in range(len(table.state.players)):
        for action in allowed_actions(table.state, seat):
            for target in action.get("targets") or [None]:
                apply(table.state, command(action["type"], seat, target), now=table.now + 1, pairs=table.pairs)


def test_waiting_room_allows_nothing() -> None:
    assert allowed_actions(Table().state, 0) == []


def test_speak_turn_and_not_your_turn() -> None:
    table = Table.started(n_players=6, n_undercover=1, first_speaker=0, last_words=False)
    deadline = table.state.deadline_ts
    assert allowed_actions(table.state, 0) == [{"type": "speak", "deadline_ts": deadline},
                                               {"type": "skip", "deadline_ts": deadline}, {"type": "concede"}]
    assert allowed_actions(table.state, 1) == [{"type": "concede"}]
    assert you_view(table.state, 1)["allowed_actions"] == [{"type": "concede"}]
    assert_all_accepted(table)


def test_vote_lists_the_other_living_seats_until_voted() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=False)
    table.do(Concede(seat=table.civilians[-1]))
    table.speak_all()
    living = table.state.living_seats()
    vote = allowed_actions(table.state, 2)[0]
    assert vote == {"type": "vote", "targets": [s for s in living if s != 2], "deadline_ts": table.state.deadline_ts}
    assert_all_accepted(table)
    table.do(Vote(seat=2, target_seat=living[0]))
    assert kinds(table, 2) == ["concede"]


def test_pk_vote_tied_seats_cannot_vote() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=False, tie_break="revote")
    table.speak_all()
    tie(table, 1, 4)
    assert kinds(table, 1) == ["speak", "skip", "concede"] and kinds(table, 0) == ["concede"]
    table.speak_all()
    assert kinds(table, 1) == ["concede"] and kinds(table, 4) == ["concede"]
    for seat in (0, 2, 3, 5):
        assert allowed_actions(table.state, seat)[0]["targets"] == [1, 4]
    assert_all_accepted(table)


def test_last_words_for_the_eliminated_seat_only() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    out = table.civilians[0]
    table.play_round(out)
    assert table.state.stage == "reveal"
    assert allowed_actions(table.state, out) == [{"type": "last_words", "deadline_ts": table.state.deadline_ts}]
    assert kinds(table, table.civilians[0]) == ["concede"]
    assert_all_accepted(table)
    table.do(LastWords(seat=out, text="再见"))
    assert allowed_actions(table.state, out) == []


def test_blank_guess_then_last_words() -> None:
    table = Table.started(n_players=8, n_undercover=1, n_blank=1, last_words=True, blank_guess=True)
    blank = table.blanks[0]
    table.play_round(blank)
    assert set(kinds(table, blank)) == {"guess_word", "last_words"}
    assert_all_accepted(table)
    pair = table.state.wordpair
    assert pair is not None
    table.do(GuessWord(seat=blank, word=pair.undercover))
    assert kinds(table, blank) == ["last_words"]


def test_whisper_for_undercovers_with_allow_whisper() -> None:
    table = Table.started(n_players=8, n_undercover=2, allow_whisper=True, first_speaker=0)
    first, second = table.undercovers
    assert {"type": "whisper", "targets": [second]} in allowed_actions(table.state, first)
    assert "whisper" not in kinds(table, table.civilians[0])
    assert_all_accepted(table)
    table.do(Concede(seat=second))
    assert "whisper" not in kinds(table, first)


def test_no_whisper_without_allow_whisper() -> None:
    table = Table.started(n_players=8, n_undercover=2)
    assert all("whisper" not in kinds(table, seat) for seat in table.undercovers)


def test_eliminated_and_finished_allow_nothing() -> None:
    table = Table.started(n_players=6, n_undercover=1)
    out = table.civilians[-1]
    table.do(Concede(seat=out))
    assert allowed_actions(table.state, out) == []
    table.do(Concede(seat=table.undercovers[0]))
    assert table.state.status == "finished"
    assert all(allowed_actions(table.state, seat) == [] for seat in range(6))
    assert allowed_actions(table.state, 17) == []


def test_refused_actions_are_not_listed() -> None:
    table = Table.started(n_players=6, n_undercover=1, first_speaker=0)
    listed: dict[str, Any] = {a["type"]: a for a in allowed_actions(table.state, 1)}
    for refused in (Speak(seat=1, text="插话"), Vote(seat=1, target_seat=2)):
        assert refused.type not in listed
        try:
            apply(table.state, refused, now=table.now + 1, pairs=table.pairs)
        except GameError:
            continue
        raise AssertionError(f"{refused.type} was accepted but not listed")
