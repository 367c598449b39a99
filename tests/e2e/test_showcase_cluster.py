"""The showcase with several server processes on one PostgreSQL (issue 33): whichever process runs the bots opens
it, both processes serve it, and there is never a second one live — before and after the first one ends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import Server

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pair(database_url: str) -> AsyncIterator[tuple[Server, Server]]:
    on = {"WODI_BOTS_ENABLED": "true", "WODI_SHOWCASE": "true", "WODI_BOT_FILL_AFTER": "600"}
    a, b = Server(database_url, **on).start(), Server(database_url, **on).start()
    yield a, b
    a.stop()
    b.stop()
    await _wipe(database_url)


async def _live_showcases(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for status in ("waiting", "in_progress"):
        response = await client.get("/api/matches", params={"showcase": "true", "status": status})
        rows += response.json()["matches"]
    return rows


async def test_two_processes_play_one_showcase_at_a_time(pair: tuple[Server, Server]) -> None:
    a, b = pair
    async with httpx.AsyncClient(base_url=a.base_url, timeout=40) as on_a, \
            httpx.AsyncClient(base_url=b.base_url, timeout=40) as on_b:
        seen: set[str] = set()
        for _ in range(600):  # until the second showcase is live; bounded by a count, not a clock
            for client in (on_a, on_b):
                live = await _live_showcases(client)
                assert len(live) <= 1, live
                seen.update(m["match_id"] for m in live)
            if len(seen) >= 2:
                break
            await asyncio.sleep(0.5)
        assert len(seen) >= 2, "the first showcase never ended into a second"
        shown = (await on_b.get("/api/matches", params={"showcase": "true", "limit": 10})).json()["matches"]
        assert len({m["game"] for m in shown}) == len(shown), "each showcase a different game, in turn"
        assert all(p["is_official"] for m in shown for p in m["players"])
