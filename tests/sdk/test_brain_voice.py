"""The official LLM brain speaks in persona in werewolf and script_kill (app/bots/phrasing.py) against a local fake
OpenAI-compatible endpoint, on a real server with its bots: the matches end, bots say the model's lines, the model
is never shown a seat's secret, and no bot text carries one — the fake "leaks" a script's secret phrases into half
its answers, and every such answer is dropped for the rule brain's words."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from wodi_client import AsyncWodi, Runner
from wodi_client.examples.random_agent import RandomAgent

from app.bots.personas import BY_SLUG
from app.bots.phrasing import leaks, secrets_of, usable
from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server
from tests.sdk.fake_llm import LINES, FakeLLM
from tests.sdk.table import START

SCRIPT = json.loads((ROOT / "app/games/script_kill/scripts/tiny.json").read_text(encoding="utf-8"))
SECRETS = [phrase for c in SCRIPT["characters"] for phrase in [c["secret"], *c["secret_phrases"]]]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLM]:
    with FakeLLM() as running:
        running.bait = [phrase for c in SCRIPT["characters"] for phrase in c["secret_phrases"]]
        yield running


@pytest.fixture
async def server(database_url: str, fake: FakeLLM) -> AsyncIterator[Server]:
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="0.5",
                     WODI_OFFICIAL_BOT_KEY="test-voice-official-key", WODI_LLM_BASE_URL=fake.url("leaky"),
                     WODI_LLM_TIMEOUT="3").start(timeout=START)
    try:
        yield running
    finally:
        running.stop()
        await _wipe(database_url)


async def play_with_bots(server: Server, game: str, config: dict[str, Any], agents: int,
                         fake: FakeLLM | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The bots' texts of one match with `agents` random agents, and the bots' public profiles after it."""
    clients = [AsyncWodi(server.base_url) for _ in range(agents)]
    try:
        for index, client in enumerate(clients):
            await client.register(f"voice-{game}-{index}")
        match_id = str((await clients[0].create_match(game, config)).match_id)
        for client in clients[1:]:
            await client.join(match_id)
        if fake is not None:  # the fake "leaks" each seat's own secret phrases
            snap = await clients[0].snapshot_json(match_id, wait=10, wait_for="phase_changed")
            while not snap.get("characters"):
                snap = await clients[0].snapshot_json(match_id, wait=10, wait_for="any_change")
            phrases = {c["id"]: c["secret_phrases"] for c in SCRIPT["characters"]}
            fake.bait_by_seat = {c["seat"]: phrases[c["character"]] for c in snap["characters"]}
        records = await asyncio.gather(*(Runner(c, RandomAgent(i), wait=10).play_match(match_id)
                                         for i, c in enumerate(clients)))
        assert all(r.status == "finished" for r in records)
        events: list[dict[str, Any]] = []
        while True:
            page = await clients[0].events(match_id, since=events[-1]["seq"] if events else 0)
            if not page["events"]:
                break
            events += page["events"]
        final = await clients[0].snapshot_json(match_id)
        bots = {p["seat"] for p in final["players"] if str(p["name"]).startswith("bot_")}
        assert len(bots) == len(final["players"]) - agents
        profiles = [await clients[0].request("GET", f"/api/agents/{p['name']}") for p in final["players"]
                    if p["seat"] in bots]
        return [e for e in events if e.get("seat") in bots and isinstance(e.get("text"), str)], profiles
    finally:
        for client in clients:
            await client.aclose()


def voiced(texts: list[dict[str, Any]]) -> int:
    return sum(1 for e in texts if any(e["text"].startswith(line) for line in LINES))


async def test_werewolf_bots_speak_through_the_model(server: Server, fake: FakeLLM) -> None:
    # A short night clock: when the wolves split their kill, the night waits for it (a minute by default).
    said, profiles = await play_with_bots(server, "werewolf", {"n_players": 6, "night_timeout": 10}, agents=1)
    # a werewolf seat's `you` holds no secret string: the other checks apply
    assert said and voiced(said) > 0, (len(fake.requests), [e["text"] for e in said][:8])
    # the brain reports what its model calls cost as the actions' `usage` (issue 30): on the bots' profiles
    spent = [p["usage"] for p in profiles if p.get("usage")]
    assert spent and all(u["input_tokens"] > 0 and u["games"] == 1 for u in spent), profiles


async def test_script_kill_bots_never_say_a_secret(server: Server, fake: FakeLLM) -> None:
    before = len(fake.requests)
    said, _ = await play_with_bots(server, "script_kill", {"timing": "compressed", "script": "tiny"}, agents=3,
                                fake=fake)
    prompts = fake.requests[before:]
    assert prompts and voiced(said) > 0
    assert not any(leaks(e["text"], fake.bait_by_seat[e["seat"]]) for e in said), [e["text"] for e in said]
    shown = "\n".join(str(m["content"]) for _, messages in prompts for m in messages)
    assert not any(secret in shown for secret in SECRETS)  # the brain never shows the model a secret


def test_an_answer_with_a_secret_or_a_new_seat_is_dropped() -> None:
    you = {"seat": 2, "character": {"secret": "管家老周的秘密：第三天夜里曾独自离开房间。",
                                    "secret_phrases": ["管家老周独自离开房间"]}, "word": "咖啡"}
    assert set(secrets_of(you)) == {"管家老周的秘密：第三天夜里曾独自离开房间。", "管家老周独自离开房间", "咖啡"}
    assert usable('{"text": "我觉得3号有问题"}', "3号很可疑", you, []) == "我觉得3号有问题"
    assert usable('{"text": "我觉得5号有问题"}', "3号很可疑", you, []) is None  # a seat the rule brain did not name
    assert usable('{"text": "其实管家老周独自离开了房间"}', "我没什么好说的", you, []) is None
    assert usable('{"text": "第三天夜里曾独自离开房间的人"}', "我没什么好说的", you, []) is None  # 8 chars in a row
    assert usable('{"text": "我喝了杯咖啡"}', "我没什么好说的", you, []) is None
    assert usable("not json", "x", you, []) is None
    assert usable('{"text": "和上次一样"}', "x", you, ["和上次一样"]) is None
    assert BY_SLUG["adai"].display_name
