"""What each viewer reads: a seat's own block (`you`), what it may send (`allowed`), the public snapshot fields,
the god-only ones, and the role sets the visibilities use (`private:role:evil`: the evil seats but Oberon)."""

from __future__ import annotations

from typing import Any

from app.games.avalon.rules import KNOWS_EVIL, assassin_targets, knowledge, lady_targets, side
from app.games.avalon.state import State
from app.games.kit import KitSeat
from app.games.kit.game import ENDED

YOUR_TURN = frozenset({"propose", "speak", "vote", "quest", "lady", "assassinate"})


def next_action(state: State, seat: int) -> str:
    """propose, speak, vote, quest, lady, assassinate, confer (evil seats while the assassin chooses) or wait;
    `none` once the match is over (the protocol's value), `wait_for_next_phase` before it starts."""
    if state.status in ENDED:
        return "none"
    if state.status != "in_progress":
        return "wait_for_next_phase"
    if not state.players[seat].alive:
        return "wait"
    phase, role = state.phase, state.role(seat)
    if phase == "propose" and seat == state.leader:
        return "propose"
    if phase == "discuss" and seat == state.speaker:
        return "speak"
    if phase == "vote" and seat not in state.votes:
        return "vote"
    if phase == "quest" and seat in state.team and seat not in state.cards:
        return "quest"
    if phase == "lady" and seat == state.lady:
        return "lady"
    if phase == "assassinate" and role == "assassin":
        return "assassinate"
    if phase == "assassinate" and role in KNOWS_EVIL:
        return "confer"
    return "wait"


def you(state: State, seat: int) -> dict[str, Any]:
    action = next_action(state, seat)
    role = state.players[seat].role
    block: dict[str, Any] = {"role": role, "side": side(role) if role else None,
                             "your_turn": action in YOUR_TURN, "next_action": action}
    if role is None:
        return block
    block.update(knowledge(state, seat))
    block["is_leader"] = state.status == "in_progress" and seat == state.leader
    block["on_team"] = seat in state.team
    block["your_vote"] = state.votes.get(seat)
    block["your_card"] = state.cards.get(seat)
    if state.lady_checks:
        block["lady_results"] = [c for c in state.lady_checks if c["seat"] == seat]
    return block


def allowed(state: State, seat: int) -> list[dict[str, Any]]:
    action, timed = next_action(state, seat), {"deadline_ts": state.deadline_ts}
    everyone = [p.seat for p in state.players]
    table: dict[str, list[dict[str, Any]]] = {
        "propose": [{"type": "propose", "team_size": state.team_size, "targets": everyone, **timed}],
        "speak": [{"type": "speak", **timed}, {"type": "skip", **timed}],
        "vote": [{"type": "vote", "choice": c, "team": state.team, **timed} for c in ("approve", "reject")],
        "quest": [{"type": "quest", "card": c, **timed} for c in ("success", "fail")[:1 + state.evil(seat)]],
        "lady": [{"type": "lady", "targets": lady_targets(state), **timed}],
        "assassinate": [{"type": "assassinate", "targets": assassin_targets(state, seat), **timed},
                        {"type": "confer", **timed}],
        "confer": [{"type": "confer", **timed}],
    }
    return table.get(action, [])  # the kit adds concede


def public(state: State) -> dict[str, Any]:
    running = state.status == "in_progress"
    return {
        "quest_no": state.quest if state.status != "waiting" else None,
        "quest_sizes": list(state.config.quest_sizes),
        "fails_needed": [state.config.fails_needed(q) for q in range(1, 6)],
        "quests": state.quests,
        "leader_seat": state.leader if running else None,
        "proposal_no": state.proposal if running else None,
        "team": state.team if running and state.phase in ("discuss", "vote", "quest") else [],
        "current_speaker_seat": state.speaker if running else None,
        "voted_seats": sorted(state.votes) if running and state.phase == "vote" else [],
        "played_seats": sorted(state.cards) if running and state.phase == "quest" else [],
        "proposals": state.proposals,
        "lady_seat": state.lady,
        "lady_examinations": [{"seat": c["seat"], "target_seat": c["target_seat"]} for c in state.lady_checks],
        "assassin_seat": state.seats_of("assassin")[0] if state.phase == "assassinate" else None,
        "deadline_ts": state.deadline_ts,
        "round_index": state.quest,
        "alive_count": len(state.seated()),
        "result": state.result,
    }


def god(state: State) -> dict[str, Any]:
    return {"roles": {str(p.seat): p.role for p in state.players if p.role},
            "votes": {str(s): v for s, v in sorted(state.votes.items())},
            "cards": state.card_log + [{"quest": state.quest, "seat": s, "card": c}
                                       for s, c in sorted(state.cards.items())],
            "lady_results": state.lady_checks}


def row(state: State, p: KitSeat, god_view: bool) -> dict[str, Any]:
    extra: dict[str, Any] = {"conceded": True} if p.conceded else {}
    if p.taken_over:
        extra["taken_over"] = True
    return {**extra, **({"role": p.role, "side": side(p.role) if p.role else None} if god_view else {})}


def role_set(state: State, seat: int) -> frozenset[str]:
    player = state.seat(seat)
    if player is None or player.role is None:
        return frozenset()
    return frozenset({player.role, "evil"} if player.role in KNOWS_EVIL else {player.role})


def side_of(state: State, p: KitSeat) -> str:
    return side(p.role)
