"""Scripted games for the golden transcripts (tests/games/undercover/golden/<name>.json).

A script drives a `Recorder` (a Table that logs every command with its time, and every
refused command with its error code). The transcript holds the seed, the config, the
commands, the full event log and the result, so it can be replayed from the file alone.

Regenerate: `WODI_REGEN_GOLDEN=1 .venv/bin/pytest tests/contract/test_golden.py -k undercover`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.games.base import GameError
from tests.games.undercover.rules import (
    COMMANDS,
    Command,
    Concede,
    Debate,
    DebatePass,
    GuessWord,
    LastWords,
    Speak,
    Vote,
    Whisper,
    apply,
    new_match,
    parse_config,
)

from .helpers import T0, Table, tie

GOLDEN = Path(__file__).parent / "golden"


class Recorder(Table):
    """A table that keeps a transcript of what was sent to it."""

    def __init__(self, seed: int = 7, pairs: list[tuple[str, str]] | None = None, **config: Any) -> None:
        self.log: list[dict[str, Any]] = []
        self.seed = seed
        super().__init__(seed, pairs, **config)

    def do(self, command: Command, dt: float = 1.0) -> list[dict[str, Any]]:
        events = super().do(command, dt)
        self.log.append({"at": self.now, "command": COMMANDS.encode(command)})
        return events

    def attempt(self, command: Command, code: str) -> None:
        """Send a command the rules must refuse with `code`, and log the refusal."""
        self.now += 1
        try:
            apply(self.state, command, now=self.now, pairs=self.pairs)
        except GameError as error:
            assert error.code == code, error.message
            self.log.append({"at": self.now, "command": COMMANDS.encode(command), "error": error.code})
            return
        raise AssertionError(f"{command!r} was accepted")

    def transcript(self, name: str) -> dict[str, Any]:
        return {"scenario": name, "seed": self.seed, "pairs": [list(p) for p in self.pairs],
                "config": self.config.model_dump(), "commands": self.log, "events": self.events,
                "result": self.state.result}


def replay(transcript: dict[str, Any]) -> list[dict[str, Any]]:
    """Rebuild the event log from a transcript's seed, config and commands alone."""
    pairs = [tuple(p) for p in transcript["pairs"]]
    outcome = new_match(parse_config(transcript["config"]), "p0", "P0", transcript["seed"], T0)
    state, events = outcome.state, list(outcome.events)
    for entry in transcript["commands"]:
        command = COMMANDS.decode(entry["command"])
        try:
            outcome = apply(state, command, now=entry["at"], pairs=pairs)
        except GameError as error:
            assert error.code == entry.get("error"), error.message
            continue
        assert "error" not in entry
        state = outcome.state
        events.extend(outcome.events)
    return events


