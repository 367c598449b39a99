"""Small helpers the API tests share."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

KEY_RE = re.compile(r"^ck_live_[A-Za-z0-9_-]{43}$")


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The response is `status` with the one envelope carrying `code`."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert body["detail"]["error"] == code and body["detail"]["message"] == body["message"]
    return body


async def register(client: httpx.AsyncClient, name: str, **extra: Any) -> dict[str, Any]:
    response = await client.post("/api/agents", json={"name": name, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


_owners = itertools.count()


async def claim_each(client: httpx.AsyncClient, keys: list[str]) -> list[str]:
    """Claim each key's agent for an owner of its own (a fresh sign-up): the evidence of independent seats a rated
    match needs (docs/agents/ratings.md). Returns the owners' session cookies; the client's cookie jar is left as it
    was."""
    saved = httpx.Cookies(client.cookies)
    origin = {"Origin": str(client.base_url).rstrip("/")}
    sessions = []
    try:
        for key in keys:
            me = await client.get("/api/agents/me", headers=bearer(key))
            assert me.status_code == 200, me.text
            client.cookies.clear()
            signed = await client.post("/api/owners", json={"username": f"owner{next(_owners)}x{id(client) % 997}",
                                                            "password": "correct horse battery"})
            assert signed.status_code == 201, signed.text
            claimed = await client.post(f"/api/agents/claim/{me.json()['claim_url'].rsplit('/', 1)[1]}",
                                        headers=origin)
            assert claimed.status_code == 200, claimed.text
            sessions.append(signed.cookies["wodi_session"])
    finally:
        client.cookies.clear()
        client.cookies.update(saved)
    return sessions
def client_at(app: Any, ip: str) -> httpx.AsyncClient:
    """A client of `app` calling from `ip` (a person on another device: per-client limits count it apart)."""
    from tests.conftest import RecordingClient

    return RecordingClient(transport=httpx.ASGITransport(app=app, client=(ip, 50000)), base_url="http://testserver")


@asynccontextmanager
async def skewed_app(database_url: str, **settings: Any) -> AsyncIterator[tuple[Any, list[float]]]:
    """A running app (with `settings` over the tests' own) whose clock the test moves forward (`skew[0]` seconds
    ahead), so a deadline can pass at once; the database is wiped after it."""
    from app.main import create_app
    from tests.conftest import _wipe, make_settings

    application = create_app(make_settings(database_url, **settings))
    skew = [0.0]
    try:
        async with application.router.lifespan_context(application):
            runtime = application.state.runtime
            runtime.clock = runtime.scheduler.clock = lambda: time.time() + skew[0]
            yield application, skew
    finally:
        await _wipe(database_url)


async def host_calls_bots_in(client: httpx.AsyncClient, host_name: str,
                             n_players: int) -> tuple[str, dict[str, str], httpx.Response]:
    """A fresh agent `host_name` opens an undercover room of `n_players` and calls the official bots in
    (`POST /api/matches/{id}/fill`): (the room's URL, the host's headers, the fill's answer)."""
    host = await register(client, host_name)
    headers = {"Authorization": f"Bearer {host['api_key']}"}
    created = await client.post("/api/matches", json={"config": {"n_players": n_players, "n_undercover": 1}},
                                headers=headers)
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    return url, headers, await client.post(f"{url}/fill", headers=headers)
