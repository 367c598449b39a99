"""`you.allowed_actions`: what a seat may send right now, so an agent can act without the rules table.

One entry per action type, in the order an agent would usually consider them: the pending reveal action, the
turn's action (speak and skip, debate and debate_pass, or vote), whisper; the kit adds concede. `targets` lists
the seats a vote or whisper may name; `deadline_ts` (epoch seconds) is when the phase's clock runs out; a debate
entry adds `max_chars` and `messages_left`. A seat that may send nothing gets `[]`.
"""

from __future__ import annotations

from typing import Any

from app.games.kit.voting import targets_for, voters
from app.games.undercover.config import DEBATE_MAX_CHARS, DEBATE_MAX_MESSAGES
from app.games.undercover.state import MatchState, Player


def allowed_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """The actions `seat` may send in a running match (a seat voted out: its pending reveal action)."""
    player = state.players[seat]
    timed = {"deadline_ts": state.deadline_ts}
    actions: list[dict[str, Any]] = [{"type": a.kind, **timed} for a in state.pending if a.seat == seat]
    if not player.alive:
        return actions
    if state.stage == "speak" and state.current_speaker_seat == seat:
        actions += [{"type": "speak", **timed}, {"type": "skip", **timed}]
    if state.stage == "debate" and seat not in state.debate_done:
        left = DEBATE_MAX_MESSAGES - state.debate_posts.get(seat, 0)
        actions += [{"type": "debate", "max_chars": DEBATE_MAX_CHARS, "messages_left": left, **timed},
                    {"type": "debate_pass", **timed}]
    if state.stage == "vote" and seat in voters(state) and seat not in state.votes:
        actions.append({"type": "vote", "targets": targets_for(state, seat), **timed})
    fellows = _whisper_targets(state, player)
    if fellows:
        actions.append({"type": "whisper", "targets": fellows})
    return actions


def _whisper_targets(state: MatchState, player: Player) -> list[int]:
    if not state.config.allow_whisper or player.role != "undercover":
        return []
    return [s for s in state.alive_with("undercover") if s != player.seat]
