"""What each viewer sees: the public table, the god-only fields, a seat's `you` block and its allowed actions.

A seat sees `private:character:<its character>` events (`role_set`), `private:seat:<seat>` and the private chats
it is party to (`private:pair:<a>:<b>`). `you.unread_private_chats` holds the chats sent to the seat since its last
action that changed the match (read-only actions change nothing, so they do not mark chats read).
"""

from __future__ import annotations

from typing import Any

from app.games.script_kill import voting
from app.games.script_kill.actions import INVESTIGATIONS_PER_ROUND
from app.games.script_kill.discovery import clue_record, item_record
from app.games.script_kill.stages import EXPLORE, GATES, INDEX, SUB_STAGES
from app.games.script_kill.state import MatchState, Player

ACTING = frozenset({"speak", "vote", "investigate", "ready"})


def role_set(state: MatchState, seat: int) -> frozenset[str]:
    """`character:<id>` once dealt: the seat reads `private:character:<id>` events."""
    player = state.seat(seat)
    if player is None or player.character is None:
        return frozenset()
    return frozenset({f"character:{player.character}"})


def row(state: MatchState, p: Player, god: bool) -> dict[str, Any]:
    """A seat's row: its character is public once dealt (only its secrets are hidden)."""
    row: dict[str, Any] = {"character": p.character, "ready": p.ready}
    if p.character is not None:
        row["character_name"] = state.script.character(p.character).name
    if p.conceded:
        row["conceded"] = True
    if p.taken_over:
        row["taken_over"] = True
    if god and p.character is not None:
        row["is_culprit"] = p.character == state.script.culprit
    return row


def public_fields(state: MatchState) -> dict[str, Any]:
    """The script's public face, the stage and its clock, what the DM has published; after the end, the truth."""
    script = state.script
    index = state.stage_index
    body: dict[str, Any] = {
        "script": {"id": script.id, "title": script.title, "intro": script.intro},
        "characters": [{"seat": p.seat, "character": p.character,
                        "name": script.character(p.character).name,
                        "public": script.character(p.character).public}
                       for p in state.players if p.character is not None],
        "stage": state.stage,
        "sub_stage": state.at if state.at in INDEX else ("gm_init" if state.at == "waiting" else None),
        "stage_index": index,
        "round_no": state.round_no,
        "stage_deadline_ts": state.deadline_ts,
        "deadline_ts": state.deadline_ts,
        "unlocked_locations": [{"id": x, "name": script.location(x).name} for x in state.unlocked_locations],
        "public_clues": [clue_record(script.clue(k)) for k in state.public_clues],
        "anchors": list(state.anchors),
        "speaker": state.speaker,
        "vote_round": state.vote_round if state.at == "final_vote" else None,
        "vote_candidates": list(state.vote_candidates) if state.at == "final_vote" else None,
        "result": state.result if state.status in ("finished", "aborted") else None,
    }
    if state.ending is not None or state.status == "finished":
        body.update(ending=state.ending, culprit=script.culprit, tally=state.tally,
                    review={"truth": script.review.truth,
                            "timeline": [t.model_dump() for t in script.review.timeline]})
    return body


def god_fields(state: MatchState) -> dict[str, Any]:
    """God only: the culprit, the vote tally so far, and every seat's hand (items and clues)."""
    return {"culprit": state.script.culprit, "tally": state.tally + ([{"vote_round": state.vote_round, "votes": {
                str(k): v for k, v in sorted(state.votes.items())}}] if state.at == "final_vote" else []),
            "hands": {str(p.seat): {"character": p.character, "items": list(p.items), "clues": list(p.clues)}
                      for p in state.players}}


def _investigations_left(player: Player) -> int:
    return max(0, INVESTIGATIONS_PER_ROUND + player.extra_investigations - player.investigations)


def _power(state: MatchState, player: Player) -> dict[str, Any] | None:
    power = next((p for p in state.script.powers if p.owner == player.character), None)
    if power is None:
        return None
    return {"id": power.id, "name": power.name, "text": power.text, "target": power.target, "act": power.act,
            "used": player.power_used, "unlocked": power.id in state.unlocked_powers}


