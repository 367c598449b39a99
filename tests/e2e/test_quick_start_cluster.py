"""One client's share of the bots holds across server processes (issue 26): a burst of one client's quick starts,
sent to two servers on one PostgreSQL at once, seats exactly its share (the count is taken under a per-client
advisory lock in the room's own transaction)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import Server

pytestmark = pytest.mark.postgres
FIVE = {"choices": {"virtual_players": 5}}


@pytest.fixture
async def pair(database_url: str) -> AsyncIterator[tuple[Server, Server]]:
    a, b = (Server(database_url, WODI_TRUSTED_PROXIES="127.0.0.1").start(),
            Server(database_url, WODI_TRUSTED_PROXIES="127.0.0.1").start())
    yield a, b
    a.stop()
    b.stop()
    await _wipe(database_url)


async def test_a_burst_across_two_processes_gets_one_share(pair: tuple[Server, Server]) -> None:
    a, b = pair
    greedy, other = {"X-Forwarded-For": "10.88.0.1"}, {"X-Forwarded-For": "10.88.0.2"}
    async with httpx.AsyncClient(base_url=a.base_url, timeout=40) as on_a, \
            httpx.AsyncClient(base_url=b.base_url, timeout=40) as on_b:
        burst = [client.post("/api/play", json={"name": f"刷{i}", **FIVE}, headers=greedy)
                 for i in range(8) for client in (on_a, on_b)]
        *answers, theirs = await asyncio.gather(*burst, on_b.post("/api/play", json={"name": "路人", **FIVE},
                                                                  headers=other))
    codes = sorted(r.status_code for r in answers)
    assert codes == [201] * 2 + [429] * 14, [r.text for r in answers if r.status_code not in (201, 429)]
    assert {r.json()["error"] for r in answers if r.status_code == 429} == {"quick_start_limit"}
    assert theirs.status_code == 201, theirs.text
