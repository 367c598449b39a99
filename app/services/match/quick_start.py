"""The quick start (issue 17): a person picks a game's few choices, takes seat 0, and the official bots take every
other seat at once. When the bots run (`WODI_BOTS_ENABLED`, `WODI_BOTS_ELSEWHERE`), the server seats the free official
agents itself, in the transaction that opens the room, so a full table is dealt before the quick start is answered
however busy the server is; the bots' process learns of its agents' seats from the lobby wake-up and plays them.
Seats no free agent could take (the pool has to grow first) are left to the bots' process: the room is marked
`fill_now` and the bot filler is woken on the lobby key of the notifier (`app.services.match.lobby`), so it never
waits for `WODI_BOT_FILL_AFTER`."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.personas import PERSONAS, Persona, persona_of_handle
from app.db import matches as repo
from app.db.models import Match
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import AnyGame, QuickStarts
from app.services.identity import agents as agent_service
from app.services.match import matches
from app.services.match.seating import Caller, Sitter
from app.services.match.shell import Shell

RETRY_AFTER = 30  # seconds: about how soon a table ends and frees its bots


def quick_game(name: str) -> QuickStarts:
    """The registered game `name` if it offers a quick start; else 422 `invalid_config` naming `game`."""
    game = registry.get(name)
    if not isinstance(game, QuickStarts):
        offered = ", ".join(n for n in registry.names() if isinstance(registry.get(n), QuickStarts))
        raise ApiError("invalid_config", f"no quick start for game {name!r}; offered: {offered}", field="game")
    return game


SEATS_FOR_CHOICE: dict[str, Any] = {
    "title": "Seats For", "type": "string", "enum": list(matches.SEATS_FOR), "default": "all",
    "description": "who may take the open seats: people and agents (all), agents only, people only"}


def options(name: str) -> dict[str, Any]:
    """`GET /api/play/{game}/options`: the choices' JSON schema and defaults, and what the game adds."""
    game = quick_game(name)
    model = game.quick_start_model
    schema, defaults = model.model_json_schema(), model().model_dump(mode="json")
    if invites(game):  # a room for friends: its host also says who may sit (the room option `seats_for`)
        schema = {**schema, "properties": {**schema.get("properties", {}), "seats_for": SEATS_FOR_CHOICE}}
        defaults = {**defaults, "seats_for": "all"}
    return {"game": name, "schema": schema, "defaults": defaults, **game.quick_options()}


def pool_capacity(shell: Shell) -> int:
    """Seats the official bots can hold at once: `WODI_BOT_POOL_MAX` agents for each persona."""
    return shell.settings.bot_pool_max * len(PERSONAS)


async def check_bots_free(shell: Shell, session: AsyncSession, needed: int) -> None:
    """503 `bots_unavailable` when the bots' seats in live rooms, plus the open seats of rooms already waiting for
    them, plus `needed` would pass the pool's capacity (a soft check: the filler is the hard limit)."""
    busy = await repo.live_official_seats(session) + await repo.open_seats_to_fill_now(session)
    capacity = pool_capacity(shell)
    if busy + needed > capacity:
        raise ApiError("bots_unavailable",
                       f"all {capacity} official bots are at tables right now ({busy} seats taken or promised, this "
                       f"table needs {needed}); try again in a minute, or open a room for other players",
                       headers={"Retry-After": str(RETRY_AFTER)}, capacity=capacity, busy=busy, needed=needed)


def share_check(shell: Shell, needed: int) -> matches.Check:
    """The client's share of the pool, checked in the room's own transaction under a per-client lock (so a burst
    of one client's requests, on any process, is counted one by one): 429 `quick_start_limit` when the bot seats of
    its live quick starts plus `needed` would pass `WODI_QUICK_START_BOTS_PER_CLIENT` — unless it holds none, so
    one table of any size always fits. Then the pool as a whole (`check_bots_free`): a client over its share hears
    about its share, not about everyone's."""
    limit = shell.settings.quick_start_bots_per_client

    async def check(session: AsyncSession, client: str) -> None:
        await repo.lock_client(session, client)
        held = await repo.quick_bots_of(session, client)
        if held and held + needed > limit:
            raise ApiError("quick_start_limit",
                           f"your quick starts already hold {held} of the official bots (at most {limit} at once, "
                           f"this table needs {needed}); finish or leave a table first, or try again when one ends",
                           headers={"Retry-After": str(RETRY_AFTER)}, held=held, needed=needed, limit=limit)
        await check_bots_free(shell, session, needed)

    return check


def invites(game: QuickStarts) -> bool:
    """Whether the game's quick start opens a room for friends (`app.games.kit.QuickStart.invites`)."""
    return bool(getattr(game, "quick_invites", False))


