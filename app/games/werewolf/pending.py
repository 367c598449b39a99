"""The dead who still act, one at a time: `hunter_round_N` (the shot) and `last_words_round_N`.

- The hunter has `speak_timeout` seconds to `shoot` a living seat, or pass (`target_seat: null`);
  silence passes. The shot is public and shows his card; its victim dies at once (the win is checked),
  and gets last words when the hunter's own death gave last words (a vote, or night 1 with
  `first_night_last_words`).
- Last words (`last_words`, or `speak`; `skip` passes) have `speak_timeout` seconds; silence passes.
- When the queue is empty the day's speeches start (after a night), or the next night falls (after a vote).
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit.checks import clean_text, require_in_progress, require_seat
from app.games.kit.dispatch import Cue
from app.games.kit.transitions import SpeakRound
from app.games.werewolf import deaths, ending
from app.games.werewolf.checks import require_target
from app.games.werewolf.commands import LastWordsRequest, ShootRequest, SpeakRequest
from app.games.werewolf.state import MatchState, Pending, Player, Step, TimerKind
from app.games.werewolf.transitions import NEXT_PENDING, NightFalls, Transition


def head(state: MatchState) -> Pending | None:
    """The dead seat whose action the match waits for, if any."""
    return state.pending[0] if state.pending and state.stage in ("hunter", "last_words") else None


def shoot_targets(state: MatchState) -> list[int]:
    """Seats the hunter may shoot: every living seat."""
    return state.living_seats()


def open_next(step: Step, _: Cue) -> Transition:
    """Open the next queued action, or leave the queue for the day or the night."""
    state = step.state
    if not state.pending:
        return NightFalls(state.round_index + 1) if state.then_night else SpeakRound()
    nxt = state.pending[0]
    stage = "hunter" if nxt.kind == "shoot" else "last_words"
    state.phase = f"{stage}_round_{state.round_index}"
    state.current_speaker_seat = None
    kind: TimerKind = "shoot_expire" if nxt.kind == "shoot" else "last_words_expire"
    deadline = step.start_clock(state.config.speak_timeout, kind)
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index, deadline_ts=deadline,
              seat=nxt.seat)
    if nxt.kind == "shoot":
        step.emit("your_turn_to_shoot", f"private:seat:{nxt.seat}", seat=nxt.seat, round=state.round_index,
                  deadline_ts=deadline, eligible_targets=shoot_targets(state))
    else:
        step.emit("your_turn_to_speak", f"private:seat:{nxt.seat}", seat=nxt.seat, round=state.round_index,
                  deadline_ts=deadline, last_words=True)
    return None


def _require_head(state: MatchState, seat: int, kind: str, code: str) -> Pending:
    require_in_progress(state)
    require_seat(state, seat)
    current = head(state)
    if current is None or current.seat != seat or current.kind != kind:
        raise GameError(code, f"it is not your turn to {kind.replace('_', ' ')}", phase=state.phase)
    return current


def shoot(step: Step, hunter: Player, req: ShootRequest) -> Transition:
    """The hunter's shot, or his pass."""
    state = step.state
    current = _require_head(state, hunter.seat, "shoot", "not_your_shot")
    if req.target_seat is None:
        return _pass(step, hunter.seat, "passed")
    target = require_target(req.target_seat, shoot_targets(state))
    hunter.revealed_role, hunter.revealed_camp = hunter.role, hunter.camp
    state.pending.pop(0)
    step.emit("hunter_shot", "public", seat=hunter.seat, round=state.round_index, target_seat=target,
              revealed_role=hunter.role)
    deaths.kill(state, target, "shot", f"day_{state.round_index}")
    deaths.announce(step, target, cause="shot")
    if ending.finish_if_won(step):
        return None
    if current.last_words_for_victim:
        state.pending.append(Pending(seat=target, kind="last_words"))
    return NEXT_PENDING


def _pass(step: Step, seat: int, reason: str) -> Transition:
    step.state.pending.pop(0)
    step.emit("hunter_passed", "public", seat=seat, round=step.state.round_index, reason=reason)
    return NEXT_PENDING


def last_words_action(step: Step, player: Player, req: LastWordsRequest) -> Transition:
    """The `last_words` action: only while last words are due."""
    require_in_progress(step.state)
    if step.state.stage != "last_words":
        raise GameError("wrong_phase", "no last words are due now", phase=step.state.phase)
    return last_words(step, player, req)


def last_words(step: Step, player: Player, req: LastWordsRequest | SpeakRequest) -> Transition:
    """The head seat's last words (`last_words`, or `speak` while they are due)."""
    state = step.state
    _require_head(state, player.seat, "last_words", "not_your_turn_to_speak")
    text = clean_text(req.text)
    state.pending.pop(0)
    step.emit("last_words_posted", "public", seat=player.seat, round=state.round_index, text=text)
    return NEXT_PENDING


def skip(step: Step, player: Player, _req: object) -> Transition:
    """The head seat passes its last words (`skip` while they are due)."""
    _require_head(step.state, player.seat, "last_words", "not_your_turn_to_speak")
    return _skip(step, player.seat, "skipped")


def _skip(step: Step, seat: int, reason: str) -> Transition:
    step.state.pending.pop(0)
    step.emit("last_words_skipped", "public", seat=seat, round=step.state.round_index, reason=reason)
    return NEXT_PENDING


def on_shoot_expire(step: Step) -> Transition:
    """The hunter stayed silent: no shot."""
    return _pass(step, step.state.pending[0].seat, "timeout")


def on_last_words_expire(step: Step) -> Transition:
    """Silence: no last words."""
    return _skip(step, step.state.pending[0].seat, "timeout")
