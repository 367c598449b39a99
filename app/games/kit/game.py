"""`build(definition)`: the `app.protocol.registry.Game` of a kit game, every member derived from the definition.

The lobby (join, the deal when the table is full, abort), the command loop (a stale or early timer changes
nothing; a refused command raises with nothing to undo; a read-only action answers without an event), concede and
takeover, the config and state JSON, the summary and the views' frame are the kit's; the rules are the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel, ValidationError

from app.games.base import ErrorSpec, Event, GameError, MatchSummary
from app.games.kit import lobby
from app.games.kit.commands import Abort, Act, Command, Concede, ConcedeRequest, Join, TakeOver, Timeout
from app.games.kit.definition import Action, GameDef
from app.games.kit.dispatch import SeatLeft, Timed, carry_on, is_noop, run_phases, summary
from app.games.kit.members import Members
from app.games.kit.state import RoundState
from app.games.kit.step import Outcome, Step
from app.games.kit.turns import PkRound
from app.games.kit.voting import VOTE_ROUND

StateT = TypeVar("StateT", bound=BaseModel)
StepT = TypeVar("StepT", bound=Step[Any])
ENDED = ("finished", "aborted")


def _field_of(exc: ValidationError) -> tuple[str, str]:
    """The first error's top-level field (a cross-field check names its own in `ctx.field`) and its message."""
    first = exc.errors()[0]
    loc = first["loc"]
    where = str(loc[0]) if loc else str((first.get("ctx") or {}).get("field", "config"))
    return where, str(first["msg"])


ModelT = TypeVar("ModelT", bound=BaseModel)


def parse_config(model: type[ModelT], raw: Mapping[str, Any] | None) -> ModelT:
    """`model` validates a create request's `config` (None: the defaults); `invalid_config` naming the first bad
    field otherwise."""
    if raw is not None and not isinstance(raw, Mapping):
        raise GameError("invalid_config", "config must be a JSON object", field="config")
    try:
        return model.model_validate(dict(raw or {}))
    except ValidationError as exc:
        where, message = _field_of(exc)
        if exc.errors()[0]["type"] == "extra_forbidden":
            raise GameError("invalid_config", f"unknown config field: {where}", field=where) from None
        raise GameError("invalid_config", f"{where}: {message}", field=where) from None


