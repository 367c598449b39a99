"""Bot-only tables with the table extensions, over HTTP against the real server (uvicorn in a subprocess):
`host: "chaos"` with `debate_rounds: 2`, and `host: "plain"` with one debate round, play to the end with the
official bots' own loop; a default room over the same path shows none of it."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from app.bots.personas import PERSONAS
from app.bots.player import BotStats, MatchPlayer
from app.bots.pool import register_bot
from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.games.undercover.test_table import TODAY_PHASE, TODAY_TYPES

KEY = "test-table-official-key"


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


async def bot_game(base_url: str, config: dict[str, Any], tag: str) -> tuple[dict[str, Any], BotStats]:
    """Six official bots (one per persona) play one room with `config`; the final snapshot of seat 0 and the
    bots' stats."""
    stats = BotStats()
    async with httpx.AsyncClient(base_url=base_url, timeout=40) as client:
        keys = [await register_bot(client, KEY, f"bot_{tag}{n}@wodi", f"{p.display_name}{n}", p)
                for n, p in enumerate(PERSONAS)]
        created = await client.post("/api/matches", json={"game": "undercover", "config": config},
                                    headers={"Authorization": f"Bearer {keys[0]}"})
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        for key in keys[1:config.get("n_players", 6)]:
            joined = await client.post(f"/api/matches/{match_id}/join", json={},
                                       headers={"Authorization": f"Bearer {key}"})
            assert joined.status_code == 200, joined.text
        players = [MatchPlayer(client, key, match_id, PERSONAS[n], stats=stats, rng=random.Random(f"{tag}:{n}"),
                               wait=10) for n, key in enumerate(keys[:config.get("n_players", 6)])]
        finals = await asyncio.gather(*(p.run() for p in players))
        assert all(f is not None and f["status"] == "finished" for f in finals)
        final = await client.get(f"/api/matches/{match_id}")  # anonymous: the god view after the end
        assert final.status_code == 200
    return final.json(), stats


@pytest.mark.parametrize(("config", "tag"), [
    ({"host": "chaos", "debate_rounds": 2, "last_words": True}, "chaos"),
    ({"host": "plain", "debate_rounds": 1, "n_blank": 1, "n_undercover": 1, "blank_guess": True}, "plain"),
])
async def test_bot_only_tables_with_host_and_debate_play_to_the_end(server: Server, wiped: None,
                                                                    config: dict[str, Any], tag: str) -> None:
    snap, stats = await bot_game(server.base_url, {**config, "speak_timeout": 30, "vote_timeout": 30,
                                                   "debate_timeout": 30}, tag)
    assert sum(stats.errors.values()) == 0, stats.errors
    log = snap["public_log"]
    types = Counter(e["type"] for e in log)
    rounds = snap["round_index"]
    commentary = [e for e in log if e["type"] == "host_commentary"]
    assert len(commentary) >= rounds - 1 and commentary, types  # one per round of speeches (the last may end it)
    assert all(c["mode"] == config["host"] and c["may_mislead"] is (config["host"] == "chaos") for c in commentary)
    debates = [e for e in log if e["type"] == "phase_started" and e["phase"].startswith("debate_round_")]
    assert [e["debate_round"] for e in debates][:config["debate_rounds"]] == list(range(1, config["debate_rounds"] + 1))
    assert types["debate_posted"] > 0 and types["debate_passed"] > 0
    assert stats.actions["debate"] == types["debate_posted"] and stats.actions["debate_pass"] == types["debate_passed"]
    assert "timeout" not in {e.get("reason") for e in log if e["type"] == "speech_skipped"}
    recap = snap["result"]["recap"]
    assert [r["seat"] for r in recap["players"]] == [p["seat"] for p in snap["players"]]
    assert all(1 <= r["score"] <= 10 and r["comment"] and r["highlight"] for r in recap["players"])
    assert recap["best"]["seat"] in range(6) and recap["blunder"]["text"]
    finished = next(e for e in log if e["type"] == "match_finished")
    assert finished["recap"] == recap
    assert snap["config"]["host"] == config["host"] and snap["config"]["debate_rounds"] == config["debate_rounds"]


async def test_a_default_bot_table_shows_no_extension(server: Server, wiped: None) -> None:
    snap, stats = await bot_game(server.base_url, {"speak_timeout": 30, "vote_timeout": 30}, "plainroom")
    assert sum(stats.errors.values()) == 0, stats.errors
    assert {e["type"] for e in snap["public_log"] + snap["spectator_log"]} <= TODAY_TYPES
    assert all(TODAY_PHASE.match(e["phase"]) for e in snap["public_log"] if e["type"] == "phase_started")
    assert "recap" not in snap["result"] and "debate_round" not in snap
    assert not {"host", "debate_rounds", "debate_timeout", "recap"} & set(snap["config"])
    assert set(stats.actions) <= {"speak", "skip", "vote"} and stats.actions["vote"] > 0
