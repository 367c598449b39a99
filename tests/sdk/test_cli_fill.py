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


def test_quick_plays_quick_starts_with_the_choices_given(slow_bots: Server, tmp_path: Path) -> None:
    """`play --quick --choices …`: each match a quick start (`POST /api/play`), the agent in seat 0 and the official
    bots in the others at once; a bad choice is the server's 422, said on stderr."""
    key = wodi_agent(slow_bots, "register", "cli-quick").stdout.strip().removeprefix("WODI_API_KEY=")
    agent = ["--agent", "wodi_client.examples.random_agent:RandomAgent"]
    played = wodi_agent(slow_bots, "play", "--game", "avalon", "--quick", "--choices",
                        '{"n_players": 5, "pace": "quick"}', *agent, key=key, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    outcome = [line for line in played.stdout.splitlines() if line.startswith("match ")]
    assert len(outcome) == 1 and all(" finished: " in line for line in outcome), played.stdout
    for line in outcome:
        final = httpx.get(f"{slow_bots.base_url}/api/matches/{line.split()[1]}").json()
        assert final["status"] == "finished" and final["config"]["n_players"] == 5, final["config"]
        assert final["config"]["speak_timeout"] == 45 and final["players"][0]["name"] == "cli-quick"
        assert sum(p["name"].startswith("bot_") for p in final["players"]) == 4
    refused = wodi_agent(slow_bots, "play", "--game", "avalon", "--quick", "--choices", '{"n_players": 4}', *agent,
                         key=key, cwd=tmp_path)
    assert refused.returncode != 0 and "choices.n_players" in refused.stderr, refused.stderr
    mixed = wodi_agent(slow_bots, "play", "--game", "avalon", "--quick", "--fill", *agent, key=key, cwd=tmp_path)
    assert mixed.returncode != 0 and "--quick" in mixed.stderr
