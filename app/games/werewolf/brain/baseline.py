"""The arena's random-acting player: a random offered action with a random offered target, plain speech."""

from __future__ import annotations

import random
from typing import Any

from app.games.werewolf.brain.table import Table


def decide(table: Table, rng: random.Random) -> dict[str, Any] | None:
    """A uniformly random legal move for `table.next_action` (a night role never picks `pass` if it can act)."""
    action = table.next_action
    if action == "night_action":
        rows = [r for r in table.allowed.get("night_action", []) if r.get("action") != "pass"]
        if not rows:
            return {"type": "night_action", "action": "pass"}
        row = rng.choice(rows)
        body: dict[str, Any] = {"type": "night_action", "action": row["action"]}
        if row.get("targets"):
            body["target_seat"] = rng.choice(row["targets"])
        return body
    if action == "vote":
        targets = table.targets("vote")
        return {"type": "vote", "target_seat": rng.choice(targets)} if targets else None
    if action == "shoot":
        targets = table.targets("shoot")
        return {"type": "shoot", "target_seat": rng.choice(targets) if targets else None}
    if action == "speak":
        return {"type": "speak", "text": f"{table.me}号第{table.my_texts + 1}次发言，我是好人。"}
    if action == "last_words":
        return {"type": "last_words", "text": f"{table.me}号第{table.my_texts + 1}次发言，再见。"}
    return None
