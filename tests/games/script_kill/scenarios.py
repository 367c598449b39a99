"""Scripted games for the golden transcripts (tests/games/script_kill/golden/<name>.json).

A script drives a `Recorder` (a table on the `tiny` script that logs every command with its time, and every refused
command with its error code), naming seats by character, so each reads as the game it plays. The transcript holds
the seed, the config, the commands, the full event log and the result, so it replays from the file alone.

Regenerate: `WODI_REGEN_GOLDEN=1 .venv/bin/pytest tests/contract/test_golden.py -k script_kill`, then review the diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.games.base import GameError
from app.games.kit import Act, Command

from .helpers import GAME

GOLDEN = Path(__file__).parent / "golden"
FIELDS = ("text", "clue", "item", "location", "power", "target", "to")
T0 = 1_700_000_000.0
CULPRIT = "c4"


class Recorder:
    """A full table of six (compressed timing, `tiny` script) that keeps a transcript of what was sent to it."""

    def __init__(self, seed: int = 7, **config: Any) -> None:
        self.seed, self.now = seed, T0
        self.raw_config = {"timing": "compressed", "script": "tiny", **config}
        out = GAME.new_match(GAME.parse_config(self.raw_config), "p0", "P0", seed=seed, now=T0)
        self.state, self.events = out.state, list(out.events)
        self.log: list[dict[str, Any]] = []
        for n in range(1, 6):
            self.do(GAME.join(f"p{n}", f"P{n}"))

    def do(self, command: Command, dt: float = 1.0) -> list[dict[str, Any]]:
        self.now += dt
        out = GAME.apply(self.state, command, now=self.now)
        self.state = out.state
        self.events += out.events
        self.log.append({"at": self.now, "command": encode(command)})
        return out.events

    def act(self, seat: int, **body: Any) -> list[dict[str, Any]]:
        return self.do(GAME.parse_action(body, seat))

    def attempt(self, seat: int, code: str, **body: Any) -> None:
        """Send an action the rules must refuse with `code`, and log the refusal."""
        self.now += 1
        command = GAME.parse_action(body, seat)
        try:
            GAME.apply(self.state, command, now=self.now)
        except GameError as error:
            assert error.code == code, error.message
            self.log.append({"at": self.now, "command": encode(command), "error": error.code})
            return
        raise AssertionError(f"{command!r} was accepted; expected {code}")

    def expire(self) -> None:
        """The stage's clock runs out."""
        timer = self.state.timer
        assert timer is not None
        self.now = max(self.now, timer.due)
        self.do(GAME.timeout(timer.token), dt=0)

    def seat(self, character: str) -> int:
        return self.state.seat_of(character)

    @property
    def culprit(self) -> int:
        return self.seat(CULPRIT)

    def innocents(self) -> list[int]:
        return [p.seat for p in self.state.players if p.character != CULPRIT]

    def all_ready(self) -> None:
        """Every seat still at the table says ready (the stage ends early)."""
        phase = self.state.phase
        for player in self.state.seated():
            if self.state.phase != phase:
                return
            if not player.ready:
                self.act(player.seat, type="ready")

    def introduce(self) -> None:
        """self_intro: each seat at the table speaks once, in seat order."""
        while self.state.phase == "self_intro" and self.state.speaker is not None:
            seat = self.state.speaker
            self.act(seat, type="speak", text=f"我是 {seat} 号位的角色。")

    def to(self, phase: str) -> None:
        """Ready through the stages until `phase` opens."""
        while self.state.phase != phase:
            if self.state.phase == "self_intro":
                self.introduce()
            else:
                self.all_ready()

    def vote(self, ballots: dict[int, int]) -> None:
        for seat, target in ballots.items():
            self.act(seat, type="vote", target=target)

    def transcript(self, name: str) -> dict[str, Any]:
        return {"name": name, "seed": self.seed, "config": self.raw_config, "commands": self.log,
                "events": self.events, "result": self.state.result}


def encode(command: Command) -> dict[str, Any]:
    """A command as the transcripts spell it: an action is `{"type": "act", "seat", "action", <every field>}`."""
    if not isinstance(command, Act):
        return command.model_dump()
    body = command.request.model_dump(exclude={"expected_seq"})
    return {"type": "act", "seat": command.seat, "action": body.pop("type"), **dict.fromkeys(FIELDS), **body}


