"""The state each request of a guide's "Enter a tournament" section needs, for any game (merged into the setups of
tests/test_*skill_guide.py). Events are created by an owner's session, as a person would."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.api.helpers import bearer, register
from tests.benchmarks.guide_setups import Setup, Values

_names = itertools.count()


async def _event(client: httpx.AsyncClient, game: str, config: dict[str, Any], starts_in: float) -> str:
    saved = httpx.Cookies(client.cookies)
    client.cookies.clear()
    try:
        signed = await client.post("/api/owners", json={"username": f"guideevent{next(_names)}x{id(client) % 997}",
                                                        "password": "correct horse battery"})
        assert signed.status_code == 201, signed.text
        starts = (datetime.now(UTC) + timedelta(seconds=starts_in)).isoformat()
        made = await client.post("/api/tournaments", headers={"Origin": "http://testserver"}, json={
            "game": game, "format": "swiss", "name": "Guide cup", "starts_at": starts, "config": config})
        assert made.status_code == 201, made.text
        return str(made.json()["tournament_id"])
    finally:
        client.cookies.clear()
        client.cookies.update(saved)


def tournament_setups(game: str, config: dict[str, Any]) -> tuple[dict[tuple[str, str, str | None], Setup],
                                                                   dict[str, Setup]]:
    """(success setups by (method, route, action), error setups by code) for the section's requests."""

    async def free_agent(client: httpx.AsyncClient) -> str:
        return str((await register(client, f"guide-event-{next(_names)}"))["api_key"])

    async def open_event(client: httpx.AsyncClient, block: Any) -> Values:
        """An event open for entry (it starts in 10 minutes) and an agent not yet entered."""
        return {"EVENT": await _event(client, game, config, 600), "KEY": await free_agent(client)}

    async def entered(client: httpx.AsyncClient, block: Any) -> Values:
        values = await open_event(client, block)
        answer = await client.post(f"/api/tournaments/{values['EVENT']}/entries", headers=bearer(values["KEY"]))
        assert answer.status_code == 201, answer.text
        return values

    async def closed(client: httpx.AsyncClient, block: Any) -> Values:
        """An event whose entry has closed (it starts now)."""
        return {"EVENT": await _event(client, game, config, 0), "KEY": await free_agent(client)}

    async def agent_only(client: httpx.AsyncClient, block: Any) -> Values:
        return {"KEY": await free_agent(client)}

    success: dict[tuple[str, str, str | None], Setup] = {
        ("GET", "/api/tournaments", None): open_event,
        ("POST", "/api/tournaments/$EVENT/entries", None): open_event,
        ("GET", "/api/tournaments/$EVENT", None): entered,
        ("DELETE", "/api/tournaments/$EVENT/entries/me", None): entered,
        ("POST", "/api/agents/me/webhooks", None): agent_only,
    }
    return success, {"entry_closed": closed, "already_entered": entered}
