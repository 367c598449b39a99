"""`/metrics` of a real server (issue 34): read before, during and after a real game over HTTP, every series moves;
with two processes on PostgreSQL each process's series carry its own `process` label, one behind the token on the
public port and one on a metrics port of its own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.helpers import bearer
from tests.api.table import Table
from tests.conftest import OFFICIAL_KEY, _wipe
from tests.e2e.server import Server, free_port

TOKEN = "test-metrics-token"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every sample of `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)


def busy(samples: Samples) -> float:
    """Bot agents at a table: the pool's size less its idle agents."""
    return value(samples, "wodi_bot_pool", state="size") - value(samples, "wodi_bot_pool", state="idle")


def processes(samples: Samples) -> set[str]:
    return {dict(labels)["process"] for (name, labels) in samples if name.startswith("wodi_")}


async def scrape(client: httpx.AsyncClient) -> Samples:
    response = await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return parse(response.text)


async def until(client: httpx.AsyncClient, check: Callable[[Samples], bool], what: str) -> Samples:
    for _ in range(600):
        samples = await scrape(client)
        if check(samples):
            return samples
        await asyncio.sleep(0.05)
    raise AssertionError(f"never saw {what}: {sorted((n, v) for (n, _), v in samples.items() if 'bucket' not in n)}")


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_OFFICIAL_BOT_KEY=OFFICIAL_KEY,
                     WODI_METRICS_TOKEN=TOKEN, WODI_WEBHOOK_ALLOW_PRIVATE="true", WODI_BOT_FILL_AFTER="600").start()
    yield running
    running.stop()
    await _wipe(database_url)


@contextlib.asynccontextmanager
async def held(task: Awaitable[Any]) -> AsyncIterator[None]:
    running = asyncio.ensure_future(task)
    try:
        yield
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
            await running


async def _stream(client: httpx.AsyncClient, match_id: str) -> None:
    async with client.stream("GET", f"/api/matches/{match_id}/events/stream") as response:
        async for _ in response.aiter_bytes():
            pass


async def test_every_series_moves_over_a_real_game(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as client:
        assert (await client.get("/metrics")).status_code == 401  # behind the token
        before = await until(client, lambda s: value(s, "wodi_bot_pool", state="idle") > 0, "the bots registered")
        table = Table(client, 4, speak_timeout=120, vote_timeout=120)
        await table.register()
        hook = await client.post("/api/agents/me/webhooks", headers=table.h(0),
                                 json={"url": f"http://127.0.0.1:{free_port()}/hook"})  # nobody listens there
        assert hook.status_code == 201, hook.text
        await table.open(fill=False)
        for seat in range(1, 4):
            await table.join(seat)
        quick = await client.post("/api/play", json={"name": "访客"})  # a person against the bots: they sit now
        assert quick.status_code == 201, quick.text
        wait = client.get(f"/api/matches/{table.match_id}", params={"wait": 25, "wait_for": "any_change"})
        async with held(wait), held(_stream(client, table.match_id)):
            during = await until(client, lambda s: value(s, "wodi_longpolls_held") >= 1
                                 and value(s, "wodi_streams_held") >= 1
                                 and busy(s) > busy(before),
                                 "a long-poll, a stream and busy bots")
        assert value(during, "wodi_matches_live", game="undercover", status="in_progress") >= 1
        assert value(during, "wodi_matches_live") >= 2  # and the bots' table
        assert value(during, "wodi_timers_pending") >= 1  # the running table's speaking clock
        assert value(during, "wodi_webhook_queue_depth") >= 1  # match_started (and your_turn) for the hook
        assert (await table.play())["status"] == "finished"
        after = await until(client, lambda s: value(s, "wodi_webhook_deliveries_failed_total") >= 1,
                            "a failed delivery")
        assert await client.get("/api/agents/me", headers=bearer(table.keys[0]))  # the key cache's miss, then hits
    moved = {
        "requests": value(after, "wodi_http_requests_total", route="/api/matches/{match_id}/action", method="POST",
                          status="200") - value(before, "wodi_http_requests_total",
                                                route="/api/matches/{match_id}/action"),
        "latency": value(after, "wodi_http_request_duration_seconds_count", route="/api/matches/{match_id}")
        - value(before, "wodi_http_request_duration_seconds_count", route="/api/matches/{match_id}"),
        "finished": value(after, "wodi_matches_finished_total", game="undercover", status="finished")
        - value(before, "wodi_matches_finished_total", game="undercover"),
        "match cache hits": value(after, "wodi_cache_lookups_total", cache="match", result="hit")
        - value(before, "wodi_cache_lookups_total", cache="match", result="hit"),
        "key cache hits": value(after, "wodi_cache_lookups_total", cache="key", result="hit")
        - value(before, "wodi_cache_lookups_total", cache="key", result="hit"),
        "db checkouts": value(after, "wodi_db_pool_checkouts_total") - value(before, "wodi_db_pool_checkouts_total"),
        "deliveries failed": value(after, "wodi_webhook_deliveries_failed_total")
        - value(before, "wodi_webhook_deliveries_failed_total"),
        "long-polls held": value(during, "wodi_longpolls_held") - value(before, "wodi_longpolls_held"),
        "streams held": value(during, "wodi_streams_held") - value(before, "wodi_streams_held"),
        "matches live": value(during, "wodi_matches_live") - value(before, "wodi_matches_live"),
        "timers pending": value(during, "wodi_timers_pending") - value(before, "wodi_timers_pending"),
        "webhook queue": value(during, "wodi_webhook_queue_depth") - value(before, "wodi_webhook_queue_depth"),
        "bots busy": busy(during) - busy(before),
    }
    assert all(change > 0 for change in moved.values()), moved
    assert moved["finished"] == 1
    assert value(after, "wodi_bot_pool", state="size") >= value(after, "wodi_bot_pool", state="idle") > 0
    assert value(after, "wodi_db_pool_connections", state="size") > 0
    assert len(processes(after)) == 1


@pytest.mark.postgres
async def test_two_processes_have_their_own_series(database_url: str) -> None:
    port = free_port()
    a = Server(database_url, WODI_METRICS_TOKEN=TOKEN).start()
    b = Server(database_url, WODI_METRICS_PORT=str(port)).start()  # its own port, no token: the other way
    try:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as on_a, \
                httpx.AsyncClient(base_url=b.base_url, timeout=30) as on_b, \
                httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as b_metrics:
            assert (await on_b.get("/metrics")).status_code == 404  # not on B's public port
            first_a = await scrape(on_a)
            first_b = parse((await b_metrics.get("/metrics")).text)
            for index in range(3):
                assert (await on_a.post("/api/agents", json={"name": f"only-on-a-{index}"})).status_code == 201
            await on_b.get("/api/games")
            then_a = await scrape(on_a)
            then_b = parse((await b_metrics.get("/metrics")).text)
            assert (await b_metrics.get("/other")).status_code == 404
    finally:
        a.stop()
        b.stop()
        await _wipe(database_url)
    (process_a,), (process_b,) = processes(then_a), processes(then_b)
    assert process_a != process_b and processes(first_a) == {process_a} and processes(first_b) == {process_b}
    registered = {"route": "/api/agents", "method": "POST", "status": "201"}
    assert value(then_a, "wodi_http_requests_total", **registered) - value(first_a, "wodi_http_requests_total",
                                                                           **registered) == 3
    assert value(then_b, "wodi_http_requests_total", **registered) == 0
    assert value(then_b, "wodi_http_requests_total", route="/api/games") == 1

