"""`Idempotency-Key` on every POST, over HTTP: the same key and body → the first answer and one effect; another body
→ 422 `idempotency_key_reused`; another caller's same key is its own."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import uuid
from typing import Any

import httpx
import pytest

from app.services.identity.sessions import COOKIE
from tests.api.helpers import assert_error, bearer, client_at, register
from tests.api.table import Table

ORIGIN = {"Origin": "http://testserver"}


def key() -> str:
    return f"retry-{uuid.uuid4()}"


async def twice(client: httpx.AsyncClient, path: str, body: Any = None, headers: dict[str, str] | None = None,
                changed: Any = None, cookies: dict[str, str] | None = None) -> httpx.Response:
    """POST twice with one key (identical answers, the second marked replayed), then once with another body.
    With `cookies`, every call sends exactly these (the client's jar is emptied first)."""
    headers = {**(headers or {}), "Idempotency-Key": key()}
    if cookies is not None:
        client.cookies.clear()
        if cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    first = await client.post(path, json=body, headers=headers)
    if cookies is not None:
        client.cookies.clear()
    again = await client.post(path, json=body, headers=headers)
    assert (again.status_code, again.json()) == (first.status_code, first.json()), (first.text, again.text)
    assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    assert again.headers.get("set-cookie") == first.headers.get("set-cookie")
    if cookies is not None:
        client.cookies.clear()
    reused = await client.post(path, json=changed if changed is not None else {"changed": True}, headers=headers)
    assert_error(reused, 422, "idempotency_key_reused")
    return first


async def test_register_and_rotate_key(client: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": key()}
    first = await client.post("/api/agents", json={"name": "once-only"}, headers=headers)
    assert first.status_code == 201
    again = await client.post("/api/agents", json={"name": "once-only"}, headers=headers)
    withheld(again)  # anonymous: the key it handed out is not shown again, and nothing ran twice
    reused = await client.post("/api/agents", json={"name": "someone-else"}, headers=headers)
    assert_error(reused, 422, "idempotency_key_reused")
    api_key = first.json()["api_key"]
    rotated = await twice(client, "/api/agents/me/rotate-key", headers=bearer(api_key))
    assert rotated.status_code == 200
    me = await client.get("/api/agents/me", headers=bearer(rotated.json()["api_key"]))
    assert me.status_code == 200 and me.json()["name"] == "once-only"  # one rotation: the first new key holds


def withheld(response: httpx.Response) -> None:
    """An anonymous retry of a request whose answer handed out a credential: 409, no credential in it."""
    body = assert_error(response, 409, "idempotency_key_in_use")
    assert body["detail"]["withheld"] is True and "Retry-After" not in response.headers
    assert "play_token" not in response.text and "api_key" not in response.text


async def test_create_join_and_abort(client: httpx.AsyncClient) -> None:
    host, guest = (await register(client, "idem-host"))["api_key"], (await register(client, "idem-guest"))["api_key"]
    created = await twice(client, "/api/matches", {"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}},
                          headers=bearer(host))
    match_id = created.json()["match_id"]
    joined = await twice(client, f"/api/matches/{match_id}/join", {}, headers=bearer(guest))
    assert joined.json()["seat"] == 1 and joined.json()["seats_open"] == 2
    snap = (await client.get(f"/api/matches/{match_id}")).json()
    assert [p["name"] for p in snap["players"]] == ["idem-host", "idem-guest"]
    aborted = await twice(client, f"/api/matches/{match_id}/abort", headers=bearer(host))
    assert aborted.json()["status"] == "aborted"
    listed = (await client.get("/api/matches", params={"agent": "idem-host"})).json()
    assert listed["count"] == 1


async def test_action_and_concede_take_effect_once(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0, last_words=False)
    await table.open()
    path = f"/api/matches/{table.match_id}"
    spoke = await twice(client, f"{path}/action", {"type": "speak", "text": "一种常见的饮料"}, headers=table.h(0),
                        changed={"type": "speak", "text": "另一种说法"})
    assert spoke.status_code == 200
    conceded = await twice(client, f"{path}/concede", headers=table.h(2))
    assert conceded.status_code == 200
    events = await table.events()
    assert [e["type"] for e in events].count("speech_posted") == 1
    assert [e["type"] for e in events].count("player_conceded") == 1


async def test_a_refusal_is_an_answer_too(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0, last_words=False)
    await table.open()
    refused = await twice(client, f"/api/matches/{table.match_id}/action", {"type": "speak", "text": "抢话"},
                          headers=table.h(1))
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn_to_speak"


async def test_play_token_callers(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0, last_words=False)
    await table.open()
    spoke = await twice(client, f"/api/matches/{table.match_id}/action", {"type": "skip"},
                        headers={"X-Play-Token": table.tokens[0]})
    assert spoke.status_code == 200


async def test_owner_sign_up_login_claim_logout(client: httpx.AsyncClient) -> None:
    """Each retry carries the cookies the caller had when it first sent the request (its answer was lost)."""
    password = "correct horse"
    signed = await twice(client, "/api/owners", {"username": "idem-owner", "password": password},
                         changed={"username": "idem-owner2", "password": password}, cookies={})
    assert signed.status_code == 201 and "set-cookie" in signed.headers
    logged = await twice(client, "/api/auth/login", {"username": "idem-owner", "password": password},
                         headers=ORIGIN, cookies={})
    assert logged.status_code == 200
    session = {COOKIE: logged.cookies[COOKIE]}
    agent = await register(client, "idem-claimed")
    token = agent["claim_url"].rsplit("/", 1)[1]
    claimed = await twice(client, f"/api/agents/claim/{token}", headers=ORIGIN, cookies=session)
    assert claimed.status_code == 200 and claimed.json()["agent"]["claimed"] is True
    out = await twice(client, "/api/auth/logout", headers=ORIGIN, cookies=session)
    assert out.status_code == 200


async def test_callers_keys_are_their_own(client: httpx.AsyncClient) -> None:
    first, second = (await register(client, "idem-a"))["api_key"], (await register(client, "idem-b"))["api_key"]
    shared = {"Idempotency-Key": "same-key"}
    body = {"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}}
    a = await client.post("/api/matches", json=body, headers={**bearer(first), **shared})
    b = await client.post("/api/matches", json=body, headers={**bearer(second), **shared})
    assert a.status_code == b.status_code == 201 and a.json()["match_id"] != b.json()["match_id"]


async def test_concurrent_retries_take_effect_once(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0, last_words=False)
    await table.open()
    headers = {**table.h(0), "Idempotency-Key": key()}
    answers = await asyncio.gather(*(client.post(f"/api/matches/{table.match_id}/action", headers=headers,
                                                 json={"type": "speak", "text": "同时重发"}) for _ in range(4)))
    assert {(r.status_code, r.text) for r in answers} == {(answers[0].status_code, answers[0].text)}
    assert answers[0].status_code == 200
    assert [e["type"] for e in await table.events()].count("speech_posted") == 1


async def test_json_key_order_and_spacing_do_not_count(client: httpx.AsyncClient) -> None:
    auth = bearer((await register(client, "spaced"))["api_key"])
    headers = {**auth, "Idempotency-Key": key(), "Content-Type": "application/json"}
    spaced = b'{"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}}'
    reordered = b'{"config":{"n_undercover":1,"n_players":4},"game":"undercover"}'
    first = await client.post("/api/matches", content=spaced, headers=headers)
    again = await client.post("/api/matches", content=reordered, headers=headers)
    assert first.status_code == 201 and again.json() == first.json()


@pytest.mark.parametrize("bad", ["", "x" * 129, "naïve"])
async def test_key_is_bounded(client: httpx.AsyncClient, bad: str) -> None:
    response = await client.post("/api/agents", json={"name": "bounded"},
                                 headers=[("Idempotency-Key", bad.encode())])
    assert_error(response, 400, "bad_request")
    assert (await client.post("/api/agents", json={"name": "bounded"})).status_code == 201  # nothing happened


async def test_unauthenticated_answers_are_not_stored(client: httpx.AsyncClient) -> None:
    headers = {**bearer("ck_live_" + "x" * 43), "Idempotency-Key": "k"}
    for _ in range(2):
        response = await client.post("/api/matches", json={"game": "undercover"}, headers=headers)
        assert_error(response, 401, "invalid_api_key")
        assert "idempotent-replayed" not in response.headers


async def test_a_crash_is_not_an_answer(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.services.match import matches

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        table = Table(client, 4, first_speaker=0, last_words=False)
        await table.open()
        real = matches.concede

        async def crash(*_: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(matches, "concede", crash)
        headers = {**table.h(1), "Idempotency-Key": key()}
        assert (await client.post(f"/api/matches/{table.match_id}/concede", headers=headers)).status_code == 500
        monkeypatch.setattr(matches, "concede", real)
        retried = await client.post(f"/api/matches/{table.match_id}/concede", headers=headers)
        assert retried.status_code == 200 and "idempotent-replayed" not in retried.headers


async def _dump(app: Any) -> tuple[int, str]:
    """How many rows the table holds, and everything a copy of it would read (base64 runs decoded too)."""
    from sqlalchemy import text

    async with app.state.runtime.db.reader() as session:
        rows = (await session.execute(text("SELECT * FROM idempotency_keys"))).all()
    dump = repr(rows)
    for token in re.findall(r"[A-Za-z0-9+/=_-]{16,}", dump):  # base64 would only hide it from a naive look
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            with contextlib.suppress(ValueError):
                dump += decode(token + "==").decode("latin-1")
    return len(rows), dump


async def test_stored_answers_hold_no_secret_in_clear(app: Any, client: httpx.AsyncClient) -> None:
    """A copy of the database reads neither the Idempotency-Key nor the API key its stored answer carries."""
    old = (await register(client, "sealed-answer"))["api_key"]
    idem = key()
    headers = {**bearer(old), "Idempotency-Key": idem}
    rotated = await client.post("/api/agents/me/rotate-key", headers=headers)
    assert rotated.status_code == 200
    api_key = rotated.json()["api_key"]
    count, dump = await _dump(app)
    assert count == 1 and idem not in dump and api_key not in dump and api_key[8:30] not in dump
    again = await client.post("/api/agents/me/rotate-key", headers=headers)
    assert again.json()["api_key"] == api_key  # the client, who knows the key, still gets its answer back


async def test_an_owner_s_key_replays_to_no_other_owner(client: httpx.AsyncClient) -> None:
    """Issue 26: owner B sending owner A's key and body from A's address gets neither A's seat nor its play token."""
    sessions = []
    for name in ("idem-owner-a", "idem-owner-b"):
        client.cookies.clear()
        signed = await client.post("/api/owners", json={"username": name, "password": "correct horse"})
        assert signed.status_code == 201, signed.text
        sessions.append({"Cookie": f"{COOKIE}={signed.cookies[COOKIE]}"})
    client.cookies.clear()
    shared = {**ORIGIN, "Idempotency-Key": "owners-share-this"}
    body = {"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}}
    a = await client.post("/api/matches", json=body, headers={**shared, **sessions[0]})
    a_again = await client.post("/api/matches", json=body, headers={**shared, **sessions[0]})
    b = await client.post("/api/matches", json=body, headers={**shared, **sessions[1]})
    assert a.status_code == b.status_code == 201, (a.text, b.text)
    assert a_again.json() == a.json() and a_again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in b.headers
    assert b.json()["match_id"] != a.json()["match_id"] and b.json()["play_token"] != a.json()["play_token"]
    seen_by_b = (await client.get(f"/api/matches/{a.json()['match_id']}", headers=sessions[1])).json()
    assert not seen_by_b.get("you")  # B reads A's room as an outsider


async def test_a_guest_s_key_replays_to_no_other_guest(app: Any, client: httpx.AsyncClient) -> None:
    """Two guests behind one address, one key, one body: the second gets no play token, and one room exists. (The
    joins come from a second address: one client may hold one guest seat per room, issue 26.)"""
    headers = {"Idempotency-Key": "guests-share-this"}
    body = {"game": "undercover", "config": {"n_players": 4, "n_undercover": 1}, "player": {"name": "小王"}}
    first = await client.post("/api/matches", json=body, headers=headers)
    assert first.status_code == 201 and first.json()["play_token"]
    withheld(await client.post("/api/matches", json=body, headers=headers))
    assert (await client.get("/api/matches")).json()["count"] == 1
    join = f"/api/matches/{first.json()['match_id']}/join"
    guest, key = {"player": {"name": "小李"}}, {"Idempotency-Key": "guests-join"}
    async with client_at(app, "10.9.0.2") as elsewhere:
        joined = await elsewhere.post(join, json=guest, headers=key)
        assert joined.status_code == 200, joined.text
        withheld(await elsewhere.post(join, json=guest, headers=key))
    players = (await client.get(f"/api/matches/{first.json()['match_id']}")).json()["players"]
    assert len(players) == 2


async def test_anonymous_calls_that_change_nothing_store_no_row(app: Any, client: httpx.AsyncClient) -> None:
    for i in range(20):
        out = await client.post("/api/auth/logout", headers={**ORIGIN, "Idempotency-Key": f"spam-{i}"})
        assert out.status_code == 200
        refused = await client.post("/api/agents", json={"name": "bad name!"}, headers={"Idempotency-Key": f"r{i}"})
        assert refused.status_code == 400
    assert (await _dump(app))[0] == 0
