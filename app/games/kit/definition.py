"""A game is one definition: what it declares, and everything the kit derives from it has a default.

Required: the name, the config/state/snapshot models, the actions (request model → handler), the deal, the timers,
the views a seat needs (`you`, `allowed`) and the sides. Everything else is optional with the kit's default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from app.games.base import ErrorSpec, Event
from app.games.kit.state import KitSeat, KitState
from app.games.kit.step import Step

StateT = TypeVar("StateT", bound=KitState[Any, Any])
StepT = TypeVar("StepT", bound=Step[Any])


@dataclass(frozen=True)
class Action(Generic[StepT]):
    """One action type: its request model (`type: Literal[...]`, documented fields) and its rule `(step, the acting
    seat, the request)`, which raises `GameError` to refuse."""

    model: type[BaseModel]
    rule: Callable[[StepT, Any, Any], None]


def _no_fields(state: Any) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class GameDef(Generic[StateT, StepT]):
    name: str
    config: type[BaseModel]
    state: type[StateT]
    snapshot: type[BaseModel]
    step: type[StepT]
    """The kit's `Step`, or the game's subclass of it (e.g. fields every event carries)."""
    actions: Mapping[str, Action[StepT]]
    deal: Callable[[StepT], None]
    """The table is full: deal the roles, start the match (status `in_progress`, its phase and clock)."""
    timers: Mapping[str, Callable[[StepT], None]]
    """Timer kind → what happens when it fires (a stale or early timer never reaches it)."""
    you: Callable[[StateT, int], dict[str, Any]]
    """A seat's own block besides `seat`, `alive` and `allowed_actions`: `your_turn`, `next_action`, its secrets."""
    allowed: Callable[[StateT, int], list[dict[str, Any]]]
    """`Game.allowed_actions` for a seat of a running match that is still in the game."""
    sides: tuple[str, ...]
    public: Callable[[StateT], dict[str, Any]] = _no_fields
    god: Callable[[StateT], dict[str, Any]] = _no_fields
    row: Callable[[StateT, Any, bool], dict[str, Any]] | None = None
    """A seat's row besides seat, name, display_name, alive (default: its role in god views)."""
    side_of: Callable[[StateT, Any], str] | None = None
    """A dealt seat's side (default: its role)."""
    role_set: Callable[[StateT, int], frozenset[str]] | None = None
    """Default: the seat's role."""
    guard: Callable[[StateT, Any, str], None] | None = None
    """Checked before every action of an existing seat (default: the match runs, the seat has not left)."""
    concede: Callable[[StepT, Any], None] | None = None
    """After a seat left (`conceded` set, `player_conceded` emitted): what the rules do then."""
    after: Callable[[StepT], None] | None = None
    """After every command that left the match running (e.g. a phase that every seat has finished ends)."""
    response: Callable[[StateT, int | None, list[Event]], dict[str, Any]] | None = None
    """The action answer's fields besides `match_status` and `result`."""
    seat_figures: Callable[[StateT, int, Sequence[Mapping[str, Any]]], dict[str, float]] | None = None
    """What a benchmark report measures of one seat's play (`registry.SeatFigures`); None: the game declares none
    (the built game then has no `seat_figures` member)."""
    errors: Mapping[str, ErrorSpec] = field(default_factory=lambda: MappingProxyType({}))
    secret_fields: tuple[str, ...] = ()
    profile_stats: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    seat_model: type[KitSeat] = KitSeat
    n_players: Callable[[Any], int] = lambda config: int(config.n_players)
