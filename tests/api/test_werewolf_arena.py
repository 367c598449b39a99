"""Issue 19 for the second game: a competitive werewolf match is rated per agent and game, and a seat that stops
answering is taken over by the werewolf brain (`app/games/installed.py`), played to the end and left unrated."""

from __future__ import annotations

import random
from typing import Any

import httpx

from app.bots.personas import PERSONAS
from app.games.installed import brains
from tests.api.helpers import bearer, claim_each, register


async def _werewolf_table(client: httpx.AsyncClient, tag: str, **config: Any) -> tuple[str, list[dict[str, str]],
                                                                                         list[str]]:
    names = [f"ww-{tag}-{i}" for i in range(6)]
    api_keys = [(await register(client, name))["api_key"] for name in names]
    if config.get("compete_mode"):
        await claim_each(client, api_keys)  # independent seats: what a rated match needs
    keys = [bearer(key) for key in api_keys]
    created = await client.post("/api/matches", json={"game": "werewolf", "config": {"n_players": 6, **config}},
                                headers=keys[0])
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    for seat in range(1, 6):
        assert (await client.post(f"{url}/join", json={}, headers=keys[seat])).status_code == 200
    return url, keys, names


async def _play(client: httpx.AsyncClient, url: str, keys: list[dict[str, str]], silent: int | None) -> dict[str, Any]:
    """Every seat but `silent` plays the werewolf brain from its own snapshot; a silent seat's clock runs out."""
    decide, rng = brains()["werewolf"], random.Random(3)
    for _ in range(3000):
        snaps = {seat: (await client.get(url, headers=key)).json() for seat, key in enumerate(keys) if seat != silent}
        first = next(iter(snaps.values()))
        if first["status"] != "in_progress":
            return first
        due = [seat for seat, snap in snaps.items() if snap["you"]["your_turn"]]
        if not due:
            await client.get(url, params={"wait": 5, "wait_for": "any_change"}, headers=keys[silent or 0])
            continue
        for seat in due:
            body = decide(snaps[seat], PERSONAS[seat].slug, rng)
            if body is not None:
                answer = await client.post(f"{url}/action", json=body, headers=keys[seat])
                assert answer.status_code == 200 or answer.json()["error"] in {"wrong_phase", "stale_state"}, \
                    answer.text
    raise AssertionError("the werewolf match did not end")


async def test_a_competitive_werewolf_match_is_rated_per_agent_and_game(client: httpx.AsyncClient) -> None:
    url, keys, names = await _werewolf_table(client, "rated", compete_mode=True)
    final = await _play(client, url, keys, silent=None)
    assert final["status"] == "finished"
    winners = set(final["result"]["winning_seats"])
    for seat, name in enumerate(names):
        werewolf = (await client.get(f"/api/agents/{name}/ratings", params={"game": "werewolf"})).json()
        undercover = (await client.get(f"/api/agents/{name}/ratings", params={"game": "undercover"})).json()
        assert werewolf["rated_games"] == 1 and len(werewolf["history"]) == 1, werewolf
        entry = werewolf["history"][0]
        assert entry["result"] == ("win" if seat in winners else "loss"), entry
        assert undercover["rated_games"] == 0 and undercover["history"] == []


async def test_a_silent_werewolf_seat_is_played_to_the_end_by_the_bot(client: httpx.AsyncClient) -> None:
    # The silent seat's clock runs out once (then the bot holds it); 5 s leave the other seats, which the test
    # plays one after another from their snapshots, time to act on a loaded machine (1 s once let seat 5 lapse).
    url, keys, names = await _werewolf_table(client, "silent", night_timeout=5, speak_timeout=5, vote_timeout=5,
                                             takeover_after_timeouts=1, compete_mode=True)
    final = await _play(client, url, keys, silent=0)
    assert final["status"] == "finished"
    log = (await client.get(f"{url}/events", params={"since": 0})).json()["events"]
    while len(log) < final["events_total"]:
        log += (await client.get(f"{url}/events", params={"since": log[-1]["seq"]})).json()["events"]
    taken = [e for e in log if e["type"] == "seat_taken_over"]
    assert [(e["seat"], e["visibility"]) for e in taken] == [(0, "public")]
    assert next(p for p in final["players"] if p["seat"] == 0)["taken_over"] is True
    bot_moves = [e for e in log if e["seq"] > taken[0]["seq"] and e.get("seat") == 0
                 and e["type"] in {"speech_posted", "vote_cast", "last_words_posted"}]
    # The bot played the seat, unless the seat was already dead when it was taken over (its last words timed out).
    assert bot_moves or not next(p for p in final["players"] if p["seat"] == 0)["alive"] and all(
        e["seq"] < taken[0]["seq"] for e in log if e["type"] == "player_eliminated" and e.get("seat") == 0)
    silent = (await client.get(f"/api/agents/{names[0]}")).json()
    assert silent["abandoned"] == 1 and silent["wins"] == silent["losses"] == 0
    for name in names:
        ratings = (await client.get(f"/api/agents/{name}/ratings", params={"game": "werewolf"})).json()
        assert ratings["rated_games"] == 0  # taken over: unrated
