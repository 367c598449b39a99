"""The lobby wake-up across processes: the bots in a process of their own sleep on the server's `GET /api/bots/wake`
(a long-poll on the lobby key of the server's notifier, which other server processes' rooms reach through
PostgreSQL's LISTEN/NOTIFY; on SQLite there is one server process), and report their pool's figures with each call
for the server's `/metrics`; a wake-up brings the rooms to fill at once with it. Implements `app.bots.runner.Wake`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from app.services.match.lobby import BOT_USER_AGENT


class HttpWake:
    def __init__(self, base_url: str, official_key: str) -> None:
        self._client = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=45.0,
                                         headers={"User-Agent": BOT_USER_AGENT, "X-Official-Bot-Key": official_key})
        self._latest = 0
        self._rooms: list[dict[str, Any]] | None = None
        self._seats: list[dict[str, Any]] | None = None
        self.figures: Callable[[], tuple[int, int]] | None = None  # (pool size, idle), reported with each wait

    def latest(self) -> int:
        return self._latest

    async def wait(self, after: int, within: float) -> int:
        params: dict[str, float] = {"after": after, "wait": min(within, 30.0)}
        if self.figures is not None:
            params["pool_size"], params["idle"] = self.figures()
        response = await self._client.get("/api/bots/wake", params=params)
        response.raise_for_status()
        body = response.json()
        self._latest = max(self._latest, int(body["latest"]))
        self._rooms, self._seats = body.get("rooms"), body.get("seats")
        return self._latest

    def rooms(self) -> list[dict[str, Any]] | None:
        """The rooms to fill at once that came with the last wake-up (once; None: list them)."""
        rooms, self._rooms = self._rooms, None
        return rooms

    def seats(self) -> list[dict[str, Any]] | None:
        """The official agents' live seats that came with the last wake-up (once; None: ask for them)."""
        seats, self._seats = self._seats, None
        return seats

    async def aclose(self) -> None:
        await self._client.aclose()
