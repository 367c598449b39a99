"""The rules' entry points: `new_match` and `apply(state, command)`, and the one table of phases.

A command or timer goes to its phase's handler, which returns the transition it calls for
(`transitions`); `_OPENERS` opens it, until a phase waits for the next command. So no phase
module imports another.

Pure: no I/O, no clock (`now` is passed in), no module-level randomness (every draw comes
from `Random(f"{seed}:{seq}:<purpose>")`). `apply` works on a deep copy, so the caller's
state is never changed, and a refused command raises `GameError` with nothing to undo.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.games.kit import lobby as room
from app.games.kit.dispatch import is_noop, run_phases
from app.games.undercover import concede, debate, lobby, reveal, speaking, table, voting, whisper
from app.games.undercover.commands import (
    Abort,
    Command,
    Concede,
    Debate,
    DebatePass,
    GuessWord,
    Join,
    LastWords,
    Skip,
    Speak,
    TakeOver,
    Vote,
    Whisper,
)
from app.games.undercover.state import MatchState
from app.games.undercover.step import Outcome, Step
from app.games.undercover.transitions import (
    DebateRound,
    PkConceded,
    PkRound,
    Reveal,
    SeatLeft,
    SpeakRound,
    SpeechesDone,
    Transition,
    VoteRound,
)

new_match = lobby.new_match

Handler = Callable[[Step, Any], Transition]

def _take_over(step: Step, cmd: TakeOver) -> Transition:
    room.take_over(step, step.state.seat(cmd.seat), cmd.seat, round=step.state.round_index)
    return None


_HANDLERS: dict[type, Handler] = {
    Join: lobby.join,
    Abort: lobby.abort,
    Speak: speaking.speak,
    Skip: speaking.skip,
    Vote: voting.vote,
    LastWords: reveal.last_words,
    GuessWord: reveal.guess_word,
    Concede: concede.concede,
    Whisper: whisper.whisper,
    TakeOver: _take_over,
    Debate: debate.debate,
    DebatePass: debate.debate_pass,
}

_TIMERS: dict[str, Callable[[Step], Transition]] = {
    "speak_warning": speaking.on_warning,
    "speak_expire": speaking.on_expire,
    "vote_warning": voting.on_warning,
    "vote_expire": voting.on_expire,
    "reveal_expire": reveal.on_expire,
    "debate_expire": debate.on_expire,
}

_AFTER_CONCEDE: dict[str, Callable[[Step, int], Transition]] = {
    "speak": speaking.after_concede,
    "vote": voting.after_concede,
    "debate": debate.after_concede,
}


def _seat_left(step: Step, left: SeatLeft) -> Transition:
    carry_on = _AFTER_CONCEDE.get(step.state.stage)
    return None if carry_on is None else carry_on(step, left.seat)


_OPENERS: dict[type, Handler] = {
    SpeakRound: speaking.open_round,
    PkRound: speaking.open_pk,
    SpeechesDone: debate.after_speeches,
    DebateRound: debate.open_debate,
    VoteRound: voting.open_vote,
    PkConceded: voting.end_pk_by_concession,
    Reveal: reveal.open_reveal,
    SeatLeft: _seat_left,
}


def apply(state: MatchState, command: Command, *, now: float,
          pairs: Sequence[tuple[str, str]] = ()) -> Outcome:
    """Apply one command at time `now`; `pairs` are the candidate word pairs for the deal.

    Returns a new state and the events produced. A stale, early or orphan `Timeout`, and an
    `Abort` of an aborted match, return the same state with no events.
    """
    if is_noop(state, command, now):
        return Outcome(state, [])
    # A dump/validate round trip is a deep copy, and 2-3x faster than copy.deepcopy here.
    step = Step(MatchState.model_validate(state.model_dump()), now, pairs)
    run_phases(step, command, _HANDLERS, _TIMERS, _OPENERS)
    table.sync(step)
    return Outcome(step.state, step.events)
