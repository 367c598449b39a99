"""What a committed command tells the seated agents' webhooks: `your_turn`, `match_started`, `match_finished`.

Deliveries are queued in the command's own transaction (`app.db.webhooks.enqueue`), so they exist exactly when the
change they report does, and a restart loses none; `app.services.delivery.webhook_sender` sends them later. A
seat's turn is
read from the game-agnostic `you_view` (`your_turn`, `next_action`) and `allowed_actions` (deadlines) only.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import webhooks as repo
from app.db.models import Match
from app.protocol.registry import AnyGame
from app.protocol.turns import turn_of
from app.protocol.viewer import TERMINAL
from app.services.match.shell import Shell

Turn = tuple[str, str, float | None]  # (phase, next_action, deadline): a new value is a new turn


def _turn(game: AnyGame, state: Any, seat: int) -> tuple[Turn | None, dict[str, Any]]:
    turn = turn_of(game, state, seat)
    if turn is None:
        return None, {}
    phase = str(game.summary(state)["phase"])
    return (phase, turn.next_action, turn.deadline), {"allowed_actions": turn.allowed_actions}


def new_delivery_id() -> str:
    return "msg_" + secrets.token_hex(10)


def _row(webhook_id: str, event: str, body: dict[str, Any], now: float, expires: float | None) -> dict[str, Any]:
    delivery_id = new_delivery_id()
    at = datetime.fromtimestamp(now, UTC)
    return {"delivery_id": delivery_id, "webhook_id": webhook_id, "event": event,
            "body": {"type": event, "delivery_id": delivery_id, **body, "ts": at.isoformat()},
            "status": "pending", "attempts": 0, "next_attempt_at": now, "expires_at": expires, "created_at": at}


row = _row  # a delivery row for events outside a match's command (`app.services.platform.tournaments`)


async def stage(session: AsyncSession, shell: Shell, match: Match, game: AnyGame, before: Any | None,
                before_status: str, after: Any, now: float) -> int:
    """Queue what this command's change means for each seated agent's webhooks; returns how many were queued."""
    if match.status == before_status == "waiting" or before_status in TERMINAL:
        return 0  # a seat taken in a waiting room, or nothing after the end: no event to report, no query
    seats = shell.cache.seats(match.match_id, match.seats_taken)
    if not shell.hooked.may_have(None if seats is None else [s["agent_id"] for s in seats]):
        return 0
    settings = shell.settings
    hooks = await repo.seated_hooks(session, match.match_id)
    if not hooks:
        return 0
    common = {"match_id": match.match_id, "game": match.game, "match_url": settings.match_url(match.match_id)}
    started = before_status == "waiting" and match.status == "in_progress"
    finished = before_status not in TERMINAL and match.status in TERMINAL
    rows: list[dict[str, Any]] = []
    turns: dict[int, tuple[Turn | None, dict[str, Any]]] = {}
    for seat, webhook_id, events in hooks:
        base = {**common, "seat": seat}
        if started and "match_started" in events:
            rows.append(_row(webhook_id, "match_started", {**base, "phase": match.phase}, now, None))
        if "your_turn" in events and match.status == "in_progress":
            if seat not in turns:
                turns[seat] = _turn(game, after, seat)
            turn, extra = turns[seat]
            if turn is not None and (before is None or _turn(game, before, seat)[0] != turn):
                phase, action, deadline = turn
                rows.append(_row(webhook_id, "your_turn", {
                    **base, "phase": phase, "next_action": action, "deadline_ts": deadline,
                    "events_total": match.events_total, **extra}, now, deadline))
        if finished and "match_finished" in events:
            rows.append(_row(webhook_id, "match_finished", {
                **base, "status": match.status, "phase": match.phase, "result": match.result}, now, None))
    await repo.enqueue(session, rows)
    return len(rows)
