"""`speak_round_N`: by day every living seat speaks once, in ascending seat order.

Each speaker has `speak_timeout` seconds; silence is recorded as `speech_skipped` (timeout). A PK
(`tie_break=revote`) reuses this phase with `pk=True`: only the tied seats speak, in seat order.
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit.checks import clean_text, is_private, require_in_progress, require_living, require_stage
from app.games.werewolf.checks import check_analysis, public_analysis
from app.games.werewolf.commands import Skip, Speak
from app.games.werewolf.state import MatchState
from app.games.werewolf.step import Step
from app.games.werewolf.transitions import PkRound, SpeakRound, Transition, VoteRound


def open_round(step: Step, _: SpeakRound) -> Transition:
    """Enter `speak_round_N` with every living seat in seat order."""
    return _open(step, step.state.living_seats(), pk=False)


def open_pk(step: Step, nxt: PkRound) -> Transition:
    """The tied seats speak again before the PK vote."""
    step.state.pk_candidates = list(nxt.tied)
    return _open(step, list(nxt.tied), pk=True)


def _open(step: Step, order: list[int], *, pk: bool) -> Transition:
    state = step.state
    state.phase = f"speak_round_{state.round_index}"
    state.pk = pk
    state.speaking_order = order
    state.votes = {}
    state.current_speaker_seat = order[0]
    deadline = step.start_clock(state.config.speak_timeout, "speak_expire")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
              deadline_ts=deadline, pk=pk, speaking_order=order)
    _announce_turn(step)
    return None


def speak(step: Step, cmd: Speak) -> Transition:
    """The current speaker's public speech."""
    _require_speaker(step.state, cmd.seat)
    text = clean_text(cmd.text)
    analysis = check_analysis(cmd.analysis)
    state = step.state
    step.emit("speech_posted", "public", seat=cmd.seat, round=state.round_index, text=text, pk=state.pk,
              **public_analysis(analysis))
    if is_private(analysis):
        step.emit("analysis_recorded", f"private:seat:{cmd.seat}", seat=cmd.seat, round=state.round_index,
                  action="speak", analysis=analysis)
    return advance(step)


def skip(step: Step, cmd: Skip) -> Transition:
    """The current speaker passes."""
    _require_speaker(step.state, cmd.seat)
    return _record_skip(step, cmd.seat, "skipped")


def on_expire(step: Step) -> Transition:
    """The speaker ran out of time: an empty speech, and the floor moves on."""
    seat = step.state.current_speaker_seat
    assert seat is not None
    return _record_skip(step, seat, "timeout")


def advance(step: Step) -> Transition:
    """Give the floor to the next living seat in order, or open the vote."""
    state = step.state
    order = state.speaking_order
    assert state.current_speaker_seat is not None
    rest = order[order.index(state.current_speaker_seat) + 1:]
    nxt = next((seat for seat in rest if state.players[seat].alive), None)
    if nxt is None:
        return VoteRound()
    state.current_speaker_seat = nxt
    step.start_clock(state.config.speak_timeout, "speak_expire")
    _announce_turn(step)
    return None


def after_concede(step: Step, seat: int) -> Transition:
    """A seat left during speaking: drop it from a PK, pass the floor if it held it."""
    state = step.state
    if state.pk and seat in state.pk_candidates:
        state.pk_candidates.remove(seat)
    if state.current_speaker_seat == seat:
        return advance(step)
    return None


def _record_skip(step: Step, seat: int, reason: str) -> Transition:
    step.emit("speech_skipped", "public", seat=seat, round=step.state.round_index, reason=reason, pk=step.state.pk)
    return advance(step)


def _announce_turn(step: Step) -> None:
    state = step.state
    seat = state.current_speaker_seat
    step.emit("your_turn_to_speak", f"private:seat:{seat}", seat=seat, round=state.round_index,
              deadline_ts=state.deadline_ts, pk=state.pk)


def _require_speaker(state: MatchState, seat: int) -> None:
    require_in_progress(state)
    require_living(state, seat)
    require_stage(state, "speak")
    if state.current_speaker_seat != seat:
        raise GameError("not_your_turn_to_speak", "another seat holds the floor",
                        current_speaker_seat=state.current_speaker_seat)
