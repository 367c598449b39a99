"""Benchmark runs over real HTTP (SQLite by default, PostgreSQL with WODI_TEST_DATABASE_URL): a protocol-only
agent plays whole runs; the report matches what the matches themselves say; a silent agent ends its run."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import benchmarks as bench_repo
from app.main import create_app
from tests.api.helpers import assert_error, bearer, register
from tests.benchmarks import agent
from tests.benchmarks.recompute import recompute
from tests.conftest import _wipe, make_settings


def check_report(view: dict[str, Any], again: dict[str, Any]) -> None:
    report = view["report"]
    assert {side: {k: r[k] for k in ("games", "wins", "interval")} for side, r in report["sides"].items()} \
        == again["sides"]
    assert report["duplicate"]["delta"] == again["delta"] and report["duplicate"]["interval"] == again["interval"]
    for name in ("timeouts", "refusals", "decisions"):
        assert report[name] == again[name], name
    assert report["usage"]["input_tokens"] + report["usage"]["output_tokens"] == again["tokens"]


# A wolf pack that disagrees waits for the night's clock (the rules' design): a short one keeps the run quick.
@pytest.mark.parametrize(("game", "games", "config", "sides"), [
    ("undercover", 12, {}, {"civilian", "undercover"}),
    ("werewolf", 6, {"night_timeout": 2}, {"village", "werewolf"})])
async def test_a_protocol_agent_runs_a_benchmark_to_the_end(client: httpx.AsyncClient, game: str, games: int,
                                                            config: dict[str, Any], sides: set[str]) -> None:
    registered = await register(client, f"bench-{game}")
    key = bearer(registered["api_key"])
    view = await agent.run(client, key, {"game": game, "games": games, "seed": 5, "config": config}, seed=5)
    assert view["status"] == "finished" and view["played"] == games == len(view["matches"])
    assert view["report"]["games"] == games and view["report"]["ended_reason"] is None
    assert {m["side"] for m in view["matches"]} == sides == set(view["report"]["sides"])  # every side, in turn
    check_report(view, await recompute(client, view, f"bench-{game}"))
    usage = view["report"]["usage"]
    assert usage["games"] == games and usage["cost_per_game"] == pytest.approx(usage["cost_usd"] / games, abs=1e-6)
    profile = (await client.get(f"/api/agents/bench-{game}")).json()
    assert profile["usage"]["games"] == games
    assert profile["usage"]["input_tokens"] == usage["input_tokens"]
    listed = (await client.get(f"/api/agents/bench-{game}/benchmarks")).json()["benchmarks"]
    assert [b["benchmark_id"] for b in listed] == [view["benchmark_id"]]
    assert (await client.get("/api/agents/me/active", headers=key)).json()["active"] is None


async def test_a_silent_agent_ends_its_run(client: httpx.AsyncClient) -> None:
    key = bearer((await register(client, "bench-silent"))["api_key"])
    config = {"speak_timeout": 1, "vote_timeout": 1}
    created = await client.post("/api/benchmarks", json={"game": "undercover", "games": 4, "config": config},
                                headers=key)
    assert created.status_code == 201, created.text
    url = f"/api/benchmarks/{created.json()['benchmark_id']}"
    assert created.json()["current_match_id"] == (await client.get("/api/agents/me/active", headers=key)).json()[
        "active"]["match_id"]
    for _ in range(100000):  # the clocks run out twice, the official bot takes the seat over and plays it out
        view = (await client.get(url)).json()
        if view["status"] != "running":
            break
        await asyncio.sleep(0.05)
    assert view["status"] == "stopped" and view["played"] == 1
    assert view["report"]["ended_reason"] == "agent_stopped_answering"
    assert view["report"]["timeouts"] >= 2 and view["report"]["games"] == 0
    page = await client.get(f"/benchmark/{view['benchmark_id']}?lang=en")
    assert "stopped answering" in page.text


async def test_requests_refused(client: httpx.AsyncClient) -> None:
    key = bearer((await register(client, "bench-refused"))["api_key"])
    assert_error(await client.post("/api/benchmarks", json={"game": "undercover", "games": 2}), 401, "auth_required")
    assert_error(await client.post("/api/benchmarks", json={"game": "chess", "games": 2}, headers=key), 422,
                 "invalid_config")
    assert_error(await client.post("/api/benchmarks", json={"game": "undercover", "games": 0}, headers=key), 422,
                 "invalid_config")
    assert_error(await client.post("/api/benchmarks", json={"game": "undercover", "games": 2,
                                                            "config": {"n_players": 99}}, headers=key),
                 422, "invalid_config")
    assert (await client.post("/api/benchmarks", json={"game": "undercover", "games": 2}, headers=key)).status_code \
        == 201
    assert_error(await client.post("/api/benchmarks", json={"game": "undercover", "games": 2}, headers=key), 409,
                 "benchmark_running")
    assert_error(await client.get("/api/benchmarks/bm_nope"), 404, "benchmark_not_found")
    assert_error(await client.get("/api/agents/nobody/benchmarks"), 404, "agent_not_found")


async def test_usage_is_checked_and_private(client: httpx.AsyncClient) -> None:
    key = bearer((await register(client, "bench-usage"))["api_key"])
    other = bearer((await register(client, "bench-other"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 1}, headers=key)).json()
    match = f"/api/matches/{created['current_match_id']}"
    seat = created["matches"][0]["seat"]
    snap = (await client.get(match, headers=key)).json()
    option = next(a for a in snap["you"]["allowed_actions"] if a["type"] != "concede")
    bad = {**agent.body_for(option, __import__("random").Random(1)), "usage": {"input_tokens": -1}}
    assert_error(await client.post(f"{match}/action", json=bad, headers=key), 400, "bad_request")
    assert_error(await client.get(f"{match}/trajectories"), 401, "auth_required")
    assert_error(await client.get(f"{match}/trajectories", headers=other), 401, "agent_not_in_match")
    assert_error(await client.get(f"{match}/trajectories", params={"seat": (seat + 1) % 6}, headers=key), 403,
                 "trajectory_hidden")
    mine = await client.get(f"{match}/trajectories", headers=key)
    assert mine.headers["content-type"].startswith("application/x-ndjson")
    assert all(__import__("json").loads(line)["seat"] == seat for line in mine.text.splitlines())
    assert (await client.get(f"/api/benchmarks/{created['benchmark_id']}/trajectories")).text == ""


async def test_runs_are_rate_limited_per_agent(database_url: str) -> None:
    application = create_app(make_settings(database_url, rate_limit_enabled=True, rate_limit_benchmarks_per_hour=1))
    async with application.router.lifespan_context(application), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=application), base_url="http://testserver") as client:
        first = bearer((await register(client, "bench-limited"))["api_key"])
        second = bearer((await register(client, "bench-unlimited"))["api_key"])
        body = {"game": "undercover", "games": 1}
        for _ in range(3):  # refused requests start nothing, so they do not use up the hour's runs
            assert_error(await client.post("/api/benchmarks", json={**body, "games": 0}, headers=first), 422,
                         "invalid_config")
        assert (await client.post("/api/benchmarks", json=body, headers=first)).status_code == 201
        limited = assert_error(await client.post("/api/benchmarks", json=body, headers=first), 429, "rate_limited")
        assert limited["detail"]["bucket"] == "benchmarks"
        assert (await client.post("/api/benchmarks", json=body, headers=second)).status_code == 201  # per agent
    await _wipe(database_url)


async def test_matches_without_usage_are_not_counted_as_reported(client: httpx.AsyncClient) -> None:
    """A decision that reported no usage stores JSON null, which is not SQL NULL: the profile's usage totals count
    only matches in which the agent reported some (docs/agents/measure.md)."""
    registered = await register(client, "bench-silent-usage")
    key = bearer(registered["api_key"])
    view = await agent.run(client, key, {"game": "undercover", "games": 2, "seed": 3}, seed=3, usage=None)
    assert view["status"] == "finished" and view["report"]["usage"]["games"] == 0
    profile = (await client.get(f"/api/agents/{registered['name']}")).json()
    assert profile["usage"]["games"] == 0 and profile["usage"]["tokens_per_game"] is None


async def test_conceding_the_current_match_stops_the_run_and_frees_the_agent(client: httpx.AsyncClient) -> None:
    """The way out of a run (a long 剧本杀 deal, say): concede its match; the run stops (`agent_conceded`) with the
    games played so far, and the agent may sit at another table at once while that match plays on."""
    key = bearer((await register(client, "bench-leaver"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 3, "seed": 2},
                                 headers=key)).json()
    match_id = created["current_match_id"]
    assert (await client.post(f"/api/matches/{match_id}/concede", headers=key)).status_code == 200
    for _ in range(200):
        view = (await client.get(f"/api/benchmarks/{created['benchmark_id']}")).json()
        if view["status"] != "running":
            break
        await asyncio.sleep(0.02)
    assert view["status"] == "stopped" and view["report"]["ended_reason"] == "agent_conceded", view
    assert view["report"]["games"] == 0 and len(view["matches"]) == 1  # the game it left is not its to count
    assert (await client.get("/api/agents/me/active", headers=key)).json()["active"] is None
    assert (await client.post("/api/matches", json={}, headers=key)).status_code == 201


async def test_cancelling_a_run_keeps_its_games_and_frees_the_agent(client: httpx.AsyncClient) -> None:
    """`POST /api/benchmarks/{id}/cancel`: the run stops (`cancelled`) with the games played so far; its live match
    is conceded for the agent, which may sit elsewhere at once; only the run's agent may cancel; again: as it is."""
    key = bearer((await register(client, "bench-canceller"))["api_key"])
    other = bearer((await register(client, "bench-bystander"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 3, "seed": 4},
                                 headers=key)).json()
    url = f"/api/benchmarks/{created['benchmark_id']}"
    rng = __import__("random").Random(4)
    for _ in range(5000):  # play the first game out and wait for the second to open
        view = (await client.get(url)).json()
        if len(view["matches"]) == 2 and view["played"] == 1:  # the view's reads are not one snapshot
            break
        if not await agent.act_once(client, key, rng):
            await asyncio.sleep(0.01)
    assert len(view["matches"]) == 2 and view["played"] == 1, view
    second = view["current_match_id"]
    assert_error(await client.post(f"{url}/cancel"), 401, "auth_required")
    assert_error(await client.post(f"{url}/cancel", headers=other), 403, "not_your_benchmark")
    assert_error(await client.post("/api/benchmarks/nosuchrun/cancel", headers=key), 404, "benchmark_not_found")
    cancelled = await client.post(f"{url}/cancel", headers=key)
    assert cancelled.status_code == 200, cancelled.text
    view = cancelled.json()
    assert view["status"] == "stopped" and view["report"]["ended_reason"] == "cancelled", view
    assert view["played"] == 1 and view["report"]["games"] == 1 and len(view["matches"]) == 2
    assert view["current_match_id"] is None
    events, since = [], 0
    while page := (await client.get(f"/api/matches/{second}/events", params={"since": since})).json()["events"]:
        events, since = events + page, page[-1]["seq"]
    assert [e["seat"] for e in events if e["type"] == "player_conceded"] == [view["matches"][1]["seat"]]
    assert (await client.get("/api/agents/me/active", headers=key)).json()["active"] is None
    again = await client.post(f"{url}/cancel", headers=key)
    assert again.status_code == 200 and again.json()["report"] == view["report"]
    await asyncio.sleep(0.2)  # the concession's after-commit hook moves no stopped run on
    assert (await client.get(url)).json()["report"]["ended_reason"] == "cancelled"
    assert (await client.post("/api/matches", json={}, headers=key)).status_code == 201


