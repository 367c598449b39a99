"""The room list (`GET /api/matches`) and an agent's live match (`GET /api/agents/me/active`)."""

from __future__ import annotations

from typing import Any

from app.db import agents as agents_repo
from app.db import figures
from app.db import matches as repo
from app.db.models import Agent, Match, Seat
from app.games.installed import bot_seats
from app.protocol import registry
from app.services.match.shell import Shell


def _summary(shell: Shell, match: Match, seats: list[Seat], agents: dict[str, Agent]) -> dict[str, Any]:
    def flag(seat: Seat, name: str) -> bool:
        agent = agents.get(seat.agent_id or "")
        return bool(agent is not None and getattr(agent, name))

    return {
        "match_id": match.match_id, "game": match.game, "status": match.status, "phase": match.phase,
        "n_players": match.n_players, "seats_open": match.n_players - match.seats_taken,
        "players": [{"seat": s.seat, "name": s.name, "display_name": s.display_name,
                     "is_official": s.is_reference or flag(s, "is_official"),
                     "is_guest": s.agent_id is None and not s.is_reference,
                     "is_human": flag(s, "is_human")} for s in seats],
        "fill_now": bool(match.fill_now), "seats_for": match.seats_for or "all", "showcase": bool(match.showcase),
        "bot_seats": bot_seats(match.game, match.config or {}),
        "invite_url": shell.settings.match_url(match.match_id),
        "created_at": match.created_at.isoformat(), "result": match.result,
    }


async def list_matches(shell: Shell, *, status: str | None, newest_first: bool, agent: str | None,
                       game: str | None, seats_open: int | None, limit: int,
                       fill_now: bool | None = None, showcase: bool | None = None) -> list[dict[str, Any]]:
    async with shell.db.reader() as session:
        agent_id = None
        if agent:
            found = await agents_repo.by_name(session, agent.strip().lower())
            if found is None:
                return []
            agent_id = found.agent_id
        matches = await repo.listing(session, status=status, newest_first=newest_first, agent_id=agent_id,
                                     game=game, seats_open=seats_open, limit=limit, fill_now=fill_now,
                                     showcase=showcase)
        seats = await repo.seats_of(session, [m.match_id for m in matches])
        agents = await agents_repo.by_ids(session, sorted({s.agent_id for ss in seats.values() for s in ss
                                                           if s.agent_id}))
        return [_summary(shell, m, seats[m.match_id], agents) for m in matches]


async def official_seats(shell: Shell) -> list[dict[str, str]]:
    """Every live seat of an official agent, `{"name", "match_id"}`: what the bots' process plays (the seats the
    server gave its agents included)."""
    async with shell.db.reader() as session:
        return [{"name": name, "match_id": match_id} for name, match_id in await repo.official_seats(session)]


async def live_counts(shell: Shell) -> dict[tuple[str, str], int]:
    """(game, status) → matches waiting or in progress: the lobby's per-game figures."""
    async with shell.db.reader() as session:
        return await figures.live_counts(session)


async def seats_for(shell: Shell, match_id: str) -> str:
    """Who may sit in the room (`all`, `agents`, `people`; `all` for no such match): for the match page."""
    async with shell.db.reader() as session:
        return await repo.seats_for(session, match_id) or "all"


async def is_showcase(shell: Shell, match_id: str) -> bool:
    """Whether the match is the platform's showcase: for the match page's mark."""
    async with shell.db.reader() as session:
        return await repo.is_showcase(session, match_id)


async def active_for(shell: Shell, agent_id: str) -> dict[str, Any] | None:
    """identity.md §15.4: the newest waiting or in-progress match of the agent, or None."""
    async with shell.db.reader() as session:
        live = await repo.live_seat_of(session, agent_id)
        match = None if live is None else await repo.get(session, live.match_id)
    if live is None or match is None:
        return None
    game = registry.get(match.game)
    you = game.you_view(game.state_from_json(match.state), live.seat) if game else {}
    in_progress = match.status == "in_progress"
    return {
        "match_id": match.match_id, "game": match.game, "status": match.status, "phase": match.phase,
        "seat": live.seat, "invite_url": shell.settings.match_url(match.match_id),
        "your_turn": you.get("your_turn") if in_progress else None,
        "next_action": you.get("next_action"), "seats_open": match.n_players - match.seats_taken,
        "created_at": match.created_at.isoformat(),
    }
