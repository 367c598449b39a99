"""Moderation across two server processes on one PostgreSQL (issue 34): a suspension made through A is refused by
B at once — B had just trusted the key from its cache — and a lift made through A restores the key on B."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.api.helpers import assert_error, bearer
from tests.conftest import _wipe
from tests.e2e.server import Server

pytestmark = pytest.mark.postgres
TOKEN = "test-operator-token"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}


async def _refused_on(client: httpx.AsyncClient, key: str, code: str | None) -> httpx.Response:
    """B's answer once the other process's announcement arrived (NOTIFY is delivered a moment after the commit)."""
    for _ in range(100):
        response = await client.get("/api/matches/nosuch12", headers=bearer(key))  # the key-cache path
        if (response.json().get("error") if response.status_code == 403 else None) == code:
            return response
        await asyncio.sleep(0.02)
    raise AssertionError(f"B never answered {code}: {response.status_code} {response.text}")


async def test_a_suspension_through_one_process_holds_in_the_other(database_url: str) -> None:
    a = Server(database_url, WODI_OPERATOR_TOKEN=TOKEN).start()
    b = Server(database_url, WODI_OPERATOR_TOKEN=TOKEN).start()
    try:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as on_a, \
                httpx.AsyncClient(base_url=b.base_url, timeout=30) as on_b:
            key = (await on_a.post("/api/agents", json={"name": "two-sided"})).json()["api_key"]
            assert (await on_b.get("/api/matches/nosuch12", headers=bearer(key))).status_code == 404  # B caches it
            suspended = await on_a.post("/api/operator/suspensions", headers=OPERATOR,
                                        json={"subject": "agent", "name": "two-sided", "reason": "test"})
            assert suspended.status_code == 201, suspended.text
            assert_error(await _refused_on(on_b, key, "agent_suspended"), 403, "agent_suspended")
            assert_error(await on_b.get("/api/agents/me", headers=bearer(key)), 403, "agent_suspended")
            listed = (await on_b.get("/api/operator/suspensions", headers=OPERATOR)).json()["suspensions"]
            assert [s["name"] for s in listed] == ["two-sided"]  # one record, read from either process
            lifted = await on_a.post("/api/operator/suspensions/lift", headers=OPERATOR,
                                     json={"subject": "agent", "name": "two-sided"})
            assert lifted.status_code == 200, lifted.text
            assert (await _refused_on(on_b, key, None)).status_code == 404  # the key works on B again
    finally:
        a.stop()
        b.stop()
        await _wipe(database_url)
