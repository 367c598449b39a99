"""The server's log lines (issue 34): one line per request at INFO with its request id, route, status and time —
readable text by default, one JSON object a line with `WODI_LOG_FORMAT=json` — and a console at rest that shows no
line per poll of the official bots (their requests, health checks and scrapes are at DEBUG)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import OFFICIAL_KEY, _wipe
from tests.e2e.server import Server
from tests.e2e.test_metrics import parse, value


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[str]:
    yield database_url
    await _wipe(database_url)


async def _requests(base_url: str) -> dict[str, str]:
    """A few requests of a person; their request ids by what was asked."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        answers = {"games": await client.get("/api/games"), "missing": await client.get("/api/matches/nosuch12"),
                   "register": await client.post("/api/agents", json={"name": "log-reader"})}
    assert [r.status_code for r in answers.values()] == [200, 404, 201]
    return {what: response.headers["x-request-id"] for what, response in answers.items()}


async def test_json_logs_parse_line_by_line(wiped: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(wiped, log=log, WODI_LOG_FORMAT="json", WODI_LOG_LEVEL="INFO").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        ids = await _requests(server.base_url)
    finally:
        server.stop()
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line, uvicorn's own included
    assert all({"ts", "level", "logger", "message"} <= set(r) and r["pid"] == pid for r in records)
    assert any(r["logger"].startswith("uvicorn") for r in records)
    requests = {r["request_id"]: r for r in records if r["logger"] == "wodi.request"}
    assert requests[ids["games"]] | {"duration_ms": 0} == {**requests[ids["games"]], "level": "INFO",
                                                             "method": "GET", "path": "/api/games",
                                                             "route": "/api/games", "status": 200,
                                                             "duration_ms": 0, "pid": pid}
    assert requests[ids["missing"]]["route"] == "/api/matches/{match_id}"
    assert requests[ids["missing"]]["status"] == 404
    assert requests[ids["register"]]["status"] == 201
    assert all(isinstance(r["duration_ms"], float) and r["duration_ms"] >= 0 for r in requests.values())
    assert not any(r["path"] == "/readyz" for r in requests.values()), "health checks are DEBUG"


async def test_text_logs_are_readable_lines(wiped: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(wiped, log=log, WODI_LOG_LEVEL="INFO").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        ids = await _requests(server.base_url)
    finally:
        server.stop()
    text = log.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if ids["missing"] in line)
    assert f" [{pid}] INFO wodi.request GET /api/matches/nosuch12 404 " in line  # which process, in a cluster
    assert f"route=/api/matches/{{match_id}} request_id={ids['missing']}" in line
    for line in text.splitlines():
        with pytest.raises(ValueError):
            json.loads(line)


async def test_the_console_at_rest_prints_no_line_per_bot_poll(wiped: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(wiped, log=log, WODI_LOG_LEVEL="INFO", WODI_BOTS_ENABLED="true",
                    WODI_OFFICIAL_BOT_KEY=OFFICIAL_KEY).start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            for _ in range(600):  # until the bots registered and polled the lobby a few times
                samples = parse((await client.get("/metrics")).text)  # a localhost server: open
                if value(samples, "wodi_http_requests_total", route="/api/matches", method="GET") >= 3:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the bots never polled the lobby")
            mine = (await client.get("/api/games")).headers["x-request-id"]
    finally:
        server.stop()
    lines = log.read_text(encoding="utf-8").splitlines()
    request_lines = [line for line in lines if " wodi.request " in line]
    assert value(samples, "wodi_http_requests_total", route="/api/agents", method="POST") >= 1  # bots registered
    assert [line for line in request_lines if mine in line], "a person's request is logged"
    assert len(request_lines) == 1, request_lines  # no line for the bots' polls, registrations, probes or scrapes
    assert any("lobby filler: started" in line for line in lines)
