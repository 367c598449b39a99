"""`reveal_round_N`: what the seat just voted out may still do, then the next round or the end.

- With `blank_guess`, a blank voted out (by votes or by a tie-break draw) guesses the
  civilians' word once, before any end is declared; a right guess wins alone.
- With `last_words`, a seat voted out while the game goes on says one last thing (same text
  rules as a speech). A blank whose wrong guess would not end the game gets both actions, in
  any order.
- Both share one deadline of `speak_timeout` seconds; on expiry a missing guess counts as
  wrong (`word_guessed` with `guess: null`) and missing last words as `last_words_skipped`.
- With nothing pending the phase passes straight on in the same command.
"""

from __future__ import annotations

from app.games.base import GameError
from app.games.kit.checks import clean_text, require_seat
from app.games.kit.transitions import SpeakRound
from app.games.undercover import ending
from app.games.undercover.actions import GuessWordAction, LastWordsAction
from app.games.undercover.checks import check_said
from app.games.undercover.instructions import screen
from app.games.undercover.state import MatchState, Player, RevealAction, RevealKind, Step
from app.games.undercover.text import normalise
from app.games.undercover.transitions import Reveal, Transition


def open_reveal(step: Step, nxt: Reveal) -> Transition:
    """Enter `reveal_round_N` after the round's one `round_resolved`."""
    state = step.state
    state.phase = f"reveal_round_{state.round_index}"
    state.pk, state.pk_candidates, state.votes = False, [], {}
    state.current_speaker_seat = None
    state.pending = _pending_for(state, nxt.eliminated)
    if state.pending:
        step.start_clock(state.config.speak_timeout, "reveal_expire")
    else:
        step.stop_clock()
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
              deadline_ts=state.deadline_ts, pk=False)
    if not state.pending:
        return conclude(step)
    for action in state.pending:
        kind = "your_turn_to_guess" if action.kind == "guess_word" else "your_turn_for_last_words"
        step.emit(kind, f"private:seat:{action.seat}", seat=action.seat, round=state.round_index,
                  deadline_ts=state.deadline_ts)
    return None


def last_words(step: Step, player: Player, req: LastWordsAction) -> Transition:
    """The eliminated seat's public goodbye."""
    _require_pending(step.state, player.seat, "last_words")
    text = clean_text(req.text)
    check_said(step.state, player, text)
    flags = screen([text], compete_mode=step.state.config.compete_mode)
    step.emit("last_words_posted", "public", seat=player.seat, round=step.state.round_index, text=text, **flags)
    return _done(step, player.seat, "last_words")


def guess_word(step: Step, player: Player, req: GuessWordAction) -> Transition:
    """The eliminated blank names the civilians' word; right wins alone."""
    state = step.state
    _require_pending(state, player.seat, "guess_word")
    guess = clean_text(req.word, "word")
    flags = screen([guess], compete_mode=state.config.compete_mode, field="word")
    assert state.wordpair is not None
    correct = normalise(guess) == normalise(state.wordpair.civilian)
    step.emit("word_guessed", "public", seat=player.seat, round=state.round_index, guess=guess,
              correct=correct, **flags)
    if correct:
        ending.finish_blank(step, player.seat)
        return None
    return _done(step, player.seat, "guess_word")


def on_expire(step: Step) -> Transition:
    """The deadline passed: settle every pending action as not done."""
    state = step.state
    for action in state.pending:
        if action.kind == "guess_word":
            step.emit("word_guessed", "public", seat=action.seat, round=state.round_index, guess=None,
                      correct=False)
        else:
            step.emit("last_words_skipped", "public", seat=action.seat, round=state.round_index)
    state.pending = []
    return conclude(step)


def conclude(step: Step) -> Transition:
    """End the match if a camp has won or the last round is done; else start the next round."""
    state = step.state
    if ending.finish_if_won(step):
        return None
    if state.round_index >= state.config.max_rounds:
        ending.finish(step, "undercover", "max_rounds_reached")
        return None
    return SpeakRound(state.round_index + 1)


def _pending_for(state: MatchState, eliminated: int | None) -> list[RevealAction]:
    if eliminated is None:
        return []
    actions = []
    if state.config.blank_guess and state.players[eliminated].role == "blank":
        actions.append(RevealAction(seat=eliminated, kind="guess_word"))
    goes_on = ending.winner(state) is None and state.round_index < state.config.max_rounds
    if state.config.last_words and goes_on:
        actions.append(RevealAction(seat=eliminated, kind="last_words"))
    return actions


def _require_pending(state: MatchState, seat: int, kind: RevealKind) -> Player:
    if state.status in ("finished", "aborted"):
        raise GameError("match_finished", "the match is over", status=state.status)
    player = require_seat(state, seat)
    if any(a.seat == seat and a.kind == kind for a in state.pending):
        return player
    if state.status == "in_progress" and not player.alive:
        raise GameError("you_are_eliminated", "eliminated players can only watch", seat=seat)
    raise GameError("wrong_phase", f"{kind} is only for a seat just voted out", phase=state.phase)


def _done(step: Step, seat: int, kind: RevealKind) -> Transition:
    state = step.state
    state.pending = [a for a in state.pending if not (a.seat == seat and a.kind == kind)]
    return None if state.pending else conclude(step)
