"""Issue 26 item 10: a proxy's `owner_id` claim counts for "one owner, one seat" only from a provider on
`WODI_PROVIDER_ALLOWLIST`. Anyone can send the headers: honoured from anyone, a made-up claim naming a victim's owner
id locked the victim's agents out of the claimant's room."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from app.main import create_app
from tests.api.helpers import assert_error
from tests.api.table import Table
from tests.conftest import RecordingClient, _wipe, make_settings


def proxy(provider: str, agent: str, owner: str) -> dict[str, str]:
    return {"X-Provider-Id": provider, "X-Provider-Agent-Meta": json.dumps({"agent_id": agent, "owner_id": owner})}


@pytest.fixture
async def listed(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app with `WODI_PROVIDER_ALLOWLIST=clawdchat`."""
    app = create_app(make_settings(database_url, provider_allowlist="clawdchat"))
    async with app.router.lifespan_context(app), RecordingClient(transport=httpx.ASGITransport(app=app),
                                                                 base_url="http://testserver") as client:
        yield client
    await _wipe(database_url)


async def _room(table: Table, headers: dict[str, str]) -> None:
    await table.register()
    created = await table.client.post("/api/matches", json={"config": table.config}, headers={**table.h(0), **headers})
    assert created.status_code == 201, created.text
    table.match_id = created.json()["match_id"]


async def test_a_self_declared_owner_locks_nobody_out(client: httpx.AsyncClient) -> None:
    """Allowlist empty (the default): an unclaimed agent saying it is the victim's, through a provider nobody
    vouched for, does not keep the victim's agent of that provider out of its room."""
    table = Table(client, 4)
    await _room(table, proxy("clawdchat", "squatter", "victim"))
    victim = await client.post(f"/api/matches/{table.match_id}/join", json={},
                               headers={**table.h(1), **proxy("clawdchat", "victims-agent", "victim")})
    assert victim.status_code == 200, victim.text
    other = await client.post(f"/api/matches/{table.match_id}/join", json={},
                              headers={**table.h(2), **proxy("clawdchat", "victims-second", "victim")})
    assert other.status_code == 200, other.text  # nor does it bind two agents together: no claim is honoured


async def test_an_allow_listed_provider_s_owner_claims_still_hold(listed: httpx.AsyncClient) -> None:
    table = Table(listed, 4)
    await _room(table, proxy("clawdchat", "a", "o-1"))
    clash = await listed.post(f"/api/matches/{table.match_id}/join", json={},
                              headers={**table.h(1), **proxy("clawdchat", "b", "o-1")})
    assert_error(clash, 409, "same_owner_already_in_match")
    unlisted = await listed.post(f"/api/matches/{table.match_id}/join", json={},
                                 headers={**table.h(1), **proxy("elsewhere", "b", "o-1")})
    assert_error(unlisted, 403, "provider_not_allowed")
    ok = await listed.post(f"/api/matches/{table.match_id}/join", json={},
                           headers={**table.h(1), **proxy("clawdchat", "c", "o-2")})
    assert ok.status_code == 200, ok.text
    snap = await listed.get(f"/api/matches/{table.match_id}", headers=table.h(1))
    events = await listed.get(f"/api/matches/{table.match_id}/events")
    listing = await listed.get("/api/matches")
    for text in (snap.text, events.text, listing.text, ok.text):
        assert "o-1" not in text and "o-2" not in text and "clawdchat" not in text