def decode(data: dict[str, Any]) -> Command:
    if data["type"] != "act":
        return GAME.command_from_json(data)
    body = {k: v for k, v in data.items() if k not in ("type", "seat", "action") and v is not None}
    return GAME.parse_action({"type": data["action"], **body}, data["seat"])


def replay(transcript: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a transcript's commands from its seed and config alone; return the event log."""
    out = GAME.new_match(GAME.parse_config(transcript["config"]), "p0", "P0", seed=transcript["seed"], now=T0)
    state, events = out.state, list(out.events)
    for entry in transcript["commands"]:
        try:
            command = decode(entry["command"])
            out = GAME.apply(state, command, now=entry["at"])
        except GameError as error:
            assert error.code == entry.get("error"), error.message
            continue
        assert "error" not in entry
        state = out.state
        events.extend(out.events)
    return events


def dumps(transcript: dict[str, Any]) -> str:
    return json.dumps(transcript, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def against(t: Recorder, target: int) -> dict[int, int]:
    """Every seat votes `target`; `target` itself votes the first other seat."""
    other = next(s for s in range(6) if s != target)
    return {s: (other if s == target else target) for s in range(6)}


def perfect() -> Recorder:
    """The players find every key clue (study, cellar, attic) and vote the culprit out."""
    t = Recorder()
    t.to("explore_r1")
    finder = t.innocents()[0]
    t.act(finder, type="investigate", location="study")
    t.act(finder, type="investigate", location="study")
    t.to("explore_r2")
    t.act(finder, type="investigate", location="cellar")
    t.act(finder, type="investigate", location="cellar")
    t.act(t.innocents()[1], type="investigate", location="attic")
    t.to("final_vote")
    t.vote(against(t, t.culprit))
    t.expire()
    return t


def normal() -> Recorder:
    """Nobody searches: the DM publishes the key clues, which do not count; the culprit is voted out all the same."""
    t = Recorder(seed=11)
    t.to("discuss_r1")
    t.act(t.culprit, type="speak", text="我整晚都在书房，什么也没听见。")
    t.to("final_vote")
    t.vote(against(t, t.culprit))
    t.expire()
    return t


def failure() -> Recorder:
    """The table names an innocent seat (one seat abstains); the culprit escapes."""
    t = Recorder(seed=3)
    t.to("explore_r1")
    t.attempt(t.culprit, "unknown_location", type="investigate", location="cellar")
    t.act(t.culprit, type="investigate", location="garden")
    t.to("final_vote")
    t.attempt(t.culprit, "invalid_target", type="vote", target=t.culprit)
    ballots = against(t, t.innocents()[0])
    abstainer = t.innocents()[1]
    t.vote({s: v for s, v in ballots.items() if s != abstainer})
    t.attempt(t.culprit, "already_voted", type="vote", target=t.innocents()[1])
    t.expire()  # the abstainer's vote is drawn at random
    t.expire()
    return t


def tie_then_random() -> Recorder:
    """A 3–3 tie opens a second vote among the two; it ties again: a random pick among them."""
    t = Recorder(seed=5)
    t.to("final_vote")
    a, b = t.culprit, t.innocents()[0]
    first = {s: (b if s in (a, *t.innocents()[1:3]) else a) for s in range(6)}
    t.vote(first)
    assert t.state.vote_round == 2
    t.vote(first)
    t.expire()
    return t


def takeover() -> Recorder:
    """A seat is taken over by the official bot mid-game (once: the second mark changes nothing); a seat leaves
    during self_intro on its turn and the floor passes; the clock ends every stage."""
    t = Recorder(seed=9)
    t.to("self_intro")
    t.act(0, type="speak", text="大家好。")
    t.attempt(2, "not_your_turn", type="speak", text="我先说。")
    t.do(GAME.concede(1))
    t.do(GAME.take_over(3))
    t.do(GAME.take_over(3))
    while t.state.status == "in_progress":
        t.expire()
    return t


def everyone_left() -> Recorder:
    """Every seat leaves during the first discussion: the match ends with nobody winning."""
    t = Recorder(seed=13)
    t.to("discuss_r1")
    for seat in range(6):
        t.do(GAME.concede(seat))
    return t


def aborted() -> Recorder:
    """The janitor cancels a running match."""
    t = Recorder()
    t.to("self_intro")
    t.do(GAME.abort("janitor_timeout"))
    return t


SCENARIOS: dict[str, Callable[[], Recorder]] = {
    f.__name__: f for f in (perfect, normal, failure, tie_then_random, takeover, everyone_left, aborted)
}
