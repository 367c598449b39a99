"""A small game that lives only in the test tree, to prove the seam: 提灯 (lantern).

2–4 seats. When the table is full the seed picks one seat as the `keeper`; only the keeper learns the flame's
colour (`private:role:keeper`), and each seat gets a greeting only it sees (`private:seat:N`). Then every seat in
turn passes the lantern to another seat (`pass_lantern`, own error `lantern_to_self` with status 418 when it
names itself). After one pass per seat the match ends: the keeper's side wins if the lantern ends in the keeper's
hands, else the guests win. A turn left idle for `turn_timeout` seconds passes the lantern to the next seat.

`make lint` checks it against `Game` with its real types (`tests/protocol` is type-checked strictly).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from app.games.base import AbortReason, ErrorSpec, Event, GameError, MatchStatus, MatchSummary, TimerSummary
from app.protocol.registry import Game

COLOURS = ("red", "amber", "jade", "violet")


class LanternConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    n_players: int = Field(3, ge=2, le=4)
    turn_timeout: int = Field(60, ge=1, le=600)
    compete_mode: bool = False  # the protocol-level switch: the seam refuses instruction-like notes in such rooms


class PassLantern(BaseModel):
    """Hand the lantern to another seat (your turn only)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["pass_lantern"]
    target_seat: StrictInt
    note: str | None = Field(default=None, max_length=100)
    expected_seq: StrictInt | None = None


class LanternSnapshot(BaseModel):
    holder_seat: int | None = Field(default=None, description="who holds the lantern")
    flame: str | None = Field(default=None, description="god views only: the flame's colour")


@dataclass(frozen=True)
class Seat:
    name: str
    display_name: str
    role: str | None = None
    left: bool = False


@dataclass(frozen=True)
class State:
    config: LanternConfig
    seed: int
    seats: tuple[Seat, ...]
    status: MatchStatus = "waiting"
    seq: int = 0
    holder: int = 0
    passes: int = 0
    flame: str | None = None
    due: float | None = None
    token: int = 0
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class Command:
    kind: str
    seat: int | None = None
    target: int | None = None
    note: str | None = None
    name: str = ""
    display_name: str = ""
    token: int = 0
    reason: str = ""


@dataclass(frozen=True)
class Outcome:
    state: State
    events: list[Event]


class _Step:
    def __init__(self, state: State, now: float) -> None:
        self.state = state
        self.now = now
        self.events: list[Event] = []

    def emit(self, type_: str, visibility: str = "public", **fields: Any) -> None:
        seq = self.state.seq + 1
        self.state = replace(self.state, seq=seq)
        self.events.append({"seq": seq, "type": type_, "visibility": visibility, **fields, "ts": self.now})

    def done(self) -> Outcome:
        return Outcome(self.state, self.events)


