"""Speak rounds: order, text rules, the secret-word check, analysis, skip."""

from __future__ import annotations

import pytest

from tests.games.undercover.rules import Concede, Join, Skip, Speak, Vote

from .helpers import Table


def speaker(table: Table) -> int:
    seat = table.state.current_speaker_seat
    assert seat is not None
    return seat


def test_speech_passes_the_floor() -> None:
    table = Table.started()
    events = table.do(Speak(seat=0, text="  一种饮品  "))
    assert table.types(events) == ["speech_posted", "your_turn_to_speak"]
    posted, turn = events
    assert posted == {**posted, "seat": 0, "round": 1, "text": "一种饮品", "visibility": "public"}
    assert "analysis" not in posted
    assert turn["visibility"] == "private:seat:1" and table.state.current_speaker_seat == 1


def test_last_speech_opens_the_vote() -> None:
    table = Table.started()
    table.speak_all()
    phase = table.last("phase_started")
    assert phase["phase"] == "vote_round_1" and table.state.phase == "vote_round_1"
    invites = table.all_of("your_turn_to_vote")
    assert [e["seat"] for e in invites] == list(range(6))
    assert invites[2]["eligible_targets"] == [0, 1, 3, 4, 5]
    assert invites[2]["deadline_ts"] == phase["deadline_ts"]


def test_not_your_turn_wrong_phase_eliminated_finished() -> None:
    table = Table.started()
    table.fail(Speak(seat=2, text="hi"), "not_your_turn_to_speak")
    table.fail(Skip(seat=2), "not_your_turn_to_speak")
    table.do(Concede(seat=3))
    table.fail(Speak(seat=3, text="hi"), "you_are_eliminated")
    table.speak_all()
    table.fail(Speak(seat=0, text="hi"), "wrong_phase")
    waiting = Table()
    waiting.fail(Speak(seat=0, text="hi"), "wrong_phase")
    done = Table.started(n_players=4, n_undercover=1)
    done.play_round(done.undercovers[0])
    done.fail(Speak(seat=0, text="hi"), "match_finished")


def test_unknown_seat() -> None:
    Table.started().fail(Speak(seat=9, text="hi"), "agent_not_in_match")


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_text(text: str) -> None:
    Table.started().fail(Speak(seat=0, text=text), "bad_request")


def test_text_length_limit() -> None:
    table = Table.started()
    table.fail(Speak(seat=0, text="长" * 501), "text_too_long")
    table.do(Speak(seat=0, text="长" * 500))


def table_with_word(word: str) -> Table:
    """Every seat holds `word` (a pair of two equal words), whatever the deal's orientation."""
    return Table.started(n_players=4, n_undercover=1, pairs=[(word, word)])


@pytest.mark.parametrize(
    ("word", "text"),
    [
        ("咖啡", "我的是咖啡"),
        ("咖啡", "咖 啡"),
        ("咖啡", "咖·啡！"),
        ("coffee", "I like COFFEE"),
        ("coffee", "ＣＯＦＦＥＥ"),
        ("coffee", "c-o-f-f-e-e"),
        ("面条", "我喜歡吃麵條"),
        ("面条", "麵 條"),
        ("奶茶", "奶\u3000茶"),
    ],
)
def test_own_word_is_refused(word: str, text: str) -> None:
    table_with_word(word).fail(Speak(seat=0, text=text), "speech_contains_secret_word")


@pytest.mark.parametrize(
    "text",
    ["hóng chá", "洪茶", "厨x红1茶", "\u202e茶红\u202c", "I drink Black Tea", "⻋上喝红x茶"],
)
def test_spelled_around_word_is_refused(text: str) -> None:
    """The full check of `leak.find_leak`, with the English gloss the pair library gives the word."""
    table_with_word("红茶").fail(Speak(seat=0, text=text), "speech_contains_secret_word")


def test_harmless_text_passes() -> None:
    table_with_word("面条").do(Speak(seat=0, text="我喜歡吃米飯"))


def test_other_word_is_allowed() -> None:
    table = Table.started(n_players=4, n_undercover=1)
    pair = table.state.wordpair
    assert pair is not None
    own = table.state.players[0].word
    other = pair.undercover if own == pair.civilian else pair.civilian
    table.do(Speak(seat=0, text=f"不是{other[0]}"))


def test_blank_never_leaks() -> None:
    table = Table.started(n_players=8, n_undercover=1, n_blank=1, first_speaker=0)
    blank = table.blanks[0]
    while table.state.current_speaker_seat != blank:
        table.do(Skip(seat=speaker(table)))
    pair = table.state.wordpair
    assert pair is not None
    table.do(Speak(seat=blank, text=f"{pair.civilian}{pair.undercover}"))


def test_public_analysis_in_speech() -> None:
    table = Table.started()
    events = table.do(Speak(seat=0, text="饮品", analysis={"suspect_seats": [3], "private": False}))
    assert events[0]["analysis"] == {"suspect_seats": [3], "private": False}


def test_private_analysis_goes_to_the_speaker_only() -> None:
    table = Table.started()
    events = table.do(Speak(seat=0, text="饮品", analysis={"guess": "civilian", "private": True}))
    assert table.types(events) == ["speech_posted", "analysis_recorded", "your_turn_to_speak"]
    assert "analysis" not in events[0]
    assert events[1]["visibility"] == "private:seat:0"
    assert events[1]["analysis"] == {"guess": "civilian", "private": True}


def test_analysis_size_limit() -> None:
    table = Table.started()
    table.fail(Speak(seat=0, text="饮品", analysis={"x": "a" * 4100}), "bad_request")


def test_skip() -> None:
    table = Table.started()
    events = table.do(Skip(seat=0))
    assert events[0] == {**events[0], "type": "speech_skipped", "seat": 0, "round": 1, "reason": "skipped"}


def test_later_rounds_start_at_first_living_seat_after_first_speaker() -> None:
    config = {"n_players": 7, "n_undercover": 1, "first_speaker": 2, "last_words": False}
    table = next(t for seed in range(50) if (t := Table.started(seed, **config)).role(2) == "civilian")
    table.play_round(2)
    assert table.state.phase == "speak_round_2"
    assert table.last("phase_started")["speaking_order"] == [3, 4, 5, 6, 0, 1]
    assert table.state.current_speaker_seat == 3


def test_vote_refused_while_speaking() -> None:
    Table.started().fail(Vote(seat=1, target_seat=2), "wrong_phase")


def test_join_after_start_is_refused_even_for_a_new_name() -> None:
    Table.started().fail(Join(name="zed", display_name="Zed"), "match_full")
