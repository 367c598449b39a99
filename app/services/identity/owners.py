"""Owner accounts (identity.md §15.1) and the agent claim (§5.2, §15.2)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import owners as repo
from app.db import suspensions
from app.db.models import Agent, Owner
from app.db.types import utcnow
from app.protocol.errors import ApiError
from app.services.identity import tokens
from app.services.identity.names import name_problem
from app.services.match.shell import Shell

USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")
_HASHER = PasswordHasher()
# Verifying against a real hash for unknown users keeps their timing the same as for known ones.
_DUMMY_HASH = _HASHER.hash("not-a-real-password")


def check_new_account(username: str, password: str) -> None:
    if not USERNAME.fullmatch(username):
        raise ApiError("bad_request", "username: 3–32 letters, digits, '_', '.', '-', starting with a letter or digit",
                       field="username")
    if not 8 <= len(password) <= 256:
        raise ApiError("bad_request", "password: 8 to 256 characters", field="password")


async def hash_password(password: str) -> str:
    """argon2 is deliberately slow (~0.1 s): run it off the event loop."""
    return await asyncio.to_thread(_HASHER.hash, password)


async def sign_up(session: AsyncSession, username: str, password_hash: str, nickname: str | None) -> Owner:
    """Create an owner from a hash made by `hash_password` (outside any transaction)."""
    username = username.strip()
    if await repo.by_username(session, username.lower()) is not None:
        raise ApiError("name_taken", f"the username {username!r} is taken", field="username")
    owner = Owner(owner_id=tokens.new_owner_id(), username=username.lower(), password_hash=password_hash,
                  nickname=(nickname or "").strip()[:64] or username, created_at=utcnow(), last_login_at=utcnow())
    session.add(owner)
    try:
        await session.flush()
    except IntegrityError as exc:
        raise ApiError("name_taken", f"the username {username!r} is taken", field="username") from exc
    return owner


async def verify_login(session: AsyncSession, username: str, password: str) -> str:
    """The owner id for these credentials, or 401 `login_required` (same answer, same cost, for an unknown user)."""
    owner = await repo.by_username(session, username.strip().lower())
    try:
        await asyncio.to_thread(_HASHER.verify, owner.password_hash if owner else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        owner = None
    if owner is None:
        raise ApiError("login_required", "wrong username or password")
    return owner.owner_id


async def record_login(session: AsyncSession, owner_id: str) -> Owner:
    owner = await repo.by_id(session, owner_id)
    if owner is None:
        raise ApiError("login_required", "wrong username or password")
    owner.last_login_at = utcnow()
    return owner


def owner_body(owner: Owner) -> dict[str, Any]:
    return {"owner_id": owner.owner_id, "username": owner.username, "nickname": owner.nickname}


def claim_preview(agent: Agent, base_url: str) -> dict[str, Any]:
    return {"agent_id": agent.agent_id, "name": agent.name, "display_name": agent.display_name, "bio": agent.bio,
            "wins": agent.wins, "losses": agent.losses, "draws": agent.draws,
            "profile_url": f"{base_url}/agents/{agent.name}", "claimed": agent.owner_id is not None,
            "created_at": agent.created_at}


async def _find_claim(session: AsyncSession, token: str, *, lock: bool = False) -> Agent:
    agent = await repo.agent_by_claim_token(session, token, lock=lock)
    if agent is None:
        raise ApiError("claim_token_invalid", "this claim link is unknown or already used")
    return agent


async def claim_info(shell: Shell, token: str) -> dict[str, Any]:
    """The agent a claim link binds (404 `claim_token_invalid` for an unknown or used one)."""
    async with shell.db.reader() as session:
        return claim_preview(await _find_claim(session, token), shell.settings.base_url)


async def claim_page(shell: Shell, token: str, owner_id: str | None) -> tuple[Agent | None, Owner | None]:
    """What the claim page shows: the agent of the link (None if unknown or used) and the logged-in owner."""
    async with shell.db.reader() as session:
        agent = await repo.agent_by_claim_token(session, token)
        owner = await repo.by_id(session, owner_id) if owner_id else None
    return agent, owner


async def session_owner(shell: Shell, owner_id: str) -> Owner | None:
    async with shell.db.reader() as session:
        return await repo.by_id(session, owner_id)


async def owned_agent_ids(shell: Shell, owner_id: str) -> frozenset[str]:
    async with shell.db.reader() as session:
        return await repo.agent_ids_of(session, owner_id)


async def claim(shell: Shell, token: str, owner_id: str) -> dict[str, Any]:
    """Bind the agent to the owner and destroy the one-time token (first commit wins); the agent's preview."""
    async with shell.db.writer() as session:
        agent = await _claim(session, token, owner_id)
        return claim_preview(agent, shell.settings.base_url)


async def _claim(session: AsyncSession, token: str, owner_id: str) -> Agent:
    agent = await _find_claim(session, token, lock=True)
    if agent.owner_id is not None and agent.owner_id != owner_id:
        raise ApiError("already_claimed", "this agent already has an owner")
    if await suspensions.active(session, "owner", owner_id) is not None:
        raise ApiError("owner_suspended", "your account is suspended by the operator of this server")
    agent.owner_id = owner_id
    agent.claim_token = None
    agent.claimed_at = utcnow()
    return agent


async def check_not_suspended(session: AsyncSession, owner_id: str) -> None:
    """403 `owner_suspended` for a suspended owner: a session opened before the suspension may still read, but it
    takes no seat, makes no guess and creates no event (the cookie is not revoked; docs/operate/moderation.md)."""
    if await suspensions.active(session, "owner", owner_id) is not None:
        raise ApiError("owner_suspended", "this account is suspended by the operator of this server")


async def create_account(shell: Shell, username: str, password: str, nickname: str | None) -> Owner:
    """Sign-up: validate, hash off the loop and outside any transaction, then one short write."""
    check_new_account(username.strip(), password)
    if nickname and (problem := name_problem(nickname)) is not None:
        raise ApiError("bad_request", f"nickname {problem}", field="nickname")
    password_hash = await hash_password(password)
    async with shell.db.writer() as session:
        return await sign_up(session, username, password_hash, nickname)


async def log_in(shell: Shell, username: str, password: str) -> Owner:
    """Login: verify in a read (off the loop), then record the login in a short write."""
    async with shell.db.reader() as session:
        owner_id = await verify_login(session, username, password)
        if await suspensions.active(session, "owner", owner_id) is not None:
            raise ApiError("owner_suspended", "this account is suspended by the operator of this server")
    async with shell.db.writer() as session:
        return await record_login(session, owner_id)