async def test_a_live_deal_is_not_given_away_by_the_public_record(app: FastAPI, client: httpx.AsyncClient) -> None:
    """While the agent plays a deal, its run (public) shows neither its side, nor its seed (the deal, for whoever runs
    the code), nor its baseline — the same deal already played out, every role shown; nor do the match listings."""
    key = bearer((await register(client, "bench-secretive"))["api_key"])
    created = (await client.post("/api/benchmarks", json={"game": "undercover", "games": 2}, headers=key)).json()
    row = (await client.get(f"/api/benchmarks/{created['benchmark_id']}")).json()["matches"][0]
    assert row["status"] == "in_progress" and row["side"] is None and row["seed"] is None, row
    assert row["reference_match_id"] is None and row["reference_persona"], row
    async with app.state.runtime.db.reader() as session:
        links = await bench_repo.games(session, created["benchmark_id"])
    baseline = next(g.match_id for g in links if g.kind == "reference")
    assert (await client.get(f"/api/matches/{baseline}")).json()["status"] == "finished"  # it exists, unlisted
    for params in ({"status": "finished", "limit": 100}, {"limit": 100}, {"status": "finished", "game": "undercover"}):
        listed = (await client.get("/api/matches", params=params)).json()["matches"]
        assert baseline not in {m["match_id"] for m in listed}, params
    (await client.post(f"/api/benchmarks/{created['benchmark_id']}/cancel", headers=key)).raise_for_status()
