"""A small game that lives only in the test tree, to prove the seam: 提灯 (lantern), one kit definition.

2–4 seats. Once full, the seed picks a `keeper`; only the keeper learns the flame's colour (`private:role:keeper`),
and each seat gets a greeting only it sees (`private:seat:N`). Then every seat in turn passes the lantern to another
seat (`pass_lantern`; naming itself: its own error `lantern_to_self`, 418). After one pass per seat it ends: the
keeper's side wins if the keeper ends holding it, else the guests. An idle turn (`turn_timeout`) passes it on."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.games.base import ErrorSpec, GameError
from app.games.kit import Action, Command, GameDef, KitSeat, KitState, Request, Step, build
from app.protocol.registry import Game

COLOURS = ("red", "amber", "jade", "violet")


class LanternConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    n_players: int = Field(3, ge=2, le=4)
    turn_timeout: int = Field(60, ge=1, le=600)
    compete_mode: bool = False  # the protocol-level switch: the seam refuses instruction-like notes in such rooms


class PassLantern(Request):
    """Hand the lantern to another seat (your turn only)."""

    type: Literal["pass_lantern"]
    target_seat: StrictInt
    note: str | None = Field(default=None, max_length=100)


class LanternSnapshot(BaseModel):
    holder_seat: int | None = Field(default=None, description="who holds the lantern")
    flame: str | None = Field(default=None, description="god views only: the flame's colour")


class State(KitState[LanternConfig, KitSeat]):
    holder: int = 0
    passes: int = 0
    flame: str | None = None


def deal(step: Step[State]) -> None:
    state, rng = step.state, step.rng("deal")
    keeper, state.flame = rng.randrange(len(state.players)), rng.choice(COLOURS)
    for p in state.players:
        p.role = "keeper" if p.seat == keeper else "guest"
    state.status, state.phase = "in_progress", "pass_1"
    step.start_clock(state.config.turn_timeout, "turn")
    step.emit("match_started", n_players=len(state.players))
    step.emit("flame_lit", "private:role:keeper", flame=state.flame)
    for p in state.players:
        step.emit("seat_greeted", f"private:seat:{p.seat}", seat=p.seat, role=p.role)
    step.emit("roles_dealt", "god_only", roles={str(p.seat): p.role for p in state.players})


def pass_lantern(step: Step[State], player: KitSeat, req: PassLantern) -> None:
    state = step.state
    if player.seat != state.holder:
        raise GameError("wrong_phase", "it is not your turn to pass the lantern", holder_seat=state.holder)
    if req.target_seat == player.seat:
        raise GameError("lantern_to_self", "you cannot pass the lantern to yourself", target_seat=player.seat)
    if state.seat(req.target_seat) is None:
        raise GameError("invalid_target", "no such seat", target_seat=req.target_seat)
    hand_on(step, req.target_seat, req.note)


def hand_on(step: Step[State], target: int, note: str | None = None) -> None:
    state = step.state
    step.emit("lantern_passed", seat=state.holder, target_seat=target, **({"note": note} if note else {}))
    state.holder, state.passes = target, state.passes + 1
    state.phase = f"pass_{state.passes + 1}"
    step.start_clock(state.config.turn_timeout, "turn")
    if state.passes >= len(state.players):
        finish(step, "all_passed")


def finish(step: Step[State], reason: str, *_: Any) -> None:
    state = step.state
    keeper = next(p.seat for p in state.players if p.role == "keeper")
    camp = "keeper" if state.holder == keeper and reason == "all_passed" else "guest"
    winners = [p.seat for p in state.players if p.role == camp and p.alive]
    state.result = {"winner_camp": camp, "winning_seats": winners, "reason": reason, "flame": state.flame,
                    "losing_seats": [p.seat for p in state.players if p.seat not in winners]}
    step.emit("match_finished", **state.result)
    state.result["summary"] = f"{camp} wins"
    state.status = state.phase = "finished"
    step.stop_clock()


def you(state: State, seat: int) -> dict[str, Any]:
    turn = state.status == "in_progress" and state.holder == seat and state.players[seat].alive
    action = "pass_lantern" if turn else "none" if state.status in ("finished", "aborted") else "wait"  # §2.4.2
    return {"role": state.players[seat].role, "your_turn": turn, "next_action": action}


def allowed(state: State, seat: int) -> list[dict[str, Any]]:
    others = [p.seat for p in state.players if p.seat != seat]
    return [{"type": "pass_lantern", "targets": others}] if state.holder == seat else []


def public(state: State) -> dict[str, Any]:
    return {"current_speaker_seat": None, "deadline_ts": None if state.timer is None else int(state.timer.due),
            "round_index": 1, "alive_count": len(state.seated()), "result": state.result,
            "holder_seat": state.holder if state.status == "in_progress" else None}


LANTERN: Game[LanternConfig, State, Command] = build(GameDef(
    name="lantern", config=LanternConfig, state=State, step=Step[State], snapshot=LanternSnapshot,
    actions={"pass_lantern": Action(PassLantern, pass_lantern)}, deal=deal, sides=("keeper", "guest"),
    timers={"turn": lambda step: hand_on(step, (step.state.holder + 1) % len(step.state.players))},
    concede=lambda step, _: finish(step, "conceded"), you=you, allowed=allowed, public=public,
    god=lambda state: {"flame": state.flame}, secret_fields=("flame",),
    errors={"lantern_to_self": ErrorSpec(418, "pass it to someone else")},
    response=lambda state, seat, events: {"holder_seat": state.holder},
))
