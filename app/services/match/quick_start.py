"""The quick start (issue 17): a person picks a game's few choices, takes seat 0, and the official bots take every
other seat at once — the room is marked `fill_now` and the bot filler is woken on the lobby key of the notifier
(`app.services.match.lobby`), so it never waits for `WODI_BOT_FILL_AFTER`."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.bots.personas import PERSONAS
from app.db import matches as repo
from app.db.models import Match
from app.protocol import registry
from app.protocol.errors import ApiError
from app.protocol.registry import AnyGame, QuickStarts
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
    return await matches.create(shell, sitter, body, seat_meta, fill_now=True,
                                check=share_check(shell, n_players - 1))


async def fill(shell: Shell, match_id: str, caller: Caller) -> Match:
    """`POST /api/matches/{id}/fill`: the host calls the official bots in for the open seats (`matches.fill`),
    if the pool has room for them (503 `bots_unavailable`)."""

    async def free(session: AsyncSession, needed: int) -> None:
        await check_bots_free(shell, session, needed)

    return await matches.fill(shell, match_id, caller, free)


def _seats(game: Any, config: dict[str, Any]) -> int:
    typed: AnyGame = game
    return typed.n_players(typed.parse_config(config))
