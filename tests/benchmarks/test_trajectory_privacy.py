"""A seat's trajectory holds only what that seat was shown: never another seat's private event or field, while
the match runs or after it has ended, for every installed game (over HTTP, a benchmark match: one protocol agent
and the reference at every other seat, whose moves are recorded as decisions too)."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import matches as repo
from app.games.installed import installed
from app.protocol import registry
from app.protocol.viewer import can_see
from app.runtime import Runtime
from app.services.match import matches
from tests.api.helpers import assert_error, bearer, register
from tests.benchmarks import agent

CONFIG = {"script_kill": {"timing": "compressed"}}


async def _lines(client: httpx.AsyncClient, url: str, **kwargs: Any) -> list[dict[str, Any]]:
    answer = await client.get(f"{url}/trajectories", **kwargs)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in answer.text.splitlines()]


def _private_to_others(visibility: str, seat: int) -> bool:
    """An event addressed to particular other seats (never to `seat`)."""
    kind, _, target = visibility.removeprefix("private:").partition(":")
    return (kind == "seat" and target != str(seat)) or (kind == "pair" and str(seat) not in target.split(":"))


def check_seat(lines: list[dict[str, Any]], seat: int, log: list[dict[str, Any]], roles: frozenset[str]) -> None:
    """Every line of `seat` shows exactly the events of the log in its range that the seat could see."""
    after = 0
    for line in lines:
        assert line["seat"] == seat and line["you"]["seat"] == seat
        wanted = [e for e in log if after < e["seq"] <= line["seq"]
                  and can_see(e["visibility"], god=False, seat=seat, roles=roles)]
        assert [e["seq"] for e in line["events"]] == [e["seq"] for e in wanted]
        assert not [e for e in line["events"] if _private_to_others(e["visibility"], seat)]
        after = max(after, line["seq"])


async def _hurry(runtime: Runtime, match_id: str) -> None:
    """Nobody must act and a clock runs: let it run out now (the command path's own timeout, at its due time)."""
    async with runtime.db.reader() as session:
        match = await repo.get(session, match_id)
    assert match is not None and match.timer_due is not None and match.timer_token is not None
    real, due = runtime.clock, match.timer_due
    runtime.clock = lambda: due + 0.001
    try:
        await matches.fire_timer(runtime, match_id, match.timer_token)
    finally:
        runtime.clock = real


async def _check_live(client: httpx.AsyncClient, url: str, key: dict[str, str], seat: int, snaps: list[dict[str, Any]],
                      n_seats: int) -> None:
    mine = await _lines(client, url, headers=key)
    own = [line for line in mine if line["by"] == "agent"]
    assert {line["seat"] for line in mine} <= {seat}
    for line, snap in zip(own, snaps, strict=False):  # what it was shown when it decided: its own view, no more
        assert line["you"] == {k: v for k, v in snap["you"].items() if k != "private_log"}
    assert_error(await client.get(f"{url}/trajectories", params={"seat": (seat + 1) % n_seats}, headers=key), 403,
                 "trajectory_hidden")


@pytest.mark.parametrize("game", sorted(game.name for game, _ in installed()))
async def test_a_trajectory_holds_only_its_seats_view(app: FastAPI, client: httpx.AsyncClient, game: str) -> None:
    runtime: Runtime = app.state.runtime
    key = bearer((await register(client, f"traj-{game.replace('_', '-')}"))["api_key"])
    created = await client.post("/api/benchmarks", json={"game": game, "games": 1, "seed": 3,
                                                         "config": CONFIG.get(game, {})}, headers=key)
    assert created.status_code == 201, created.text
    row = created.json()["matches"][0]
    url, seat = f"/api/matches/{row['match_id']}", row["seat"]
    rng = random.Random(3)
    snaps: list[dict[str, Any]] = []
    for step in range(5000):
        snap = (await client.get(url, headers=key)).json()
        if snap["status"] != "in_progress":
            break
        body = agent.random_policy(snap, rng) if snap["you"].get("your_turn") else None
        if body is None:
            await _hurry(runtime, row["match_id"])
            continue
        snaps.append(snap)
        sent = await client.post(f"{url}/action", json=body, headers=key)
        assert sent.status_code < 500, sent.text
        live = (await client.get(url)).json()["status"] == "in_progress"  # this action may have ended it
        if live and step & (step - 1) == 0:  # at steps 1, 2, 4, 8, …
            await _check_live(client, url, key, seat, snaps, len(snap["players"]))
    else:
        raise AssertionError("the match did not end")
    await runtime.benchmarks.idle()
    played = registry.get(game)
    assert played is not None
    async with runtime.db.reader() as session:
        match = await repo.get(session, row["match_id"])
        assert match is not None
        log = await repo.events_after(session, match.match_id, 0, match.events_total)
    state = played.state_from_json(match.state)
    everyone = await _lines(client, url)
    seats = sorted({line["seat"] for line in everyone})
    assert len(seats) == played.n_players(played.parse_config(match.config))  # every seat decided something
    for each in seats:
        lines = await _lines(client, url, params={"seat": each})
        assert lines == [line for line in everyone if line["seat"] == each]
        check_seat(lines, each, log, played.role_set(state, each))
    assert all(line["usage"] is None for line in everyone if line["seat"] != seat)
