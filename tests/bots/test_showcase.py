"""The showcase over HTTP (issue 33): the official bots' filler opens the platform's bots-only match while nothing
public is live, the installed games in turn, one at a time, on no board; `WODI_SHOWCASE=false` stops it.

The app runs in process (its own bots off); the test drives a `LobbyFiller` through the same ASGI client, one pass of
the showcase at a time (`Showcase.once`), so nothing here waits on a clock."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.bots.personas import PERSONAS
from app.bots.runner import LobbyFiller
from app.main import create_app
from app.services.match.showcase import games
from tests.api.table import Table
from tests.conftest import OFFICIAL_KEY, RecordingClient, _wipe, make_settings


async def _app(database_url: str, **overrides: Any) -> AsyncIterator[FastAPI]:
    application = create_app(make_settings(database_url, **overrides))
    async with application.router.lifespan_context(application):
        yield application
    await _wipe(database_url)


@pytest.fixture
async def on(database_url: str) -> AsyncIterator[FastAPI]:
    async for application in _app(database_url, showcase=True):
        yield application


@pytest.fixture
async def off(database_url: str) -> AsyncIterator[FastAPI]:
    async for application in _app(database_url, showcase=False):
        yield application


@contextlib.asynccontextmanager
async def filler_on(application: FastAPI) -> AsyncIterator[tuple[LobbyFiller, httpx.AsyncClient]]:
    """A filler whose showcase is on, its agents registered, talking to `application` in process."""
    async with RecordingClient(transport=httpx.ASGITransport(app=application), base_url="http://testserver",
                               timeout=60) as client:
        filler = LobbyFiller("http://testserver", OFFICIAL_KEY, fill_after=600, think=0.0, poll_wait=5.0, seed=3,
                             showcase=True)
        filler.pool.client = filler.seats.client = client
        await filler.pool.register_all()
        try:
            yield filler, client
        finally:
            for task in filler.seats.cancel():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


async def _until_ended(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    """The match once it is no longer live (long-polls; bounded by a count, not by a clock)."""
    for _ in range(200):
        snap = (await client.get(f"/api/matches/{match_id}", params={"wait": 5})).json()
        if snap["status"] in ("finished", "aborted"):
            return dict(snap)
    raise AssertionError(f"showcase {match_id} never ended")


async def test_the_bots_open_a_showcase_when_nothing_is_live(on: FastAPI) -> None:
    async with filler_on(on) as (filler, client):
        assert filler.showcase is not None
        # The bots hold their actions until the checks of a live showcase are done: they think in no time, and a
        # showcase could otherwise end between two of these requests.
        playing = asyncio.Event()

        async def gate(request: httpx.Request) -> None:
            if request.url.path.endswith("/action"):
                await playing.wait()

        filler.pool.http.event_hooks["request"].append(gate)
        status = (await client.get("/api/showcase")).json()
        assert status["enabled"] and status["match"] is None and not status["others_live"]
        upcoming = status["next"]
        assert upcoming["game"] == games()[0]
        match_id = await filler.showcase.once()
        assert match_id is not None
        snap = (await client.get(f"/api/matches/{match_id}")).json()
        assert snap["game"] == upcoming["game"] and snap["status"] == "in_progress" and snap["seats_open"] == 0
        assert len(snap["players"]) == upcoming["n_players"]
        assert all(p["is_official"] and p["name"].startswith("bot_") for p in snap["players"])
        assert {k: snap["config"][k] for k in upcoming["config"]} == upcoming["config"]
        listed = (await client.get("/api/matches", params={"showcase": "true"})).json()["matches"]
        assert [m["match_id"] for m in listed] == [match_id] and listed[0]["showcase"] is True
        assert (await client.get("/api/showcase")).json()["match"]["match_id"] == match_id
        page = (await client.get("/")).text
        assert f'data-testid="lobby-featured" data-match="{match_id}" data-showcase="true"' in page
        assert 'data-testid="match-showcase"' in (await client.get(f"/match/{match_id}")).text
        assert 'data-testid="room-showcase"' in page  # its card among the live rooms is marked too
        # One at a time: the filler opens no second one, and the server refuses it.
        assert await filler.showcase.once() is None
        idle = [a.handle for a in filler.agents if a.idle][: upcoming["n_players"]]
        again = await client.post("/api/showcase", json={"game": upcoming["game"], "agents": idle},
                                  headers={"X-Official-Bot-Key": OFFICIAL_KEY})
        assert again.status_code == 409 and again.json()["error"] == "showcase_busy"
        playing.set()
        ended = await _until_ended(client, match_id)
        assert ended["status"] == "finished"
        rows = (await client.get("/api/agents", params={"limit": 100})).json()
        assert len(rows) == len(filler.agents)
        assert all(r["wins"] + r["losses"] == 0 for r in rows), "a showcase counts on no board"
        seated = ended["players"][0]["name"]  # its row on a profile says it was the showcase (counted nowhere)
        assert 'data-testid="history-showcase"' in (await client.get(f"/agents/{seated}")).text
        assert 'data-testid="lobby-featured"' not in (await client.get("/")).text


async def test_showcases_rotate_through_the_installed_games(on: FastAPI) -> None:
    installed = games()
    assert len(installed) >= 2
    async with filler_on(on) as (filler, client):
        assert filler.showcase is not None
        played = []
        for _ in range(len(installed) + 1):  # every game, and back to the first
            match_id = await filler.showcase.once()
            assert match_id is not None
            snap = await _until_ended(client, match_id)
            assert snap["status"] == "finished", snap.get("result")
            played.append(snap["game"])
        assert played == [*installed, installed[0]]
        shown = (await client.get("/api/matches", params={"showcase": "true", "limit": 10})).json()["matches"]
        assert len(shown) == len(installed) + 1 and all(m["showcase"] for m in shown)


async def test_no_showcase_while_a_public_match_is_live(on: FastAPI) -> None:
    async with filler_on(on) as (filler, client):
        assert filler.showcase is not None
        table = Table(client, 4)
        await table.open()
        assert (await table.snap(0))["status"] == "in_progress"
        status = (await client.get("/api/showcase")).json()
        assert status["others_live"] and status["match"] is None
        assert await filler.showcase.once() is None
        names = [a.handle for a in filler.agents][: status["next"]["n_players"]]
        refused = await client.post("/api/showcase", json={"game": status["next"]["game"], "agents": names},
                                    headers={"X-Official-Bot-Key": OFFICIAL_KEY})
        assert refused.status_code == 409 and refused.json()["error"] == "showcase_busy"
        assert (await client.get("/api/matches", params={"showcase": "true"})).json()["count"] == 0


async def test_turning_the_setting_off_stops_the_showcase(off: FastAPI) -> None:
    async with filler_on(off) as (filler, client):
        assert filler.showcase is not None  # the filler would open one; the server's setting says no
        status = (await client.get("/api/showcase")).json()
        assert status["enabled"] is False
        assert await filler.showcase.once() is None
        names = [a.handle for a in filler.agents][: status["next"]["n_players"]]
        refused = await client.post("/api/showcase", json={"game": status["next"]["game"], "agents": names},
                                    headers={"X-Official-Bot-Key": OFFICIAL_KEY})
        assert refused.status_code == 409 and refused.json()["error"] == "showcase_off"
        assert (await client.get("/api/matches", params={"showcase": "true"})).json()["count"] == 0
        assert filler.busy() == {}


async def test_only_the_platform_opens_a_showcase(on: FastAPI) -> None:
    async with filler_on(on) as (filler, client):
        upcoming = (await client.get("/api/showcase")).json()["next"]
        names = [a.handle for a in filler.agents][: upcoming["n_players"]]
        body = {"game": upcoming["game"], "agents": names}
        no_key = await client.post("/api/showcase", json=body)
        assert no_key.status_code == 403 and no_key.json()["error"] == "invalid_official_bot_key"
        key = {"X-Official-Bot-Key": OFFICIAL_KEY}
        agent = (await client.post("/api/agents", json={"name": "someone-else"})).json()
        stranger = await client.post("/api/showcase", json={**body, "agents": [agent["name"], *names[1:]]},
                                     headers=key)
        assert stranger.status_code == 422 and stranger.json()["detail"]["field"] == "agents"
        short = await client.post("/api/showcase", json={**body, "agents": names[:-1]}, headers=key)
        assert short.status_code == 422 and short.json()["detail"]["n_players"] == upcoming["n_players"]
        twice = await client.post("/api/showcase", json={**body, "agents": [names[1].upper(), *names[1:]]},
                                  headers=key)  # one bot named twice (names are not case-sensitive)
        assert twice.status_code == 422 and twice.json()["detail"]["field"] == "agents", twice.text
        assert (await client.get("/api/matches", params={"showcase": "true"})).json()["count"] == 0


async def test_a_showcase_takes_at_most_half_the_pool(database_url: str) -> None:
    """With one agent per persona allowed (six seats in all), a showcase may seat three: none of the games' tables
    fits, so the server refuses and quick starts keep the pool."""
    async for application in _app(database_url, showcase=True, bot_pool_max=1):
        async with filler_on(application) as (filler, client):
            upcoming = (await client.get("/api/showcase")).json()["next"]
            assert upcoming["n_players"] > len(PERSONAS) // 2
            names = [a.handle for a in filler.agents][: upcoming["n_players"]]
            refused = await client.post("/api/showcase", json={"game": upcoming["game"], "agents": names},
                                        headers={"X-Official-Bot-Key": OFFICIAL_KEY})
            assert refused.status_code == 503 and refused.json()["error"] == "bots_unavailable"
            assert await filler.showcase.once() is None


async def test_two_requests_at_once_open_one_showcase(on: FastAPI) -> None:
    """Two processes asking at the same moment (here two requests with bots of their own): the partial unique index
    lets exactly one showcase be live, on PostgreSQL as on SQLite."""
    async with filler_on(on) as (filler, client):
        upcoming = (await client.get("/api/showcase")).json()["next"]
        n = upcoming["n_players"]
        handles = [a.handle for a in filler.agents]
        assert len(handles) >= 2 * n
        key = {"X-Official-Bot-Key": OFFICIAL_KEY}
        answers = await asyncio.gather(*(client.post("/api/showcase", json={"game": upcoming["game"],
                                                                            "agents": handles[i * n:(i + 1) * n]},
                                                     headers=key) for i in range(2)))
        assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
        assert next(a for a in answers if a.status_code == 409).json()["error"] == "showcase_busy"
        assert (await client.get("/api/matches", params={"showcase": "true"})).json()["count"] == 1
