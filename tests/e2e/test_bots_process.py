"""The official bots run in a process of their own (issue 29): `python -m app` starts `python -m app.bots` as its
child, which sleeps on the server's lobby long-poll (`GET /api/bots/wake`), seats a quick start at once, reports its
pool for `/metrics`, and exits when the server is killed; `WODI_BOTS_PROCESS=false` keeps them on the server's loop,
and the wake door refuses a caller without the official key."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import Server

KEY = "test-bots-process-key"


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every live process whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append((int(entry.name), cmdline))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.fixture
def wiped(database_url: str) -> Iterator[str]:
    yield database_url
    asyncio.run(_wipe(database_url))


async def _quick_start_is_seated(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=40) as client:
        started = await client.post("/api/play", json={"name": "小李"})
        assert started.status_code == 201, started.text
        body = started.json()
        snap = await client.get(f"/api/matches/{body['match_id']}", headers={"X-Play-Token": body["play_token"]},
                                params={"wait": 20, "wait_for": "opponent_joined"})
        assert snap.status_code == 200 and snap.json()["status"] == "in_progress", snap.text
        assert all(p["is_official"] for p in snap.json()["players"][1:])


def _pool(metrics: str) -> dict[str, float]:
    return {line.split('state="')[1].split('"')[0]: float(line.rsplit(" ", 1)[1])
            for line in metrics.splitlines() if line.startswith("wodi_bot_pool{")}


async def test_the_bots_run_in_a_child_process_and_die_with_the_server(wiped: str) -> None:
    server = Server(wiped, WODI_OFFICIAL_BOT_KEY=KEY, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600").start()
    try:
        assert server.process is not None
        bots: list[int] = []
        for _ in range(300):  # started beside serving: it may come a moment after the server answers
            bots = [pid for pid, cmd in _children(server.process.pid) if "app.bots" in cmd and "--with-parent" in cmd]
            if bots:
                break
            await asyncio.sleep(0.1)
        assert len(bots) == 1, _children(server.process.pid)
        await _quick_start_is_seated(server.base_url)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            refused = await client.get("/api/bots/wake", params={"wait": 0}, headers={"X-Official-Bot-Key": "nope"})
            assert refused.status_code == 403 and refused.json()["error"] == "invalid_official_bot_key"
            for _ in range(300):  # the pool's figures arrive with the bots' next wait (every few seconds)
                pool = _pool((await client.get("/metrics")).text)
                if pool.get("size", 0) > 0:
                    break
                await asyncio.sleep(0.1)
            assert pool["size"] >= 5 and 0 <= pool["idle"] <= pool["size"], pool
        server.kill()
        for _ in range(300):  # the child reads end-of-file on its stdin and stops
            if not _alive(bots[0]):
                break
            time.sleep(0.1)
        assert not _alive(bots[0]), "the bots process outlived the server"
    finally:
        server.stop()


async def test_the_bots_can_run_on_the_servers_loop(wiped: str) -> None:
    server = Server(wiped, WODI_OFFICIAL_BOT_KEY=KEY, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="600",
                    WODI_BOTS_PROCESS="false").start()
    try:
        assert server.process is not None
        assert not [cmd for _, cmd in _children(server.process.pid) if "app.bots" in cmd]
        await _quick_start_is_seated(server.base_url)
    finally:
        server.stop()
