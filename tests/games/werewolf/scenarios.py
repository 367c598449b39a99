"""Scripted games for the golden transcripts (tests/games/werewolf/golden/<name>.json).

A script drives a `Recorder` (a Table that logs every command with its time, and every refused command with
its error code), naming seats by role, so each reads as the game it plays. The transcript holds the seed,
the config, the commands, the full event log and the result, so it replays from the file alone.

Regenerate: `WODI_REGEN_GOLDEN=1 .venv/bin/pytest tests/contract/test_golden.py -k werewolf`, then review the diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.games.base import GameError
from tests.games.werewolf.rules import (
    COMMANDS,
    Abort,
    Command,
    Concede,
    NightAction,
    Shoot,
    Vote,
    Whisper,
    apply,
    new_match,
    parse_config,
)

from .helpers import T0, Table

GOLDEN = Path(__file__).parent / "golden"


class Recorder(Table):
    """A table that keeps a transcript of what was sent to it."""

    def __init__(self, seed: int = 7, **config: Any) -> None:
        self.log: list[dict[str, Any]] = []
        self.seed = seed
        self.raw_config = config
        super().__init__(seed, **config)

    def do(self, command: Command, dt: float = 1.0) -> list[dict[str, Any]]:
        events = super().do(command, dt)
        self.log.append({"at": self.now, "command": COMMANDS.encode(command)})
        return events

    def attempt(self, command: Command, code: str) -> None:
        """Send a command the rules must refuse with `code`, and log the refusal."""
        self.now += 1
        try:
            apply(self.state, command, now=self.now)
        except GameError as error:
            assert error.code == code, error.message
            self.log.append({"at": self.now, "command": COMMANDS.encode(command), "error": error.code})
            return
        raise AssertionError(f"{command!r} was accepted; expected {code}")

    def transcript(self, name: str) -> dict[str, Any]:
        return {"name": name, "seed": self.seed, "config": self.raw_config, "commands": self.log,
                "events": self.events, "result": self.state.result}


def replay(transcript: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a transcript's commands from its seed and config alone; return the event log."""
    outcome = new_match(parse_config(transcript["config"]), "p0", "P0", transcript["seed"], T0)
    state, events = outcome.state, list(outcome.events)
    for entry in transcript["commands"]:
        command = COMMANDS.decode(entry["command"])
        try:
            outcome = apply(state, command, now=entry["at"])
        except GameError as error:
            assert error.code == entry.get("error"), error.message
            continue
        assert "error" not in entry
        state = outcome.state
        events.extend(outcome.events)
    return events


