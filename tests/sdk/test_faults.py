"""The runner against a real server (uvicorn in a subprocess, SQLite or PostgreSQL) under faults: the server
killed and restarted mid-match, long-polls dropped, a storm of 429s, every action sent twice and its answer lost
— four kit agents play undercover to the end each time, and the server records each decision once."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from wodi_client import AsyncWodi, MatchRecord, Runner, WodiError
from wodi_client.examples.random_agent import RandomAgent

from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.sdk.table import START

CONFIG = {"n_players": 4, "n_undercover": 1, "speak_timeout": 30, "vote_timeout": 30}
ACTED = ("speech_posted", "speech_skipped", "vote_cast")


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    running = Server(database_url).start(timeout=START)
    try:
        yield running
    finally:
        running.stop()
        await _wipe(database_url)


class Faulty(httpx.AsyncBaseTransport):
    """A real HTTP transport with faults: `drop` every n-th long-poll (the connection cut after 0.1 s), answer the
    first `storm` requests with 429, send every action twice (`duplicate`) and lose the first answer of each."""

    def __init__(self, drop: int = 0, storm: int = 0, duplicate: bool = False) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.drop, self.storm, self.duplicate = drop, storm, duplicate
        self.polls = self.dropped = self.stormed = self.lost = 0
        self.keys: Counter[str] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.stormed < self.storm:
            self.stormed += 1
            body = {"error": "rate_limited", "message": "slow down",
                    "detail": {"error": "rate_limited", "message": "slow down", "retry_after": 0.02}}
            return httpx.Response(429, headers={"Retry-After": "0.02"}, json=body)
        if request.method == "GET" and "wait" in request.url.params and self.drop:
            self.polls += 1
            if self.polls % self.drop == 0:
                task = asyncio.ensure_future(self.inner.handle_async_request(request))
                await asyncio.sleep(0.1)
                task.cancel()
                self.dropped += 1
                raise httpx.RemoteProtocolError("server disconnected without sending a response", request=request)
        if request.method == "POST" and request.url.path.endswith("/action") and self.duplicate:
            key = request.headers["Idempotency-Key"]
            self.keys[key] += 1
            if self.keys[key] == 1:  # the first try: sent twice at once, and its answer lost on the way back
                copy = httpx.Request(request.method, request.url, headers=request.headers, content=request.content)
                answers = await asyncio.gather(self.inner.handle_async_request(request),
                                               self.inner.handle_async_request(copy))
                for answer in answers:
                    await answer.aread()
                    await answer.aclose()
                self.lost += 1
                raise httpx.ReadError("connection reset by peer", request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def seat_table(base_url: str, transports: list[httpx.AsyncBaseTransport | None],
                     tag: str) -> tuple[str, list[AsyncWodi]]:
    clients = [AsyncWodi(base_url, transport=t, give_up_after=120) for t in transports]
    for index, client in enumerate(clients):
        await client.register(f"fault-{tag}-{index}")
    match_id = str((await clients[0].create_match("undercover", CONFIG)).match_id)
    for client in clients[1:]:
        await client.join(match_id)
    return match_id, clients


async def play(match_id: str, clients: list[AsyncWodi]) -> list[MatchRecord]:
    runners = [Runner(client, RandomAgent(seed), wait=5) for seed, client in enumerate(clients)]
    return list(await asyncio.gather(*(r.play_match(match_id) for r in runners)))


async def acted_per_seat(base_url: str, match_id: str) -> Counter[int]:
    """How many speak/skip/vote effects each seat has in the log (the god view after the end)."""
    async with httpx.AsyncClient(base_url=base_url) as client:
        events: list[dict[str, Any]] = []
        while True:
            page = (await client.get(f"/api/matches/{match_id}/events",
                                     params={"since": events[-1]["seq"] if events else 0})).json()
            if not page["events"]:
                break
            events += page["events"]
    return Counter(e["seat"] for e in events if e["type"] in ACTED and e.get("reason") != "timeout")


def finished(records: list[MatchRecord]) -> None:
    assert all(r.status == "finished" and r.result for r in records), [r.status for r in records]


async def test_the_runner_survives_a_server_restart_mid_match(server: Server, database_url: str) -> None:
    match_id, clients = await seat_table(server.base_url, [None] * 4, "restart")
    playing = asyncio.ensure_future(play(match_id, clients))
    async with httpx.AsyncClient(base_url=server.base_url) as watcher:
        seen = 0
        while seen < 16:  # a long-poll per change, until the match is a few moves in
            seen = (await watcher.get(f"/api/matches/{match_id}", params={"wait": 5, "wait_for": "any_change"})
                    ).json()["events_total"]
    server.kill()
    await asyncio.sleep(1.0)
    restarted = Server(database_url, port=server.port).start(timeout=START)
    try:
        records = await playing
        finished(records)
        assert sum(c.stats.network_errors for c in clients) > 0  # the runners did see the server go away
        acted = await acted_per_seat(restarted.base_url, match_id)
        # each decision took effect at most once: an action whose answer the kill swallowed may come back refused
        # on its retry (the server has moved on) but never twice in the log
        assert all(r.accepted <= acted[r.seat] <= r.sent for r in records if r.seat is not None), acted
    finally:
        restarted.stop()
        for client in clients:
            await client.aclose()


async def test_dropped_long_polls_and_a_429_storm(server: Server) -> None:
    faulty = [Faulty(drop=2, storm=25) for _ in range(4)]
    match_id, clients = await seat_table(server.base_url, list(faulty), "storm")
    try:
        records = await play(match_id, clients)
        finished(records)
        assert all(f.dropped > 0 and f.stormed == 25 for f in faulty)
        assert all(c.stats.rate_limited == 25 and c.stats.slept >= 25 * 0.02 for c in clients)
    finally:
        for client in clients:
            await client.aclose()


async def test_a_duplicated_send_has_one_effect(server: Server) -> None:
    faulty = [Faulty(duplicate=True) for _ in range(4)]
    match_id, clients = await seat_table(server.base_url, list(faulty), "dup")
    try:
        records = await play(match_id, clients)
        finished(records)
        assert all(f.lost == sum(1 for n in f.keys.values() if n >= 1) and f.lost > 0 for f in faulty)
        assert all(n == 2 for f in faulty for n in f.keys.values())  # each action: a lost try, then the replay
        acted = await acted_per_seat(server.base_url, match_id)
        # three copies of every action reached the server; each seat's log shows each decision once
        assert [acted[r.seat] for r in records if r.seat is not None] == [r.accepted for r in records]
    finally:
        for client in clients:
            await client.aclose()


async def test_an_hours_rate_limit_is_raised_at_once_not_slept_through() -> None:
    """A 429 asking for more than 120 s (an hourly limit) comes back as the `WodiError` at once — `wodi-agent
    benchmark` used to sleep through it silently; a short one is still slept and retried."""
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        wait = "3600" if request.url.path == "/api/benchmarks" else ("0.01" if len(asked) == 1 else None)
        if wait is None:
            return httpx.Response(200, json={"games": {}})
        return httpx.Response(429, headers={"Retry-After": wait}, json={
            "error": "rate_limited", "message": "too many requests", "detail": {
                "error": "rate_limited", "message": "too many requests", "retry_after": float(wait)}})

    async with AsyncWodi("http://testserver", "ck_live_x", transport=httpx.MockTransport(answer)) as client:
        assert await client.request("GET", "/api/games") == {"games": {}}  # a short wait: slept, retried
        with pytest.raises(WodiError) as raised:
            await client.start_benchmark("undercover", 3)
    assert raised.value.code == "rate_limited" and raised.value.detail["retry_after"] == 3600
    assert asked == ["/api/games", "/api/games", "/api/benchmarks"]  # asked once, not retried for an hour


def test_a_bad_agent_spec_is_one_line() -> None:
    """`--agent nosuch:Agent` says what is wrong in one line (it printed an import traceback)."""
    import os
    import subprocess
    import sys

    from tests.e2e.server import ROOT
    ran = subprocess.run([sys.executable, "-m", "wodi_client", "--base-url", "http://127.0.0.1:1", "play", "--game",
                          "undercover", "--agent", "nosuch_module:Agent", "--key", "ck_live_x"], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "sdk" / "python")}, capture_output=True,
                         text=True, timeout=60, check=False)
    assert ran.returncode != 0 and "Traceback" not in ran.stderr, ran.stderr
    assert ran.stderr.strip().splitlines() == ["wodi-agent: --agent nosuch_module:Agent: ModuleNotFoundError: "
                                               "No module named 'nosuch_module'"]
