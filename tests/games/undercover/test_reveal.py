"""Reveal phase: last words, the blank's guess, and their deadline."""

from __future__ import annotations

from tests.games.undercover.rules import Concede, GuessWord, LastWords, Speak, you_view

from .helpers import Table


def test_last_words_flow() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    out = table.civilians[0]
    table.play_round(out)
    assert table.state.phase == "reveal_round_1"
    phase = table.last("phase_started")
    turn = table.last("your_turn_for_last_words")
    assert phase["phase"] == "reveal_round_1" and phase["deadline_ts"] == turn["deadline_ts"]
    assert turn["visibility"] == f"private:seat:{out}"
    assert table.state.timer is not None and table.state.timer.kind == "reveal_expire"
    assert you_view(table.state, out)["next_action"] == "last_words"
    assert you_view(table.state, out)["your_turn"] is True
    events = table.do(LastWords(seat=out, text=" 我是好人 "))
    assert table.types(events)[:2] == ["last_words_posted", "phase_started"]
    assert events[0] == {**events[0], "visibility": "public", "seat": out, "round": 1, "text": "我是好人"}
    assert table.state.phase == "speak_round_2"
    table.fail(LastWords(seat=out, text="again"), "you_are_eliminated")


def test_last_words_errors() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    out = table.civilians[0]
    table.play_round(out)
    other = table.civilians[0]
    table.fail(LastWords(seat=other, text="not me"), "wrong_phase")
    table.fail(LastWords(seat=out, text=""), "bad_request")
    table.fail(LastWords(seat=out, text="x" * 501), "text_too_long")
    word = table.state.players[out].word
    table.fail(LastWords(seat=out, text=f"我的词是{word}"), "speech_contains_secret_word")
    table.fail(GuessWord(seat=out, word="x"), "you_are_eliminated")
    table.fail(Speak(seat=other, text="hi"), "wrong_phase")


def test_last_words_timeout() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    out = table.civilians[0]
    table.play_round(out)
    events = table.fire()
    assert table.types(events)[:2] == ["last_words_skipped", "phase_started"]
    assert events[0]["seat"] == out and table.state.phase == "speak_round_2"


def test_no_last_words_when_the_game_ends() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True)
    table.play_round(table.undercovers[0])
    assert not table.all_of("your_turn_for_last_words")
    assert table.types()[-3:] == ["round_resolved", "phase_started", "match_finished"]


def test_no_last_words_when_disabled() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=False)
    table.play_round(table.civilians[0])
    assert not table.all_of("your_turn_for_last_words") and table.state.phase == "speak_round_2"


def test_no_last_words_after_the_last_round() -> None:
    table = Table.started(n_players=6, n_undercover=1, last_words=True, max_rounds=1)
    table.play_round(table.civilians[0])
    assert table.state.result is not None and table.state.result["reason"] == "max_rounds_reached"


def blank_table(**config: object) -> Table:
    return Table.started(**{"n_players": 8, "n_undercover": 1, "n_blank": 1, "last_words": True, "blank_guess": True,
                            **config})  # type: ignore[arg-type]


def test_blank_guesses_right_and_wins_alone() -> None:
    table = blank_table()
    blank = table.blanks[0]
    table.play_round(blank)
    assert [e["type"] for e in table.events[-3:]] == ["phase_started", "your_turn_to_guess",
                                                      "your_turn_for_last_words"]
    assert you_view(table.state, blank)["next_action"] == "guess_word"
    pair = table.state.wordpair
    assert pair is not None
    events = table.do(GuessWord(seat=blank, word=f" {pair.civilian} "))
    assert table.types(events) == ["word_guessed", "match_finished"]
    assert events[0]["correct"] is True
    result = table.state.result
    assert result is not None
    assert (result["winner_camp"], result["reason"], result["winning_seats"]) == ("blank", "blank_guessed_word",
                                                                                  [blank])
    assert blank not in result["losing_seats"] and len(result["losing_seats"]) == 7


def test_blank_guess_is_normalised() -> None:
    table = blank_table()
    blank = table.blanks[0]
    table.play_round(blank)
    pair = table.state.wordpair
    assert pair is not None
    spaced = " ".join(pair.civilian)
    table.do(GuessWord(seat=blank, word=spaced))
    assert table.state.result is not None and table.state.result["winner_camp"] == "blank"


def test_blank_guesses_wrong_then_last_words() -> None:
    table = blank_table()
    blank = table.blanks[0]
    table.play_round(blank)
    pair = table.state.wordpair
    assert pair is not None
    events = table.do(GuessWord(seat=blank, word=pair.undercover))
    assert table.types(events) == ["word_guessed"]
    assert events[0] == {**events[0], "visibility": "public", "guess": pair.undercover, "correct": False}
    assert you_view(table.state, blank)["next_action"] == "last_words"
    table.fail(GuessWord(seat=blank, word=pair.civilian), "you_are_eliminated")
    table.do(LastWords(seat=blank, text="可惜了"))
    assert table.state.phase == "speak_round_2"


def test_blank_last_words_first_then_guess() -> None:
    table = blank_table()
    blank = table.blanks[0]
    table.play_round(blank)
    table.do(LastWords(seat=blank, text="先说两句"))
    assert table.state.phase == "reveal_round_1"
    table.do(GuessWord(seat=blank, word="不知道"))
    assert table.state.phase == "speak_round_2"


def test_blank_guess_timeout_counts_as_wrong() -> None:
    table = blank_table(last_words=False)
    blank = table.blanks[0]
    table.play_round(blank)
    events = table.fire()
    assert events[0] == {**events[0], "type": "word_guessed", "seat": blank, "guess": None, "correct": False}
    assert table.state.phase == "speak_round_2"


def test_blank_guesses_before_civilians_win() -> None:
    table = blank_table(last_words=False)
    table.play_round(table.undercovers[0])
    assert table.state.status == "in_progress"
    blank = table.blanks[0]
    table.play_round(blank)
    assert table.state.status == "in_progress" and table.state.phase == "reveal_round_2"
    assert [a.kind for a in table.state.pending] == ["guess_word"]
    table.do(GuessWord(seat=blank, word="错的"))
    result = table.state.result
    assert result is not None and result["winner_camp"] == "civilian"
    assert result["reason"] == "all_undercovers_eliminated"


def test_concede_during_reveal_can_end_the_match() -> None:
    table = blank_table(n_players=7, n_undercover=1, n_blank=1)
    table.play_round(table.civilians[0])
    assert table.state.phase == "reveal_round_1"
    table.do(Concede(seat=table.civilians[0]))
    assert table.state.phase == "reveal_round_1"
    table.do(Concede(seat=table.civilians[0]))
    result = table.state.result
    assert result is not None and result["reason"] == "undercover_majority"
    assert table.state.pending == [] and table.state.timer is None
