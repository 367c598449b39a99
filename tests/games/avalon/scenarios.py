"""Scripted Avalon games for the golden transcripts (tests/games/avalon/golden/<name>.json).

A script drives a `Recorder` (a full table that logs every command with its time, and every refused command with
its error code), naming seats by role, so each reads as the game it plays. The transcript holds the seed, the
config, the commands, the full event log and the result, so it replays from the file alone.

Regenerate: `WODI_REGEN_GOLDEN=1 pytest tests/contract/test_golden.py -k avalon`, then review the diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.games.avalon.game import GAME
from app.games.base import GameError
from app.games.kit import Act, Command

GOLDEN = Path(__file__).parent / "golden"
T0 = 1_700_000_000.0


class Recorder:
    def __init__(self, n: int = 5, seed: int = 3, **config: Any) -> None:
        self.seed, self.now = seed, T0
        self.raw_config = {"n_players": n, **config}
        out = GAME.new_match(GAME.parse_config(self.raw_config), "p0", "P0", seed=seed, now=T0)
        self.state, self.events = out.state, list(out.events)
        self.log: list[dict[str, Any]] = []
        for k in range(1, n):
            self.do(GAME.join(f"p{k}", f"P{k}"))

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
            assert error.code == code, (error.code, error.message)
            self.log.append({"at": self.now, "command": encode(command), "error": error.code})
            return
        raise AssertionError(f"{command!r} was accepted; expected {code}")

    def expire(self) -> None:
        timer = self.state.timer
        assert timer is not None
        self.now = max(self.now, timer.due)
        self.do(GAME.timeout(timer.token), dt=0)

    # --- reading the table by role --------------------------------------------------------------------------

    def seat(self, role: str) -> int:
        return self.state.seats_of(role)[0]

    def good(self) -> list[int]:
        return [p.seat for p in self.state.players if not self.state.evil(p.seat)]

    def evil(self) -> list[int]:
        return [p.seat for p in self.state.players if self.state.evil(p.seat)]

    @property
    def leader(self) -> int:
        return self.state.leader

    @property
    def size(self) -> int:
        return self.state.team_size

    # --- one round ------------------------------------------------------------------------------------------

    def propose(self, team: list[int], text: str | None = "我带这队。") -> None:
        self.act(self.leader, type="propose", team=team, **({"text": text} if text else {}))

    def discuss(self) -> None:
        while self.state.phase == "discuss":
            seat = self.state.speaker
            assert seat is not None
            if seat % 2:
                self.act(seat, type="skip")
            else:
                self.act(seat, type="speak", text=f"{seat} 号：我看这队还行。")

    def vote(self, approve: bool | dict[int, str]) -> None:
        n = len(self.state.players)
        choices = approve if isinstance(approve, dict) else {s: "approve" if approve else "reject" for s in range(n)}
        for seat in range(n):
            self.act(seat, type="vote", choice=choices[seat])

    def play(self, fails: set[int] | None = None) -> None:
        for seat in list(self.state.team):
            self.act(seat, type="quest", card="fail" if seat in (fails or set()) else "success")

    def good_team(self) -> list[int]:
        """The leader if good, then good seats, enough for this quest."""
        goods = self.good()
        first = [self.leader] if self.leader in goods else []
        return sorted(first + [s for s in goods if s not in first][:self.size - len(first)])

    def dirty_team(self, evil: int = 1) -> list[int]:
        """`evil` evil seats and good seats."""
        return sorted(self.evil()[:evil] + self.good()[:self.size - evil])

    def round(self, team: list[int], fails: set[int] | None = None) -> None:
        self.propose(team)
        self.discuss()
        self.vote(True)
        self.play(fails)

    def transcript(self, name: str) -> dict[str, Any]:
        return {"name": name, "seed": self.seed, "config": self.raw_config, "commands": self.log,
                "events": self.events, "result": self.state.result}


def encode(command: Command) -> dict[str, Any]:
    if not isinstance(command, Act):
        return command.model_dump()
    body = command.request.model_dump(exclude={"expected_seq"}, exclude_none=True)
    return {"type": "act", "seat": command.seat, "request": body}


def replay(transcript: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a transcript's commands from its seed and config alone; return the event log."""
    out = GAME.new_match(GAME.parse_config(transcript["config"]), "p0", "P0", seed=transcript["seed"], now=T0)
    state, events = out.state, list(out.events)
    for entry in transcript["commands"]:
        try:
            out = GAME.apply(state, GAME.command_from_json(entry["command"]), now=entry["at"])
        except GameError as error:
            assert error.code == entry.get("error"), error.message
            continue
        assert "error" not in entry
        state = out.state
        events.extend(out.events)
    return events


