"""The showcase (issue 33): a table that is never empty. While no public match is live, the platform opens a match
whose every seat is an official bot (`POST /api/showcase`, asked by the bot filler, `app.bots.showcase`), so a
visitor of the lobby can watch one at once.

The platform chooses: the installed games in turn (the registry's order, the one after the last showcase's game),
each at its bots' first arena preset (`app.games.brains.BotPlay.arena_presets`: the smallest or shortest bots-only
table) or its defaults. A showcase is dealt when it opens, is never rated and counts on no board
(`app.services.rating.stats`). At most one is waiting or in progress at a time, whichever process opens it: a
partial unique
index on `matches.showcase` refuses a second. It takes at most `1 / POOL_SHARE` of the official bots, so quick
starts keep the rest of the pool.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import agents as agents_repo
from app.db import matches as repo
from app.db.models import Agent, Match
from app.games.installed import bot_play
from app.protocol import registry
from app.protocol.errors import ApiError
from app.services.match import listing, quick_start, seeded_matches
from app.services.match.seating import check_can_sit
from app.services.match.shell import Shell

TAKEOVER = "takeover_after_timeouts"  # the protocol's config extension (`app.services.match.takeover`)
POOL_SHARE = 2  # a showcase seats at most half the official bots' capacity (with every other live table counted)


def games() -> list[str]:
    """The games a showcase rotates through: every registered game the official bots can play, registry order."""
    return [name for name in registry.names() if registry.brain(name) is not None]


def config_for(name: str) -> dict[str, Any]:
    """The showcase's config of `name`: its bots' first arena preset (else the defaults), with takeover after one
    timeout where the game offers it, as the game stores it."""
    game = registry.get(name)
    if game is None:
        raise ApiError("invalid_config", f"unknown game {name!r}; known: {', '.join(registry.names())}",
                       field="game")
    play = bot_play().get(name)
    raw = dict(play.arena_presets[0][1]) if play is not None and play.arena_presets else {}
    if TAKEOVER in game.config_model.model_fields:
        raw[TAKEOVER] = 1  # a seat whose bot is gone (its process stopped) is played by the server: the show ends
    return game.config_to_json(game.parse_config(raw))


def after(last: str | None) -> str | None:
    """The game after `last` in the rotation (the first one when `last` is None or no longer offered)."""
    names = games()
    if not names:
        return None
    return names[(names.index(last) + 1) % len(names)] if last in names else names[0]


async def status(shell: Shell) -> dict[str, Any]:
    """`GET /api/showcase`: whether it is on, the showcase waiting or in progress (its room line), whether another
    public match is live (then none is needed), and what the next one would be."""
    async with shell.db.reader() as session:
        live = await repo.live_showcase(session)
        others = await repo.others_live(session)
        last = await repo.last_showcase_game(session)
    match = None
    if live is not None:
        rows = await listing.list_matches(shell, status=None, newest_first=True, agent=None, game=None,
                                          seats_open=None, limit=1, showcase=True)
        match = next((row for row in rows if row["match_id"] == live), None)
    upcoming = after(last)
    nxt = None if upcoming is None else {"game": upcoming, "config": (cfg := config_for(upcoming)),
                                        "n_players": _seats(upcoming, cfg)}
    return {"enabled": shell.settings.showcase, "match": match, "others_live": others, "next": nxt}


async def open_showcase(shell: Shell, game_name: str, agent_names: Sequence[str]) -> dict[str, Any]:
    """`POST /api/showcase`: open and deal `game_name`'s showcase with these official bots in seat order."""
    if not shell.settings.showcase:
        raise ApiError("showcase_off", "this server plays no showcase (WODI_SHOWCASE=false)")
    config = config_for(game_name)
    n_players = _seats(game_name, config)
    if len(agent_names) != n_players or len(set(agent_names)) != n_players:
        raise ApiError("invalid_config", f"a {game_name} showcase seats {n_players} distinct official bots, "
                       f"{len(agent_names)} named", field="agents", n_players=n_players)
    async with shell.db.writer() as session:
        await _check_open(shell, session, n_players)
        found = {name: await _official(session, name) for name in agent_names}
        if len({a.agent_id for a in found.values()}) != n_players:
            raise ApiError("invalid_config", f"a {game_name} showcase seats {n_players} distinct official bots: a "
                           "name was given twice", field="agents", n_players=n_players)
        # Locked as a join locks its agent (one agent, one table), in id order like every seating of several agents.
        for agent in sorted(found.values(), key=lambda a: a.agent_id):
            await agents_repo.by_id(session, agent.agent_id, lock=True)
            await check_can_sit(session, None, [], agent, {}, shell.settings)
        specs = [seeded_matches.SeatSpec(a.name, a.display_name or a.name, agent=a) for a in found.values()]

        async def mark(session: AsyncSession, match: Match) -> None:
            match.showcase = True
            try:
                await session.flush()
            except IntegrityError:
                raise ApiError("showcase_busy", "a showcase is already waiting or in progress") from None

        applied = await seeded_matches.open_in(shell, session, game_name, config, secrets.randbits(64), specs,
                                               on_open=mark)
    await seeded_matches.published(shell, applied)
    return {"match_id": applied.match.match_id, "game": game_name, "config": config, "n_players": n_players,
            "invite_url": shell.settings.match_url(applied.match.match_id)}


async def _check_open(shell: Shell, session: AsyncSession, n_players: int) -> None:
    """Nothing else public live, no showcase live, and the pool's share free for it."""
    live = await repo.live_showcase(session)
    if live is not None:
        raise ApiError("showcase_busy", "a showcase is already waiting or in progress", match_id=live)
    if await repo.others_live(session):
        raise ApiError("showcase_busy", "a public match is live: there is something to watch already")
    busy = await repo.live_official_seats(session) + await repo.open_seats_to_fill_now(session)
    share = quick_start.pool_capacity(shell) // POOL_SHARE
    if busy + n_players > share:
        raise ApiError("bots_unavailable", f"a showcase may seat at most {share} of the official bots with every "
                       f"other table ({busy} seats taken or promised, it needs {n_players}); quick starts come first",
                       headers={"Retry-After": str(quick_start.RETRY_AFTER)}, capacity=share, busy=busy,
                       needed=n_players)


async def _official(session: AsyncSession, name: str) -> Agent:
    agent = await agents_repo.by_name(session, name.strip().lower())
    if agent is None or not agent.is_official:
        raise ApiError("invalid_config", f"{name!r} is not an official bot: a showcase seats official bots only",
                       field="agents")
    return agent


def _seats(name: str, config: dict[str, Any]) -> int:
    game = registry.get(name)
    if game is None:  # pragma: no cover - `config_for` refused it already
        raise ApiError("invalid_config", f"unknown game {name!r}", field="game")
    return game.n_players(game.parse_config(config))
