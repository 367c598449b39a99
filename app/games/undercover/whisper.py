"""Whispers between undercovers (spec §2.3.1), only with `allow_whisper`.

Only an undercover may whisper, and only to another living undercover. Civilians and blanks
always get `whisper_target_not_fellow`, whatever the target, so the error is no oracle for
anyone's role. The text passes the own-word check like a speech (after the fellow check, so the
refusal is no oracle either). It reaches `private:role:undercover`; the public only sees a count.
"""

from __future__ import annotations

from app.games.kit.checks import require_whisper
from app.games.undercover.actions import WhisperAction
from app.games.undercover.checks import check_secret
from app.games.undercover.instructions import screen
from app.games.undercover.state import Player, Step
from app.games.undercover.transitions import Transition


def whisper(step: Step, player: Player, req: WhisperAction) -> Transition:
    """Deliver a whisper to the undercovers and count it in public."""
    state = step.state
    sender, text = require_whisper(state, player.seat, "undercover", req.target_seat, req.text)
    check_secret(sender, text)
    flags = screen([text], compete_mode=state.config.compete_mode)
    state.whisper_count += 1
    step.emit("whisper_received", "private:role:undercover", from_seat=player.seat,
              to_seat=req.target_seat, text=text, **flags)
    step.emit("whisper_sent", "public", count=state.whisper_count)
    return None
