"""Agent identity: registration, key checks, rotation, profiles."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as repo
from app.db import ratings as ratings_repo
from app.db import rows
from app.db.models import Agent as Agent  # routers name the type through this service
from app.db.models import AgentRating, AgentSideStat
from app.db.types import utcnow
from app.protocol import registry
from app.protocol.errors import ApiError
from app.services.identity import tokens
from app.services.match.shell import Shell
from app.services.platform.metrics import KEY_CACHE_HIT, KEY_CACHE_MISS
from app.services.rating import ratings as rating_service

HANDLE = re.compile(r"^[a-z][a-z0-9@._-]{2,63}$")
OFFICIAL_HANDLE = re.compile(r"^bot_[a-z0-9_.-]+@wodi$")  # identity.md §15.11: `bot_<persona>@wodi`
OFFICIAL_PREFIX = "bot_"
HUMAN_PREFIX = "human_"  # an owner's own player record (`app.services.identity.people`)
SEEN_EVERY = timedelta(seconds=60)


def normalise_handle(raw: str) -> str:
    """Trim and lower-case, then check the protocol's handle regex (identity.md §2)."""
    name = raw.strip().lower()
    if not HANDLE.fullmatch(name):
        raise ApiError(
            "invalid_name",
            "name must match ^[a-z][a-z0-9@._-]{2,63}$ after trimming and lower-casing",
            name=raw[:80],
        )
    return name


