"""The real server in a subprocess: a game driven by webhooks alone survives a `kill -9` with a delivery still
queued; the restarted server sends it (same delivery id) and the game plays to the end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.helpers import bearer
from tests.api.table import Table
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_webhooks import add_hook, decide, open_table

HOOK_ENV = {"WODI_WEBHOOK_ALLOW_PRIVATE": "true", "WODI_WEBHOOK_RETRY_BASE": "0.3"}


@pytest.fixture
async def receiver(database_url: str) -> AsyncIterator[Receiver]:
    server = await Receiver().start()
    yield server
    await server.stop()
    await _wipe(database_url)


async def _failed_once(client: httpx.AsyncClient, key: str, webhook_id: str) -> dict[str, Any] | None:
    detail = (await client.get(f"/api/agents/me/webhooks/{webhook_id}", headers=bearer(key))).json()
    return next((d for d in detail["deliveries"] if d["status"] == "pending" and d["attempts"] >= 1), None)


async def test_a_restart_in_the_middle_loses_no_delivery(database_url: str, receiver: Receiver) -> None:
    server = Server(database_url, **HOOK_ENV).start()
    client = httpx.AsyncClient(base_url=server.base_url, timeout=30)
    table = Table(client, 4)
    await table.register()
    hooks = [await add_hook(client, table.keys[seat], receiver.url(name)) for seat, name in enumerate(table.names)]
    for hook, name in zip(hooks, table.names, strict=True):
        receiver.secrets[name] = hook["secret"]
    await open_table(table)
    actions = 0
    held: dict[str, Any] = {}
    finished: set[int] = set()

    async def restart_with_a_delivery_queued() -> None:
        nonlocal server, client
        for _ in range(1200):
            failed = [(seat, d) for seat in range(4)
                      if (d := await _failed_once(client, table.keys[seat], hooks[seat]["webhook_id"]))]
            if failed:
                break
            await asyncio.sleep(0.05)
        (seat, delivery), = failed
        held.update(seat=seat, delivery_id=delivery["delivery_id"])
        server.kill()
        await client.aclose()
        for name in table.names:
            receiver.failures[name] = 0
        server = Server(database_url, port=server.port, **HOOK_ENV).start()
        client = table.client = httpx.AsyncClient(base_url=server.base_url, timeout=30)

    async def seat_loop(seat: int) -> None:
        nonlocal actions
        while seat not in finished:
            got = await receiver.next(table.names[seat], within=90)
            assert got.verified
            if got.body["type"] == "match_finished":
                finished.add(seat)
            elif got.body["type"] == "your_turn":
                actions += 1
                if actions == 2:  # the second speech: its successor's your_turn is refused until the restart
                    for name in table.names:
                        receiver.failures[name] = 10**6
                answer = await table.act(seat, decide(got.body))
                assert answer.status_code == 200, answer.text
                if actions == 2:
                    await restart_with_a_delivery_queued()

    try:
        await asyncio.gather(*(seat_loop(seat) for seat in range(4)))
        assert (await table.snap(0))["status"] == "finished"
        attempts = [r for r in receiver.log if r.headers["webhook-id"] == held["delivery_id"]]
        assert [r.answered for r in attempts][-1] == 204 and 503 in [r.answered for r in attempts]
        assert attempts[-1].hook == table.names[held["seat"]] and attempts[-1].body["type"] == "your_turn"
        turns = [r for r in receiver.log if r.body["type"] == "your_turn" and r.answered == 204]
        assert len(turns) == len(table.responses), "every turn was delivered once, and answered"
    finally:
        await client.aclose()
        server.stop()
