"""The operator's moderation: suspend an agent or an owner, lift it, list suspensions.

A suspension is recorded with its reason (`suspensions`), and every affected agent's row carries the code its key is
refused with from then on, on every endpoint (`agents.suspended`: 403 `agent_suspended`, or `owner_suspended` for
each agent of a suspended owner). The key caches of every process forget those agents at commit, as after a key
rotation. Each live seat is then handled in its match's queue (`matches.vacate`): taken over by the rule bot where
the room has takeover, else conceded; a waiting room is cleared. A suspended agent leaves the leaderboard and the
ladders; lifting restores its key as it was.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from app.db import agents as agents_repo
from app.db import owners as owners_repo
from app.db import suspensions as repo
from app.db.models import Suspension
from app.protocol.errors import ApiError
from app.services.match import matches
from app.services.match.shell import Shell

log = logging.getLogger("wodi.moderation")
Subject = Literal["agent", "owner"]
CODES: dict[str, str] = {"agent": "agent_suspended", "owner": "owner_suspended"}
MAX_REASON = 500


async def suspend(shell: Shell, subject: Subject, name: str, reason: str) -> dict[str, Any]:
    """Suspend the agent called `name` (or the owner with username `name`); 409 when it already is."""
    reason = _reason(reason)
    async with shell.db.writer() as session:
        subject_id, agent_ids = await _resolve(session, subject, name)
        if await repo.active(session, subject, subject_id) is not None:
            raise ApiError("already_suspended", f"{subject} {name!r} is suspended already", subject=subject, name=name)
        row = await repo.add(session, subject, subject_id, name, reason)
        await _recode(session, agent_ids)
        for agent_id in agent_ids:
            await shell.notifier.stage_key_change(session, agent_id)
        seats = await repo.live_seats(session, agent_ids)
        record = _record(row)
    for agent_id in agent_ids:
        shell.keys.forget(agent_id)
    handled = []
    for match_id, agent_id in seats:
        how = await matches.vacate(shell, match_id, agent_id)
        handled.append({"match_id": match_id, "agent_id": agent_id, "handled": how})
    log.warning("suspended %s %s (%s); live seats: %s", subject, name, reason, handled or "none")
    return {**record, "agents": len(agent_ids), "seats": handled}


async def lift(shell: Shell, subject: Subject, name: str, reason: str | None = None) -> dict[str, Any]:
    """Lift the active suspension of the agent or owner (its keys work again); 404 `not_found` when there is none."""
    async with shell.db.writer() as session:
        subject_id, agent_ids = await _resolve(session, subject, name)
        row = await repo.active(session, subject, subject_id)
        if row is None:
            raise ApiError("not_found", f"{subject} {name!r} is not suspended", subject=subject, name=name)
        await repo.lift(session, subject, subject_id, _reason(reason) if reason else None)
        await _recode(session, agent_ids)
        for agent_id in agent_ids:
            await shell.notifier.stage_key_change(session, agent_id)
        await session.refresh(row)
        record = _record(row)
    for agent_id in agent_ids:
        shell.keys.forget(agent_id)
    log.warning("lifted the suspension of %s %s", subject, name)
    return record


async def listing(shell: Shell, *, include_lifted: bool = False, limit: int = 200) -> list[dict[str, Any]]:
    async with shell.db.reader() as session:
        return [_record(row) for row in await repo.listing(session, include_lifted=include_lifted, limit=limit)]


async def owner_suspended(session: Any, owner_id: str) -> bool:
    return await repo.active(session, "owner", owner_id) is not None


async def _resolve(session: Any, subject: Subject, name: str) -> tuple[str, list[str]]:
    """The subject's id and the agents it covers (an owner: every agent it claimed and its own player record)."""
    if subject == "agent":
        agent = await agents_repo.by_name(session, name.strip().lower())
        if agent is None:
            raise ApiError("agent_not_found", f"no agent named {name!r}")
        return agent.agent_id, [agent.agent_id]
    owner = await owners_repo.by_username(session, name.strip().lower())
    if owner is None:
        raise ApiError("not_found", f"no owner with username {name!r}", field="name")
    return owner.owner_id, sorted(await owners_repo.agent_ids_of(session, owner.owner_id))


async def _recode(session: Any, agent_ids: list[str]) -> None:
    """Each agent's refusal code from the suspensions active now: its own first, then its owner's."""
    for agent_id in agent_ids:
        agent = await agents_repo.by_id(session, agent_id, lock=True)
        if agent is None:
            continue
        code = None
        if await repo.active(session, "agent", agent_id) is not None:
            code = CODES["agent"]
        elif agent.owner_id and await repo.active(session, "owner", agent.owner_id) is not None:
            code = CODES["owner"]
        await repo.set_code(session, [agent_id], code)


def _reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise ApiError("bad_request", "give a reason (it is recorded with the suspension)", field="reason")
    if len(text) > MAX_REASON:
        raise ApiError("bad_request", f"the reason must be at most {MAX_REASON} characters", field="reason")
    return text


def _record(row: Suspension) -> dict[str, Any]:
    return {"id": row.id, "subject": row.subject, "subject_id": row.subject_id, "name": row.name,
            "reason": row.reason, "created_at": row.created_at.isoformat(),
            "lifted_at": row.lifted_at.isoformat() if row.lifted_at else None, "lift_reason": row.lift_reason,
            "active": row.lifted_at is None}
