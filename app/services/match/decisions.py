"""Decisions: what each seat was shown, sent and got back, and the usage it reported (issue 30).

The command path records one `Decision` per seated command (accepted or refused), one per seat a timeout cost its
turn, and one per move the official brain makes for a seat it plays. A trajectory (`GET
/api/matches/{id}/trajectories`) is read back from those rows and the event log: the events a decision's seat was
shown since its previous decision are the log's events it could see (`app.protocol.viewer.can_see`, with the roles
it held then) — never a god view, even after the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.db.models import Decision
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import AnyGame
from app.protocol.viewer import can_see


class Usage(BaseModel):
    """An action's optional `usage`: what producing it cost the agent (private until the match ends)."""

    model_config = ConfigDict(extra="forbid")
    input_tokens: int = Field(ge=0, le=10**9, description="prompt tokens spent on this decision")
    output_tokens: int = Field(ge=0, le=10**9, description="completion tokens spent on this decision")
    model: str = Field(min_length=1, max_length=128, description="the model that decided")
    cost_usd: float | None = Field(None, ge=0, le=10**4, description="what the decision cost, in US dollars")


def usage_of(raw: object) -> Usage | None:
    """An action body's `usage` (None when absent); 400 `bad_request` naming the field when malformed."""
    if raw is None:
        return None
    try:
        return Usage.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in ("usage", *first["loc"]))
        raise ApiError("bad_request", f"{where}: {first['msg']}", field=where) from exc


def record(game: AnyGame, state: Any, *, match_id: str, seat: int, agent_id: str | None, by: str, outcome: str,
           at_seq: int, at: float, sent: Mapping[str, Any] | None = None, reply: Mapping[str, Any] | None = None,
           usage: Usage | None = None, due: bool = False) -> dict[str, Any]:
    """The row of one decision (`decisions_repo.add` writes rows); `state` is the state the seat decided on (before
    its command applied); `due`: the seat had to act then (an accepted due decision is a turn of the agent's
    reliability record)."""
    return {"match_id": match_id, "seat": seat, "agent_id": agent_id, "by": by, "outcome": outcome, "due": due,
            "at_seq": at_seq, "at": at, "roles": sorted(game.role_set(state, seat)), "you": game.you_view(state, seat),
            "sent": dict(sent) if sent is not None else None, "reply": dict(reply) if reply is not None else None,
            "usage": usage.model_dump() if usage else None, "input_tokens": usage.input_tokens if usage else 0,
            "output_tokens": usage.output_tokens if usage else 0, "cost_usd": usage.cost_usd if usage else None}


def refusal(code: str, message: str) -> dict[str, Any]:
    """What came back for a refused command (the envelope's top level)."""
    return {"error": code, "message": message}


def _shown(events: Sequence[Mapping[str, Any]], seat: int, roles: Sequence[str], after: int,
           upto: int, hidden: frozenset[str]) -> list[dict[str, Any]]:
    """The events with `after < seq <= upto` the seat could see holding `roles` (none of the room's `hidden`)."""
    held = frozenset(roles)
    return [dict(e) for e in events if after < e["seq"] <= upto and e["type"] not in hidden
            and can_see(e["visibility"], god=False, seat=seat, roles=held)]


def _ts(event: Mapping[str, Any]) -> float | None:
    value = event.get("ts")
    return datetime.fromisoformat(value).timestamp() if isinstance(value, str) else None


def trajectory(match_id: str, game: str, seat: int, rows: Sequence[Decision],
               events: Sequence[Mapping[str, Any]], config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One line per decision of `seat` (rows in order), each with the events it was shown since its previous
    decision (not the types the room with this stored `config` hides: `registry.hidden_events`) and `latency_s`:
    seconds from the later of its previous decision and the last event it was shown, to this decision (None when
    it was shown nothing with a time)."""
    known = registry.get(game)
    hidden = registry.hidden_events(known, config) if known is not None else frozenset()
    lines: list[dict[str, Any]] = []
    after, previous_at = 0, None
    for index, row in enumerate(r for r in rows if r.seat == seat):
        shown = _shown(events, seat, row.roles, after, row.at_seq, hidden)
        times = [t for t in (_ts(e) for e in shown) if t is not None] + ([previous_at] if previous_at else [])
        latency = round(max(0.0, row.at - max(times)), 3) if times else None
        lines.append({"match_id": match_id, "game": game, "seat": seat, "step": index, "by": row.by,
                      "outcome": row.outcome, "seq": row.at_seq, "at": row.at, "latency_s": latency,
                      "events": shown, "you": row.you, "sent": row.sent, "reply": row.reply, "usage": row.usage})
        after, previous_at = max(after, row.at_seq), row.at
    return lines
