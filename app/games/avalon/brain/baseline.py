"""The arena's random-acting player: a uniformly random legal move (its cards too: an evil seat fails half the
time), plain text."""

from __future__ import annotations

import random
from typing import Any


def decide(you: dict[str, Any], offered: dict[str, dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    action = you.get("next_action")
    if action == "propose":
        row = offered["propose"]
        return {"type": "propose", "team": sorted(rng.sample(row["targets"], row["team_size"]))}
    if action == "speak":
        return {"type": "speak", "text": "过。"}
    if action == "vote":
        return {"type": "vote", "choice": rng.choice(["approve", "reject"])}
    if action == "quest":
        cards = [row["card"] for row in you["allowed_actions"] if row["type"] == "quest"]
        return {"type": "quest", "card": rng.choice(cards)}
    if action in ("lady", "assassinate"):
        return {"type": action, "target_seat": rng.choice(offered[action]["targets"])}
    return None