class KitGame(Members[StateT], Generic[StateT, StepT]):
    """A game built from its definition; each member's contract is on `app.protocol.registry.Game`."""

    def __init__(self, d: GameDef[StateT, StepT]) -> None:
        self.d = d
        self.name = d.name
        self.errors: Mapping[str, ErrorSpec] = d.errors
        # §2.3.1 names `concede` among `/action`'s types: every game takes it there, its own model or the kit's
        self._actions: dict[str, Action[StepT]] = dict(d.actions)
        self._actions.setdefault("concede", Action(ConcedeRequest))
        self.actions: Mapping[str, type[BaseModel]] = MappingProxyType({k: a.model for k, a in self._actions.items()})
        self.config_model: type[BaseModel] = d.config
        self.snapshot_model: type[BaseModel] = d.snapshot
        self.secret_fields: tuple[str, ...] = d.secret_fields
        self.sides: tuple[str, ...] = d.sides
        self.profile_stats: Mapping[str, tuple[str, ...]] = d.profile_stats
        self.state_model = d.state
        round_table = issubclass(d.state, RoundState)  # its abort clears the floor, its takeover names the round
        self._handlers: dict[type, Callable[[StepT, Any], object]] = {
            Join: self._join, Act: self._act, Concede: lambda s, c: self._concede(s, c.seat),
            Abort: lobby.abort_table if round_table else lambda s, c: lobby.abort(s, c.reason),
            TakeOver: lobby.take_over_in_round if round_table else lambda s, c: lobby.take_over(
                s, s.state.seat(c.seat), c.seat), **d.commands}
        self._timers, self._openers = phase_tables(d)

    # --- config and commands ----------------------------------------------------------------------------------

    def parse_config(self, raw: Mapping[str, Any] | None) -> Any:
        """The config model validates `raw`; `invalid_config` naming the first bad field otherwise."""
        return parse_config(self.d.config, raw)

    def n_players(self, config: Any) -> int:
        return self.d.n_players(config)

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Act | Concede:
        """The request model of the body's `type` validates it; `bad_request` with every error otherwise. `concede`
        becomes the kit's `Concede` (the game's own model validates it where it declares one)."""
        if not isinstance(raw, Mapping):
            raise GameError("bad_request", "the action body must be a JSON object",
                            errors=[{"loc": [], "msg": "not an object", "type": "dict_type"}])
        kind = raw.get("type")
        action = self._actions.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise GameError("bad_request", f"unknown action type: {kind!r}", allowed=sorted(self.actions),
                            errors=[{"loc": ["type"], "msg": "unknown action type", "type": "literal_error"}])
        try:
            request = action.model.model_validate(dict(raw))
        except ValidationError as exc:
            errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            where = ".".join(str(part) for part in errors[0]["loc"])
            raise GameError("bad_request", f"{where}: {errors[0]['msg']}", field=where, errors=errors) from None
        return Concede(seat=seat) if kind == "concede" else Act(seat=seat, request=request)

    def command_from_json(self, data: Mapping[str, Any]) -> Command:
        """A command as `model_dump` wrote it (golden transcripts)."""
        if data["type"] == "act":
            return self.parse_action(data["request"], data["seat"])
        kinds: dict[str, type[Command]] = {"join": Join, "concede": Concede, "abort": Abort, "timeout": Timeout,
                                           "take_over": TakeOver}
        return kinds[data["type"]].model_validate(dict(data))

    # --- the rules --------------------------------------------------------------------------------------------

    def new_match(self, config: Any, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome[StateT]:
        if self.d.opens is not None:
            self.d.opens(config)
        host = self.d.seat_model(seat=0, name=host_name, display_name=host_display_name)
        step = self.d.step(self.d.state(seed=seed, config=config, players=[host]), now)
        lobby.announce(step, self.config_to_json(config), host_name, host_display_name)
        return Outcome(step.state, step.events)

    def apply(self, state: StateT, command: Command, *, now: float) -> Outcome[StateT]:
        return self.apply_with(state, command, now=now)

    def apply_with(self, state: StateT, command: Command, *, now: float, **context: Any) -> Outcome[StateT]:
        """`apply`, with `context` for the step (`Step.context`: e.g. a test's word pairs for the deal)."""
        if is_noop(cast(Timed, state), command, now):
            return Outcome(state, [])
        step = self.d.step(type(state).model_validate(state.model_dump()), now, **context)  # a fast deep copy
        step.command = command
        run_phases(step, command, self._handlers, self._timers, self._openers)
        if step.reply is not None:  # a read-only action: nothing changed, nothing to store
            return Outcome(state, [], step.reply)
        if self.d.settle is not None:
            self.d.settle(step)
        if step.state.status == "in_progress" and self.d.after is not None:
            self.d.after(step)
        return Outcome(step.state, step.events)

    def _join(self, step: StepT, cmd: Join) -> object:
        state = step.state
        if lobby.seat_player(step, lambda seat: state.players.append(self.d.seat_model(
                seat=seat, name=cmd.name, display_name=cmd.display_name)), cmd.name, cmd.display_name,
                self.n_players(state.config)):
            return self.d.deal(step)
        return None

    def _act(self, step: StepT, cmd: Act) -> object:
        state = step.state
        player = state.seat(cmd.seat)
        action = str(getattr(cmd.request, "type", ""))
        if player is None:
            raise GameError("agent_not_in_match", f"there is no seat {cmd.seat}", seat=cmd.seat)
        if self.d.guard is not None:
            self.d.guard(state, player, action)
        else:
            if state.status in ENDED:
                raise GameError("match_finished", "the match is over", status=state.status)
            if state.status != "in_progress":
                raise GameError("wrong_phase", "the match has not started", phase=state.phase)
            if not player.alive:
                raise GameError("you_are_eliminated", "you have left this match", seat=cmd.seat)
        rule = self.d.actions[action].rule
        assert rule is not None
        return rule(step, player, cmd.request)

    def _concede(self, step: StepT, seat: int) -> None:
        state = step.state
        player = state.seat(seat)
        if player is None:
            raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
        if state.status != "in_progress":
            raise GameError("match_finished" if state.status in ENDED else "match_not_in_progress",  # §6.1
                            "the match is not running", status=state.status)
        if not player.alive:
            raise GameError("you_are_eliminated", "you have left this match", seat=seat)
        player.conceded = True
        step.emit("player_conceded", "public", seat=seat)
        if self.d.concede is not None:
            self.d.concede(step, player)

    # --- state and views --------------------------------------------------------------------------------------

    def summary(self, state: Any) -> MatchSummary:
        """status, phase, the result once ended, and the next timer."""
        body = summary(state)
        if state.status not in ENDED:
            body["result"] = None
        return body

    def role_set(self, state: StateT, seat: int) -> frozenset[str]:
        if self.d.role_set is not None:
            return self.d.role_set(state, seat)
        player = _seat(state, seat)
        return frozenset() if player is None or player.role is None else frozenset({player.role})

    def players_view(self, state: StateT, *, god: bool) -> list[dict[str, Any]]:
        rows = []
        for p in cast(Any, state).players:
            extra = self.d.row(state, p, god) if self.d.row is not None else ({"role": p.role} if god else {})
            rows.append({"seat": p.seat, "name": p.name, "display_name": p.display_name, "alive": p.alive, **extra})
        return rows

    def public_fields(self, state: StateT) -> dict[str, Any]:
        return self.d.public(state)

    def god_fields(self, state: StateT) -> dict[str, Any]:
        return self.d.god(state)

    def you_view(self, state: StateT, seat: int) -> dict[str, Any]:
        player = _seat(state, seat)
        if player is None:
            raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
        return {"seat": seat, "alive": player.alive, **self.d.you(state, seat),
                "allowed_actions": self.allowed_actions(state, seat)}

    def allowed_actions(self, state: StateT, seat: int) -> list[dict[str, Any]]:
        player = _seat(state, seat)
        if cast(Any, state).status != "in_progress" or player is None or not (player.alive or self.d.dead_may_act):
            return []
        # the game's rows, then leaving (§2.3.1): every seat still in a running match may concede
        return [*self.d.allowed(state, seat), *([{"type": "concede"}] if player.alive else [])]

    def seat_sides(self, state: StateT) -> dict[int, str]:
        side_of = self.d.side_of
        return {p.seat: side_of(state, p) if side_of is not None else str(p.role)
                for p in cast(Any, state).players if p.dealt}

    def action_response(self, state: StateT, seat: int | None, events: list[Event]) -> dict[str, Any]:
        match: Any = state
        body: dict[str, Any] = {"match_status": match.status}
        if self.d.response is not None:
            body.update(self.d.response(state, seat, events))
        if match.result is not None and match.status in ENDED:
            body["result"] = match.result
        return body


def _seat(state: BaseModel, seat: int) -> Any:
    return cast(Any, state).seat(seat)


class _Figures(KitGame[StateT, StepT]):
    """`registry.SeatFigures`: what a benchmark report measures of one seat's play."""

    def seat_figures(self, state: StateT, seat: int, events: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        figures = self.d.seat_figures
        return figures(state, seat, events) if figures is not None else {}


class _Content(KitGame[StateT, StepT]):
    """`registry.RemembersContent`: the deal avoids what the players saw recently."""

    def content_key(self, state: StateT) -> str | None:
        return None if self.d.content_key is None else self.d.content_key(state)

    def join_avoiding(self, name: str, display_name: str, recent: frozenset[str]) -> Join:
        return Join(name=name, display_name=display_name, avoid=tuple(sorted(recent)))


class _Hides(KitGame[StateT, StepT]):
    """`registry.HidesEvents`: events the protocol does not name stay out of the views of a room that did not ask."""

    def hidden_events(self, config: Mapping[str, Any]) -> frozenset[str]:
        assert self.d.hidden_events is not None
        return self.d.hidden_events(config)


class _QuickStarts(KitGame[StateT, StepT]):
    """`registry.QuickStarts`: a one-click start's form."""

    def __init__(self, d: GameDef[StateT, StepT]) -> None:
        super().__init__(d)
        assert d.quick_start is not None
        self.quick_start_model: type[BaseModel] = d.quick_start.model
        self.quick_invites: bool = d.quick_start.invites

    def quick_config(self, choices: Mapping[str, Any] | None) -> dict[str, Any]:
        assert self.d.quick_start is not None
        return self.d.quick_start.config(choices)

    def quick_options(self) -> dict[str, Any]:
        assert self.d.quick_start is not None
        return self.d.quick_start.options()


class _Rewrites(KitGame[StateT, StepT]):
    """`registry.Rewrites`: an outside writer may rephrase the finished record."""

    def rewrite_source(self, state: StateT) -> dict[str, Any] | None:
        assert self.d.rewrite is not None
        return self.d.rewrite.source(state)

    def rewrite(self, state: StateT, proposal: Any, *, now: float) -> Any:
        assert self.d.rewrite is not None
        return self.d.rewrite.apply(state, proposal, now)


FiguredKitGame = _Figures


def phase_tables(d: GameDef[Any, Any]) -> tuple[dict[str, Any], dict[Any, Any]]:
    """The timers and openers of a definition, with those of its phase kits (`turns`, `ballot`) and, when a seat
    may leave a running stage, the opener of `SeatLeft`."""
    timers, openers, leave = dict(d.timers), dict(d.openers), dict(d.leave)
    if d.turns is not None:
        timers |= d.turns.timers
        openers[PkRound] = d.turns.open_pk
        leave["speak"] = d.turns.leave
    if d.ballot is not None:
        timers |= d.ballot.timers
        openers[VOTE_ROUND] = d.ballot.open
        leave["vote"] = d.ballot.leave
    if leave:
        openers[SeatLeft] = carry_on(leave)
    return timers, openers


def build(definition: GameDef[StateT, StepT]) -> KitGame[StateT, StepT]:
    """The `Game` of one definition, with each optional member (`registry.SeatFigures`, `RemembersContent`,
    `QuickStarts`, `Rewrites`, `HidesEvents`) exactly when the definition gives it."""
    d = definition
    extras = [cls for cls, given in ((_Figures, d.seat_figures), (_Content, d.content_key),
                                     (_QuickStarts, d.quick_start), (_Rewrites, d.rewrite),
                                     (_Hides, d.hidden_events)) if given is not None]
    if not extras:
        return KitGame(d)
    built = cast(type[KitGame[StateT, StepT]], type(f"{d.name.title()}Game", (*extras, KitGame), {}))
    return built(d)
