"""Werewolf over real HTTP (SQLite by default, PostgreSQL with WODI_TEST_DATABASE_URL): complete 6-, 9- and
12-seat games played by agents that send only what their snapshot's `allowed_actions` offers; the night's actions
sent at the same instant resolve once; the game's own error codes render with their statuses.

The game is registered here for the test if the server does not already install it (no edit outside the tests).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.games.werewolf.game import GAME as WEREWOLF_GAME
from app.protocol import registry
from tests.api.helpers import assert_error, bearer, register


@pytest.fixture
def werewolf() -> Iterator[None]:
    installed = registry.get("werewolf") is not None
    if not installed:
        registry.register(WEREWOLF_GAME)
    yield
    if not installed:
        registry.unregister("werewolf")


async def _table(client: httpx.AsyncClient, n: int, tag: str, **config: Any) -> tuple[str, list[dict[str, str]]]:
    agents = [await register(client, f"ww-{tag}-{i}") for i in range(n)]
    keys = [bearer(a["api_key"]) for a in agents]
    created = await client.post("/api/matches", json={"game": "werewolf", "config": {"n_players": n, **config}},
                                headers=keys[0])
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    for seat in range(1, n):
        joined = await client.post(f"{url}/join", json={}, headers=keys[seat])
        assert joined.status_code == 200, joined.text
    return url, keys


def _body(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {"type": option["type"]}
    if "action" in option:
        body["action"] = option["action"]
    if option.get("targets"):
        body["target_seat"] = rng.choice(option["targets"])
    elif option["type"] == "shoot":
        body["target_seat"] = None
    if option["type"] in ("speak", "last_words", "whisper"):
        body["text"] = "我是好人"
    return body


async def _play(client: httpx.AsyncClient, url: str, keys: list[dict[str, str]], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(3000):
        views = await asyncio.gather(*(client.get(url, headers=key) for key in keys))
        snaps = [v.json() for v in views]
        if snaps[0]["status"] != "in_progress":
            return snaps[0]
        acting = {seat: [a for a in s["you"]["allowed_actions"] if a["type"] != "concede"]
                  for seat, s in enumerate(snaps)}
        seat = rng.choice([s for s, options in acting.items() if options])
        sent = await client.post(f"{url}/action", json=_body(rng.choice(acting[seat]), rng), headers=keys[seat])
        assert sent.status_code == 200, sent.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("n", "config"), [(6, {}), (9, {"reveal_role_on_death": "role"}),
                                           (12, {"win_rule": "all", "tie_break": "random"})])
async def test_complete_games_over_http(client: httpx.AsyncClient, werewolf: None, n: int,
                                        config: dict[str, Any]) -> None:
    url, keys = await _table(client, n, f"g{n}", **config)
    anonymous = (await client.get(url)).json()
    assert anonymous["phase"] == "night_round_1" and all("role" not in p for p in anonymous["players"])
    final = await _play(client, url, keys, seed=n)
    assert final["status"] == "finished" and final["result"]["winner_camp"] in ("village", "werewolf")
    after = (await client.get(url)).json()
    assert after["roles"] == final["result"]["roles"]
    seqs: list[int] = []
    while True:
        page = (await client.get(f"{url}/events", params={"since": seqs[-1] if seqs else 0})).json()
        if not page["events"]:
            break
        seqs += [e["seq"] for e in page["events"]]
    assert seqs == list(range(1, after["events_total"] + 1))  # the god view after the end: every event, no gap


async def test_one_nights_actions_sent_at_once_resolve_once(client: httpx.AsyncClient, werewolf: None) -> None:
    url, keys = await _table(client, 12, "burst")
    snaps = [(await client.get(url, headers=key)).json() for key in keys]
    roles = {seat: s["you"]["role"] for seat, s in enumerate(snaps)}
    wolves = [s for s, r in roles.items() if r == "werewolf"]
    villager = next(s for s, r in roles.items() if r == "villager")
    seer, guard = (next(s for s, r in roles.items() if r == role) for role in ("seer", "guard"))
    bodies = {wolf: {"type": "night_action", "action": "kill", "target_seat": villager} for wolf in wolves}
    bodies[seer] = {"type": "night_action", "action": "check", "target_seat": wolves[0]}
    bodies[guard] = {"type": "night_action", "action": "pass"}
    answers = await asyncio.gather(*(client.post(f"{url}/action", json=b, headers=keys[s]) for s, b in bodies.items()))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    refused = [a.json()["error"] for a in answers if a.status_code != 200]
    assert all(code == "night_action_done" for code in refused)  # a wolf late to an already decided pack
    spectator = (await client.get(f"{url}/events", headers=keys[wolves[0]])).json()["events"]
    assert [e["type"] for e in spectator].count("wolves_decided") == 1
    witch = next(s for s, r in roles.items() if r == "witch")
    assert (await client.get(url, headers=keys[witch])).json()["you"]["night_victim"] == villager
    assert_error(await client.post(f"{url}/action", json={"type": "night_action", "action": "check",
                                                          "target_seat": 0}, headers=keys[seer]),
                 409, "not_your_night_turn")  # the witch's step: the seer's turn is over
    assert_error(await client.post(f"{url}/action", json={"type": "night_action", "action": "kill",
                                                          "target_seat": 0}, headers=keys[villager]),
                 403, "not_your_night_role")
    assert_error(await client.post(f"{url}/action", json={"type": "night_action", "action": "kill",
                                                          "target_seat": 0, "extra": 1}, headers=keys[villager]),
                 400, "bad_request")
    saved = await client.post(f"{url}/action", json={"type": "night_action", "action": "save"}, headers=keys[witch])
    assert saved.status_code == 200, saved.text
    dawn = [e for e in (await client.get(f"{url}/events")).json()["events"] if e["type"] == "night_result"]
    assert len(dawn) == 1 and dawn[0]["peaceful"] is True
