"""Inputs an outsider may send: each is refused at the edge with a 4xx and the envelope, the same on SQLite and
PostgreSQL, and no match it touches stops answering."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import event

from app.settings import forwarded_client
from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table

JSON = {"content-type": "application/json"}
SURROGATE = '"x\\ud800y"'  # a JSON escape of a lone surrogate: valid JSON syntax, not encodable text


async def every_viewer_reads(table: Table) -> None:
    """Snapshot and events answer 200 for the anonymous viewer and every seat (and the replay page renders)."""
    for seat in (None, *range(table.n)):
        await table.snap(seat)
        await table.events(seat)
    page = await table.client.get(f"/match/{table.match_id}")
    assert page.status_code == 200, page.text


async def raw_action(table: Table, seat: int, body: str) -> httpx.Response:
    return await table.client.post(f"/api/matches/{table.match_id}/action", content=body.encode(),
                                   headers={**table.h(seat), **JSON})


async def speak_until(table: Table, seat: int) -> None:
    """Let the others speak until it is `seat`'s turn."""
    for _ in range(table.n):
        snap = await table.snap()
        if snap["current_speaker_seat"] == seat:
            return
        response = await table.act(snap["current_speaker_seat"], {"type": "speak", "text": "我想想"})
        assert response.status_code == 200, response.text
    raise AssertionError("never reached the seat's turn")


# 1. Text that is not valid UTF-8 is refused, wherever it is.

async def test_a_lone_surrogate_in_a_blanks_speech_is_refused_and_the_match_lives_on(
        client: httpx.AsyncClient) -> None:
    table = Table(client, 5, n_blank=1, n_undercover=1, first_speaker=0)
    await table.open()
    roles = [(await table.snap(seat))["you"]["role"] for seat in range(table.n)]
    blank = roles.index("blank")
    await speak_until(table, blank)
    refused = await raw_action(table, blank, '{"type":"speak","text":' + SURROGATE + "}")
    assert_error(refused, 400, "bad_request")
    assert (await table.snap())["current_speaker_seat"] == blank  # nothing was recorded
    assert (await table.act(blank, {"type": "speak", "text": "一种东西"})).status_code == 200
    await every_viewer_reads(table)


@pytest.mark.parametrize("body", [
    '{"type":"speak","text":"ok","analysis":{"note":' + SURROGATE + "}}",
    '{"type":"vote","target_seat":1,"comment":' + SURROGATE + "}",
    '{"type":"last_words","text":' + SURROGATE + "}",
    '{"type":"whisper","target_seat":1,"text":' + SURROGATE + "}",
    '{"type":"guess_word","word":' + SURROGATE + "}",
    '{' + SURROGATE + ':"key, not value"}',
])
async def test_a_lone_surrogate_anywhere_in_an_action_is_refused(client: httpx.AsyncClient, body: str) -> None:
    table = Table(client, 4, allow_whisper=True)
    await table.open()
    for seat in range(table.n):
        assert_error(await raw_action(table, seat, body), 400, "bad_request")
    await every_viewer_reads(table)


async def test_a_lone_surrogate_in_names_bios_meta_and_provider_headers_is_refused(
        client: httpx.AsyncClient) -> None:
    for field in ("display_name", "bio", "contact"):
        response = await client.post("/api/agents", content=f'{{"name":"sur-{field[:3]}","{field}":{SURROGATE}}}',
                                     headers=JSON)
        assert_error(response, 400, "bad_request")
    host = await register(client, "sur-host")
    for player in ('{"display_name":' + SURROGATE + "}", '{"meta":{"k":' + SURROGATE + "}}"):
        response = await client.post("/api/matches", content=f'{{"game":"undercover","player":{player}}}',
                                     headers={**bearer(host["api_key"]), **JSON})
        assert_error(response, 400, "bad_request")
    meta = '{"owner_id":' + SURROGATE + "}"
    response = await client.post("/api/matches", json={"game": "undercover"},
                                 headers={**bearer(host["api_key"]), "X-Provider-Agent-Meta": meta})
    assert_error(response, 400, "bad_request")
    signup = await client.post("/api/owners", content='{"username":"surowner","password":"longenough1",'
                               '"nickname":' + SURROGATE + "}", headers=JSON)
    assert_error(signup, 400, "bad_request")


