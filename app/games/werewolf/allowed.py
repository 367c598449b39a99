"""`you.allowed_actions`: what a seat may send right now, so an agent can act without the rules table.

One entry per action, in the order an agent would usually consider them: a dead seat's due action (shoot, or
last_words and skip), the night role's actions (one `night_action` entry per `action`, with `targets`), the
day's speak and skip, or vote; whisper (wolves at night); the kit adds concede. `deadline_ts` (epoch seconds)
is when the clock runs out. A seat that may send nothing gets `[]`.
"""

from __future__ import annotations

from typing import Any

from app.games.kit import voting as tally
from app.games.werewolf import night, pending, whisper, witch
from app.games.werewolf.state import MatchState, Player


def allowed_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """The actions `seat` may send in a running match (a dead seat: its due shot or last words)."""
    player = state.players[seat]
    timed = {"deadline_ts": state.deadline_ts}
    actions = _dead_actions(state, seat, timed)
    if not player.alive:
        return actions
    actions += _night_actions(state, player, timed)
    if state.stage == "speak" and state.current_speaker_seat == seat:
        actions += [{"type": "speak", **timed}, {"type": "skip", **timed}]
    if state.stage == "vote" and seat in tally.voters(state) and seat not in state.votes:
        actions.append({"type": "vote", "targets": tally.targets_for(state, seat), **timed})
    if state.config.allow_whisper and state.stage == "night" and player.role == "werewolf":
        fellows = whisper.fellows(state, seat)
        if fellows:
            actions.append({"type": "whisper", "targets": fellows})
    return actions


def _dead_actions(state: MatchState, seat: int, timed: dict[str, Any]) -> list[dict[str, Any]]:
    head = pending.head(state)
    if head is None or head.seat != seat:
        return []
    if head.kind == "shoot":
        return [{"type": "shoot", "targets": pending.shoot_targets(state), **timed}]
    return [{"type": "last_words", **timed}, {"type": "skip", **timed}]


def _night_actions(state: MatchState, player: Player, timed: dict[str, Any]) -> list[dict[str, Any]]:
    if state.stage != "night":
        return []
    options = _night_options(state, player)
    rows = [{"type": "night_action", "action": name, "targets": targets, **timed} for name, targets in options]
    # A witch with no usable potion tonight is still woken: she may always pass.
    due = rows or player.seat in night.due_seats(state)
    return rows + ([{"type": "night_action", "action": "pass", **timed}] if due else [])


def _night_options(state: MatchState, player: Player) -> list[tuple[str, list[int]]]:
    n, seat = state.night, player.seat
    if n.step == "witch":
        if player.role != "witch" or n.witch_done:
            return []
        saves, poisons = witch.save_targets(state, seat), witch.poison_targets(state, seat)
        return ([("save", saves)] if saves else []) + ([("poison", poisons)] if poisons else [])
    if player.role == "werewolf" and not n.wolves_done:
        return [("kill", night.kill_targets(state))]
    if player.role == "seer" and not n.seer_done:
        return [("check", night.check_targets(state, seat))]
    if player.role == "guard" and not n.guard_done:
        return [("guard", night.guard_targets(state))]
    return []
