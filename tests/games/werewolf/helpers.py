"""A table to drive the werewolf rules from tests: a clock, the log, and role-aware shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import pytest

from app.games.base import GameError
from app.games.kit.voting import targets_for, voters
from tests.games.werewolf.rules import (
    Command,
    Join,
    LastWords,
    MatchState,
    NightAction,
    NightActionName,
    Shoot,
    Skip,
    Speak,
    Timeout,
    Vote,
    apply,
    new_match,
    parse_config,
)

T0 = 1_700_000_000.0


class Table:
    """One match under test; every command moves the clock one second."""

    def __init__(self, seed: int = 7, **config: Any) -> None:
        self.config = parse_config(config)
        self.now = T0
        outcome = new_match(self.config, "p0", "P0", seed, self.now)
        self.state: MatchState = outcome.state
        self.events: list[dict[str, Any]] = list(outcome.events)

    @classmethod
    def started(cls, seed: int = 7, **config: Any) -> Self:
        """A table with every seat taken, so the deal has happened and night 1 has fallen."""
        table = cls(seed, **config)
        for seat in range(1, table.config.n_players):
            table.do(Join(name=f"p{seat}", display_name=f"P{seat}"))
        return table

    @classmethod
    def where(cls, predicate: Callable[[Self], bool], **config: Any) -> Self:
        """The first started table (seed 0, 1, …) whose deal satisfies `predicate`."""
        return next(t for seed in range(500) if predicate(t := cls.started(seed, **config)))

    def do(self, command: Command, dt: float = 1.0) -> list[dict[str, Any]]:
        """Apply a command that must succeed; return its events."""
        self.now += dt
        outcome = apply(self.state, command, now=self.now)
        self.state = outcome.state
        self.events.extend(outcome.events)
        return outcome.events

    def fail(self, command: Command, code: str) -> GameError:
        """Apply a command that must be refused with `code`, leaving the state as it was."""
        before = self.state.model_dump(mode="json")
        with pytest.raises(GameError) as caught:
            apply(self.state, command, now=self.now + 1)
        assert caught.value.code == code, caught.value.message
        assert self.state.model_dump(mode="json") == before
        return caught.value

    def fire(self) -> list[dict[str, Any]]:
        """Fire the current timer at its due time."""
        timer = self.state.timer
        assert timer is not None
        self.now = max(self.now, timer.due)
        return self.do(Timeout(token=timer.token), dt=0)

    # --- who is who -------------------------------------------------------------------------------------------

    def seats(self, role: str, *, alive: bool = True) -> list[int]:
        return [p.seat for p in self.state.players if p.role == role and (p.alive or not alive)]

    def one(self, role: str) -> int:
        seats = self.seats(role, alive=False)
        assert len(seats) == 1, (role, seats)
        return seats[0]

    @property
    def wolves(self) -> list[int]:
        return self.seats("werewolf")

    @property
    def good(self) -> list[int]:
        return [s for s in self.state.living_seats() if s not in self.wolves]

    def role(self, seat: int) -> str | None:
        return self.state.players[seat].role

    # --- the night --------------------------------------------------------------------------------------------

    def kill(self, target: int | None) -> None:
        """Every living wolf chooses `target` (None: no kill)."""
        for wolf in self.wolves:
            if self.state.stage != "night" or self.state.night.wolves_done:
                break
            action: NightActionName = "pass" if target is None else "kill"
            self.do(NightAction(seat=wolf, action=action, target_seat=target))

    def act(self, role: str, action: NightActionName, target: int | None = None) -> list[dict[str, Any]]:
        """The holder of `role` sends a night action."""
        return self.do(NightAction(seat=self.one(role), action=action, target_seat=target))

    def night(self, kill: int | None, *, check: int | None = None, guard: int | None = None,
              witch: tuple[NightActionName, int | None] | None = ("pass", None)) -> None:
        """One whole night: the guard and the seer act (or pass), the wolves kill, the witch acts."""
        if self.seats("guard"):
            self.act("guard", "pass" if guard is None else "guard", guard)
        if self.seats("seer"):
            self.act("seer", "pass" if check is None else "check", check)
        self.kill(kill)
        if self.state.stage == "night" and self.state.night.step == "witch" and witch is not None:
            self.act("witch", *witch)

    # --- the day ----------------------------------------------------------------------------------------------

    def settle_dead(self) -> None:
        """Dead seats with actions due pass them (hunters pass, last words said)."""
        while self.state.stage in ("hunter", "last_words"):
            seat = self.state.pending[0].seat
            if self.state.stage == "hunter":
                self.do(Shoot(seat=seat, target_seat=None))
            else:
                self.do(LastWords(seat=seat, text=f"{seat}号遗言：我是好人"))

    def speak_all(self, *, skip: bool = False) -> None:
        """Every remaining speaker of this speak phase speaks (or skips)."""
        while self.state.stage == "speak":
            seat = self.state.current_speaker_seat
            assert seat is not None
            self.do(Skip(seat=seat) if skip else Speak(seat=seat, text=f"{seat}号：我是好人"))

    def vote_out(self, target: int) -> None:
        """Every voter votes for `target` (the target itself for someone else)."""
        for voter in voters(self.state):
            if self.state.stage != "vote" or voter in self.state.votes:
                continue
            choice = target if voter != target else targets_for(self.state, voter)[0]
            self.do(Vote(seat=voter, target_seat=choice))

    def day(self, target: int | None) -> None:
        """The dead act, everyone speaks, then `target` is voted out (None: everyone abstains by timeout)."""
        self.settle_dead()
        self.speak_all()
        if target is None:
            self.fire()
        else:
            self.vote_out(target)
        self.settle_dead()

    # --- the log ----------------------------------------------------------------------------------------------

    def types(self, events: list[dict[str, Any]] | None = None) -> list[str]:
        return [e["type"] for e in (self.events if events is None else events)]

    def last(self, type_: str) -> dict[str, Any]:
        return next(e for e in reversed(self.events) if e["type"] == type_)

    def all_of(self, type_: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == type_]
