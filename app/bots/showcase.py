"""The showcase: while no public match is live, the official bots play one the platform opens for them, so the lobby
always has a table to watch (`app.services.match.showcase` decides the game, its config and whether one is wanted).

Each regular pass of the filler asks `GET /api/showcase`; when it is on and nothing is live, the pool's idle agents
(the lobby's line-up, growing the pool if it must) are named in `POST /api/showcase` with the official key, and each
plays its seat like any other table (`app.bots.seats`). The server refuses a second showcase and one that would take
more than its share of the pool, so quick starts are never starved.
"""

from __future__ import annotations

import logging
from typing import Any

from app.bots.lobby import Lobby
from app.bots.player import error_code
from app.games.installed import brains

log = logging.getLogger("app.bots")

NOT_NOW = ("showcase_busy", "showcase_off", "bots_unavailable", "already_in_match")


class Showcase:
    """Opens the next showcase through `lobby`'s pool and seats."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.opened = 0
        self.match_id: str | None = None  # the last showcase this filler opened

    async def once(self) -> str | None:
        """Open a showcase if one is wanted now; its match id, or None."""
        http = self.lobby.pool.http
        response = await http.get("/api/showcase")
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        upcoming = body.get("next")
        if not body["enabled"] or body["match"] is not None or body["others_live"] or not upcoming:
            return None
        if upcoming["game"] not in brains():
            return None
        return await self._open(str(upcoming["game"]), int(upcoming["n_players"]))

    async def _open(self, game: str, n_players: int) -> str | None:
        lobby, pool = self.lobby, self.lobby.pool
        lineup = lobby.lineup({"match_id": "", "seats_open": n_players, "players": []}, grow=True)
        if len(lineup) < n_players:
            lobby.release(lineup)
            return None
        for agent in lineup:
            agent.match_id = ""  # held: no room's line-up takes it while the showcase opens
        try:
            if not await pool.register_new([a for a in lineup if not a.key]):
                return None
            response = await pool.http.post("/api/showcase", json={"game": game, "agents": [a.handle for a in lineup]},
                                            headers={"X-Official-Bot-Key": pool.official_key})
        finally:
            for agent in lineup:
                agent.match_id = None
        if response.status_code != 201:
            code = error_code(response)
            (log.info if code in NOT_NOW else log.warning)("showcase of %s not opened: %s", game, code)
            return None
        match_id = str(response.json()["match_id"])
        for agent in lineup:
            lobby.seats.seat(agent, match_id)
        self.opened += 1
        self.match_id = match_id
        log.info("showcase %s opened: %s, %d official bots", match_id, game, n_players)
        return match_id
