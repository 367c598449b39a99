"""What the table learns: searches, effects of items and powers, the script's events, the anchors and the
key-clue guarantee. Every outcome is preset script data; nothing here is drawn at random."""

from __future__ import annotations

from typing import Any

from app.games.script_kill.package import (
    Clue,
    ExtraInvestigation,
    PeekClues,
    PeekItems,
    PublishClue,
    RevealClue,
    UnlockLocation,
)
from app.games.script_kill.state import MatchState, Player
from app.games.script_kill.step import Step


def private_to(player: Player) -> str:
    """The visibility of what only this seat's character knows."""
    return f"private:character:{player.character}"


def clue_record(clue: Clue) -> dict[str, Any]:
    """A clue as the views and events show it (weights are the NPCs' preset data, not shown)."""
    return {"id": clue.id, "tier": clue.tier, "act": clue.act, "location": clue.location, "text": clue.text,
            "is_key": clue.is_key, "about": list(clue.about)}


def item_record(state: MatchState, item_id: str) -> dict[str, Any]:
    item = state.script.item(item_id)
    return {"id": item.id, "name": item.name, "type": item.type, "text": item.text, "is_key": item.is_key,
            "tradable": item.tradable, "uses": item.uses, "uses_left": state.item_uses.get(item.id),
            "effect": item.effect.model_dump() if item.effect is not None else None}


def location_names(state: MatchState) -> str:
    return "、".join(state.script.location(x).name for x in state.unlocked_locations)


def give_clue(step: Step, player: Player, clue_id: str, how: str) -> bool:
    """`player` learns the clue privately (False: it already knew it)."""
    if clue_id in player.clues:
        return False
    player.clues.append(clue_id)
    step.emit("clue_found", private_to(player), seat=player.seat, how=how,
              clue=clue_record(step.state.script.clue(clue_id)))
    return True


def publish(step: Step, clue_id: str, reason: str) -> None:
    """The DM reads a clue to the table."""
    state = step.state
    if clue_id in state.public_clues:
        return
    state.public_clues.append(clue_id)
    step.emit("clue_published", "public", reason=reason, clue=clue_record(state.script.clue(clue_id)),
              text=f"【DM】公开线索：{state.script.clue(clue_id).text}")


def unlock(step: Step, location_id: str, reason: str) -> None:
    state = step.state
    if location_id in state.unlocked_locations:
        return
    state.unlocked_locations.append(location_id)
    location = state.script.location(location_id)
    step.emit("location_unlocked", "public", location={"id": location.id, "name": location.name}, reason=reason,
              text=f"【DM】新场景开放：「{location.name}」。")


def drawn(state: MatchState) -> set[str]:
    """The clue cards some seat holds (drawn by a search, or handed over by an item or a power). A card the DM
    only read out (published) still lies where it was: the next search there draws it."""
    return set().union(*(p.clues for p in state.players))


def undrawn_at(state: MatchState, location_id: str) -> list[Clue]:
    """The cards still lying at the location, of acts so far, in drawing order (tier, then id)."""
    held = drawn(state)
    return sorted((k for k in state.script.clues if k.location == location_id and k.act <= state.act
                   and k.id not in held), key=lambda k: (k.tier, k.id))


def investigate(step: Step, player: Player, location_id: str) -> None:
    """Clue cards are physical: the search draws the next card at the location (tier, then id) of acts so far
    that nobody has drawn yet, private to the finder, plus any item lying there that nobody took; nothing left is
    a DM notice (the search still counts)."""
    state, script = step.state, step.state.script
    player.investigations += 1
    location = script.location(location_id)
    step.emit("investigated", "public", seat=player.seat, location=location_id,
              text=f"{script.character(str(player.character)).name}搜查了「{location.name}」。")
    clue = next(iter(undrawn_at(state, location_id)), None)
    item = next((i for i in script.items if i.location == location_id and i.id not in state.taken_items), None)
    if clue is not None:
        give_clue(step, player, clue.id, f"investigate:{location_id}")
    if item is not None:
        state.taken_items.append(item.id)
        player.items.append(item.id)
        step.emit("item_obtained", private_to(player), seat=player.seat, how=f"investigate:{location_id}",
                  item=item_record(state, item.id))
    if clue is None and item is None:
        step.dm(player.seat, f"「{location.name}」已经搜查不出新的东西了。", location=location_id)


def peek(step: Step, player: Player, what: str, target: int | str | None) -> dict[str, Any]:
    """What a peek shows the user: a seat's items or clues, or what a location still hides."""
    state, script = step.state, step.state.script
    if isinstance(target, int):
        other = state.players[target]
        if what == "items":
            return {"seat": target, "items": [item_record(state, i) for i in other.items]}
        return {"seat": target, "clues": [clue_record(script.clue(k)) for k in other.clues]}
    if what == "items":
        lying = [i.id for i in script.items if i.location == target and i.id not in state.taken_items]
        return {"location": target, "items": [item_record(state, i) for i in lying]}
    return {"location": target, "clues": [clue_record(k) for k in undrawn_at(state, str(target))]}


def run_effect(step: Step, player: Player, effect: Any, target: int | str | None, source: str) -> dict[str, Any]:
    """Apply an item's or a power's effect for `player`; returns what it showed (for the private event)."""
    if isinstance(effect, RevealClue):
        give_clue(step, player, effect.clue, source)
        return {"clue": effect.clue}
    if isinstance(effect, UnlockLocation):
        unlock(step, effect.location, source.split(":")[0])  # public: "item" or "power", never which one
        return {"location": effect.location}
    if isinstance(effect, PeekItems):
        return peek(step, player, "items", target)
    if isinstance(effect, PeekClues):
        return peek(step, player, "clues", target)
    if isinstance(effect, ExtraInvestigation):
        player.extra_investigations += effect.count
        return {"extra_investigations": effect.count}
    return {}


def script_events(step: Step, sub_stage: str) -> None:
    """The script's events of this stage, announced by the DM as it opens."""
    for event in step.state.script.events:
        if event.stage != sub_stage:
            continue
        step.emit("dm_event", "public", event=event.id, act=event.act, text=event.text)
        if isinstance(event.effect, PublishClue):
            publish(step, event.effect.clue, f"event:{event.id}")
        elif isinstance(event.effect, UnlockLocation):
            unlock(step, event.effect.location, f"event:{event.id}")


def anchor(step: Step, sub_stage: str) -> None:
    """The anchor: the script's fixed text byte for byte, then what it unlocks; anchor_r1 opens act 2."""
    state = step.state
    fixed = getattr(state.script.anchors, sub_stage)
    state.anchors.append(fixed.text)
    step.emit("anchor", "public", anchor=sub_stage, text=fixed.text, hint=fixed.hint)
    if sub_stage == "anchor_r1":
        state.act = 2
    for location in fixed.unlock_locations:
        unlock(step, location, sub_stage)
    for power in fixed.unlock_powers:
        if power not in state.unlocked_powers:
            state.unlocked_powers.append(power)
    if sub_stage == "anchor_r1":
        state.unlocked_powers += [p.id for p in state.script.powers if p.act == 2 and p.id not in
                                  state.unlocked_powers]


def guarantee_key_clues(step: Step, act: int) -> None:
    """The end of act `act`'s search: every key clue of the act nobody has found is published."""
    state = step.state
    known = state.found_anywhere()
    for clue in state.script.clues:
        if clue.is_key and clue.act == act and clue.id not in known:
            publish(step, clue.id, "key_clue_guarantee")
