"""A quick start whose bots are not being played (issue 29): the server deals the table with official agents in the
room's own transaction, so if the bots' process is stopped, or cut off from this server, nobody answers for them.
As soon as one of them misses a turn, the server plays every official bot's seat still in play (`seat_taken_over`
for each, the game's rule bot from then on), and the person plays the match to its end without waiting out the
other bots' clocks. No bots run here: `WODI_BOTS_ELSEWHERE` says they run on another machine, which is down."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import matches as repo
from app.services.match import matches
from app.services.match.quick_end import PERSON
from tests.api.helpers import bearer, client_at, register, skewed_app
from tests.api.table import lowest_other
from tests.conftest import OFFICIAL_KEY

OFFICIAL = {"X-Official-Bot-Key": OFFICIAL_KEY}


@pytest.fixture
async def skewed(database_url: str) -> AsyncIterator[tuple[FastAPI, list[float]]]:
    """The server seats the bots itself, and the test moves its clock forward."""
    async with skewed_app(database_url, bots_elsewhere=True, janitor_interval=3600) as running:
        yield running


async def _listed(client: httpx.AsyncClient, match_id: str) -> set[str]:
    """The names `GET /api/bots/seats` lists at `match_id`: the seats the bots' process is to play there."""
    listed = await client.get("/api/bots/seats", headers=OFFICIAL)
    assert listed.status_code == 200, listed.text
    return {s["name"] for s in listed.json()["seats"] if s["match_id"] == match_id}


async def _fire(runtime: Any, match_id: str) -> None:
    """Fire the match's deadline, as the scheduler would once the moved clock has passed it. The app's own
    scheduler may fire it first (then this finds a stale token, or none once the match ended, and changes nothing)."""
    async with runtime.db.reader() as session:
        row = await repo.get(session, match_id)
    assert row is not None
    if row.timer_token is not None:
        await matches.fire_timer(runtime, match_id, row.timer_token)


async def test_when_a_quick_starts_bot_misses_its_turn_the_server_plays_every_bot_seat(
        skewed: tuple[FastAPI, list[float]]) -> None:
    app, skew = skewed
    runtime = app.state.runtime
    async with client_at(app, "10.29.0.1") as client:
        started = await client.post("/api/play", json={"name": "真人", "choices": {"pace": "quick",
                                                                                "virtual_players": 3}})
        assert started.status_code == 201 and started.json()["status"] == "in_progress", started.text
        match_id, person = started.json()["match_id"], {"X-Play-Token": started.json()["play_token"]}
        url = f"/api/matches/{match_id}"
        bots = {p["seat"]: p["name"] for p in (await client.get(url)).json()["players"] if p["seat"] != PERSON}
        assert len(bots) == 3 and await _listed(client, match_id) == set(bots.values())
        listed_after = None
        for _ in range(60):  # bounded: each pass the person acts or one deadline fires
            snap = (await client.get(url, headers=person)).json()
            if snap["status"] != "in_progress":
                break
            if listed_after is None and any(p.get("taken_over") for p in snap["players"]):
                listed_after = await _listed(client, match_id)  # what the bots' process would now be told to play
            body = lowest_other(None, PERSON, snap) if snap["you"]["your_turn"] else None  # type: ignore[arg-type]
            if body is not None:
                sent = await client.post(f"{url}/action", json=body, headers=person)
                assert sent.status_code == 200, sent.text
                continue
            skew[0] += 1000  # a bot is due (or a phase's clock runs): let the deadline pass and fire it
            await _fire(runtime, match_id)
        log = (await client.get(f"{url}/events", headers=person)).json()["events"]
        final = (await client.get(url, headers=person)).json()
    assert final["status"] == "finished", final.get("result")
    missed = [e for e in log if e["type"] == "speech_skipped"]
    assert len(missed) == 1 and missed[0]["seat"] in bots, "one missed turn of one bot, then no bot's clock again"
    taken = [e for e in log if e["type"] == "seat_taken_over"]
    assert sorted(e["seat"] for e in taken) == sorted(bots), taken
    # All at once, in the transaction of that timeout: consecutive, before anyone spoke again.
    seqs = [e["seq"] for e in taken]
    assert seqs == list(range(seqs[0], seqs[0] + len(bots))), seqs
    assert not [e for e in log if missed[0]["seq"] < e["seq"] < seqs[0] and e["type"] == "speech_posted"]
    # The bots spoke after that (the server's rule bot in their seats), the person's seat was never taken over.
    assert {e["seat"] for e in log if e["type"] == "speech_posted" and e["seq"] > taken[-1]["seq"]} & set(bots)
    assert listed_after == set(), "the bots' process is told to leave the seats the server plays"
    rows = {p["seat"]: p for p in final["players"]}
    assert all(rows[seat].get("taken_over") is True for seat in bots) and "taken_over" not in rows[PERSON]


async def test_an_agent_that_joined_a_quick_start_itself_is_never_taken_over(database_url: str) -> None:
    """Without bots to seat (no `WODI_BOTS_ENABLED`, no `WODI_BOTS_ELSEWHERE`) the room's seats are taken by agents
    that join it: when one of them misses its turn, nothing is taken over."""
    async with skewed_app(database_url, janitor_interval=3600) as (app, skew), client_at(app, "10.29.0.2") as client:
        started = await client.post("/api/play", json={"name": "真人", "choices": {"pace": "quick",
                                                                                "virtual_players": 3}})
        assert started.status_code == 201 and started.json()["status"] == "waiting", started.text
        match_id, person = started.json()["match_id"], {"X-Play-Token": started.json()["play_token"]}
        url = f"/api/matches/{match_id}"
        for i in range(3):
            agent = await register(client, f"joined-{match_id}-{i}")
            joined = await client.post(f"{url}/join", json={}, headers=bearer(agent["api_key"]))
            assert joined.status_code == 200, joined.text
        for _ in range(60):  # bounded: the person acts or one deadline fires, until an agent has missed a turn
            snap = (await client.get(url, headers=person)).json()
            log = (await client.get(f"{url}/events", headers=person)).json()["events"]
            if any(e["type"] == "speech_skipped" and e["seat"] != PERSON for e in log):
                break
            body = lowest_other(None, PERSON, snap) if snap["you"]["your_turn"] else None  # type: ignore[arg-type]
            if body is not None:
                assert (await client.post(f"{url}/action", json=body, headers=person)).status_code == 200
                continue
            skew[0] += 1000
            await _fire(app.state.runtime, match_id)
        else:
            raise AssertionError("no agent missed a turn")
        assert not [e for e in log if e["type"] == "seat_taken_over"], log
        assert all("taken_over" not in p for p in snap["players"])