async def test_bytes_that_are_not_utf8_are_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/agents", content=b'{"name":"bad-bytes","bio":"\xff\xfe"}', headers=JSON)
    assert_error(response, 400, "bad_request")
    form = await client.post("/api/auth/login", content=b"username=%ED%A0%80&password=x",
                             headers={"content-type": "application/x-www-form-urlencoded",
                                      "origin": "http://testserver"})
    assert_error(form, 400, "bad_request")


# 2. A public analysis is public text.

async def test_a_public_analysis_may_not_carry_the_speakers_word(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0)
    await table.open()
    word = (await table.snap(0))["you"]["word"]
    for analysis in ({"note": f"我的词是{word}"}, {"deep": [{"x": {"y": [f"就是{word}"]}}]},
                     {"a": word[:1], "b": word[1:]}, {word: "as a key"}):
        refused = await table.act(0, {"type": "speak", "text": "这个东西很常见", "analysis": analysis})
        assert_error(refused, 422, "speech_contains_secret_word")
    private = await table.act(0, {"type": "speak", "text": "这个东西很常见",
                                  "analysis": {"private": True, "note": f"我的词是{word}"}})
    assert private.status_code == 200, private.text
    public = [e for e in await table.events() if e["type"] == "speech_posted"]
    assert public and all(word not in json.dumps(e, ensure_ascii=False) for e in public)


async def test_a_vote_analysis_may_not_carry_the_voters_word(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0)
    await table.open()
    for seat in range(table.n):
        assert (await table.act(seat, {"type": "speak", "text": "我想想"})).status_code == 200
    word = (await table.snap(1))["you"]["word"]
    refused = await table.act(1, {"type": "vote", "target_seat": 2, "analysis": {"why": [f"{word}!"]}})
    assert_error(refused, 422, "speech_contains_secret_word")
    assert (await table.act(1, {"type": "vote", "target_seat": 2, "analysis": {"why": "直觉"}})).status_code == 200


# 3. Strict JSON only.

@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-9223372036854775809",
                                    "9223372036854775808"])
async def test_numbers_json_cannot_carry_are_refused(client: httpx.AsyncClient, number: str) -> None:
    table = Table(client, 4, first_speaker=0)
    await table.open()
    refused = await raw_action(table, 0, '{"type":"speak","text":"一种东西","analysis":{"score":' + number + "}}")
    assert_error(refused, 400, "bad_request")
    created = await client.post("/api/matches", content='{"game":"undercover","player":{"meta":{"x":' + number +
                                "}}}", headers={**table.h(0), **JSON})
    assert_error(created, 400, "bad_request")
    await every_viewer_reads(table)


async def test_the_widest_integers_json_can_carry_here_are_kept(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, first_speaker=0)
    await table.open()
    accepted = await raw_action(table, 0, '{"type":"speak","text":"一种东西","analysis":{"low":-9223372036854775808,'
                                          '"high":9223372036854775807}}')
    assert accepted.status_code == 200, accepted.text
    await every_viewer_reads(table)


# 4. Login CSRF.

async def test_login_from_a_foreign_page_sets_no_cookie(client: httpx.AsyncClient) -> None:
    created = await client.post("/api/owners", json={"username": "csrf-owner", "password": "longenough1"})
    assert created.status_code == 201, created.text
    client.cookies.clear()
    body = json.dumps({"username": "csrf-owner", "password": "longenough1"})
    for headers, status, code in (
        ({"content-type": "text/plain", "origin": "https://evil.example"}, 400, "bad_request"),
        ({"content-type": "text/plain"}, 400, "bad_request"),
        ({"content-type": "application/json", "origin": "https://evil.example"}, 403, "cross_origin"),
        ({"content-type": "application/x-www-form-urlencoded", "origin": "https://evil.example"}, 403,
         "cross_origin"),
    ):
        response = await client.post("/api/auth/login", content=body, headers=headers)
        assert_error(response, status, code)
        assert "set-cookie" not in response.headers
    signup = await client.post("/api/owners", content=json.dumps({"username": "csrf-two", "password": "longenough1"}),
                               headers={"content-type": "text/plain", "origin": "https://evil.example"})
    assert signup.status_code == 400 and "set-cookie" not in signup.headers
    ok = await client.post("/api/auth/login", content=body, headers={"content-type": "application/json",
                                                                      "origin": "http://testserver"})
    assert ok.status_code == 200 and "set-cookie" in ok.headers
    plain = await client.post("/api/auth/login", json={"username": "csrf-owner", "password": "longenough1"})
    assert plain.status_code == 200  # a program without an Origin header still logs in