def next_action(state: MatchState, seat: int) -> str:
    """What the seat should send now: speak (its self_intro turn; once per discussion stage, then ready),
    investigate (searches left), vote, ready, or a wait (wait_for_speak_round, wait_for_vote_resolution,
    wait_for_next_phase); `eliminated` after a concession; before the start `wait_for_next_phase`, after the end
    `none`."""
    player = state.players[seat]
    if state.status != "in_progress":
        return "wait_for_next_phase" if state.status == "waiting" else "none"
    if player.conceded:
        return "eliminated"
    if state.phase == "final_vote":
        return "wait_for_vote_resolution" if seat in state.votes else "vote"
    if state.phase == "review" or player.ready:
        return "wait_for_next_phase"
    if state.phase == "self_intro":
        return "speak" if state.speaker == seat else "wait_for_speak_round"
    if state.phase in EXPLORE:
        return "investigate" if _investigations_left(player) else "ready"
    if state.phase in GATES["reveal_clue"]:
        return "ready" if player.spoke else "speak"
    return "ready"


def you(state: MatchState, seat: int) -> dict[str, Any]:
    """The seat's own block: its character's private script, items, clues, power, unread chats and what to do."""
    player = state.players[seat]
    action = next_action(state, seat)
    script = state.script
    you: dict[str, Any] = {"your_turn": action in ACTING, "next_action": action}
    if player.character is None:
        return you
    c = script.character(player.character)
    unread = [ch for ch in state.chats if ch.to_seat == seat and ch.seq > player.chat_read_seq]
    you.update(
        character={"id": c.id, "name": c.name, "public": c.public, "script": c.script, "secret": c.secret,
                   "timeline": [t.model_dump() for t in c.timeline], "relations": [r.model_dump() for r in c.relations],
                   "win": c.win, "secret_phrases": list(c.secret_phrases)},
        items=[item_record(state, i) for i in player.items],
        clues=[clue_record(script.clue(k)) for k in player.clues],
        investigations_left=_investigations_left(player) if state.phase in EXPLORE else 0,
        power=_power(state, player),
        ready=player.ready,
        your_vote=state.votes.get(seat) if state.phase == "final_vote" else None,
        unread_private_chats={"count": len(unread), "chats": [
            {"seq": ch.seq, "from": ch.from_seat, "text": ch.text} for ch in unread]},
    )
    return you


def allowed(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every action the seat may send now, each with its options as lists (targets, locations, items, powers,
    clues) and the stage's `deadline_ts` (the kit asks only for a seat still in a running match)."""
    player = state.players[seat]
    others = [p.seat for p in state.players if p.seat != seat]
    script = state.script
    offers: list[dict[str, Any]] = []

    def offer(kind: str, **options: Any) -> None:
        if state.phase in GATES[kind]:
            offers.append({"type": kind, "deadline_ts": state.deadline_ts, **options})

    mine_and_public = list(dict.fromkeys([*player.clues, *state.public_clues]))
    offer("list_clues")
    offer("list_items")
    if player.items or mine_and_public:
        offer("inspect", items=list(player.items), clues=mine_and_public)
    if state.phase != "self_intro" or (state.speaker == seat and not player.spoke):
        offer("speak")
    if player.clues or player.items:
        offer("reveal_clue", clues=list(player.clues), items=list(player.items))
    if _investigations_left(player):
        offer("investigate", locations=list(state.unlocked_locations))
    power = _power(state, player)
    if power is not None and power["unlocked"] and not power["used"]:
        offer("use_power", powers=[power["id"]], **_target_options(state, power["target"], others))
    usable = [i for i in player.items if script.item(i).effect is not None
              and (script.item(i).uses is None or state.item_uses.get(i, 0) > 0)]
    if usable:
        kinds = {getattr(script.item(i).effect, "target", "none") for i in usable}
        offer("use_item", items=usable, **(_target_options(state, "character", others) if "character" in kinds
                                           else {}), **(_target_options(state, "location", others)
                                                        if "location" in kinds else {}))
    tradable = [i for i in player.items if script.item(i).type == "clue_item" and script.item(i).tradable
                and not script.item(i).is_key]
    if tradable:
        offer("trade", items=tradable, targets=others)
    offer("private_chat", targets=others)
    if seat not in state.votes:
        offer("vote", targets=voting.targets_for(state, seat))
    if not player.ready and INDEX.get(state.phase, 99) < len(SUB_STAGES):
        offer("ready")
    return offers


def _target_options(state: MatchState, kind: str, others: list[int]) -> dict[str, Any]:
    if kind == "character":
        return {"targets": others}
    if kind == "location":
        return {"locations": list(state.unlocked_locations)}
    return {}
