"""Competitive matches close the ghosting hole (issue 19): a logged-in spectator of a live `compete_mode` match
sees no role, no word and no pair until the end; a casual match keeps the protocol's live god view."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.api.table import Table, lowest_other
from tests.api.test_owners import cookie_of, jar, sign_up
from tests.conftest import _wipe, make_settings


async def _spectator(client: httpx.AsyncClient) -> dict[str, str]:
    cookie = cookie_of(await sign_up(client, "watcher"))
    client.cookies.clear()
    return jar(cookie)


async def _seen(table: Table, headers: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    snap = await table.client.get(f"/api/matches/{table.match_id}", headers=headers)
    events = await table.client.get(f"/api/matches/{table.match_id}/events", headers=headers, params={"since": 0})
    assert snap.status_code == events.status_code == 200
    return snap.json(), events.json()


async def _secrets(table: Table) -> set[str]:
    """Every seat's own word, as the seat itself sees it."""
    return {(await table.snap(seat))["you"]["word"] for seat in range(table.n)} - {None, ""}


def _assert_blind(snap: dict[str, Any], page: dict[str, Any], secrets: set[str]) -> None:
    assert snap["viewer_role"] == "spectator" and page["viewer_role"] == "spectator"
    assert snap["viewer_capabilities"]["can_see_alive_roles"] is False
    assert snap["viewer_capabilities"]["can_see_wordpair"] is False
    assert "wordpair" not in snap and "spectator_log" not in snap
    assert all("role" not in p and "word" not in p for p in snap["players"] if p["alive"])
    assert {e["visibility"] for e in page["events"]} == {"public"}
    text = json.dumps([snap, page], ensure_ascii=False)
    assert not [word for word in secrets if word in text]


async def test_a_live_competitive_match_shows_a_spectator_nothing_secret(client: httpx.AsyncClient) -> None:
    spectator = await _spectator(client)
    table = Table(client, 4, compete_mode=True)
    await table.open()
    secrets = await _secrets(table)
    assert len(secrets) == 2

    async def check(t: Table) -> None:
        snap, page = await _seen(t, spectator)
        if snap["status"] == "in_progress":
            _assert_blind(snap, page, secrets)

    await check(table)
    final = await table.play(lowest_other, on_step=check)
    snap, page = await _seen(table, spectator)
    assert final["status"] == snap["status"] == "finished"
    assert snap["viewer_capabilities"]["can_see_wordpair"] is True and set(snap["wordpair"].values()) == secrets
    assert all("role" in p for p in snap["players"])
    assert {e["visibility"] for e in page["events"]} > {"public"}


async def test_a_casual_match_keeps_the_live_god_view(client: httpx.AsyncClient) -> None:
    spectator = await _spectator(client)
    table = Table(client, 4)
    await table.open()
    snap, page = await _seen(table, spectator)
    assert snap["status"] == "in_progress" and snap["viewer_capabilities"]["can_see_wordpair"] is True
    assert set(snap["wordpair"].values()) == await _secrets(table)
    assert all("role" in p for p in snap["players"]) and {e["visibility"] for e in page["events"]} > {"public"}


@pytest.fixture
async def end_only_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(make_settings(database_url, casual_spectator_god_view="end"))
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport,
                                                                   base_url="http://testserver") as http:
        yield http
    await _wipe(database_url)


async def test_the_operator_can_hold_back_the_god_view_of_casual_matches(
        end_only_client: httpx.AsyncClient) -> None:
    spectator = await _spectator(end_only_client)
    table = Table(end_only_client, 4)
    await table.open()
    snap, page = await _seen(table, spectator)
    _assert_blind(snap, page, await _secrets(table))
