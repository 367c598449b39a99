"""Who is acting, and whether they may take a seat: one agent one table, one owner one seat (§3.4, §7.1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.models import Agent, Seat
from app.protocol.errors import ApiError
from app.protocol.viewer import Viewer, resolve
from app.services.identity import tokens
from app.settings import Settings


@dataclass(frozen=True)
class Sitter:
    """Who takes a seat (create, join): an agent or an owner's own player record (`agent_id`), or a guest — a
    person without an account, seated under the name they typed (`guest_name`; identity.md §3.2)."""

    agent_id: str | None = None
    guest_name: str | None = None
    # who sent the request (`app.services.identity.clients.key_of`): one client's share of bots and seats
    client: str = ""

    @property
    def is_guest(self) -> bool:
        return self.agent_id is None


@dataclass(frozen=True)
class Caller:
    """The credentials a write request carried (already checked: `agent` is a valid key's agent)."""

    agent: Agent | None
    play_token: str | None
    owner_id: str | None = None
    owner_agent_ids: frozenset[str] = frozenset()


def viewer_of(caller: Caller, seat_agents: Mapping[int, str | None], token_seat: int | None) -> Viewer:
    """The caller's viewer layer; a play token that matches no seat is 401 `invalid_play_token`."""
    if caller.agent is None and caller.play_token is not None and token_seat is None:
        raise ApiError("invalid_play_token", "this play token belongs to no seat of this match")
    return resolve(seat_agents, agent_id=caller.agent.agent_id if caller.agent else None, token_seat=token_seat,
                   logged_in=caller.owner_id is not None, owner_agent_ids=caller.owner_agent_ids)


def token_seat(caller: Caller, seat_hashes: Mapping[int, str]) -> int | None:
    """The seat whose play-token digest matches the caller's token (constant-time compares)."""
    if caller.agent is not None or caller.play_token is None:
        return None
    return next((seat for seat, stored in seat_hashes.items() if tokens.digests_match(caller.play_token, stored)),
                None)


def seat_of(seats: Sequence[Mapping[str, Any]], caller: Caller) -> int:
    """The caller's seat number for a write, or the protocol's 401/403 for why there is none (§2.3.4, §7.1).

    `seats` are `{"seat", "agent_id", "play_token_hash"}` mappings (the match cache's form)."""
    viewer = viewer_of(caller, {s["seat"]: s["agent_id"] for s in seats},
                       token_seat(caller, {s["seat"]: s["play_token_hash"] for s in seats}))
    if viewer.role == "player_agent" and viewer.seat is not None:
        return viewer.seat
    if caller.agent is not None:
        raise ApiError("agent_not_in_match", "this agent has no seat in this match")
    if viewer.role == "player_owner":
        raise ApiError("owner_cannot_act", "an owner's session cannot act; the agent must use its own Bearer key")
    raise ApiError("auth_required", "send Authorization: Bearer <api_key> or X-Play-Token")


def owner_keys(agent: Agent | None, provider_meta: dict[str, Any], trusted: frozenset[str]) -> set[str]:
    """Every owner identity a seat stands for: the claimed owner, and the owner a proxy reports — only when that
    proxy is on `WODI_PROVIDER_ALLOWLIST` (`trusted`). Anyone can send `X-Provider-Id` and an `owner_id`; honoured
    from anyone, a made-up claim naming a victim's owner id would lock the victim's agents out of every room the
    claimant sits in (issue 26). With the allowlist empty (the default) no proxy claim is honoured."""
    keys = set()
    if agent is not None and agent.owner_id:
        keys.add(f"owner:{agent.owner_id}")
    provider = provider_meta.get("provider_id")
    proxy_owner = (provider_meta.get("proxy_agent_meta") or {}).get("owner_id")
    if provider in trusted and proxy_owner not in (None, ""):
        keys.add(f"proxy:{provider}:{proxy_owner}")
    return keys


def check_room_takes(seats_for: str, *, person: bool, match_id: str | None) -> None:
    """The room option of who may sit (`matches.seats_for`): `agents` refuses people (guests and owners playing as
    themselves) with 403 `room_agents_only`, `people` refuses agents with 403 `room_people_only`."""
    if seats_for == "agents" and person:
        raise ApiError("room_agents_only", "this room seats agents only: people may watch it, not sit down",
                       match_id=match_id, seats_for=seats_for)
    if seats_for == "people" and not person:
        raise ApiError("room_people_only", "this room seats people only (guests and logged-in owners), not agents",
                       match_id=match_id, seats_for=seats_for)


async def check_can_sit(session: AsyncSession, match_id: str | None, seats: Sequence[Seat], agent: Agent,
                        provider_meta: dict[str, Any], settings: Settings) -> None:
    """Refuse a second seat for the same agent or owner, and a second live table for the agent."""
    if any(seat.agent_id == agent.agent_id for seat in seats):
        raise ApiError("same_agent_already_in_match", "this agent already has a seat in this match",
                       match_id=match_id)
    await _check_not_busy(session, agent, settings)
    trusted = settings.provider_allowlist_set
    mine = owner_keys(agent, provider_meta, trusted)
    if mine and seats:
        seated = await agents_repo.by_ids(session, [s.agent_id for s in seats if s.agent_id])
        for seat in seats:
            if mine & owner_keys(seated.get(seat.agent_id or ""), seat.meta or {}, trusted):
                raise ApiError("same_owner_already_in_match",
                               "an agent of the same owner already sits in this match", seat=seat.seat)


async def _check_not_busy(session: AsyncSession, agent: Agent, settings: Settings) -> None:
    live = await repo.live_seat_of(session, agent.agent_id)
    if live is not None:
        raise ApiError("already_in_match", "finish or leave your current match first",
                       match_id=live.match_id, status=live.status, seat=live.seat,
                       invite_url=settings.match_url(live.match_id))