# 5. Client addresses.

def test_forwarded_for_is_read_only_behind_a_trusted_proxy() -> None:
    from ipaddress import ip_network
    proxies = (ip_network("10.0.0.0/8"),)
    assert forwarded_client("127.0.0.1", ["6.6.6.6"], ()) == "127.0.0.1"
    assert forwarded_client("127.0.0.1", ["6.6.6.6"], proxies) == "127.0.0.1"  # the peer is no proxy of ours
    assert forwarded_client("10.0.0.2", ["6.6.6.6"], proxies) == "6.6.6.6"
    # The client may prepend anything; the right-most hop the proxies did not add is the real one.
    assert forwarded_client("10.0.0.2", ["1.1.1.1, 7.7.7.7", "10.0.0.9"], proxies) == "7.7.7.7"
    assert forwarded_client("10.0.0.2", ["not-an-ip"], proxies) == "10.0.0.2"
    assert forwarded_client("10.0.0.2", [], proxies) == "10.0.0.2"


async def _registrations(app: FastAPI, client: httpx.AsyncClient, forwarded: list[str]) -> list[int]:
    settings = app.state.runtime.settings
    settings.rate_limit_enabled = True
    settings.rate_limit_registrations_per_hour = 2
    app.state.runtime.limiter.enabled = True
    statuses = []
    for index, address in enumerate(forwarded):
        response = await client.post("/api/agents", json={"name": f"xff-{index}-{len(forwarded)}"},
                                     headers={"X-Forwarded-For": address})
        statuses.append(response.status_code)
    return statuses


async def test_per_ip_limits_ignore_forwarded_for_from_an_untrusted_peer(app: FastAPI,
                                                                          client: httpx.AsyncClient) -> None:
    statuses = await _registrations(app, client, [f"203.0.113.{i}" for i in range(4)])
    assert statuses == [201, 201, 429, 429]


async def test_per_ip_limits_follow_forwarded_for_behind_a_trusted_proxy(app: FastAPI,
                                                                         client: httpx.AsyncClient) -> None:
    app.state.runtime.settings.trusted_proxies = "127.0.0.1"
    statuses = await _registrations(app, client, [f"203.0.113.{i}" for i in range(3)])
    assert statuses == [201, 201, 201]


# 6. Sizes.

async def test_an_oversize_body_is_refused_before_it_is_parsed(client: httpx.AsyncClient) -> None:
    key = (await register(client, "big-body"))["api_key"]
    huge = json.dumps({"game": "undercover", "player": {"meta": {"blob": "x" * 100_000}}})
    assert_error(await client.post("/api/matches", content=huge, headers={**bearer(key), **JSON}), 413,
                 "payload_too_large")

    async def chunks() -> Any:
        for _ in range(20):
            yield b" " * 10_000  # no Content-Length: counted as it streams

    streamed = await client.post("/api/agents", content=chunks(), headers=JSON)
    assert_error(streamed, 413, "payload_too_large")


async def test_stored_fields_are_bounded(client: httpx.AsyncClient) -> None:
    key = (await register(client, "big-meta"))["api_key"]
    meta = {"blob": "x" * 5000}
    assert_error(await client.post("/api/matches", json={"game": "undercover", "player": {"meta": meta}},
                                   headers=bearer(key)), 400, "bad_request")
    header = json.dumps({"owner_id": "o", "blob": "x" * 5000})
    assert_error(await client.post("/api/matches", json={"game": "undercover"},
                                   headers={**bearer(key), "X-Provider-Agent-Meta": header}), 400, "bad_request")
    fine = await client.post("/api/matches", json={"game": "undercover", "player": {"meta": {"blob": "x" * 1000}}},
                             headers=bearer(key))
    assert fine.status_code == 201, fine.text


