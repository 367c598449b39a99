"""Night choices and the hunter's shot, each from the seat's own `Table`.

- Wolves: follow a fellow wolf's choice or whisper if there is one (so the pack agrees at once); else the
  seat the village leans on most — the believed seer claimant, then its 金水, then the seat the village
  trusts most — never a fellow wolf. The first wolf to act tells the pack (`whisper`) before choosing.
- Seer: checks an unchecked living seat, the most suspected one first (with some chance of another).
- Witch: saves the victim on nights 1–2 (later only a believed seer); poisons the most wolf-like seat when
  the evidence is strong (`weights.POISON_AT`); else passes. One potion a night.
- Guard: the believed seer when one has claimed, else himself, else a random seat — never last night's seat
  (the offered targets already leave it out), so the targets vary.
- Hunter: shoots the most wolf-like living seat when the suspicion is high enough, else passes.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.werewolf.brain import weights as W
from app.games.werewolf.brain.judge import belief, ranked, suspicion, village_view
from app.games.werewolf.brain.table import Table


def wolf_target(table: Table, rng: random.Random) -> int | None:
    """The seat the pack should knife tonight (None: nobody to knife)."""
    offered = [s for s in table.targets("night_action", "kill") if s not in table.fellow_wolves]
    if not offered:
        return None
    for seat in list(table.pack_choices.values()) + table.whisper_targets:
        if seat is not None and seat in offered:
            return seat
    believed = belief(table)
    seers = sorted((s for s in offered if s in table.claims), key=lambda s: -believed.get(s, 0.0))
    if seers:
        return seers[0]
    golds = [t for c in table.claims.values() for t, wolf in c.checks.items() if not wolf and t in offered]
    if golds and rng.random() < 0.5:
        return golds[0]
    view = village_view(table)
    trusted = sorted(offered, key=lambda s: (view.get(s, 0.0), rng.random()))
    return trusted[0] if rng.random() < 0.6 else rng.choice(offered)


def seer_target(table: Table, rng: random.Random) -> int | None:
    """An unchecked living seat to check tonight, the most suspected one more often than not."""
    offered = [s for s in table.targets("night_action", "check") if s not in table.my_checks]
    if not offered:
        return None
    order = ranked(table, offered)
    return order[0] if rng.random() < 0.6 else rng.choice(order)


def witch_action(table: Table, rng: random.Random) -> dict[str, Any]:
    """`save`, `poison` or `pass` (one potion a night)."""
    victim = table.night_victim
    if victim is not None and table.offers("night_action", "save"):
        believed = belief(table).get(victim, 0.0)
        if table.day <= W.SAVE_UNTIL_NIGHT or believed >= W.SAVE_LATER_BELIEF:
            return {"type": "night_action", "action": "save", "target_seat": victim}
    poisons = [s for s in table.targets("night_action", "poison") if s != victim]
    if poisons:
        score = suspicion(table)
        top = ranked(table, poisons)[0]
        if score.get(top, 0.0) >= W.POISON_AT:
            return {"type": "night_action", "action": "poison", "target_seat": top}
    return {"type": "night_action", "action": "pass"}


def guard_target(table: Table, rng: random.Random) -> int | None:
    """The seat to protect tonight among the offered ones (never last night's)."""
    offered = table.targets("night_action", "guard")
    if not offered:
        return None
    believed = belief(table)
    seers = sorted((s for s in offered if believed.get(s, 0.0) >= 0.5), key=lambda s: -believed[s])
    if seers:
        return seers[0]
    if table.me in offered and rng.random() < 0.5:
        return table.me
    return rng.choice(offered)


def shot(table: Table) -> int | None:
    """The hunter's target, or None to pass."""
    offered = table.targets("shoot")
    if not offered:
        return None
    score = suspicion(table)
    top = ranked(table, offered)[0]
    return top if score.get(top, 0.0) >= W.SHOOT_AT else None
