"""A seat dies: what the state records, and what the public is shown (`reveal_role_on_death`).

`none` shows nothing of the dead seat's card, `team` its camp, `role` its role (and camp). Some deaths
show the card whatever the config: a concession (spec §2.8) shows the role, and so does a hunter's
shot (turning the card over is how he shoots). How a seat died at night is never public.
"""

from __future__ import annotations

from typing import Any

from app.games.werewolf.state import DeathCause, MatchState, Pending, Step


def kill(state: MatchState, seat: int, cause: DeathCause, died_in: str) -> dict[str, Any]:
    """Mark `seat` dead; return the revealed fields its public `player_eliminated` carries."""
    player = state.players[seat]
    player.alive = False
    player.death_cause = cause
    player.died_in = died_in
    mode = "role" if cause == "conceded" else state.config.reveal_role_on_death
    if mode in ("team", "role"):
        player.revealed_camp = player.camp
    if mode == "role":
        player.revealed_role = player.role
    return revealed(state, seat)


def revealed(state: MatchState, seat: int) -> dict[str, Any]:
    """The public card fields of a dead seat (only the ones shown)."""
    player = state.players[seat]
    fields: dict[str, Any] = {}
    if player.revealed_camp is not None:
        fields["revealed_camp"] = player.revealed_camp
    if player.revealed_role is not None:
        fields["revealed_role"] = player.revealed_role
    return fields


def announce(step: Step, seat: int, **fields: Any) -> None:
    """The public `player_eliminated` of one death."""
    step.emit("player_eliminated", "public", seat=seat, round=step.state.round_index, **fields,
              **revealed(step.state, seat))


def hunter_shot_due(state: MatchState, seat: int, *, last_words: bool) -> list[Pending]:
    """A hunter killed by the wolves or voted out shoots (a poisoned or conceding one does not)."""
    player = state.players[seat]
    if player.role == "hunter" and player.death_cause in ("killed", "voted"):
        return [Pending(seat=seat, kind="shoot", last_words_for_victim=last_words)]
    return []
