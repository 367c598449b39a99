"""`speak_round_N`: by day every living seat speaks once, in ascending seat order (the kit's `Turns`).

Each speaker has `speak_timeout` seconds; silence is recorded as `speech_skipped` (timeout). A PK
(`tie_break=revote`) reuses this phase with `pk=True`: only the tied seats speak, in seat order.
"""

from __future__ import annotations

from app.games.kit.checks import clean_text
from app.games.kit.transitions import VOTE_ROUND, SpeakRound
from app.games.kit.turns import Turns, require_speaker
from app.games.werewolf.checks import check_analysis
from app.games.werewolf.commands import SpeakRequest
from app.games.werewolf.state import Player, Step
from app.games.werewolf.transitions import Transition

TURNS = Turns(done=lambda step: VOTE_ROUND)


def open_round(step: Step, _: SpeakRound) -> Transition:
    """Enter `speak_round_N` with every living seat in seat order."""
    TURNS.open(step, step.state.living_seats(), pk=False)
    return None


def speak(step: Step, player: Player, req: SpeakRequest) -> object:
    """The current speaker's public speech."""
    require_speaker(step.state, player.seat)
    text = clean_text(req.text)
    return TURNS.speech(step, player.seat, text, check_analysis(req.analysis))
