"""`speak_round_N`: living seats speak one at a time, in seat order from the first speaker.

A PK (tie_break=revote) reuses this phase with `pk=True`: only the tied seats speak, in
ascending seat order. Each speaker has `speak_timeout` seconds, with a private
`turn_warning` at half time; on expiry the turn is recorded as `speech_skipped` (timeout).
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit.checks import clean_text, is_private, require_in_progress, require_living, require_stage
from app.games.undercover.checks import check_analysis, check_said, remember_said
from app.games.undercover.commands import Skip, Speak
from app.games.undercover.instructions import screen, strings_of
from app.games.undercover.state import MatchState, Player
from app.games.undercover.step import Step
from app.games.undercover.transitions import PkConceded, PkRound, SpeakRound, SpeechesDone, Transition


def round_order(state: MatchState) -> list[int]:
    """Living seats in seat order, starting at the first living seat at/after the first speaker."""
    living = state.living_seats()
    first = state.first_speaker_seat or 0
    start = next((i for i, seat in enumerate(living) if seat >= first), 0)
    return living[start:] + living[:start]


def open_round(step: Step, nxt: SpeakRound) -> Transition:
    """Enter `speak_round_N` with every living seat in round order."""
    step.state.said = {}
    return _open(step, nxt.round_index, round_order(step.state), pk=False)


def open_pk(step: Step, nxt: PkRound) -> Transition:
    """Enter the PK of the current round: the tied seats speak again, in seat order."""
    step.state.pk_candidates = list(nxt.tied)
    return _open(step, step.state.round_index, list(nxt.tied), pk=True)


def _open(step: Step, round_index: int, order: list[int], *, pk: bool) -> Transition:
    state = step.state
    state.round_index = round_index
    state.phase = f"speak_round_{round_index}"
    state.pk = pk
    state.speaking_order = order
    state.votes = {}
    state.current_speaker_seat = order[0]
    deadline = step.start_clock(state.config.speak_timeout, "speak_expire", warning="speak_warning")
    step.emit("phase_started", "public", phase=state.phase, round_index=round_index,
              deadline_ts=deadline, pk=pk, speaking_order=order)
    _announce_turn(step)
    return None


def speak(step: Step, cmd: Speak) -> Transition:
    """The current speaker's public description, checked for their own word."""
    player = _require_speaker(step.state, cmd.seat)
    text = clean_text(cmd.text)
    state = step.state
    check_said(state, player, text)
    analysis = check_analysis(cmd.analysis, player)
    public = {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}
    flags = screen([text, *strings_of(public)], compete_mode=state.config.compete_mode)
    step.emit("speech_posted", "public", seat=cmd.seat, round=state.round_index, text=text,
              pk=state.pk, **public, **flags)
    remember_said(state, cmd.seat, text)
    if is_private(analysis):
        step.emit("analysis_recorded", f"private:seat:{cmd.seat}", seat=cmd.seat,
                  round=state.round_index, action="speak", analysis=analysis)
    return advance(step)


def skip(step: Step, cmd: Skip) -> Transition:
    """The current speaker passes."""
    _require_speaker(step.state, cmd.seat)
    return _record_skip(step, cmd.seat, "skipped")


def on_warning(step: Step) -> Transition:
    """Half the speaking time is gone: remind the speaker privately."""
    state = step.state
    seat = state.current_speaker_seat
    assert seat is not None and state.deadline_at is not None
    step.emit("turn_warning", f"private:seat:{seat}", seat=seat, round=state.round_index,
              deadline_ts=state.deadline_ts)
    step.arm("speak_expire", state.deadline_at)
    return None


def on_expire(step: Step) -> Transition:
    """The speaker ran out of time: an empty speech, and the floor moves on."""
    seat = step.state.current_speaker_seat
    assert seat is not None
    return _record_skip(step, seat, "timeout")


def advance(step: Step) -> Transition:
    """Give the floor to the next living seat in order, or end the speeches (then the vote opens)."""
    state = step.state
    order = state.speaking_order
    assert state.current_speaker_seat is not None
    rest = order[order.index(state.current_speaker_seat) + 1:]
    nxt = next((seat for seat in rest if state.players[seat].alive), None)
    if nxt is None:
        return SpeechesDone()
    state.current_speaker_seat = nxt
    step.start_clock(state.config.speak_timeout, "speak_expire", warning="speak_warning")
    _announce_turn(step)
    return None


def after_concede(step: Step, seat: int) -> Transition:
    """A seat left during speaking: drop it from a PK, pass the floor if it held it."""
    state = step.state
    if state.pk and seat in state.pk_candidates:
        state.pk_candidates.remove(seat)
        if len(state.pk_candidates) < 2:
            return PkConceded()
    if state.current_speaker_seat == seat:
        return advance(step)
    return None


def _record_skip(step: Step, seat: int, reason: str) -> Transition:
    step.emit("speech_skipped", "public", seat=seat, round=step.state.round_index, reason=reason,
              pk=step.state.pk)
    return advance(step)


def _announce_turn(step: Step) -> None:
    state = step.state
    seat = state.current_speaker_seat
    step.emit("your_turn_to_speak", f"private:seat:{seat}", seat=seat, round=state.round_index,
              deadline_ts=state.deadline_ts, pk=state.pk)


def _require_speaker(state: MatchState, seat: int) -> Player:
    require_in_progress(state)
    player = require_living(state, seat)
    require_stage(state, "speak")
    if state.current_speaker_seat != seat:
        raise GameError("not_your_turn_to_speak", "another seat has the floor",
                        current_speaker_seat=state.current_speaker_seat)
    return player
