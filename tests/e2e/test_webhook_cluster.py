"""Two server processes on one PostgreSQL, both running a webhook sender: every delivery is sent once (claims are
`FOR UPDATE SKIP LOCKED`), whichever process committed the turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.table import Table
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhooks import add_hook, open_table, play_by_webhooks

pytestmark = pytest.mark.postgres
HOOK_ENV = {"WODI_WEBHOOK_ALLOW_PRIVATE": "true", "WODI_WEBHOOK_RETRY_BASE": "0.3"}


class TwoDoors(Table):
    """Even seats act on process A, odd seats on process B."""

    def __init__(self, a: httpx.AsyncClient, b: httpx.AsyncClient, n: int) -> None:
        super().__init__(a, n)
        self.doors = (a, b)

    async def act(self, seat: int, body: dict[str, Any]) -> httpx.Response:
        response = await self.doors[seat % 2].post(f"/api/matches/{self.match_id}/action", json=body,
                                                   headers=self.h(seat))
        self.responses.append((body, response))
        return response


@pytest.fixture
async def pair(database_url: str) -> AsyncIterator[tuple[Server, Server]]:
    a, b = Server(database_url, **HOOK_ENV).start(), Server(database_url, **HOOK_ENV).start()
    yield a, b
    a.stop()
    b.stop()
    await _wipe(database_url)


async def test_two_senders_deliver_each_turn_once(pair: tuple[Server, Server]) -> None:
    receiver = await Receiver().start()
    a, b = pair
    try:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as on_a, \
                httpx.AsyncClient(base_url=b.base_url, timeout=30) as on_b:
            table = TwoDoors(on_a, on_b, 6)
            await table.register()
            for seat, name in enumerate(table.names):
                receiver.secrets[name] = (await add_hook(on_a, table.keys[seat], receiver.url(name)))["secret"]
            await open_table(table)
            finished = await play_by_webhooks(on_a, receiver, table)
            assert len(finished) == 6
            sent = Counter(r.headers["webhook-id"] for r in receiver.log)
            assert sent and max(sent.values()) == 1, "no delivery was sent twice"
            turns = [r for r in receiver.log if r.body["type"] == "your_turn"]
            assert len(turns) == len(table.responses)
    finally:
        await receiver.stop()
