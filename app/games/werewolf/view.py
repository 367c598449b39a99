"""Pure projections of a match for one viewer; the HTTP layer adds viewer_role and logs.

`next_action` uses the spec's values (`speak`, `vote`, `wait_for_speak_round`, `wait_for_vote_resolution`,
`wait_for_next_phase`, `eliminated`, `none`) plus `night_action` (a night role the night waits for),
`shoot` (the hunter who just died) and `last_words` (a dead seat whose last words are due). `your_turn` is
true exactly for `night_action`, `speak`, `vote`, `shoot` and `last_words`. A wolf that has chosen a victim
waits (`wait_for_next_phase`) while the pack agrees; it may still change its choice.
"""

from __future__ import annotations

from typing import Any

from app.games.base import Event
from app.games.kit import voting as tally
from app.games.kit.voting import voters
from app.games.werewolf import deaths, night, pending, witch
from app.games.werewolf.state import MatchState, Player

ACTING = frozenset({"night_action", "speak", "vote", "shoot", "last_words"})


def row(state: MatchState, p: Player, god: bool) -> dict[str, Any]:
    """A seat's row besides seat, name, display_name and alive: a dead seat's shown card; its role, camp and cause
    of death only with `god=True`."""
    row: dict[str, Any] = {}
    if p.taken_over:
        row["taken_over"] = True
    if not p.alive:
        row.update(died_in=p.died_in, conceded=p.conceded, **deaths.revealed(state, p.seat))
    if god:
        row.update(role=p.role, camp=p.camp, death_cause=p.death_cause)
    return row


def you(state: MatchState, seat: int) -> dict[str, Any]:
    """The `you` block of a player's snapshot besides seat, alive and allowed_actions: its role and what that role
    knows."""
    player = state.players[seat]
    action = next_action(state, seat)
    return {
        "role": player.role,
        "camp": player.camp,
        "your_turn": action in ACTING,
        "next_action": action,
        "has_voted_this_round": (seat in state.votes) if state.stage == "vote" else None,
        **_knowledge(state, player),
    }


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
    if (off := tally.off_table_action(state)) is not None:
        return off
    head = pending.head(state)
    if head is not None and head.seat == seat:
        return "shoot" if head.kind == "shoot" else "last_words"
    if not state.players[seat].alive:
        return "eliminated"
    if state.stage == "night":
        return "night_action" if seat in night.due_seats(state) else "wait_for_next_phase"
    return tally.day_action(state, state.stage, seat) or "wait_for_next_phase"


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


def response(state: MatchState, seat: int | None, events: list[Event]) -> dict[str, Any]:
    """Speech progress; votes in and your vote; the round's result; what the seat's night action taught it
    (`seer_result`, `pack_decision`, `pack_split`)."""
    body: dict[str, Any] = {}
    if any(e["type"] in ("speech_posted", "speech_skipped") and e.get("seat") == seat for e in events):
        body["next_speaker_seat"] = state.current_speaker_seat
    if state.stage == "vote" and seat is not None and seat in voters(state):
        body.update(votes_in=f"{len(state.votes)}/{len(voters(state))}", your_vote=state.votes.get(seat))
    for event in events:
        if event["type"] == "round_resolved":
            body["round_result"] = {k: v for k, v in event.items() if k not in ("seq", "type", "visibility", "ts")}
        if event["type"] == "vote_tied":
            body["tie"] = {k: event[k] for k in ("tied_seats", "vote_breakdown", "next")}
    if seat is not None:
        body.update(_night_answers(state, seat, events))
    return body


_NIGHT_ANSWERS = {"seer_result": "seer_result", "wolves_decided": "pack_decision", "pack_split": "pack_split",
                  "witch_informed": "witch_informed"}


def _night_answers(state: MatchState, seat: int, events: list[Event]) -> dict[str, Any]:
    """What the acting seat learnt at night from its own action, taken only from events it may see."""
    role = state.players[seat].role
    mine = {"public", f"private:seat:{seat}", *([f"private:role:{role}"] if role else [])}
    return {_NIGHT_ANSWERS[e["type"]]: {k: v for k, v in e.items() if k not in ("seq", "type", "visibility", "ts")}
            for e in events if e["type"] in _NIGHT_ANSWERS and e["visibility"] in mine}
