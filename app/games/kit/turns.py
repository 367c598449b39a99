"""The phase kit "speak once each in an order": a floor that passes from seat to seat.

`speak_round_N` opens with an order (every living seat, or a PK's tied seats with `pk=True`); the seat holding the
floor has `config.speak_timeout` seconds (with `warning`: a private `turn_warning` at half time); a `skip`, or the
clock running out, is a public `speech_skipped` (`reason` skipped or timeout) and the floor moves on to the next
living seat of the order; after the last one the game's `done` says what follows. The public events say where the
floor is, so a page need not work it out: `phase_started` names the first speaker (`current_speaker_seat`), and
the event that passes the floor (`speech_posted`, `speech_skipped`, or the `player_conceded` of the seat that held
it) names the next one and its deadline (`next_speaker_seat`, `deadline_ts`; null when the floor closes). A seat
that leaves drops out of a PK (when the PK falls below two seats, `pk_broken` says what follows) and passes the
floor if it held it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.games.base import GameError
from app.games.kit.checks import is_private, require_in_progress, require_living, require_stage

SPEAK_EXPIRE, SPEAK_WARNING = "speak_expire", "speak_warning"


@dataclass(frozen=True)
class SpeakRound:
    """A transition: open `speak_round_N` (with `round_index`: of that round, else of the state's)."""

    round_index: int | None = None


@dataclass(frozen=True)
class PkRound:
    """A transition: a tie under `tie_break=revote`; the tied seats speak again, in seat order, then the others vote
    among them (`Turns.open_pk`)."""

    tied: tuple[int, ...]


@dataclass(frozen=True)
class Turns:
    """One game's floor: what follows the last speaker, whether a half-time warning runs, what a broken PK does."""

    done: Callable[[Any], object]
    warning: bool = False
    pk_broken: Callable[[Any], object] | None = None

    def open(self, step: Any, order: list[int], *, pk: bool) -> None:
        """Open `speak_round_N` (the state's round) with `order`; the first seat has the floor."""
        state = step.state
        state.phase = f"speak_round_{state.round_index}"
        state.pk = pk
        state.speaking_order = order
        state.votes = {}
        state.current_speaker_seat = order[0]
        deadline = self._clock(step)
        step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
                  deadline_ts=deadline, pk=pk, speaking_order=order, current_speaker_seat=order[0])
        self._announce(step)

    def open_pk(self, step: Any, nxt: PkRound) -> object:
        """The opener of `PkRound`: the tied seats are the PK's candidates and speak again, in seat order."""
        step.state.pk_candidates = list(nxt.tied)
        self.open(step, list(nxt.tied), pk=True)
        return None

    def advance(self, step: Any, passed_by: dict[str, Any] | None) -> object:
        """Give the floor to the next living seat in order, or, after the last one, `done`; `passed_by` (the public
        event that passed the floor) says to whom (`next_speaker_seat`) and until when (`deadline_ts`)."""
        state = step.state
        order = state.speaking_order
        rest = order[order.index(state.current_speaker_seat) + 1:]
        nxt = next((seat for seat in rest if state.players[seat].alive), None)
        if nxt is None:
            _tell(passed_by, None, None)
            return self.done(step)
        state.current_speaker_seat = nxt
        _tell(passed_by, nxt, self._clock(step))
        self._announce(step)
        return None

    def speech(self, step: Any, seat: int, text: str, analysis: dict[str, Any] | None, **flags: Any) -> object:
        """The speaker's checked speech (`speech_posted`, public; a private analysis to the seat alone), and the
        floor moves on."""
        state = step.state
        public = {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}
        posted = step.emit("speech_posted", "public", seat=seat, round=state.round_index, text=text, pk=state.pk,
                           **public, **flags)
        if is_private(analysis):
            step.emit("analysis_recorded", f"private:seat:{seat}", seat=seat, round=state.round_index,
                      action="speak", analysis=analysis)
        return self.advance(step, posted)

    def skip(self, step: Any, player: Any, _request: object = None) -> object:
        """The `skip` action: the speaker passes (an empty speech)."""
        require_speaker(step.state, player.seat)
        return self.skipped(step, player.seat, "skipped")

    def skipped(self, step: Any, seat: int, reason: str) -> object:
        """A public `speech_skipped`, and the floor moves on."""
        skipped = step.emit("speech_skipped", "public", seat=seat, round=step.state.round_index, reason=reason,
                            pk=step.state.pk)
        return self.advance(step, skipped)

    def on_warning(self, step: Any) -> object:
        """Half the speaking time is gone: remind the speaker privately."""
        state = step.state
        seat = state.current_speaker_seat
        step.emit("turn_warning", f"private:seat:{seat}", seat=seat, round=state.round_index,
                  deadline_ts=state.deadline_ts)
        step.arm(SPEAK_EXPIRE, state.deadline_at)
        return None

    def on_expire(self, step: Any) -> object:
        """The speaker ran out of time: an empty speech, and the floor moves on."""
        return self.skipped(step, step.state.current_speaker_seat, "timeout")

    def leave(self, step: Any, seat: int) -> object:
        """`seat` left while the floor runs: out of a PK, and the floor passes on if it held it."""
        state = step.state
        if state.pk and seat in state.pk_candidates:
            state.pk_candidates.remove(seat)
            if self.pk_broken is not None and len(state.pk_candidates) < 2:
                return self.pk_broken(step)
        if state.current_speaker_seat != seat:
            return None
        conceded = next((e for e in reversed(step.events) if e["type"] == "player_conceded" and e["seat"] == seat),
                        None)
        return self.advance(step, conceded)

    @property
    def timers(self) -> dict[str, Callable[[Any], object]]:
        """The floor's timer kinds and their handlers."""
        return {SPEAK_EXPIRE: self.on_expire, **({SPEAK_WARNING: self.on_warning} if self.warning else {})}

    def _clock(self, step: Any) -> int:
        warning = SPEAK_WARNING if self.warning else None
        return int(step.start_clock(step.state.config.speak_timeout, SPEAK_EXPIRE, warning=warning))

    def _announce(self, step: Any) -> None:
        state = step.state
        seat = state.current_speaker_seat
        step.emit("your_turn_to_speak", f"private:seat:{seat}", seat=seat, round=state.round_index,
                  deadline_ts=state.deadline_ts, pk=state.pk)


def _tell(event: dict[str, Any] | None, seat: int | None, deadline: int | None) -> None:
    """Name the next speaker and its deadline on an emitted event (its `ts` stays the last key)."""
    if event is None:
        return
    ts = event.pop("ts")
    event.update(next_speaker_seat=seat, deadline_ts=deadline, ts=ts)


def require_speaker(state: Any, seat: int) -> Any:
    """The acting seat, which must hold the floor of a running `speak_round_N`."""
    require_in_progress(state)
    player = require_living(state, seat)
    require_stage(state, "speak")
    if state.current_speaker_seat != seat:
        raise GameError("not_your_turn_to_speak", "another seat has the floor",
                        current_speaker_seat=state.current_speaker_seat)
    return player
