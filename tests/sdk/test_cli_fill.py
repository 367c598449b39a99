"""`wodi-agent play --fill`: a room the kit creates has the official bots called in at once (`POST /fill`), on a
server whose bots would otherwise wait ten minutes before filling it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.sdk.test_cli_bots import with_bots, wodi_agent


@pytest.fixture
def slow_bots(database_url: str) -> Iterator[Server]:
    running = with_bots(database_url, 600)
    try:
        yield running
    finally:
        running.stop()
        asyncio.run(_wipe(database_url))


def test_fill_calls_the_bots_into_the_room_it_creates(slow_bots: Server, tmp_path: Path) -> None:
    key = wodi_agent(slow_bots, "register", "cli-filler").stdout.strip().removeprefix("WODI_API_KEY=")
    played = wodi_agent(slow_bots, "play", "--game", "undercover", "--fill", "--config",
                        '{"n_players": 4, "n_undercover": 1}', "--agent",
                        "wodi_client.examples.random_agent:RandomAgent", key=key, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    outcome = [line for line in played.stdout.splitlines() if line.startswith("match ")]
    assert len(outcome) == 1 and " finished: " in outcome[0], played.stdout
    final = httpx.get(f"{slow_bots.base_url}/api/matches/{outcome[0].split()[1]}").json()
    assert final["status"] == "finished" and sum(p["name"].startswith("bot_") for p in final["players"]) == 3