async def start(shell: Shell, name: str, sitter: Sitter, choices: dict[str, Any] | None,
                seat_meta: dict[str, Any]) -> tuple[matches.Applied, str]:
    """Open the room with the person in seat 0, marked for the bots to fill at once, within the client's share —
    or, for a game whose quick start invites friends, a room that waits for them (the host calls the bots in for
    the seats left with `fill`)."""
    game = quick_game(name)
    seats_for = "all"
    if invites(game) and isinstance(choices, dict) and "seats_for" in choices:
        choices = dict(choices)
        seats_for = choices.pop("seats_for")
    config = game.quick_config(choices)
    n_players = _seats(game, config)
    player = {"display_name": sitter.guest_name} if sitter.guest_name else None
    body = {"game": name, "config": config, "player": player, "seats_for": seats_for}
    if invites(game):
        return await matches.create(shell, sitter, body, seat_meta)
    bots = pick_official(shell) if seats_bots(shell) else None
    return await matches.create(shell, sitter, body, seat_meta, fill_now=True,
                                check=share_check(shell, n_players - 1), bots=bots)


def seats_bots(shell: Shell) -> bool:
    """Whether the server seats the official bots itself: when they run, with this cluster (`WODI_BOTS_ENABLED`)
    or on their own (`WODI_BOTS_ELSEWHERE`). Otherwise whoever runs them fills quick starts by joining."""
    settings = shell.settings
    return (settings.bots_enabled or settings.bots_elsewhere) and bool(settings.official_bot_key)


def pick_official(shell: Shell) -> matches.Pick:
    """The official agents that take a quick start's open seats: at most one of each persona (more only when the
    table has more open seats than there are personas), the personas with the most to spare first (free agents and
    room to grow, as the bots' own line-ups choose), a random one of each persona's free agents. A persona with
    no free agent gets its next one made (`bot_adai3@wodi`, …, up to `WODI_BOT_POOL_MAX`), with a key nobody holds
    until the bots' process registers it again. Fewer than the open seats only when the pool is at its limit, or an
    agent to be made is being made at this moment elsewhere: the bots' process then fills the rest by joining."""
    pool_max = shell.settings.bot_pool_max
    index = {p.handle(i): (p, i) for p in PERSONAS for i in range(1, pool_max + 1)}

    async def pick(session: AsyncSession, needed: int, seated: list[str]) -> list[Sitter]:
        free: dict[Persona, list[tuple[int, str]]] = {p: [] for p in PERSONAS}
        top = dict.fromkeys(PERSONAS, 0)  # each persona's highest agent number in use
        for agent_id, name, busy in await repo.officials(session):
            if name in index:
                persona, number = index[name]
                top[persona] = max(top[persona], number)
                if not busy:
                    free[persona].append((number, agent_id))
        order = list(PERSONAS)
        random.shuffle(order)
        order.sort(key=lambda p: -(len(free[p]) + pool_max - top[p]))
        # Each persona's free agents in random order: quick starts at the same moment try different ones.
        line = {p: random.sample([agent_id for _, agent_id in free[p]], len(free[p])) for p in order}
        # As the bots' line-ups: bots already at the table count towards their persona's share.
        count: Counter[Persona] = Counter(p for p in map(persona_of_handle, seated) if p is not None)
        cap = max(1, -(-(needed + sum(count.values())) // len(PERSONAS)))
        chosen: list[str] = []
        while len(chosen) < needed:
            # A round: the next free agent of each persona under its cap. An agent another quick start is seating
            # at this moment (PostgreSQL: its row is locked) is skipped; its persona offers its next agent next round.
            batch = [(p, line[p][0]) for p in order if count[p] < cap and line[p]][:needed - len(chosen)]
            for persona, _ in batch:
                line[persona].pop(0)
            if not batch:
                break
            locked = await repo.lock_free(session, [agent_id for _, agent_id in batch])
            for persona, agent_id in batch:
                if agent_id in locked:
                    chosen.append(agent_id)
                    count[persona] += 1
        wanted: list[Persona] = []
        for persona in order:
            while len(chosen) + len(wanted) < needed and count[persona] < cap and top[persona] < pool_max:
                count[persona] += 1
                wanted.append(persona)
        # Made in one order everywhere (persona, then number): two quick starts making agents at once wait for each
        # other's names in the same order, never in a cycle. A name taken meanwhile (another quick start made it,
        # or the bots' process registered it) is seated if it is still free, else the persona's next is tried.
        for persona in sorted(wanted, key=lambda p: p.slug):
            while top[persona] < pool_max:
                top[persona] += 1
                handle = persona.handle(top[persona])
                new = await agent_service.make_official(session, handle, persona.name_for(top[persona]), persona.bio)
                found = [new] if new is not None else sorted(await repo.lock_free(session, names=[handle]))
                if found:
                    chosen += found
                    break
        return [Sitter(agent_id=agent_id) for agent_id in chosen]

    return pick


async def fill(shell: Shell, match_id: str, caller: Caller) -> Match:
    """`POST /api/matches/{id}/fill`: the host calls the official bots in for the open seats (`matches.fill`),
    if the pool has room for them (503 `bots_unavailable`)."""

    async def free(session: AsyncSession, needed: int) -> None:
        await check_bots_free(shell, session, needed)

    return await matches.fill(shell, match_id, caller, free, bots=pick_official(shell) if seats_bots(shell) else None)


def _seats(game: Any, config: dict[str, Any]) -> int:
    typed: AnyGame = game
    return typed.n_players(typed.parse_config(config))
