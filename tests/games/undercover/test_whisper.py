"""Whispers between undercovers."""

from __future__ import annotations

from tests.games.undercover.rules import Concede, Whisper

from .helpers import Table


def test_whisper_disabled() -> None:
    table = Table.started(n_undercover=2)
    a, b = table.undercovers
    table.fail(Whisper(seat=a, target_seat=b, text="嗨"), "whisper_not_enabled")
    table.fail(Whisper(seat=table.civilians[0], target_seat=b, text="嗨"), "whisper_not_enabled")


def test_whisper_between_fellows() -> None:
    table = Table.started(n_undercover=2, allow_whisper=True)
    a, b = table.undercovers
    events = table.do(Whisper(seat=a, target_seat=b, text=" 我们都投 3 号 "))
    assert table.types(events) == ["whisper_received", "whisper_sent"]
    received, sent = events
    assert received == {**received, "visibility": "private:role:undercover", "from_seat": a, "to_seat": b,
                        "text": "我们都投 3 号"}
    assert sent == {"seq": sent["seq"], "type": "whisper_sent", "visibility": "public", "count": 1,
                    "ts": sent["ts"]}
    table.do(Whisper(seat=b, target_seat=a, text="好"))
    assert table.state.whisper_count == 2 and table.last("whisper_sent")["count"] == 2


def test_whisper_must_not_spell_the_word() -> None:
    table = Table.started(n_undercover=2, allow_whisper=True)
    a, b = table.undercovers
    word = table.state.players[a].word
    assert word
    table.fail(Whisper(seat=a, target_seat=b, text="x".join(word)), "speech_contains_secret_word")
    assert table.state.whisper_count == 0


def test_whisper_is_no_oracle_for_civilians() -> None:
    table = Table.started(n_undercover=2, n_players=8, n_blank=1, allow_whisper=True)
    for sender in table.civilians + table.blanks:
        for target in range(8):
            table.fail(Whisper(seat=sender, target_seat=target, text="嗨"), "whisper_target_not_fellow")


def test_whisper_target_rules() -> None:
    table = Table.started(n_undercover=2, allow_whisper=True)
    a, b = table.undercovers
    table.fail(Whisper(seat=a, target_seat=a, text="嗨"), "whisper_target_not_fellow")
    table.fail(Whisper(seat=a, target_seat=table.civilians[0], text="嗨"), "whisper_target_not_fellow")
    table.fail(Whisper(seat=a, target_seat=99, text="嗨"), "whisper_target_not_fellow")
    table.fail(Whisper(seat=a, target_seat=b, text=""), "bad_request")
    table.fail(Whisper(seat=a, target_seat=b, text="x" * 501), "text_too_long")
    table.do(Concede(seat=b))
    table.fail(Whisper(seat=a, target_seat=b, text="嗨"), "whisper_target_not_fellow")
    table.fail(Whisper(seat=b, target_seat=a, text="嗨"), "you_are_eliminated")


def test_whisper_needs_a_running_match() -> None:
    Table(allow_whisper=True).fail(Whisper(seat=0, target_seat=1, text="嗨"), "match_not_in_progress")