async def test_room_lists_read_neither_state_nor_seat_meta(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        statements.append((statement, parameters))

    engine = app.state.runtime.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        for path in ("/api/matches", "/api/matches?status=in_progress", "/", f"/agents/{table.names[0]}"):
            assert (await client.get(path)).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    listings = [(s, p) for s, p in statements if "FROM matches" in s or "FROM seats" in s]
    assert listings
    # A list may ask the database whether a seat is a reference seat (its `persona` and `dice` keys, tested in SQL);
    # it never loads the private `meta` itself, nor looks up any other key of it.
    lookup = re.compile(r"JSON_EXTRACT\(seats\.meta, \?\)|seats\.meta ->> \$\d+::TEXT")
    for statement, parameters in listings:
        assert "matches.state" not in statement and "seats.meta" not in lookup.sub("", statement), statement
        keys = [p for p in parameters if isinstance(p, str) and p.strip('$."') in ("persona", "dice")]
        assert len(keys) >= len(lookup.findall(statement)), (statement, parameters)


# 7. NUL and column limits: the same 4xx on both databases.

async def test_nul_anywhere_in_the_request_target_or_body_is_a_400(client: httpx.AsyncClient) -> None:
    key = (await register(client, "nul-user"))["api_key"]
    for path in ("/api/matches/ab%00cd", "/api/matches/ab%00cd/events", "/api/agents/bad%00name",
                 "/api/agents/claim/tok%00en", "/api/matches?agent=x%00y", "/match/ab%00cd"):
        assert_error(await client.get(path, headers=bearer(key)), 400, "bad_request")
    assert_error(await client.post("/api/matches/ab%00cd/join", json={}, headers=bearer(key)), 400, "bad_request")
    for body in ({"name": "nul\x00name"}, {"name": "nul-bio", "bio": "a\x00b"}, {"name": "nul-dn",
                                                                                 "display_name": "a\x00"}):
        assert_error(await client.post("/api/agents", json=body), 400, "bad_request")
    form = await client.post("/api/auth/login", content=b"username=a%00b&password=x",
                             headers={"content-type": "application/x-www-form-urlencoded",
                                      "origin": "http://testserver"})
    assert_error(form, 400, "bad_request")


async def test_provider_id_is_bounded_by_its_column(client: httpx.AsyncClient) -> None:
    key = (await register(client, "long-provider"))["api_key"]
    for provider in ("p" * 65, "tab\there"):
        response = await client.post("/api/matches", json={"game": "undercover"},
                                     headers={**bearer(key), "X-Provider-Id": provider})
        assert_error(response, 400, "bad_request")
    ok = await client.post("/api/matches", json={"game": "undercover"}, headers={**bearer(key),
                                                                                 "X-Provider-Id": "p" * 64})
    assert ok.status_code == 201, ok.text


# 8. Depth.

async def test_deeply_nested_json_is_a_400(client: httpx.AsyncClient) -> None:
    key = (await register(client, "deep-user"))["api_key"]
    deep = "[" * 1000 + "]" * 1000
    assert_error(await client.post("/api/matches", json={"game": "undercover"},
                                   headers={**bearer(key), "X-Provider-Agent-Meta": '{"a":' + deep + "}"}),
                 400, "bad_request")
    assert_error(await client.post("/api/matches", content='{"game":"undercover","player":{"meta":{"a":' + deep +
                                   "}}}", headers={**bearer(key), **JSON}), 400, "bad_request")
    very_deep = "[" * 100_000 + "]" * 100_000  # past the JSON parser's own recursion limit
    assert_error(await client.post("/api/agents", content=very_deep[:60_000], headers=JSON), 400, "bad_request")
    assert_error(await client.post("/api/agents", content="[" * 60_000, headers=JSON), 400, "bad_request")


# 10. Browser protections on every page.

@pytest.mark.parametrize("path", ["/", "/login", "/my", "/claim/nothing", "/docs", "/match/nothing",
                                  "/agents/nobody", "/nowhere"])
async def test_every_html_page_sends_a_csp_and_refuses_framing(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    if response.headers.get("content-type", "").startswith("text/html"):
        policy = response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
        if path != "/docs":
            assert "unsafe-inline" not in policy


async def test_api_answers_are_not_sniffable_either(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/matches")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in response.headers


# 11. The name a seat plays under, everywhere.

async def test_the_hosts_per_match_display_name_is_the_seats_name_everywhere(client: httpx.AsyncClient) -> None:
    key = (await register(client, "named-host", display_name="Agent Name"))["api_key"]
    created = await client.post("/api/matches", json={"game": "undercover", "player": {"display_name": "桌上的名字"}},
                                headers=bearer(key))
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    snap = (await client.get(f"/api/matches/{match_id}")).json()
    assert snap["players"][0]["display_name"] == "桌上的名字"
    listed = (await client.get("/api/matches", params={"status": "waiting"})).json()["matches"]
    assert [m["players"][0]["display_name"] for m in listed if m["match_id"] == match_id] == ["桌上的名字"]
    assert "桌上的名字" in (await client.get("/")).text


# 12. Invisible text.

@pytest.mark.parametrize("text", ["\u200b", "\u200b\u200c\u2060", "\ufeff", "\u202e\u202c", " \u3000 "])
async def test_a_speech_of_invisible_characters_is_empty(client: httpx.AsyncClient, text: str) -> None:
    table = Table(client, 4, first_speaker=0)
    await table.open()
    assert_error(await table.act(0, {"type": "speak", "text": text}), 400, "bad_request")
    assert (await table.snap())["current_speaker_seat"] == 0


@pytest.mark.parametrize("name", ["evil\u202egnp.exe", "zero\u200bwidth", "\u2066isolate\u2069", "\u200b"])
async def test_display_names_refuse_bidi_and_zero_width_characters(client: httpx.AsyncClient, name: str) -> None:
    assert_error(await client.post("/api/agents", json={"name": "bidi-agent", "display_name": name}), 400,
                 "bad_request")
    key = (await register(client, f"bidi-{len(name)}-{ord(name[-1])}"))["api_key"]
    assert_error(await client.post("/api/matches", json={"game": "undercover", "player": {"display_name": name}},
                                   headers=bearer(key)), 400, "bad_request")
    assert_error(await client.post("/api/owners", json={"username": "bidi-owner", "password": "longenough1",
                                                         "nickname": name}), 400, "bad_request")


# 9. Shutdown answers long-polls; deadlines are spread.

def test_longpoll_budgets_are_spread_below_the_wait() -> None:
    from app.services.match.match_reads import JITTER, longpoll_budget

    assert longpoll_budget(30, 30, lambda: 0.0) == 30
    assert longpoll_budget(30, 30, lambda: 1.0) == pytest.approx(30 * (1 - JITTER))
    assert longpoll_budget(60, 30, lambda: 0.0) == 30  # capped first
    assert longpoll_budget(-1, 30) == 0
    budgets = {longpoll_budget(30, 30) for _ in range(50)}
    assert len(budgets) > 40 and all(30 * (1 - JITTER) <= b <= 30 for b in budgets)


async def test_draining_answers_every_waiting_longpoll_at_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    import asyncio

    table = Table(client, 4)
    await table.open(fill=False)
    url = f"/api/matches/{table.match_id}"
    waiting = [asyncio.create_task(client.get(url, params={"wait": 30, "wait_for": "match_finished"})),
               asyncio.create_task(client.get(f"{url}/events", params={"since": 99, "wait": 30}))]
    for _ in range(100):  # until both sleep on the notifier
        await asyncio.sleep(0.01)
        if sum(len(w) for w in app.state.runtime.notifier._waiters.values()) == 2:
            break
    assert not any(task.done() for task in waiting)
    app.state.runtime.drain()
    answers = await asyncio.wait_for(asyncio.gather(*waiting), timeout=5)
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json()["status"] == "waiting" and answers[1].json()["events"] == []
    late = await client.get(url, params={"wait": 30, "wait_for": "match_finished"})  # a new one does not wait
    assert late.status_code == 200
