"""Pure projections of a match for one viewer; the HTTP layer adds viewer_role and logs.

`next_action` uses the spec's values (`speak`, `vote`, `wait_for_speak_round`, `wait_for_vote_resolution`,
`wait_for_next_phase`, `eliminated`, `none`) plus `night_action` (a night role the night waits for),
`shoot` (the hunter who just died) and `last_words` (a dead seat whose last words are due). `your_turn` is
true exactly for `night_action`, `speak`, `vote`, `shoot` and `last_words`. A wolf that has chosen a victim
waits (`wait_for_next_phase`) while the pack agrees; it may still change its choice.
"""

from __future__ import annotations

from typing import Any

from app.games.base import GameError
from app.games.kit import voting as tally
from app.games.werewolf import deaths, night, pending, witch
from app.games.werewolf.allowed import allowed_actions
from app.games.werewolf.state import MatchState, Player

ACTING = frozenset({"night_action", "speak", "vote", "shoot", "last_words"})


def players_view(state: MatchState, *, god: bool) -> list[dict[str, Any]]:
    """The table; a dead seat's shown card; every seat's role, camp and cause of death only with `god=True`."""
    rows = []
    for p in state.players:
        row: dict[str, Any] = {"seat": p.seat, "name": p.name, "display_name": p.display_name, "alive": p.alive}
        if p.taken_over:
            row["taken_over"] = True
        if not p.alive:
            row.update(died_in=p.died_in, conceded=p.conceded, **deaths.revealed(state, p.seat))
        if god:
            row.update(role=p.role, camp=p.camp, death_cause=p.death_cause)
        rows.append(row)
    return rows


def you_view(state: MatchState, seat: int) -> dict[str, Any]:
    """The `you` block of a player's snapshot: its role and what that role knows."""
    player = state.seat(seat)
    if player is None:
        raise GameError("agent_not_in_match", f"there is no seat {seat}", seat=seat)
    action = next_action(state, seat)
    you: dict[str, Any] = {
        "seat": seat,
        "alive": player.alive,
        "role": player.role,
        "camp": player.camp,
        "your_turn": action in ACTING,
        "next_action": action,
        "has_voted_this_round": (seat in state.votes) if state.stage == "vote" else None,
        "allowed_actions": allowed_actions(state, seat),
    }
    you.update(_knowledge(state, player))
    return you


def _knowledge(state: MatchState, player: Player) -> dict[str, Any]:
    if player.role == "werewolf":
        choices = state.night.wolf_choices if state.stage == "night" else {}
        return {"fellow_wolves": state.seats_with("werewolf"),
                "pack_choices": {str(s): t for s, t in sorted(choices.items())}}
    if player.role == "seer":
        return {"seer_checks": [c.model_dump() for c in state.seer_checks]}
    if player.role == "witch":
        informed = state.stage == "night" and state.night.witch_informed
        return {"potions": {"antidote": state.antidote, "poison": state.poison},
                "night_victim": state.night.victim if informed else None}
    if player.role == "guard":
        return {"last_guarded": state.last_guarded}
    return {}


def next_action(state: MatchState, seat: int) -> str:
    """What `seat` should do now."""
    if state.status in ("finished", "aborted"):
        return "none"
    if state.status == "waiting":
        return "wait_for_next_phase"
    head = pending.head(state)
    if head is not None and head.seat == seat:
        return "shoot" if head.kind == "shoot" else "last_words"
    if not state.players[seat].alive:
        return "eliminated"
    if state.stage == "night":
        return "night_action" if seat in night.due_seats(state) else "wait_for_next_phase"
    if state.stage == "speak":
        return "speak" if state.current_speaker_seat == seat else "wait_for_speak_round"
    if state.stage == "vote":
        can_vote = seat in tally.voters(state) and seat not in state.votes
        return "vote" if can_vote else "wait_for_vote_resolution"
    return "wait_for_next_phase"


def public_fields(state: MatchState) -> dict[str, Any]:
    """Snapshot fields every viewer sees."""
    head = pending.head(state)
    return {
        "round_index": state.round_index,
        "is_night": state.stage == "night",
        "current_speaker_seat": state.current_speaker_seat,
        "acting_seat": head.seat if head else None,
        "deadline_ts": state.deadline_ts,
        "alive_count": len(state.living_seats()),
        "alive_seats": state.living_seats(),
        "pk_candidates": list(state.pk_candidates),
        "composition": dict(state.config.roles),
        "result": state.result,
    }


def god_fields(state: MatchState) -> dict[str, Any]:
    """Snapshot fields only for god views: every seat's role and what the night roles did."""
    return {
        "roles": {str(p.seat): p.role for p in state.players} if state.status != "waiting" else None,
        "night_actions": {**state.night.model_dump(mode="json"), "last_guarded": state.last_guarded,
                          "antidote": state.antidote, "poison": state.poison,
                          "save_targets": _save_targets(state)},
    }


def _save_targets(state: MatchState) -> list[int]:
    holder = state.holder("witch")
    return witch.save_targets(state, holder.seat) if holder and state.stage == "night" else []


def role_set(state: MatchState, seat: int) -> frozenset[str]:
    """The roles `seat` holds, for `private:role:R` visibility (empty before the deal)."""
    player = state.seat(seat)
    if player is None or player.role is None:
        return frozenset()
    return frozenset({player.role})
