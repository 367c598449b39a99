"""A table to drive the rules from tests: a clock, the log, and role-aware shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import pytest

from app.games.base import GameError
from tests.games.undercover.rules import (
    Command,
    Join,
    MatchState,
    Skip,
    Speak,
    Timeout,
    Vote,
    apply,
    new_match,
    parse_config,
)

PAIRS = [("咖啡", "奶茶")]
T0 = 1_700_000_000.0


class Table:
    """One match under test; every command moves the clock one second."""

    def __init__(self, seed: int = 7, pairs: list[tuple[str, str]] | None = None, **config: Any) -> None:
        self.config = parse_config(config)
        self.pairs = PAIRS if pairs is None else pairs
        self.now = T0
        outcome = new_match(self.config, "p0", "P0", seed, self.now)
        self.state: MatchState = outcome.state
        self.events: list[dict[str, Any]] = list(outcome.events)

    @classmethod
    def where(cls, predicate: Callable[[Self], bool], **config: Any) -> Self:
        """The first started table (seed 0, 1, …) whose deal satisfies `predicate`."""
        return next(t for seed in range(200) if predicate(t := cls.started(seed, **config)))

    @classmethod
    def started(cls, seed: int = 7, **config: Any) -> Self:
        """A table with every seat taken, so the deal has happened."""
        table = cls(seed, **config)
        for seat in range(1, table.config.n_players):
            table.do(Join(name=f"p{seat}", display_name=f"P{seat}"))
        return table

    def do(self, command: Command, dt: float = 1.0) -> list[dict[str, Any]]:
        """Apply a command that must succeed; return its events."""
        self.now += dt
        outcome = apply(self.state, command, now=self.now, pairs=self.pairs)
        self.state = outcome.state
        self.events.extend(outcome.events)
        return outcome.events

    def fail(self, command: Command, code: str) -> GameError:
        """Apply a command that must be refused with `code`, leaving the state as it was."""
        before = self.state.model_dump(mode="json")
        with pytest.raises(GameError) as caught:
            apply(self.state, command, now=self.now + 1, pairs=self.pairs)
        assert caught.value.code == code, caught.value.message
        assert self.state.model_dump(mode="json") == before
        return caught.value

    def fire(self) -> list[dict[str, Any]]:
        """Fire the current timer at its due time."""
        timer = self.state.timer
        assert timer is not None
        self.now = max(self.now, timer.due)
        return self.do(Timeout(token=timer.token), dt=0)

    def role(self, seat: int) -> str | None:
        return self.state.players[seat].role

    def seats(self, role: str, *, alive: bool = True) -> list[int]:
        return [p.seat for p in self.state.players if p.role == role and (p.alive or not alive)]

    @property
    def undercovers(self) -> list[int]:
        return self.seats("undercover")

    @property
    def civilians(self) -> list[int]:
        return self.seats("civilian")

    @property
    def blanks(self) -> list[int]:
        return self.seats("blank")

    def speak_all(self, *, skip: bool = False) -> None:
        """Every remaining speaker of this speak phase speaks (or skips)."""
        while self.state.stage == "speak":
            seat = self.state.current_speaker_seat
            assert seat is not None
            self.do(Skip(seat=seat) if skip else Speak(seat=seat, text=f"{seat}号：很常见的东西"))

    def vote_out(self, target: int, *, except_voters: tuple[int, ...] = ()) -> None:
        """Every voter votes for `target` (the target itself for someone else)."""
        from app.games.kit.voting import targets_for, voters

        for voter in voters(self.state):
            if voter in except_voters or voter in self.state.votes or self.state.stage != "vote":
                continue
            choice = target if voter != target else next(s for s in targets_for(self.state, voter))
            self.do(Vote(seat=voter, target_seat=choice))

    def play_round(self, target: int) -> None:
        """Everyone speaks, then votes `target` out."""
        self.speak_all()
        self.vote_out(target)

    def types(self, events: list[dict[str, Any]] | None = None) -> list[str]:
        return [e["type"] for e in (self.events if events is None else events)]

    def last(self, type_: str) -> dict[str, Any]:
        return next(e for e in reversed(self.events) if e["type"] == type_)

    def all_of(self, type_: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == type_]


def tie(table: Table, a: int, b: int) -> None:
    """Every living seat votes so that `a` and `b` tie (an odd one out votes a third seat)."""
    living = table.state.living_seats()
    others = [s for s in living if s not in (a, b)]
    plan = {a: b, b: a}
    for i, voter in enumerate(others[: 2 * (len(others) // 2)]):
        plan[voter] = a if i % 2 == 0 else b
    if len(others) % 2:
        plan[others[-1]] = others[0]
    for voter in living:
        table.do(Vote(seat=voter, target_seat=plan[voter]))