def dumps(transcript: dict[str, Any]) -> str:
    return json.dumps(transcript, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def civilian_win() -> Recorder:
    t = Recorder.started(11, n_players=6, n_undercover=2, last_words=True)
    first, second = t.undercovers
    t.play_round(first)
    t.do(LastWords(seat=first, text="我其实是平民，你们投错了"))
    t.play_round(second)
    return t


def undercover_majority() -> Recorder:
    t = Recorder.started(12, n_players=6, n_undercover=2, last_words=False)
    t.play_round(t.civilians[0])
    t.play_round(t.civilians[0])
    return t


def max_rounds() -> Recorder:
    t = Recorder.started(13, n_players=8, n_undercover=1, max_rounds=2, last_words=False)
    t.play_round(t.civilians[0])
    t.play_round(t.civilians[0])
    return t


def tie_random() -> Recorder:
    t = Recorder.started(14, n_players=6, n_undercover=1, tie_break="random", last_words=False)
    t.speak_all()
    tie(t, t.civilians[0], t.civilians[1])
    if t.state.status == "in_progress":
        t.play_round(t.undercovers[0])
    return t


def revote_pk_random() -> Recorder:
    t = Recorder.started(15, n_players=6, n_undercover=1, tie_break="revote", last_words=False)
    t.speak_all()
    a, b = t.civilians[0], t.civilians[1]
    tie(t, a, b)
    t.speak_all()
    voters = [s for s in t.state.living_seats() if s not in (a, b)]
    for i, voter in enumerate(voters):
        t.do(Vote(seat=voter, target_seat=a if i % 2 == 0 else b, comment="再投一次"))
    return t


def noop_twice_random() -> Recorder:
    t = Recorder.started(16, n_players=8, n_undercover=1, tie_break="noop_then_random", last_words=False)
    t.speak_all()
    tie(t, t.civilians[0], t.civilians[1])
    t.speak_all()
    tie(t, t.civilians[2], t.civilians[3])
    return t


def speaker_concedes() -> Recorder:
    t = Recorder.started(19, n_players=6, n_undercover=1, first_speaker=0, last_words=False)
    assert t.role(0) == "civilian" and t.role(1) == "civilian"
    t.do(Speak(seat=0, text="这是每天早上都会碰到的东西"))
    t.do(Concede(seat=1))
    t.speak_all()
    t.vote_out(t.undercovers[0])
    return t


def speak_timeout() -> Recorder:
    t = Recorder.started(18, n_players=5, n_undercover=1, speak_timeout=30, last_words=True)
    t.fire()
    t.fire()
    t.do(Speak(seat=t.state.current_speaker_seat or 0, text="我来说：这个东西很常见"))
    return t


def vote_timeout() -> Recorder:
    t = Recorder.started(19, n_players=5, n_undercover=1, vote_timeout=40, last_words=False)
    t.speak_all()
    target = t.civilians[0]
    voters = [s for s in t.state.living_seats() if s != target][:2]
    for voter in voters:
        t.do(Vote(seat=voter, target_seat=target))
    t.fire()
    t.fire()
    return t


def last_words() -> Recorder:
    t = Recorder.started(20, n_players=6, n_undercover=1, last_words=True)
    out = t.civilians[0]
    t.play_round(out)
    t.attempt(LastWords(seat=out, text=f"我的词是{t.state.players[out].word}"), "speech_contains_secret_word")
    t.do(LastWords(seat=out, text="我是平民，请相信后面发言含糊的人有问题"))
    return t


def blank_guesses_right() -> Recorder:
    t = Recorder.started(21, n_players=8, n_undercover=1, n_blank=1, last_words=True, blank_guess=True)
    blank = t.blanks[0]
    t.play_round(blank)
    assert t.state.wordpair is not None
    t.do(GuessWord(seat=blank, word=t.state.wordpair.civilian))
    return t


def blank_guesses_wrong() -> Recorder:
    t = Recorder.started(22, n_players=8, n_undercover=1, n_blank=1, last_words=True, blank_guess=True)
    blank = t.blanks[0]
    t.play_round(blank)
    t.do(GuessWord(seat=blank, word="豆浆"))
    t.do(LastWords(seat=blank, text="猜错了，祝大家好运"))
    return t


def whisper_on() -> Recorder:
    t = Recorder.started(23, n_players=6, n_undercover=2, allow_whisper=True, last_words=True)
    a, b = t.undercovers
    t.do(Whisper(seat=a, target_seat=b, text="我们别互相投"))
    t.attempt(Whisper(seat=t.civilians[0], target_seat=a, text="你好"), "whisper_target_not_fellow")
    t.speak_all()
    t.do(Whisper(seat=b, target_seat=a, text="好，投第一个平民"))
    return t


def whisper_off() -> Recorder:
    t = Recorder.started(24, n_players=6, n_undercover=2, last_words=True)
    a, b = t.undercovers
    t.attempt(Whisper(seat=a, target_seat=b, text="我们别互相投"), "whisper_not_enabled")
    return t


CLUES = ("早上来一杯", "有点苦但是提神", "甜甜的，用吸管", "拉花很好看", "提神饮品", "街边小店都有")


def _speak_clues(t: Recorder) -> None:
    while t.state.stage == "speak":
        seat = t.state.current_speaker_seat
        assert seat is not None
        t.do(Speak(seat=seat, text=f"{CLUES[seat]}（第{t.state.round_index}轮）"))


def _pass_rest(t: Recorder) -> None:
    index = t.state.debate_index
    while t.state.stage == "debate" and t.state.debate_index == index:
        t.do(DebatePass(seat=next(s for s in t.state.living_seats() if s not in t.state.debate_done)))


def table_chaos_debate() -> Recorder:
    """Issue 17: the chaos host, two debate rounds (a challenge, a reply, a refused word, a deadline), the recap."""
    t = Recorder.started(25, n_players=6, n_undercover=2, last_words=True, host="chaos", debate_rounds=2,
                         debate_timeout=30)
    first, second = t.undercovers
    _speak_clues(t)
    accuser = t.civilians[0]
    t.do(Debate(seat=accuser, text=f"{first}号，你的描述和大家不在一个方向"))
    t.do(Debate(seat=first, text=f"{accuser}号别急，我说的就是这个东西"))
    word = t.state.players[t.civilians[1]].word
    t.attempt(Debate(seat=t.civilians[1], text=f"我的词是{word}"), "speech_contains_secret_word")
    _pass_rest(t)
    t.do(Debate(seat=second, text="我看大家都挺正常的"))
    t.fire()  # debate round 2 ends at its deadline
    t.vote_out(first)
    t.do(LastWords(seat=first, text="我演得还不够好"))
    _speak_clues(t)
    _pass_rest(t)
    _pass_rest(t)
    t.vote_out(second)
    return t


def table_plain_debate() -> Recorder:
    """Issue 17: the plain host, one debate round a round where nobody debates (deadlines), undercovers win."""
    t = Recorder.started(26, n_players=5, n_undercover=1, host="plain", debate_rounds=1, debate_timeout=20)
    while t.state.status == "in_progress":
        _speak_clues(t)
        t.fire()
        t.vote_out(t.civilians[0])
    return t


SCENARIOS: dict[str, Callable[[], Recorder]] = {
    fn.__name__: fn
    for fn in (civilian_win, undercover_majority, max_rounds, tie_random, revote_pk_random,
               noop_twice_random, speaker_concedes, speak_timeout, vote_timeout, last_words,
               blank_guesses_right, blank_guesses_wrong, whisper_on, whisper_off,
               table_chaos_debate, table_plain_debate)
}
