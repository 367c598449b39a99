"""Every applicable error code of spec §2.3.4 and §6.1, each with the envelope and nothing changed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table


async def test_create_errors(client: httpx.AsyncClient) -> None:
    key = (await register(client, "creator-bot"))["api_key"]
    assert_error(await client.post("/api/matches", json={"game": "undercover"}), 400, "identity_required")
    bad = await client.post("/api/matches", json={"config": {"n_players": 6, "n_undercover": 3}}, headers=bearer(key))
    assert assert_error(bad, 422, "invalid_config")["detail"]["field"] == "n_undercover"
    unknown = await client.post("/api/matches", json={"config": {"n_players": 6, "colour": "red"}},
                                headers=bearer(key))
    assert assert_error(unknown, 422, "invalid_config")["detail"]["field"] == "colour"
    too_many = await client.post("/api/matches", json={"config": {"n_players": 13}}, headers=bearer(key))
    assert assert_error(too_many, 422, "invalid_config")["detail"]["field"] == "n_players"
    tag = await client.post("/api/matches", json={"config": {"wordpair_tag": "不存在"}}, headers=bearer(key))
    assert_error(tag, 422, "invalid_config")
    game = await client.post("/api/matches", json={"game": "chess"}, headers=bearer(key))
    assert assert_error(game, 422, "invalid_config")["detail"]["field"] == "game"
    assert_error(await client.post("/api/matches", json={"game": 5}, headers=bearer(key)), 400, "bad_request")
    assert (await client.get("/api/matches")).json()["count"] == 0


async def test_one_agent_one_table(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open(fill=False)
    again = await client.post("/api/matches", json={}, headers=table.h(0))
    body = assert_error(again, 409, "already_in_match")
    assert body["detail"]["match_id"] == table.match_id and body["detail"]["invite_url"].endswith(table.match_id)
    same = await client.post(f"/api/matches/{table.match_id}/join", json={}, headers=table.h(0))
    assert_error(same, 409, "same_agent_already_in_match")
    other = Table(client, 4)
    await other.open(fill=False)
    await table.join(1)
    busy = await client.post(f"/api/matches/{other.match_id}/join", json={}, headers=table.h(1))
    assert_error(busy, 409, "already_in_match")


async def test_join_errors(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    extra = (await register(client, "late-bot"))["api_key"]
    full = await client.post(f"/api/matches/{table.match_id}/join", json={}, headers=bearer(extra))
    assert full.status_code == 409 and full.json()["error"] in {"match_full", "match_not_waiting"}
    missing = await client.post("/api/matches/zzzzzzzz/join", json={}, headers=bearer(extra))
    assert_error(missing, 404, "match_not_found")
    assert_error(await client.post(f"/api/matches/{table.match_id}/join", json={}), 400, "identity_required")


async def test_action_errors_change_nothing(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, allow_whisper=False)
    await table.open()
    before = await table.snap(0)
    speaker = before["current_speaker_seat"]
    waiting = (speaker + 1) % 4
    mid = table.match_id
    word = (await table.snap(speaker))["you"]["word"]
    cases = [
        (client.post(f"/api/matches/{mid}/action", json={"type": "skip"}), 401, "auth_required"),
        (client.post(f"/api/matches/{mid}/action", json={"type": "skip"}, headers={"X-Play-Token": "pk_live_x"}),
         401, "invalid_play_token"),
        (client.post(f"/api/matches/{mid}/action", json={"type": "skip"}, headers=bearer("ck_live_" + "x" * 43)),
         401, "invalid_api_key"),
        (table.act(waiting, {"type": "speak", "text": "我先说"}), 409, "not_your_turn_to_speak"),
        (table.act(waiting, {"type": "vote", "target_seat": speaker}), 409, "wrong_phase"),
        (table.act(speaker, {"type": "speak", "text": "长" * 501}), 422, "text_too_long"),
        (table.act(speaker, {"type": "speak", "text": f"就是 {' '.join(word or '无')} 啦"}), 422,
         "speech_contains_secret_word"),
        (table.act(speaker, {"type": "whisper", "target_seat": waiting, "text": "hi"}), 403, "whisper_not_enabled"),
        (table.act(speaker, {"type": "dance"}), 400, "bad_request"),
        (table.act(speaker, {"type": "speak"}), 400, "bad_request"),
        (client.post("/api/matches/nope1234/action", json={"type": "skip"}, headers=table.h(0)), 404,
         "match_not_found"),
        (client.post(f"/api/matches/{mid}/abort", headers=table.h(0)), 409, "match_not_waiting"),
        (client.post(f"/api/matches/{mid}/abort", headers=table.h(1)), 403, "not_host"),
    ]
    outsider = (await register(client, "outsider-bot"))["api_key"]
    cases.append((client.post(f"/api/matches/{mid}/action", json={"type": "skip"}, headers=bearer(outsider)), 401,
                  "agent_not_in_match"))
    for call, status, code in cases:
        assert_error(await call, status, code)
    after = await table.snap(0)
    assert after["events_total"] == before["events_total"] and after["phase"] == before["phase"]


async def test_vote_errors(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, last_words=False)
    await table.open()
    for _ in range(4):
        speaker = (await table.snap(0))["current_speaker_seat"]
        await table.act(speaker, {"type": "skip"})
    assert_error(await table.act(0, {"type": "vote", "target_seat": 0}), 422, "invalid_target")
    assert_error(await table.act(0, {"type": "vote", "target_seat": 9}), 422, "invalid_target")
    assert_error(await table.act(0, {"type": "skip"}), 409, "wrong_phase")
    assert (await table.act(0, {"type": "vote", "target_seat": 1})).status_code == 200
    assert_error(await table.act(0, {"type": "vote", "target_seat": 2}), 409, "already_voted")
    assert (await table.snap(0))["you"]["has_voted_this_round"] is True


async def test_finished_match_errors(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    await table.play()
    assert_error(await table.act(0, {"type": "skip"}), 409, "match_finished")
    assert_error(await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(0)), 409,
                 "match_finished")
    assert_error(await client.post(f"/api/matches/{table.match_id}/abort", headers=table.h(0)), 409,
                 "match_finished")


async def test_abort_and_concede_while_waiting(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open(fill=False)
    await table.join(1)
    mid = table.match_id
    assert_error(await client.post(f"/api/matches/{mid}/concede", headers=table.h(1)), 409, "match_not_in_progress")
    assert_error(await client.post(f"/api/matches/{mid}/abort", headers=table.h(1)), 403, "not_host")
    by_token = await client.post(f"/api/matches/{mid}/abort", headers={"X-Play-Token": table.tokens[0]})
    assert by_token.status_code == 200
    body = by_token.json()
    assert body["status"] == "aborted" and body["result"]["reason"] == "host_cancelled"
    assert body["result"]["winner_camp"] is None
    again = await client.post(f"/api/matches/{mid}/abort", headers=table.h(0))
    assert again.status_code == 200 and again.json()["status"] == "aborted"
    log = await table.events()
    assert [e["type"] for e in log].count("match_aborted") == 1
    profile = (await client.get(f"/api/agents/{table.names[0]}")).json()
    assert (profile["wins"], profile["losses"], profile["aborts"]) == (0, 0, 1)
    assert (await client.get("/api/agents/me/active", headers=table.h(0))).json() == {"active": None}


async def test_bad_query_parameters(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open(fill=False)
    mid = table.match_id
    assert_error(await client.get(f"/api/matches/{mid}", params={"wait_for": "never"}), 400, "bad_request")
    assert_error(await client.get(f"/api/matches/{mid}/events", params={"since": -1}), 400, "bad_request")
    assert_error(await client.get("/api/matches", params={"limit": 0}), 400, "bad_request")
    assert_error(await client.get("/api/matches", params={"status": "sleeping"}), 400, "bad_request")
    assert_error(await client.get("/api/matches/zzzzzzzz"), 404, "match_not_found")
    bad_key = await client.get(f"/api/matches/{mid}", headers=bearer("ck_live_" + "y" * 43))
    assert_error(bad_key, 401, "invalid_api_key")
    outsider = (await register(client, "watcher-bot"))["api_key"]
    viewer = await client.get(f"/api/matches/{mid}", headers=bearer(outsider))
    assert viewer.status_code == 200 and viewer.json()["viewer_role"] == "anonymous" and "you" not in viewer.json()


async def test_listing_filters(client: httpx.AsyncClient) -> None:
    first = Table(client, 4)
    await first.open(fill=False)
    second = Table(client, 5)
    await second.open(fill=False)
    await second.join(1)
    listed = (await client.get("/api/matches")).json()
    assert [m["match_id"] for m in listed["matches"]] == [second.match_id, first.match_id]
    oldest = (await client.get("/api/matches", params={"sort": "oldest"})).json()
    assert oldest["matches"][0]["match_id"] == first.match_id
    three = (await client.get("/api/matches", params={"seats_open": 3})).json()["matches"]
    assert {m["match_id"] for m in three} == {first.match_id, second.match_id}
    mine = (await client.get("/api/matches", params={"agent": second.names[1]})).json()["matches"]
    assert [m["match_id"] for m in mine] == [second.match_id]
    assert (await client.get("/api/matches", params={"game": "werewolf"})).json()["count"] == 0
    assert (await client.get("/api/matches", params={"status": "finished"})).json()["count"] == 0
    row = listed["matches"][0]
    assert row["seats_open"] == 3 and row["players"][1]["name"] == second.names[1] and row["status"] == "waiting"


async def test_rate_limits_answer_429_with_retry_after(app: Any, client: httpx.AsyncClient) -> None:
    runtime = app.state.runtime
    table = Table(client, 4)
    await table.open()
    runtime.limiter.enabled = True
    runtime.settings.rate_limit_registrations_per_hour = 2
    runtime.settings.rate_limit_writes_per_minute = 3
    try:
        codes = [(await client.post("/api/agents", json={"name": f"burst-{i}"})).status_code for i in range(3)]
        assert codes == [201, 201, 429]
        limited = await client.post("/api/agents", json={"name": "burst-x"})
        body = assert_error(limited, 429, "rate_limited")
        assert 1 <= int(limited.headers["Retry-After"]) <= 3600 and body["detail"]["bucket"] == "register"
        answers = [await table.act(0, {"type": "vote", "target_seat": 1}) for _ in range(4)]
        assert [a.status_code for a in answers[:3]] == [409, 409, 409] and answers[3].status_code == 429
        anonymous = [await client.post(f"/api/matches/{table.match_id}/action", json={"type": "skip"},
                                       headers={"X-Play-Token": f"pk_live_{i:043d}"}) for i in range(4)]
        assert [a.status_code for a in anonymous] == [401, 401, 401, 429], "random tokens count per IP"
    finally:
        runtime.limiter.enabled = False


async def test_janitor_aborts_only_idle_waiting_rooms(app: Any, client: httpx.AsyncClient) -> None:
    runtime = app.state.runtime
    idle, busy = Table(client, 4), Table(client, 5)
    await idle.open(fill=False)
    opened = time.time()  # after the idle room's last sign of life (opening it takes a while on a loaded machine)
    await busy.open(fill=False)
    await asyncio.sleep(1.0)
    await busy.join(1)  # a join keeps a room alive
    # A time to live the idle room has outlived and the busy one has not (it joined a second after the idle room
    # was last seen): 0.5 s short of the idle room's age, so a slow machine between here and the sweep changes
    # nothing.
    runtime.settings.waiting_room_ttl = time.time() - opened - 0.5
    assert await runtime.scheduler.sweep_waiting_rooms() == 1
    gone = await idle.snap(None)
    assert gone["status"] == "aborted" and gone["result"]["reason"] == "janitor_timeout"
    assert gone["result"]["winner_camp"] is None
    assert [e["type"] for e in await idle.events(None)][-1] == "match_aborted"
    assert (await busy.snap(None))["status"] == "waiting"
    assert (await client.get("/api/agents/me/active", headers=idle.h(0))).json() == {"active": None}
    assert await runtime.scheduler.sweep_waiting_rooms() == 0, "never a double abort"
