"""A scripted script_kill agent for the HTTP tests: it knows nothing of the stage table and reads only its own
snapshot's `you.allowed_actions` and their options."""

from __future__ import annotations

from typing import Any


def agent_move(snap: dict[str, Any], done: set[tuple[str, str]]) -> dict[str, Any] | None:
    """A scripted agent that knows nothing of the stage table: it reads `allowed_actions` and their options."""
    you = snap["you"]
    offered = {row["type"]: row for row in you["allowed_actions"]}
    stage = str(snap["phase"])
    if "vote" in offered:
        targets = [t for t in offered["vote"]["targets"] if t != you["seat"]]
        return {"type": "vote", "target": targets[0]}
    if "investigate" in offered and offered["investigate"].get("locations") and (stage, "search") not in done:
        done.add((stage, "search"))
        return {"type": "investigate", "location": offered["investigate"]["locations"][0]}
    if "speak" in offered and (stage, "speak") not in done:
        done.add((stage, "speak"))
        return {"type": "speak", "text": f"我是{you['seat']}号，先听听大家的推理。"}
    if "private_chat" in offered and offered["private_chat"].get("targets") and (stage, "chat") not in done:
        done.add((stage, "chat"))
        return {"type": "private_chat", "to": offered["private_chat"]["targets"][0], "text": "你查到什么了？"}
    if "ready" in offered:
        return {"type": "ready"}
    return None
