"""The wolves' night talk: the protocol's `whisper`, only at night, only between living wolves.

With `allow_whisper` (default on). By day every seat gets `wrong_phase`; at night any non-wolf gets
`whisper_target_not_fellow` whatever the target, so neither error is an oracle for a role. The text
reaches `private:role:werewolf` (the whole pack, the named seat included); the public sees nothing.
"""

from __future__ import annotations

from app.games.kit.checks import require_whisper
from app.games.werewolf.commands import WhisperRequest
from app.games.werewolf.state import MatchState, Player, Step
from app.games.werewolf.transitions import Transition


def fellows(state: MatchState, seat: int) -> list[int]:
    """The living wolves `seat` may whisper to."""
    return [s for s in state.alive_with("werewolf") if s != seat]


def whisper(step: Step, player: Player, cmd: WhisperRequest) -> Transition:
    """Deliver a whisper to the pack."""
    state = step.state
    _, text = require_whisper(state, player.seat, "werewolf", cmd.target_seat, cmd.text, stage="night")
    step.emit("whisper_received", "private:role:werewolf", from_seat=player.seat, to_seat=cmd.target_seat,
              round=state.round_index, text=text)
    return None
