"""阿瓦隆 over real HTTP (SQLite by default, PostgreSQL with WODI_TEST_DATABASE_URL): complete 5-, 7- (with the
Lady of the Lake) and 10-seat games played by protocol-only clients that send only what their snapshot's
`allowed_actions` offers. After every step every viewer layer holds: the anonymous viewer sees no role, vote or
card; each seat sees its own deal and nothing more (Merlin never sees Mordred, Percival's candidates carry no
names, the evil talk reaches the evil seats but Oberon); no card choice shows before the end; a spectator sees the
roles live; after the end everyone sees everything. A silent seat is taken over by the Avalon bot."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.games.avalon.brain import decide
from tests.api.helpers import assert_error, bearer, register
from tests.api.test_owners import cookie_of, jar, sign_up
from tests.test_avalon_skill_guide import AvalonTable

EVIL = {"assassin", "morgana", "mordred", "oberon", "minion"}
KNOW_EACH_OTHER = EVIL - {"oberon"}
HIDDEN_KEYS = {"roles", "votes", "cards", "lady_results", "spectator_log"}


async def _table(client: httpx.AsyncClient, n: int, tag: str, **config: Any) -> tuple[str, list[dict[str, str]]]:
    agents = [await register(client, f"av-{tag}-{i}") for i in range(n)]
    keys = [bearer(a["api_key"]) for a in agents]
    created = await client.post("/api/matches", json={"game": "avalon", "config": {"n_players": n, **config}},
                                headers=keys[0])
    assert created.status_code == 201, created.text
    url = f"/api/matches/{created.json()['match_id']}"
    for seat in range(1, n):
        joined = await client.post(f"{url}/join", json={}, headers=keys[seat])
        assert joined.status_code == 200, joined.text
    return url, keys


def _body(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {"type": option["type"]}
    if option["type"] == "propose":
        body["team"] = rng.sample(option["targets"], option["team_size"])
        body["text"] = "我提这一队。"
    elif option.get("targets"):
        body["target_seat"] = rng.choice(option["targets"])
    for key in ("choice", "card"):
        if key in option:
            body[key] = option[key]
    if option["type"] in ("speak", "confer"):
        body["text"] = "我再看看。"
    return body


def check_anonymous(snap: dict[str, Any]) -> None:
    assert not HIDDEN_KEYS & snap.keys() and "you" not in snap
    assert all("role" not in p and "side" not in p for p in snap["players"])
    for event in snap["public_log"]:
        assert event["visibility"] == "public" and "card" not in event and "choice" not in event, event


def check_seat(seat: int, snap: dict[str, Any], roles: dict[int, str]) -> None:
    """One seat's snapshot against the deal (`roles`, read from each seat's own block)."""
    you, role = snap["you"], roles[seat]
    assert not HIDDEN_KEYS & snap.keys() and all("role" not in p for p in snap["players"])
    evil = {s for s, r in roles.items() if r in EVIL}
    if role == "merlin":
        assert set(you["evil_seats"]) == {s for s in evil if roles[s] != "mordred"}
    elif role == "percival":
        candidates = you["merlin_candidates"]
        assert candidates == sorted(s for s, r in roles.items() if r in ("merlin", "morgana"))
        assert all(isinstance(s, int) for s in candidates)
    elif role in KNOW_EACH_OTHER:
        assert set(you["evil_seats"]) == {s for s in evil if roles[s] in KNOW_EACH_OTHER} - {seat}
    else:
        assert "evil_seats" not in you and "merlin_candidates" not in you
    for event in snap["public_log"] + you["private_log"]:
        visibility = event["visibility"]
        assert visibility in ("public", f"private:seat:{seat}") or (
            visibility == "private:role:evil" and role in KNOW_EACH_OTHER), (seat, event)
        assert "card" not in event and "choice" not in event, event
        assert event["type"] not in ("card_chosen", "roles_dealt"), event
    if snap["phase"] == "vote":  # a vote is secret until all are in: only who voted shows
        assert all(isinstance(s, int) for s in snap["voted_seats"])


async def _play(client: httpx.AsyncClient, url: str, keys: list[dict[str, str]], seed: int,
                watcher: dict[str, str]) -> dict[str, Any]:
    rng = random.Random(seed)
    n = len(keys)
    first = await asyncio.gather(*(client.get(url, headers=key) for key in keys))
    roles = {seat: r.json()["you"]["role"] for seat, r in enumerate(first)}
    live = (await client.get(url, headers=watcher)).json()
    assert live["viewer_role"] == "spectator" and live["roles"] == {str(s): r for s, r in roles.items()}
    for _ in range(4000):
        views = await asyncio.gather(*(client.get(url, headers=key) for key in keys), client.get(url))
        snaps = [v.json() for v in views]
        if snaps[0]["status"] != "in_progress":
            return snaps[0]
        check_anonymous(snaps[n])
        for seat in range(n):
            check_seat(seat, snaps[seat], roles)
        acting = {seat: [a for a in s["you"]["allowed_actions"] if a["type"] != "concede"]
                  for seat, s in enumerate(snaps[:n])}
        seat = rng.choice([s for s, options in acting.items() if options])
        options = acting[seat]
        if options[0]["type"] == "vote":  # approve more often than not, so the quests get played
            options = options[:1] if rng.random() < 0.7 else options[1:]
        sent = await client.post(f"{url}/action", json=_body(rng.choice(options), rng), headers=keys[seat])
        assert sent.status_code == 200, sent.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("n", "config"), [(5, {}), (7, {"lady_of_the_lake": True}), (10, {})])
async def test_complete_games_over_http(client: httpx.AsyncClient, n: int, config: dict[str, Any]) -> None:
    watcher = jar(cookie_of(await sign_up(client, f"av-watch-{n}")))
    client.cookies.clear()
    url, keys = await _table(client, n, f"g{n}", **config)
    final = await _play(client, url, keys, seed=n, watcher=watcher)
    assert final["status"] == "finished" and final["result"]["winner_camp"] in ("good", "evil")
    assert final["result"]["reason"] in ("merlin_survived", "merlin_assassinated", "three_fails", "five_rejections")
    after = (await client.get(url)).json()
    assert after["roles"] == final["result"]["roles"] and len(after["roles"]) == n
    assert {c["card"] for c in after["cards"]} <= {"success", "fail"}
    assert len(after["cards"]) == sum(len(q["team"]) for q in after["quests"]) and after["quests"]
    seqs: list[int] = []
    while True:
        page = (await client.get(f"{url}/events", params={"since": seqs[-1] if seqs else 0})).json()
        if not page["events"]:
            break
        seqs += [e["seq"] for e in page["events"]]
    assert seqs == list(range(1, after["events_total"] + 1))  # after the end: every event, no gap


async def test_refusals_over_http(client: httpx.AsyncClient) -> None:
    url, keys = await _table(client, 5, "refuse")
    snaps = [(await client.get(url, headers=key)).json() for key in keys]
    leader = snaps[0]["leader_seat"]
    other = (leader + 1) % 5
    assert_error(await client.post(f"{url}/action", json={"type": "propose", "team": [0, 1]}, headers=keys[other]),
                 409, "not_the_leader")
    assert_error(await client.post(f"{url}/action", json={"type": "propose", "team": [0]}, headers=keys[leader]),
                 422, "wrong_team_size")
    assert_error(await client.post(f"{url}/action", json={"type": "vote", "choice": "approve"}, headers=keys[0]),
                 409, "wrong_phase")
    bad = await client.post("/api/matches", json={"game": "avalon", "config": {"n_players": 5, "roles": "7p"}},
                            headers=keys[0])
    assert_error(bad, 422, "invalid_config")


async def test_a_silent_seat_is_taken_over_by_the_avalon_bot(client: httpx.AsyncClient) -> None:
    """`takeover_after_timeouts: 1`: seat 0 never answers; after its first clock runs out the official bot (the
    Avalon brain) plays it to the end, and the other seats play the brain too."""
    table = AvalonTable(client, 5)
    table.config = {"n_players": 5, "speak_timeout": 1, "vote_timeout": 1, "assassin_timeout": 1,
                    "takeover_after_timeouts": 1}
    await table.open()
    rng = random.Random(5)
    for _ in range(400):
        snaps = {seat: await table.snap(seat) for seat in range(1, 5)}
        if snaps[1]["status"] != "in_progress":
            break
        chosen = [(seat, decide(snap, "yingyan", rng)) for seat, snap in snaps.items() if snap["you"]["your_turn"]]
        moves = [(seat, body) for seat, body in chosen if body is not None]
        if not moves:
            await table.snap(None, wait=10, wait_for="any_change")
            continue
        for seat, body in moves:
            response = await table.act(seat, body)
            assert response.status_code == 200 or response.json()["error"] in {
                "wrong_phase", "not_the_leader", "not_your_turn_to_speak", "already_voted", "match_finished",
                "card_already_played", "not_on_the_team"}, response.text
    final = await table.snap(None)
    assert final["status"] == "finished"
    log = await table.events()
    # Seat 0 is taken over once; on a loaded machine a slow test seat may run out its 1-second clock too.
    taken = [e for e in log if e["type"] == "seat_taken_over" and e["seat"] == 0]
    assert len(taken) == 1
    assert next(p for p in final["players"] if p["seat"] == 0)["taken_over"] is True
    assert [e for e in log if e["seq"] > taken[0]["seq"] and e.get("seat") == 0
            and e["type"] in ("vote_cast", "team_proposed", "speech", "card_played")], "the bot never played seat 0"