def dumps(transcript: dict[str, Any]) -> str:
    return json.dumps(transcript, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def started(seed: int = 7, **config: Any) -> Recorder:
    return Recorder.started(seed, **config)


def village_win() -> Recorder:
    """The seer finds a wolf, the village votes both wolves out."""
    t = started()
    a, b = t.wolves
    t.night(t.seats("villager")[0], check=a)
    t.day(a)
    t.night(None, check=b)
    t.day(b)
    return t


def wolf_win_side() -> Recorder:
    """屠边: both villagers die (night, then a mistaken vote) while the gods live."""
    t = started()
    v1, v2 = t.seats("villager")
    t.night(v1)
    t.day(v2)
    return t


def wolf_win_all() -> Recorder:
    """屠城: the wolves need every good seat; the villagers going is not enough."""
    t = started(win_rule="all")
    v1, v2 = t.seats("villager")
    t.night(v1)
    t.day(v2)
    t.night(t.one("seer"), witch=("pass", None))
    t.day(t.one("witch"))
    return t


def witch_save() -> Recorder:
    """The witch learns the victim and saves it: a peaceful night."""
    t = started()
    t.night(t.seats("villager")[0], witch=("save", None))
    t.day(None)
    return t


def witch_poison() -> Recorder:
    """The witch poisons a wolf the night the wolves kill a villager; both die at dawn."""
    t = started()
    t.night(t.seats("villager")[0], witch=("poison", t.wolves[1]))
    t.day(t.wolves[0])
    return t


def hunter_shot() -> Recorder:
    """9 seats: the wolves kill the hunter on night 1; he shoots a wolf; both say last words."""
    t = started(n_players=9)
    hunter = t.one("hunter")
    t.night(hunter)
    t.attempt(Shoot(seat=t.good[0], target_seat=t.wolves[0]), "not_your_shot")
    t.do(Shoot(seat=hunter, target_seat=t.wolves[0]))
    t.settle_dead()
    t.speak_all()
    return t


def hunter_poisoned() -> Recorder:
    """9 seats: the witch poisons the hunter; he gets no shot."""
    t = started(n_players=9)
    t.night(None, witch=("poison", t.one("hunter")))
    t.settle_dead()
    return t


def guard_block() -> Recorder:
    """12 seats: the guard protects the wolves' victim; then he may not repeat it; 同守同救 kills."""
    t = started(n_players=12)
    victim = t.seats("villager")[0]
    t.night(victim, guard=victim)
    t.day(None)
    t.attempt(NightAction(seat=t.one("guard"), action="guard", target_seat=victim), "guard_same_target")
    t.night(victim, guard=t.one("seer"), witch=("pass", None))
    t.day(None)
    other = t.seats("villager")[0]
    t.night(other, guard=other, witch=("save", None))
    return t


def seer_check() -> Recorder:
    """The seer checks a wolf, then a good seat; a second check the same night is refused."""
    t = started()
    seer = t.one("seer")
    t.act("seer", "check", t.wolves[0])
    t.attempt(NightAction(seat=seer, action="check", target_seat=t.good[0]), "night_action_done")
    t.kill(None)
    t.act("witch", "pass")
    t.day(None)
    t.act("seer", "check", next(s for s in t.good if s != seer))
    return t


def night_timeout() -> Recorder:
    """Nobody acts at night: no kill, the silent seer and witch do nothing."""
    t = started()
    t.fire()
    t.fire()
    return t


def wolves_disagree() -> Recorder:
    """The two wolves pick different seats and never agree: the deadline takes the lower seat."""
    t = started()
    a, b = t.wolves
    low, high = sorted(t.seats("villager"))
    t.do(NightAction(seat=a, action="kill", target_seat=high))
    t.do(NightAction(seat=b, action="kill", target_seat=low))
    t.act("seer", "pass")
    t.fire()
    t.act("witch", "pass")
    return t


def day_timeouts() -> Recorder:
    """Speeches time out; the vote ties and the PK follows (revote); the PK vote times out with one vote."""
    t = started()
    t.night(None)
    while t.state.stage == "speak":
        t.fire()
    living = t.state.living_seats()
    a, b = living[0], living[1]
    for voter in living:
        t.do(Vote(seat=voter, target_seat=b if voter in (a, *living[2::2]) else a))
    while t.state.stage == "speak":
        t.fire()
    t.do(Vote(seat=living[2], target_seat=a))
    t.fire()
    return t


def revote() -> Recorder:
    """A tie goes to a PK; the tied seats speak again and the others vote one out."""
    t = started(tie_break="revote")
    t.night(None)
    t.speak_all()
    living = t.state.living_seats()
    a, b = living[0], living[1]
    for voter in living:
        t.do(Vote(seat=voter, target_seat=b if voter in (a, *living[2::2]) else a))
    t.speak_all()
    t.attempt(Vote(seat=a, target_seat=b), "wrong_phase")
    t.vote_out(a)
    return t


def whispers() -> Recorder:
    """Wolves talk at night; a villager's whisper is refused; by day nobody whispers."""
    t = started()
    a, b = t.wolves
    t.do(Whisper(seat=a, target_seat=b, text="刀平民"))
    t.attempt(Whisper(seat=t.seats("villager")[0], target_seat=a, text="我也想听"), "whisper_target_not_fellow")
    t.night(t.seats("villager")[0])
    t.attempt(Whisper(seat=a, target_seat=b, text="白天"), "wrong_phase")
    return t


def twelve_players() -> Recorder:
    """A whole 12-seat game with the guard: the village reads the seer and wins."""
    t = started(n_players=12)
    wolves = list(t.wolves)
    villagers = t.seats("villager")
    t.night(villagers[0], check=wolves[0], guard=villagers[0])
    t.day(wolves[0])
    t.night(villagers[1], check=wolves[1], guard=t.one("seer"), witch=("save", None))
    t.day(wolves[1])
    t.night(villagers[2], check=wolves[2], guard=villagers[3], witch=("poison", wolves[3]))
    t.day(wolves[2])
    return t


def nine_players() -> Recorder:
    """A whole 9-seat game: the hunter, voted out, shoots a wolf; the wolves then win 屠边 by the gods."""
    t = started(n_players=9)
    hunter = t.one("hunter")
    t.night(t.one("seer"))
    t.settle_dead()
    t.speak_all()
    t.vote_out(hunter)
    t.do(Shoot(seat=hunter, target_seat=t.wolves[0]))
    t.settle_dead()
    t.night(t.one("witch"), witch=("pass", None))
    return t


def last_wolf_concedes() -> Recorder:
    """One wolf is voted out; the other concedes the next day: the village wins."""
    t = started()
    a, b = t.wolves
    t.night(None)
    t.day(a)
    t.night(None)
    t.do(Concede(seat=b))
    return t


def concede_at_night() -> Recorder:
    """A wolf concedes at night after choosing: its choice goes, the other wolf decides alone."""
    t = started()
    a, b = t.wolves
    t.do(NightAction(seat=a, action="kill", target_seat=t.seats("villager")[0]))
    t.do(Concede(seat=a))
    t.do(NightAction(seat=b, action="kill", target_seat=t.seats("villager")[1]))
    t.act("seer", "pass")
    t.act("witch", "pass")
    t.settle_dead()
    return t


def aborted() -> Recorder:
    """The host cancels a half-full room."""
    t = Recorder(n_players=9)
    t.do(Abort(reason="host_cancelled"))
    return t


SCENARIOS: dict[str, Callable[[], Recorder]] = {
    fn.__name__: fn for fn in (
        village_win, wolf_win_side, wolf_win_all, witch_save, witch_poison, hunter_shot, hunter_poisoned,
        guard_block, seer_check, night_timeout, wolves_disagree, day_timeouts, revote, whispers, twelve_players,
        nine_players, last_wolf_concedes, concede_at_night, aborted,
    )
}
