"""`night_round_N`, second step: the witch.

She wakes once the pack has decided (or the night's first step ran out of time), if she is alive and
holds a potion; she has `night_timeout` seconds. While she holds the antidote she learns the night's
victim (`witch_informed`, `private:seat:N`; `victim_seat: null` when the wolves killed nobody); once
it is used she is no longer told. She then sends one of `save`, `poison {target_seat}` or `pass`:
one potion a night at most, each potion once a game. She may save herself on the first night only.
Silence until the deadline is a pass.
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit.choices import receipt, wake
from app.games.kit.dispatch import Cue
from app.games.werewolf.checks import require_night_actor, require_target
from app.games.werewolf.commands import NightActionRequest
from app.games.werewolf.state import MatchState, Player, Step
from app.games.werewolf.transitions import DAWN, Transition


def open_witch(step: Step, _: Cue) -> Transition:
    """The witch's step: a fresh clock, the victim if she may know it, and her prompt."""
    state = step.state
    witch = state.holder("witch")
    assert witch is not None
    state.night.step = "witch"
    deadline = step.start_clock(state.config.night_timeout, "witch_expire")
    if state.antidote:
        state.night.witch_informed = True
        step.emit("witch_informed", f"private:seat:{witch.seat}", seat=witch.seat, round=state.round_index,
                  victim_seat=state.night.victim)
    wake(step, [witch.seat], "your_turn_to_act", role="witch", deadline_ts=deadline,
                 can_save=bool(save_targets(state, witch.seat)), can_poison=state.poison)
    return None


def save_targets(state: MatchState, witch: int) -> list[int]:
    """The seat the antidote may save now: the victim, when she knows it and may save it."""
    victim = state.night.victim
    if not (state.antidote and state.night.witch_informed) or victim is None:
        return []
    if victim == witch and state.round_index > 1:
        return []
    return [victim]


def poison_targets(state: MatchState, witch: int) -> list[int]:
    """Seats the poison may reach: every other living seat."""
    return [s for s in state.living_seats() if s != witch] if state.poison else []


def act(step: Step, actor: Player, cmd: NightActionRequest) -> Transition:
    """The witch's one decision of the night (any other night role is past its turn)."""
    state, seat = step.state, actor.seat
    player = require_night_actor(state, seat, cmd)
    if player.role != "witch":
        raise GameError("not_your_night_turn", "the night has passed your role", role=player.role)
    if state.night.witch_done:
        raise GameError("night_action_done", "you have already acted tonight")
    if cmd.action == "save":
        _save(state, seat, cmd)
    elif cmd.action == "poison":
        _poison(state, seat, cmd)
    state.night.witch_done = True
    target = state.night.poison_target if cmd.action == "poison" else None
    target = state.night.victim if cmd.action == "save" else target
    receipt(step, seat, "night_action_recorded", action=cmd.action, target_seat=target)
    return DAWN


def _save(state: MatchState, seat: int, cmd: NightActionRequest) -> None:
    if not state.antidote:
        raise GameError("potion_used", "the antidote is used", potion="antidote")
    victim = state.night.victim
    if victim is None:
        raise GameError("no_victim_to_save", "nobody was attacked tonight")
    if victim == seat and state.round_index > 1:
        raise GameError("witch_cannot_save_self", "you may save yourself on the first night only")
    if cmd.target_seat is not None and cmd.target_seat != victim:
        raise GameError("invalid_target", "the antidote saves tonight's victim only", target_seat=cmd.target_seat,
                        eligible_targets=[victim])
    state.antidote = False
    state.night.saved = True


def _poison(state: MatchState, seat: int, cmd: NightActionRequest) -> None:
    if not state.poison:
        raise GameError("potion_used", "the poison is used", potion="poison")
    state.night.poison_target = require_target(cmd.target_seat, poison_targets(state, seat))
    state.poison = False


def on_expire(step: Step) -> Transition:
    """The witch stayed silent: she passes."""
    step.state.night.witch_done = True
    return DAWN