def _clean(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def _check_profile_fields(bio: str | None, homepage: str | None) -> None:
    if bio is not None and len(bio) > 280:
        raise ApiError("bio_too_long", "bio must be at most 280 characters")
    if homepage is not None and (len(homepage) > 256 or not homepage.startswith(("http://", "https://"))):
        raise ApiError("invalid_homepage", "homepage must be an http(s) URL of at most 256 characters")


async def register(shell: Shell, body: dict[str, Any], *, official: bool, provider_id: str | None,
                   provider_meta: dict[str, Any] | None) -> dict[str, Any]:
    """Register an agent (an official bot registered again gets a fresh key, and the old one stops working
    everywhere); returns its private profile with the API key, the only time the key exists in clear."""
    async with shell.db.writer() as session:
        agent, key, again = await _register(session, body, official=official, provider_id=provider_id,
                                            provider_meta=provider_meta)
        if again:  # an official bot's new key: the old one stops working here and in every other process
            await shell.notifier.stage_key_change(session, agent.agent_id)
        sides = (await repo.side_stats(session, [agent.agent_id]))[agent.agent_id] if again else []
        registered = {**private_profile(agent, shell.settings.base_url, sides), "api_key": key}
    if again:
        shell.keys.forget(agent.agent_id)
    elif not inspect(agent).unloaded:  # its first match call need not look the new key up
        shell.keys.put(tokens.digest(key), agent, shell.keys.generation)
    return registered


async def _register(
    session: AsyncSession,
    body: dict[str, Any],
    *,
    official: bool,
    provider_id: str | None,
    provider_meta: dict[str, Any] | None,
) -> tuple[Agent, str, bool]:
    """Create an agent; returns it with its API key (the only time the key exists in clear) and whether it is an
    official bot registered again (a new key for an existing row)."""
    name = normalise_handle(body["name"])
    if name.startswith(OFFICIAL_PREFIX) and not official:
        raise ApiError("invalid_name", "names starting with 'bot_' are reserved for official bots", name=name)
    if official and not OFFICIAL_HANDLE.fullmatch(name):
        raise ApiError("invalid_name", "an official bot's handle is bot_<persona>@wodi", name=name)
    if name.startswith(HUMAN_PREFIX):
        raise ApiError("invalid_name", "names starting with 'human_' are reserved for people playing as themselves",
                       name=name)
    bio, homepage = _clean(body.get("bio")), _clean(body.get("homepage"))
    _check_profile_fields(bio, homepage)
    key = tokens.new_secret(tokens.API_KEY_PREFIX)
    agent = _new_agent(name, _clean(body.get("display_name")) or name, bio, key, official=official,
                       homepage=homepage, contact=_clean(body.get("contact")), provider_id=provider_id,
                       provider_meta=provider_meta)
    existing = await repo.by_name(session, name) if official else None  # others: the unique name decides
    if existing is not None and existing.is_official:
        # The operator re-registering an official bot (say, after a restart) gets a fresh key for it.
        existing.last_seen_at = utcnow()
        existing.display_name, existing.bio = agent.display_name, agent.bio  # the operator's current cast
        return existing, rotate_key(existing), True
    if existing is not None:
        raise ApiError("name_taken", f"the name {name!r} is taken", name=name)
    try:
        await rows.insert_whole(session, agent)
    except IntegrityError as exc:
        raise ApiError("name_taken", f"the name {name!r} is taken", name=name) from exc
    return agent, key, False


def _new_agent(name: str, display_name: str, bio: str | None, key: str, *, official: bool,
               homepage: str | None = None, contact: str | None = None, provider_id: str | None = None,
               provider_meta: dict[str, Any] | None = None) -> Agent:
    return Agent(
        agent_id=tokens.new_agent_id(),
        name=name,
        display_name=display_name,
        bio=bio,
        homepage=homepage,
        contact=contact,
        api_key_hash=tokens.digest(key),
        api_key_prefix=tokens.key_prefix(key),
        claim_token=None if official else tokens.new_claim_token(),
        is_official=official,
        provider_id=provider_id,
        provider_meta=provider_meta,
        wins=0, losses=0, draws=0, aborts=0, turns=0, timeouts=0, refusals=0, abandoned=0,
        created_at=utcnow(), last_seen_at=utcnow(),  # registering is being seen: the first calls write nothing
        claimed_at=None, owner_id=None, suspended=None,  # every column set: the row is whole without a read
    )


async def make_official(session: AsyncSession, name: str, display_name: str, bio: str) -> str | None:
    """A new official bot made by the server itself (a quick start's table needs a persona's next agent): its key
    is drawn and dropped, so nobody holds it until the bots' process registers the agent again (a fresh key).
    Returns the new agent's id, or None when the name exists already (the bots' process registered it, or another
    quick start made it first)."""
    agent = _new_agent(name, display_name, bio, tokens.new_secret(tokens.API_KEY_PREFIX), official=True)
    return agent.agent_id if await repo.insert_unless_named(session, rows.whole_values(agent)) else None


def bearer_key(authorization: str | None) -> str | None:
    """The API key of `Authorization: Bearer ck_live_…`; None when absent, 401 `invalid_api_key` when malformed."""
    if authorization is None:
        return None
    scheme, _, key = authorization.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise ApiError("invalid_api_key", "the Authorization header must be 'Bearer <api_key>'")
    if not key.startswith(tokens.API_KEY_PREFIX):
        raise ApiError("invalid_api_key", "not an API key (they start with ck_live_)")
    return key


async def by_key(session: AsyncSession, key: str) -> Agent:
    """The agent holding API key `key`; 401 `invalid_api_key` for an unknown or rotated key."""
    agent = await repo.by_key_hash(session, tokens.digest(key))
    # The lookup is by digest; compare again in constant time so timing says nothing about near-misses.
    if agent is None or not tokens.digests_match(key, agent.api_key_hash) or agent.is_human:
        raise ApiError("invalid_api_key", "unknown or rotated API key")
    if agent.suspended is not None:
        whose = "its owner is" if agent.suspended == "owner_suspended" else "this agent is"
        raise ApiError(agent.suspended, f"{whose} suspended by the operator of this server", agent=agent.name)
    return agent


async def authenticate(shell: Shell, authorization: str | None) -> Agent | None:
    """Resolve `Authorization: Bearer ck_live_…`; None when absent, 401 `invalid_api_key` when wrong."""
    key = bearer_key(authorization)
    if key is None:
        return None
    async with shell.db.reader() as session:
        return await by_key(session, key)


async def playing_agent(shell: Shell, authorization: str | None) -> Agent | None:
    """`authenticate` for the match endpoints, where only who the caller is matters: a key verified in the last
    minute is trusted from memory (`app.services.identity.key_cache`; a rotation forgets it everywhere at once)."""
    key = bearer_key(authorization)
    if key is None:
        return None
    key_digest = tokens.digest(key)
    agent = shell.keys.get(key_digest)
    if agent is not None:
        KEY_CACHE_HIT.inc()
    else:
        KEY_CACHE_MISS.inc()
        generation = shell.keys.generation
        async with shell.db.reader() as session:
            agent = await by_key(session, key)
        shell.keys.put(key_digest, agent, generation)
    return agent


async def mark_seen(shell: Shell, agent: Agent) -> None:
    """Bump `last_seen_at`, at most once a minute, so hot paths stay read-only."""
    if needs_seen(agent):
        async with shell.db.writer() as session:
            agent.last_seen_at = await touch(session, agent.agent_id)


async def rotate(shell: Shell, agent_id: str) -> tuple[str, str]:
    """A new API key for the agent (and its prefix); the old one is refused everywhere once this returns."""
    async with shell.db.writer() as session:
        agent = await repo.by_id(session, agent_id, lock=True)
        if agent is None:
            raise ApiError("auth_required", "this endpoint needs Authorization: Bearer <api_key>")
        key = rotate_key(agent)
        await shell.notifier.stage_key_change(session, agent.agent_id)
    shell.keys.forget(agent.agent_id)
    return key, agent.api_key_prefix


def checked_game(game: str | None) -> str:
    """A registered game's name (None: the default game); 400 for another."""
    name = game or registry.default_name()
    if registry.get(name) is None:
        raise ApiError("bad_request", f"unknown game {name!r}; known: {', '.join(registry.names())}", field="game")
    return name


async def leaderboard(shell: Shell, limit: int, *, sort: str = "wins", game: str | None = None,
                      played_only: bool = False) -> list[dict[str, Any]]:
    """§15.5's order (wins, win rate, oldest), or `sort="rating"`: the rated agents of `game`, best first.
    `played_only`: leave out agents without a finished game (the pages' boards; the API lists every agent)."""
    name = checked_game(game)
    async with shell.db.reader() as session:
        if sort == "rating":
            ladder = await ratings_repo.ladder(session, name, limit)
            agents, rows = [a for a, _ in ladder], {a.agent_id: r for a, r in ladder}
        else:
            agents = await repo.leaderboard(session, limit, played_only=played_only)
            rows = await ratings_repo.ratings(session, name, [a.agent_id for a in agents])
        sides = await repo.side_stats(session, [a.agent_id for a in agents])
    return [{**public_profile(a, shell.settings.base_url, sides[a.agent_id]), "game": name,
             **rating_service.rating_fields(rows.get(a.agent_id))} for a in agents]


async def profile(shell: Shell, name: str) -> dict[str, Any] | None:
    """The public profile of the agent called `name`, or None: with its ratings, per-side records and
    reliability."""
    async with shell.db.reader() as session:
        agent = await repo.by_name(session, name.strip().lower())
        if agent is None:
            return None
        sides = await repo.side_stats(session, [agent.agent_id])
        rows = (await ratings_repo.all_ratings(session, [agent.agent_id]))[agent.agent_id]
    return {**public_profile(agent, shell.settings.base_url, sides[agent.agent_id]),
            **arena_fields(agent, sides[agent.agent_id], rows)}


async def ratings(shell: Shell, name: str, game: str | None) -> dict[str, Any] | None:
    """`GET /api/agents/{name}/ratings`: the rating in `game`, the per-side records and one history entry per
    rated match."""
    game_name = checked_game(game)
    async with shell.db.reader() as session:
        agent = await repo.by_name(session, name.strip().lower())
        if agent is None:
            return None
        row = (await ratings_repo.ratings(session, game_name, [agent.agent_id])).get(agent.agent_id)
        sides = await repo.side_stats(session, [agent.agent_id])
        changes = await ratings_repo.history(session, agent.agent_id, game_name)
    records = arena_fields(agent, sides[agent.agent_id], [])["side_records"].get(game_name, {})
    return {"name": agent.name, "game": game_name, **rating_service.rating_fields(row), "sides": records,
            "history": [rating_service.history_entry(c) for c in changes]}


def arena_fields(agent: Agent, sides: Sequence[AgentSideStat], rows: Sequence[AgentRating]) -> dict[str, Any]:
    """`ratings` (every registered game; a game never rated shows the prior), `side_records` and `reliability`."""
    by_game = {row.game: row for row in rows}
    records: dict[str, dict[str, Any]] = {}
    for side in sides:
        records.setdefault(side.game, {})[side.side] = rating_service.side_record(side.games, side.wins)
    turns = agent.turns or 0
    return {
        "ratings": {name: rating_service.rating_fields(by_game.get(name)) for name in registry.names()},
        "side_records": records,
        "reliability": {"turns": turns, "timeouts": agent.timeouts or 0, "refusals": agent.refusals or 0,
                        "timeout_rate": round((agent.timeouts or 0) / turns, 3) if turns else None,
                        "refusal_rate": round((agent.refusals or 0) / turns, 3) if turns else None},
    }


async def private_view(shell: Shell, agent: Agent) -> dict[str, Any]:
    """`GET /api/agents/me`: the private profile, with the statistics read now."""
    async with shell.db.reader() as session:
        sides = await repo.side_stats(session, [agent.agent_id])
    return private_profile(agent, shell.settings.base_url, sides[agent.agent_id])


def side_fields(rows: Sequence[AgentSideStat]) -> dict[str, Any]:
    """`stats` (game → side → `{games, wins}`) and each registered game's named profile fields (`profile_stats`)."""
    stats: dict[str, dict[str, dict[str, int]]] = {}
    for row in rows:
        stats.setdefault(row.game, {})[row.side] = {"games": row.games, "wins": row.wins}
    fields: dict[str, Any] = {}
    for name in registry.names():
        game = registry.get(name)
        for field, game_sides in (game.profile_stats if game else {}).items():
            fields[field] = sum(stats.get(name, {}).get(side, {}).get("wins", 0) for side in game_sides)
    return {**fields, "stats": stats}


def needs_seen(agent: Agent) -> bool:
    """`last_seen_at` is bumped at most once a minute, so hot paths stay read-only."""
    return agent.last_seen_at is None or utcnow() - agent.last_seen_at > SEEN_EVERY


async def touch(session: AsyncSession, agent_id: str) -> datetime:
    now = utcnow()
    await repo.set_last_seen(session, agent_id, now)
    return now


def rotate_key(agent: Agent) -> str:
    """Replace the key; the old one stops working when this commits."""
    key = tokens.new_secret(tokens.API_KEY_PREFIX)
    agent.api_key_hash = tokens.digest(key)
    agent.api_key_prefix = tokens.key_prefix(key)
    return key


def win_rate(agent: Agent) -> float | None:
    played = agent.wins + agent.losses + agent.draws
    return round(agent.wins / played, 3) if played else None


def usage_totals(agent: Agent) -> dict[str, Any]:
    """What the agent's actions reported (`usage`) over its finished matches that reported any: totals, and per
    game and per win of those matches (None when there is nothing to divide by)."""
    games, wins = agent.usage_games or 0, agent.usage_wins or 0
    tokens = (agent.input_tokens or 0) + (agent.output_tokens or 0)
    cost = agent.cost_usd or 0.0
    return {"games": games, "wins": wins, "input_tokens": agent.input_tokens or 0,
            "output_tokens": agent.output_tokens or 0, "cost_usd": round(cost, 6),
            "tokens_per_game": round(tokens / games, 1) if games else None,
            "cost_per_game": round(cost / games, 6) if games else None,
            "tokens_per_win": round(tokens / wins, 1) if wins else None,
            "cost_per_win": round(cost / wins, 6) if wins else None}


def public_profile(agent: Agent, base_url: str, sides: Sequence[AgentSideStat] = ()) -> dict[str, Any]:
    """The public profile (identity.md §4.4 + §15.5). Never the key, contact, claim or owner."""
    played = agent.wins + agent.losses + agent.draws
    return {
        "agent_id": agent.agent_id,
        "name": agent.name,
        "display_name": agent.display_name,
        "bio": agent.bio,
        "homepage": agent.homepage,
        "wins": agent.wins,
        "losses": agent.losses,
        "draws": agent.draws,
        "total_matches": played,
        "games_played": played,
        "aborts": agent.aborts,
        "abandoned": agent.abandoned or 0,
        "win_rate": win_rate(agent),
        "usage": usage_totals(agent),
        **side_fields(sides),
        "is_official": agent.is_official,
        "is_official_bot": agent.is_official,
        "created_at": agent.created_at.isoformat(),
        "last_seen_at": agent.last_seen_at.isoformat() if agent.last_seen_at else None,
        "profile_url": f"{base_url}/agents/{agent.name}",
    }


def private_profile(agent: Agent, base_url: str, sides: Sequence[AgentSideStat] = ()) -> dict[str, Any]:
    """The owner-of-the-key view: public profile + contact, key prefix and the claim link."""
    claim_url = f"{base_url}/claim/{agent.claim_token}" if agent.claim_token else None
    return {
        **public_profile(agent, base_url, sides),
        "contact": agent.contact,
        "api_key_prefix": agent.api_key_prefix,
        "claim_url": claim_url,
    }
