"""`speak_round_N`: living seats speak one at a time, in seat order from the first speaker (the kit's `Turns`).

A PK (tie_break=revote) reuses this phase with `pk=True`: only the tied seats speak, in
ascending seat order. Each speaker has `speak_timeout` seconds, with a private
`turn_warning` at half time; on expiry the turn is recorded as `speech_skipped` (timeout).
"""

from __future__ import annotations

from app.games.kit.checks import clean_text, is_private
from app.games.kit.transitions import SpeakRound
from app.games.kit.turns import Turns, require_speaker
from app.games.undercover.actions import SpeakAction
from app.games.undercover.checks import check_analysis, check_said, remember_said
from app.games.undercover.instructions import screen, strings_of
from app.games.undercover.state import MatchState, Player, Step
from app.games.undercover.transitions import PK_CONCEDED, SPEECHES_DONE, Transition

TURNS = Turns(done=lambda step: SPEECHES_DONE, warning=True, pk_broken=lambda step: PK_CONCEDED)


def round_order(state: MatchState) -> list[int]:
    """Living seats in seat order, starting at the first living seat at/after the first speaker."""
    living = state.living_seats()
    first = state.first_speaker_seat or 0
    start = next((i for i, seat in enumerate(living) if seat >= first), 0)
    return living[start:] + living[:start]


def open_round(step: Step, nxt: SpeakRound) -> Transition:
    """Enter `speak_round_N` with every living seat in round order."""
    step.state.said = {}
    assert nxt.round_index is not None
    step.state.round_index = nxt.round_index
    TURNS.open(step, round_order(step.state), pk=False)
    return None


def speak(step: Step, player: Player, req: SpeakAction) -> object:
    """The current speaker's public description, checked for their own word."""
    require_speaker(step.state, player.seat)
    text = clean_text(req.text)
    state = step.state
    check_said(state, player, text)
    analysis = check_analysis(req.analysis, player)
    public = {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}
    flags = screen([text, *strings_of(public)], compete_mode=state.config.compete_mode)
    remember_said(state, player.seat, text)
    return TURNS.speech(step, player.seat, text, analysis, **flags)
