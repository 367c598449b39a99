"""Whose turn it is, read the one game-agnostic way: a seat is due when its `you_view` says `your_turn`, and its
turn ends at the latest `deadline_ts` among its `allowed_actions` (None when no clock runs). The services that care
about turns — webhooks (`your_turn` deliveries) and takeover (timeouts per seat) — read it here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import GameError
from app.protocol.registry import AnyGame


@dataclass(frozen=True)
class Turn:
    """One seat's current turn: what it should send, by when, and what it may send."""

    next_action: str
    deadline: float | None
    allowed_actions: list[dict[str, Any]]


def turn_of(game: AnyGame, state: Any, seat: int) -> Turn | None:
    """`seat`'s turn now, or None when it need not act (or does not exist yet)."""
    try:
        you = game.you_view(state, seat)
    except GameError:  # a seat not taken yet (a join)
        return None
    if not you.get("your_turn"):
        return None
    allowed = list(you.get("allowed_actions") or game.allowed_actions(state, seat))
    deadlines = [a["deadline_ts"] for a in allowed if a.get("deadline_ts") is not None]
    return Turn(str(you.get("next_action")), max(deadlines) if deadlines else None, allowed)
