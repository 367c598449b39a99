"""A game is one definition: what it declares, and everything the kit derives from it has a default.

Required: the name, the config/state/snapshot models, the actions (request model → handler), the deal, the timers,
the views a seat needs (`you`, `allowed`) and the sides. Everything else is optional with the kit's default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.games.base import ErrorSpec, Event, GameError
from app.games.kit.state import KitSeat
from app.games.kit.step import Step
from app.games.kit.turns import Turns
from app.games.kit.voting import Ballot

StateT = TypeVar("StateT", bound=BaseModel)
"""A `KitState` (or a `RoundState`): the kit reads seed, seq, status, phase, players, the clock and the result."""
StepT = TypeVar("StepT", bound=Step[Any])
FormT = TypeVar("FormT", bound=BaseModel)


@dataclass(frozen=True)
class Action(Generic[StepT]):
    """One action type: its request model (`type: Literal[...]`, documented fields) and its rule `(step, the acting
    seat, the request)`, which raises `GameError` to refuse and may return the transition it calls for (opened by
    the definition's `openers`)."""

    model: type[BaseModel]
    rule: Callable[[StepT, Any, Any], object] | None = None
    """None: the kit's own (only `concede`, which `parse_action` turns into the kit's `Concede`)."""


def own_checks(state: Any, player: Any, action: str) -> None:
    """A `guard` for games whose rules check every precondition themselves (in their own order)."""


@dataclass(frozen=True)
class QuickStart:
    """A one-click start (`registry.QuickStarts`): the form's model, its choices → a config, the form's extras."""

    model: type[BaseModel]
    config: Callable[[Mapping[str, Any] | None], dict[str, Any]]
    options: Callable[[], dict[str, Any]]
    invites: bool = False
    """A room for friends: the person opens it and shares the invite link; the official bots take only the seats
    the config leaves them (`app.games.installed.bot_seats`), when the host asks (`POST /api/matches/{id}/fill`) or
    after the fill wait. False: the bots take every other seat at once."""


Pace = Literal["quick", "standard", "relaxed"]
"""A quick start's three paces, for a game whose form offers clocks by name (the game says each pace's clocks)."""


def pace_options(clocks: Mapping[str, Mapping[str, int]]) -> list[dict[str, Any]]:
    """The options' `paces`: each pace's name and its clocks."""
    return [{"pace": name, **values} for name, values in clocks.items()]


class PresetForm(BaseModel):
    """The 开一局 form of a game whose tables are a preset per size (`roles: "<n>p"`) and whose clocks go by pace: a
    game subclasses it, narrowing `n_players` to its sizes (with its default), and may add choices after it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    n_players: int
    pace: Pace = Field("standard", description="the clocks: quick, standard or relaxed")


def preset_config(picked: PresetForm, clocks: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """The config of a `PresetForm`'s choices: the size, its preset and the pace's clocks (a game adds its own)."""
    return {"n_players": picked.n_players, "roles": f"{picked.n_players}p", **clocks[picked.pace]}


def parse_choices(model: type[FormT], choices: Mapping[str, Any] | None) -> FormT:
    """A quick start's choices read by its form model; 422 `invalid_config` naming `choices.<field>` otherwise."""
    if choices is not None and not isinstance(choices, Mapping):
        raise GameError("invalid_config", "choices must be a JSON object", field="choices")
    try:
        return model.model_validate(dict(choices or {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(part) for part in first.get("loc") or ()) or "choices"
        message = "unknown choice" if first["type"] == "extra_forbidden" else first["msg"]
        raise GameError("invalid_config", f"choices.{name}: {message}", field=f"choices.{name}") from None


@dataclass(frozen=True)
class Rewrite:
    """An outside writer may rephrase the finished record (`registry.Rewrites`)."""

    source: Callable[[Any], dict[str, Any] | None]
    apply: Callable[[Any, Any, float], Any]


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
    deal: Callable[[StepT], object]
    """The table is full: deal the roles, start the match (status `in_progress`, its phase and clock); may return
    the first transition."""
    timers: Mapping[str, Callable[[StepT], object]]
    """Timer kind → what happens when it fires (a stale or early timer never reaches it); may return a
    transition."""
    you: Callable[[StateT, int], dict[str, Any]]
    """A seat's own block besides `seat`, `alive` and `allowed_actions`: `your_turn`, `next_action`, its secrets."""
    allowed: Callable[[StateT, int], list[dict[str, Any]]]
    """`Game.allowed_actions` for a seat of a running match that is still in the game, but concede: the kit adds it
    for a living seat."""
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
    seat_model: type[BaseModel] = KitSeat
    n_players: Callable[[Any], int] = lambda config: int(config.n_players)
    openers: Mapping[Any, Callable[[StepT, Any], object]] = field(default_factory=lambda: MappingProxyType({}))
    """A phase machine's table (`dispatch.run_phases`): transition type (or `dispatch.Cue`) → what opens it (may
    return the next)."""
    turns: Turns | None = None
    """The game's floor (`turns.Turns`): its timers, `PkRound`'s opener and a seat leaving while it runs
    (`speak`) come with it."""
    ballot: Ballot | None = None
    """The game's vote (`voting.Ballot`): its timers, `VOTE_ROUND`'s opener and a seat leaving while it runs
    (`vote`) come with it."""
    leave: Mapping[str, Callable[[StepT, int], object]] = field(default_factory=lambda: MappingProxyType({}))
    """A seat conceded and the match goes on (`dispatch.SeatLeft`): stage → what the game's own stage does then
    (the floor's and the ballot's come with `turns` and `ballot`; a stage not named: nothing)."""
    commands: Mapping[type, Callable[[StepT, Any], object]] = field(default_factory=lambda: MappingProxyType({}))
    """The game's own handler of a kit command (`Concede`, `Abort`, `TakeOver`) instead of the kit's."""
    settle: Callable[[StepT], object] | None = None
    """After every command that changed the match (e.g. fold the new events into a record)."""
    dead_may_act: bool = False
    """A seat out of the game may still act (last words, a hunter's shot): `allowed` is asked for it too (declare a
    `guard` that lets it through to the rule)."""
    opens: Callable[[Any], object] | None = None
    """Checked when a room opens with this config (raise `GameError` to refuse it)."""
    content_key: Callable[[Any], str | None] | None = None
    """What the deal drew, as a stable key (`registry.RemembersContent`; the deal reads `Join.avoid` from
    `step.command`)."""
    quick_start: QuickStart | None = None
    rewrite: Rewrite | None = None
    hidden_events: Callable[[Mapping[str, Any]], frozenset[str]] | None = None
    """Stored config → the event types a room keeps out of every view (`registry.HidesEvents`): the game's events
    the protocol does not name, unless the config asks for them. None: the game hides none."""
