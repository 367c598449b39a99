"""The arena's random-acting player: a random offered action with random offered options, plain text.

Read-only actions (`list_clues`, `list_items`, `inspect`) are never picked (they change nothing), nor is
`concede` (leaving is not a move); `ready` gets a fair share so every stage ends.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.script_kill.brain.plan import target_kind
from app.games.script_kill.brain.seat import Seat
from app.games.script_kill.brain.speech import guard

READ_ONLY = ("list_clues", "list_items", "inspect")
NEVER = (*READ_ONLY, "concede")
FIELDS = {"investigate": ("location", "locations"), "use_power": ("power", "powers"), "use_item": ("item", "items"),
          "trade": ("item", "items"), "reveal_clue": ("clue", "clues")}
TARGETED = ("trade", "private_chat", "vote")
TARGET_OPTIONS = {"character": "targets", "location": "locations"}


def decide(seat: Seat, rng: random.Random) -> dict[str, Any] | None:
    """A uniformly random offered move (text actions say something plain, never the seat's secret)."""
    kinds = [k for k in seat.allowed if k not in NEVER]
    if not kinds:
        return None
    if "vote" in kinds:
        kinds = ["vote"]
    elif "ready" in kinds and rng.random() < 0.25:
        return {"type": "ready"}
    kind = rng.choice(kinds)
    row = seat.allowed[kind]
    body: dict[str, Any] = {"type": kind}
    if kind in FIELDS:
        field, options = FIELDS[kind]
        if not row.get(options):
            return {"type": "ready"} if "ready" in seat.allowed else None
        body[field] = rng.choice(row[options])
    needs = target_kind(seat, kind, body) if kind in ("use_power", "use_item") else "none"
    if kind in TARGETED or needs != "none":
        choices = list(row.get(TARGET_OPTIONS.get(needs, "targets")) or [])
        if not choices:
            return {"type": "ready"} if "ready" in seat.allowed else None
        body["to" if kind in ("trade", "private_chat") else "target"] = rng.choice(choices)
    if kind in ("speak", "private_chat"):
        body["text"] = guard(seat, f"我是{seat.name}，{seat.me}号第{len(seat.events)}条消息。")
    return body