class LanternGame:
    """The fake game; each member's contract is on `app.protocol.registry.Game`."""

    name = "lantern"
    errors: Mapping[str, ErrorSpec] = MappingProxyType({"lantern_to_self": ErrorSpec(418, "pass it to someone else")})
    actions: Mapping[str, type[BaseModel]] = MappingProxyType({"pass_lantern": PassLantern})
    config_model: type[BaseModel] = LanternConfig
    snapshot_model: type[BaseModel] = LanternSnapshot
    secret_fields: tuple[str, ...] = ("flame",)
    sides: tuple[str, ...] = ("keeper", "guest")
    profile_stats: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def parse_config(self, raw: Mapping[str, Any] | None) -> LanternConfig:
        """Validate; `invalid_config` naming the field."""
        try:
            return LanternConfig.model_validate(dict(raw or {}))
        except ValidationError as exc:
            field = ".".join(str(p) for p in exc.errors()[0]["loc"]) or "config"
            raise GameError("invalid_config", f"{field}: {exc.errors()[0]['msg']}", field=field) from None

    def config_to_json(self, config: LanternConfig) -> dict[str, Any]:
        """As JSON."""
        return config.model_dump()

    def n_players(self, config: LanternConfig) -> int:
        """`n_players`."""
        return config.n_players

    def new_match(self, config: LanternConfig, host_name: str, host_display_name: str, *, seed: int,
                  now: float) -> Outcome:
        """The host alone in a waiting room."""
        step = _Step(State(config, seed, (Seat(host_name, host_display_name),)), now)
        step.emit("match_created", n_players=config.n_players)
        return step.done()

    def join(self, name: str, display_name: str) -> Command:
        """Take a seat."""
        return Command("join", name=name, display_name=display_name)

    def parse_action(self, raw: Mapping[str, Any], seat: int) -> Command:
        """`pass_lantern` only."""
        if raw.get("type") != "pass_lantern":
            raise GameError("bad_request", f"unknown action type: {raw.get('type')!r}", allowed=["pass_lantern"])
        try:
            body = PassLantern.model_validate(dict(raw))
        except ValidationError as exc:
            field = ".".join(str(p) for p in exc.errors()[0]["loc"])
            raise GameError("bad_request", f"{field}: {exc.errors()[0]['msg']}", field=field) from None
        return Command("pass", seat=seat, target=body.target_seat, note=body.note)

    def concede(self, seat: int) -> Command:
        """Leave."""
        return Command("concede", seat=seat)

    def abort(self, reason: AbortReason) -> Command:
        """Cancel."""
        return Command("abort", reason=reason)

    def timeout(self, token: int) -> Command:
        """The turn clock."""
        return Command("timeout", token=token)

    def apply(self, state: State, command: Command, *, now: float) -> Outcome:
        """The rules of the module docstring."""
        step = _Step(state, now)
        if command.kind == "join":
            if state.status != "waiting":
                raise GameError("match_not_waiting", "the table is dealt")
            step.state = replace(state, seats=(*state.seats, Seat(command.name, command.display_name)))
            step.emit("player_joined", seat=len(state.seats), name=command.name)
            if len(step.state.seats) == state.config.n_players:
                self._deal(step)
            return step.done()
        if command.kind == "abort":
            if state.status != "waiting":
                raise GameError("match_not_waiting", "only a waiting room can be cancelled")
            step.state = replace(state, status="aborted", due=None,
                                 result={"winner_camp": None, "reason": command.reason, "summary": "cancelled"})
            step.emit("match_aborted", reason=command.reason)
            return step.done()
        if command.kind == "timeout":
            if state.status != "in_progress" or command.token != state.token or state.due is None or now < state.due:
                return Outcome(state, [])
            self._pass(step, state.holder, (state.holder + 1) % len(state.seats), None)
            return step.done()
        if state.status != "in_progress":
            raise GameError("match_not_in_progress", "the match is not running")
        seat = command.seat if command.seat is not None else -1
        if command.kind == "concede":
            if state.seats[seat].left:
                raise GameError("you_are_eliminated", "you already left")
            step.state = replace(state, seats=tuple(replace(s, left=True) if i == seat else s
                                                    for i, s in enumerate(state.seats)))
            step.emit("player_conceded", seat=seat)
            self._finish(step, "conceded")
            return step.done()
        if seat != state.holder:
            raise GameError("wrong_phase", "it is not your turn to pass the lantern", holder_seat=state.holder)
        if command.target == seat:
            raise GameError("lantern_to_self", "you cannot pass the lantern to yourself", target_seat=seat)
        if command.target is None or not 0 <= command.target < len(state.seats):
            raise GameError("invalid_target", "no such seat", target_seat=command.target)
        self._pass(step, seat, command.target, command.note)
        return step.done()

    def _deal(self, step: _Step) -> None:
        rng = random.Random(step.state.seed)
        keeper = rng.randrange(len(step.state.seats))
        flame = rng.choice(COLOURS)
        seats = tuple(replace(s, role="keeper" if i == keeper else "guest") for i, s in enumerate(step.state.seats))
        step.state = replace(step.state, seats=seats, status="in_progress", flame=flame, holder=0,
                             due=step.now + step.state.config.turn_timeout, token=step.state.token + 1)
        step.emit("match_started", n_players=len(seats))
        step.emit("flame_lit", "private:role:keeper", flame=flame)
        for i in range(len(seats)):
            step.emit("seat_greeted", f"private:seat:{i}", seat=i, role=seats[i].role)
        step.emit("roles_dealt", "god_only", roles={str(i): s.role for i, s in enumerate(seats)})

    def _pass(self, step: _Step, seat: int, target: int, note: str | None) -> None:
        passes = step.state.passes + 1
        step.state = replace(step.state, holder=target, passes=passes,
                             due=step.now + step.state.config.turn_timeout, token=step.state.token + 1)
        step.emit("lantern_passed", seat=seat, target_seat=target, **({"note": note} if note else {}))
        if passes >= len(step.state.seats):
            self._finish(step, "all_passed")

    def _finish(self, step: _Step, reason: str) -> None:
        state = step.state
        keeper = next(i for i, s in enumerate(state.seats) if s.role == "keeper")
        camp = "keeper" if state.holder == keeper and reason == "all_passed" else "guest"
        winners = [i for i, s in enumerate(state.seats) if s.role == camp and not s.left]
        losers = [i for i in range(len(state.seats)) if i not in winners]
        result: dict[str, Any] = {"winner_camp": camp, "winning_seats": winners, "losing_seats": losers,
                                  "reason": reason, "flame": state.flame, "summary": f"{camp} wins"}
        step.state = replace(state, status="finished", due=None, result=result)
        step.emit("match_finished", **{k: v for k, v in result.items() if k != "summary"})

    def state_to_json(self, state: State) -> dict[str, Any]:
        """dataclasses → JSON."""
        data = asdict(state)
        data["config"] = state.config.model_dump()
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """JSON → dataclasses."""
        fields = dict(data)
        fields["config"] = LanternConfig.model_validate(fields["config"])
        fields["seats"] = tuple(Seat(**s) for s in fields["seats"])
        return State(**fields)

    def summary(self, state: State) -> MatchSummary:
        """Phase `pass_N`; the turn clock."""
        phase = {"waiting": "waiting", "in_progress": f"pass_{state.passes + 1}"}.get(state.status, state.status)
        timer: TimerSummary | None = None if state.due is None else {
            "due": state.due, "kind": "turn", "token": state.token}
        return {"status": state.status, "phase": phase, "result": state.result, "timer": timer}

    def role_set(self, state: State, seat: int) -> frozenset[str]:
        """The seat's role."""
        if not 0 <= seat < len(state.seats) or state.seats[seat].role is None:
            return frozenset()
        return frozenset({state.seats[seat].role or ""})

    def players_view(self, state: State, *, god: bool) -> list[dict[str, Any]]:
        """Roles only for god views."""
        return [{"seat": i, "name": s.name, "display_name": s.display_name, "alive": not s.left,
                 **({"role": s.role} if god else {})} for i, s in enumerate(state.seats)]

    def public_fields(self, state: State) -> dict[str, Any]:
        """The protocol's top-level fields and the holder."""
        return {"current_speaker_seat": None, "deadline_ts": None if state.due is None else int(state.due),
                "round_index": 1, "alive_count": sum(not s.left for s in state.seats), "result": state.result,
                "holder_seat": state.holder if state.status == "in_progress" else None}

    def god_fields(self, state: State) -> dict[str, Any]:
        """The flame."""
        return {"flame": state.flame}

    def you_view(self, state: State, seat: int) -> dict[str, Any]:
        """Seat, role, turn."""
        if not 0 <= seat < len(state.seats):
            raise GameError("agent_not_in_match", f"there is no seat {seat}")
        turn = state.status == "in_progress" and state.holder == seat and not state.seats[seat].left
        return {"seat": seat, "alive": not state.seats[seat].left, "role": state.seats[seat].role,
                "your_turn": turn, "next_action": "pass_lantern" if turn else "wait",
                "allowed_actions": self.allowed_actions(state, seat)}

    def allowed_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """pass_lantern on your turn; concede while running."""
        if state.status != "in_progress" or not 0 <= seat < len(state.seats) or state.seats[seat].left:
            return []
        allowed: list[dict[str, Any]] = [{"type": "concede"}]
        if state.holder == seat:
            allowed.insert(0, {"type": "pass_lantern", "targets": [i for i in range(len(state.seats)) if i != seat]})
        return allowed

    def seat_sides(self, state: State) -> dict[int, str]:
        """keeper or guest."""
        return {i: s.role for i, s in enumerate(state.seats) if s.role is not None}

    def action_response(self, state: State, seat: int | None, events: list[Event]) -> dict[str, Any]:
        """Who holds it now."""
        body: dict[str, Any] = {"match_status": state.status, "holder_seat": state.holder}
        if state.result is not None:
            body["result"] = state.result
        return body


LANTERN: Game[LanternConfig, State, Command] = LanternGame()