def dumps(transcript: dict[str, Any]) -> str:
    return json.dumps(transcript, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


# ---------------------------------------------------------------- the scenarios


def good_wins_merlin_survives() -> Recorder:
    """5 seats: three clean quests; a refused wrong-size, duplicate and non-leader proposal; the assassin (after
    the evil seats confer) names a loyal seat and misses Merlin."""
    t = Recorder(5, seed=3)
    other = next(s for s in range(5) if s != t.leader)
    t.attempt(other, "not_the_leader", type="propose", team=[0, 1])
    t.attempt(t.leader, "wrong_team_size", type="propose", team=[0, 1, 2])
    t.attempt(t.leader, "duplicate_team_member", type="propose", team=[1, 1])
    t.attempt(t.leader, "wrong_phase", type="vote", choice="approve")
    t.round(t.good_team())
    t.round(t.good_team())
    t.round(t.good_team())
    assassin, ally = t.seat("assassin"), t.seat("morgana")
    t.attempt(t.seat("merlin"), "evil_only", type="confer", text="我是好人。")
    t.act(ally, type="confer", text="我猜梅林是最会投反对票的那位。")
    t.attempt(ally, "not_the_assassin", type="assassinate", target_seat=t.seat("merlin"))
    t.attempt(assassin, "target_is_ally", type="assassinate", target_seat=ally)
    t.act(assassin, type="assassinate", target_seat=t.seat("percival"))
    return t


def evil_wins_by_assassination() -> Recorder:
    """5 seats: a failed quest among three successes; the assassin names Merlin."""
    t = Recorder(5, seed=11)
    t.round(t.good_team())
    evil = t.evil()[0]
    team = t.dirty_team()
    t.propose(team)
    t.discuss()
    t.vote(True)
    t.attempt(next(s for s in t.good() if s in team), "good_cannot_fail", type="quest", card="fail")
    t.attempt(next(s for s in range(5) if s not in team), "not_on_the_team", type="quest", card="success")
    t.play({evil})
    t.round(t.good_team())
    t.round(t.good_team())
    t.act(t.seat("assassin"), type="assassinate", target_seat=t.seat("merlin"))
    return t


def evil_wins_three_fails() -> Recorder:
    """5 seats: three teams carrying an evil seat fail; a second card from the same seat is refused."""
    t = Recorder(5, seed=5)
    for _ in range(3):
        team = t.dirty_team()
        t.propose(team, text=None)
        t.discuss()
        t.vote(True)
        evil = next(s for s in team if s in t.evil())
        t.act(evil, type="quest", card="fail")
        t.attempt(evil, "card_already_played", type="quest", card="fail")
        for seat in team:
            if seat != evil:
                t.act(seat, type="quest", card="success")
    return t


def five_rejections() -> Recorder:
    """5 seats: five teams in a row rejected (a split vote, a repeated vote refused, a speaker out of turn refused,
    one proposal left to the clock) — evil wins."""
    t = Recorder(5, seed=8)
    for k in range(5):
        if k == 2:
            t.expire()  # the leader's clock runs out: the team is the leader and the seats after it
        else:
            t.propose(t.good_team())
        if k == 0:
            speaker = t.state.speaker
            t.attempt(next(s for s in range(5) if s != speaker), "not_your_turn_to_speak", type="speak", text="我先说")
        t.discuss()
        if k == 1:
            t.act(0, type="vote", choice="approve")
            t.attempt(0, "already_voted", type="vote", choice="reject")
            for seat in range(1, 5):
                t.act(seat, type="vote", choice="reject" if seat < 4 else "approve")
        else:
            t.vote(False)
    return t


def two_fail_fourth_quest() -> Recorder:
    """7 seats: quest 4 needs two fails — one fail card leaves it a success; good wins when the assassin misses."""
    t = Recorder(7, seed=21)
    t.round(t.good_team())
    team = t.dirty_team()
    t.round(team, {next(s for s in team if s in t.evil())})
    t.round(t.good_team())
    team = t.dirty_team()
    t.round(team, {next(s for s in team if s in t.evil())})
    assassin = t.seat("assassin")
    t.act(assassin, type="assassinate", target_seat=next(s for s in t.good() if s != t.seat("merlin")))
    return t


def lady_of_the_lake() -> Recorder:
    """7 seats with the Lady: after quest 2 the holder examines a seat (a non-holder and the holder itself
    refused); after quest 3 a seat that held the Lady is refused and the Lady's clock runs out; quest 4 fails on
    two fail cards, the third failed quest."""
    t = Recorder(7, seed=4, lady_of_the_lake=True)
    holder = t.state.lady
    assert holder is not None
    team = t.dirty_team()
    t.round(team, {next(s for s in team if s in t.evil())})
    t.round(t.good_team())
    assert t.state.phase == "lady"
    t.attempt(next(s for s in range(7) if s != holder), "not_the_lady", type="lady", target_seat=0)
    t.attempt(holder, "invalid_target", type="lady", target_seat=holder)
    target = next(s for s in range(7) if s != holder)
    t.act(holder, type="lady", target_seat=target)
    t.attempt(target, "wrong_phase", type="lady", target_seat=holder)
    team = t.dirty_team()
    t.round(team, {next(s for s in team if s in t.evil())})
    t.attempt(target, "lady_already_held", type="lady", target_seat=holder)
    t.expire()
    team = t.dirty_team(evil=2)
    t.round(team, set(team) & set(t.evil()))
    return t


SCENARIOS: dict[str, Callable[[], Recorder]] = {
    "good_wins_merlin_survives": good_wins_merlin_survives,
    "evil_wins_by_assassination": evil_wins_by_assassination,
    "evil_wins_three_fails": evil_wins_three_fails,
    "five_rejections": five_rejections,
    "two_fail_fourth_quest": two_fail_fourth_quest,
    "lady_of_the_lake": lady_of_the_lake,
}
