"""The parts of `apply` and `Game` every game shares: which commands change nothing, the handler lookup,
and the match summary."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from app.games.base import GameError, MatchStatus, MatchSummary, TimerSummary
from app.games.kit.commands import Abort, Timeout

HandlerT = TypeVar("HandlerT")


class Timer(Protocol):
    """The next timer of a match: when it is due and the token a Timeout must carry."""

    @property
    def due(self) -> float: ...

    @property
    def kind(self) -> str: ...

    @property
    def token(self) -> int: ...


class Timed(Protocol):
    """A match state with a status and its next timer."""

    @property
    def status(self) -> MatchStatus: ...

    @property
    def phase(self) -> str: ...

    @property
    def result(self) -> dict[str, Any] | None: ...

    @property
    def timer(self) -> Timer | None: ...


def is_noop(state: Timed, command: object, now: float) -> bool:
    """A stale, early or orphan `Timeout`, or an `Abort` of an aborted match: the same state, no events."""
    if isinstance(command, Abort):
        return state.status == "aborted"
    if isinstance(command, Timeout):
        timer = state.timer
        return timer is None or timer.token != command.token or now < timer.due
    return False


def handler_for(handlers: Mapping[type, HandlerT], command: object) -> HandlerT:
    """The handler registered for the command's type; `bad_request` for anything else."""
    handler = handlers.get(type(command))
    if handler is None:
        raise GameError("bad_request", f"not a command: {type(command).__name__}")
    return handler


def summary(state: Timed) -> MatchSummary:
    """status, phase, result and the next timer (what `Game.summary` returns)."""
    timer = state.timer
    due: TimerSummary | None = None if timer is None else {
        "due": timer.due, "kind": timer.kind, "token": timer.token}
    return {"status": state.status, "phase": state.phase, "result": state.result, "timer": due}


PhaseRule = Callable[[Any, Any], object]


@dataclass(frozen=True)
class Cue:
    """A transition that carries nothing, declared once by name (`DAWN = Cue("dawn")`); `openers` key it by itself
    (a transition with data is a frozen dataclass, keyed by its type)."""

    name: str


def run_phases(step: Any, command: object, handlers: Mapping[type, PhaseRule],
               timers: Mapping[str, Callable[[Any], object]], openers: Mapping[Any, PhaseRule]) -> None:
    """The table-driven loop of a phase machine: the command's handler (a due `Timeout`: its timer kind's) returns
    the transition it calls for; each transition's opener runs and may return the next, until one returns None.
    So no phase module imports another."""
    if isinstance(command, Timeout):
        assert step.state.timer is not None
        nxt = timers[step.state.timer.kind](step)
    else:
        nxt = handler_for(handlers, command)(step, command)
    while nxt is not None:
        nxt = openers[nxt if isinstance(nxt, Cue) else type(nxt)](step, nxt)


@dataclass(frozen=True)
class SeatLeft:
    """A transition: a living seat conceded and the match goes on; the current phase carries on without it."""

    seat: int


def carry_on(by_stage: Mapping[str, Callable[[Any, int], object]]) -> PhaseRule:
    """The opener of `SeatLeft`: the current stage's handler of a seat that left (none: nothing to do)."""
    def opener(step: Any, left: SeatLeft) -> object:
        handler = by_stage.get(step.state.stage)
        return None if handler is None else handler(step, left.seat)
    return opener
