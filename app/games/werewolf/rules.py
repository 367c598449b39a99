"""The rules' entry points: `new_match` and `apply(state, command)`, and the one table of phases.

A command or timer goes to its phase's handler, which returns the transition it calls for
(`transitions`); `_OPENERS` opens it, until a phase waits for the next command. So no phase module
imports another.

Pure: no I/O, no clock (`now` is passed in), no module-level randomness (every draw comes from
`Random(f"{seed}:{seq}:<purpose>")`). `apply` works on a deep copy, so the caller's state is never
changed, and a refused command raises `GameError` with nothing to undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.base import GameError
from app.games.kit import lobby as room
from app.games.kit.checks import require_in_progress
from app.games.kit.dispatch import is_noop, run_phases
from app.games.werewolf import (
    concede,
    dawn,
    ending,
    lobby,
    night,
    pending,
    speaking,
    voting,
    whisper,
    witch,
)
from app.games.werewolf.commands import (
    Abort,
    Command,
    Concede,
    Join,
    LastWords,
    NightAction,
    Shoot,
    Skip,
    Speak,
    TakeOver,
    Vote,
    Whisper,
)
from app.games.werewolf.state import MatchState
from app.games.werewolf.step import Outcome, Step
from app.games.werewolf.transitions import (
    Dawn,
    NextPending,
    NightFalls,
    PkRound,
    SeatLeft,
    SpeakRound,
    Transition,
    VoteRound,
    WitchWakes,
)

new_match = lobby.new_match

Handler = Callable[[Step, Any], Transition]


def _night_action(step: Step, cmd: NightAction) -> Transition:
    if step.state.stage == "night" and step.state.night.step == "witch":
        return witch.act(step, cmd)
    return night.night_action(step, cmd)


def _speak(step: Step, cmd: Speak) -> Transition:
    return pending.last_words(step, cmd) if step.state.stage == "last_words" else speaking.speak(step, cmd)


def _skip(step: Step, cmd: Skip) -> Transition:
    return pending.skip(step, cmd) if step.state.stage == "last_words" else speaking.skip(step, cmd)


def _last_words(step: Step, cmd: LastWords) -> Transition:
    require_in_progress(step.state)
    if step.state.stage != "last_words":
        raise GameError("wrong_phase", "no last words are due now", phase=step.state.phase)
    return pending.last_words(step, cmd)


def _take_over(step: Step, cmd: TakeOver) -> Transition:
    room.take_over(step, step.state.seat(cmd.seat), cmd.seat, round=step.state.round_index)
    return None


_HANDLERS: dict[type, Handler] = {
    Join: lobby.join,
    Abort: lobby.abort,
    NightAction: _night_action,
    Speak: _speak,
    Skip: _skip,
    Vote: voting.vote,
    Whisper: whisper.whisper,
    LastWords: _last_words,
    Shoot: pending.shoot,
    Concede: concede.concede,
    TakeOver: _take_over,
}

_TIMERS: dict[str, Callable[[Step], Transition]] = {
    "night_expire": night.on_expire,
    "witch_expire": witch.on_expire,
    "speak_expire": speaking.on_expire,
    "vote_expire": voting.on_expire,
    "shoot_expire": pending.on_shoot_expire,
    "last_words_expire": pending.on_last_words_expire,
}

_AFTER_CONCEDE: dict[str, Callable[[Step, int], Transition]] = {
    "night": night.after_concede,
    "speak": speaking.after_concede,
    "vote": voting.after_concede,
}


def _seat_left(step: Step, left: SeatLeft) -> Transition:
    carry_on = _AFTER_CONCEDE.get(step.state.stage)
    return None if carry_on is None else carry_on(step, left.seat)


def _nightfall(step: Step, nxt: NightFalls) -> Transition:
    if nxt.round_index > step.state.config.max_rounds:
        ending.finish(step, "werewolf", "max_rounds_reached")
        return None
    return night.open_night(step, nxt)


_OPENERS: dict[type, Handler] = {
    NightFalls: _nightfall,
    WitchWakes: witch.open_witch,
    Dawn: dawn.resolve,
    NextPending: pending.open_next,
    SpeakRound: speaking.open_round,
    PkRound: speaking.open_pk,
    VoteRound: voting.open_vote,
    SeatLeft: _seat_left,
}


def apply(state: MatchState, command: Command, *, now: float) -> Outcome:
    """Apply one command at time `now`: a new state and the events produced.

    A stale, early or orphan `Timeout`, and an `Abort` of an aborted match, return the same state with no events.
    """
    if is_noop(state, command, now):
        return Outcome(state, [])
    step = Step(MatchState.model_validate(state.model_dump()), now)
    run_phases(step, command, _HANDLERS, _TIMERS, _OPENERS)
    return Outcome(step.state, step.events)
