"""Owner accounts, sessions, claim, and the owner/spectator viewer layers over HTTP."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from itsdangerous import URLSafeTimedSerializer

from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table

ORIGIN = {"Origin": "http://testserver"}


async def sign_up(client: httpx.AsyncClient, username: str) -> httpx.Response:
    response = await client.post("/api/owners", json={"username": username, "password": "correct horse"})
    assert response.status_code == 201, response.text
    return response


def cookie_of(response: httpx.Response) -> str:
    return response.cookies["wodi_session"]


def jar(value: str) -> dict[str, str]:
    return {"Cookie": f"wodi_session={value}"}


async def test_sign_up_sets_a_safe_cookie(client: httpx.AsyncClient) -> None:
    response = await sign_up(client, "Alice")
    header = response.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "max-age=604800" in header and "path=/" in header
    assert "secure" not in header  # http base URL; https turns it on
    body = response.json()
    assert body["owner"]["username"] == "alice" and body["owner"]["owner_id"].startswith("ow_")
    session = await client.get("/api/auth/session")
    assert session.json()["logged_in"] is True and session.json()["owner"]["nickname"] == "Alice"
    assert_error(await client.post("/api/owners", json={"username": "alice", "password": "another pw"}), 409,
                 "name_taken")
    assert_error(await client.post("/api/owners", json={"username": "bob", "password": "short"}), 400, "bad_request")


async def test_login_logout(client: httpx.AsyncClient) -> None:
    await sign_up(client, "carol")
    client.cookies.clear()
    assert_error(await client.post("/api/auth/login", json={"username": "carol", "password": "wrong pw!"}), 401,
                 "login_required")
    assert_error(await client.post("/api/auth/login", json={"username": "nobody", "password": "wrong pw!"}), 401,
                 "login_required")
    ok = await client.post("/api/auth/login", json={"username": "CAROL", "password": "correct horse"})
    assert ok.status_code == 200 and ok.json()["ok"] is True and "wodi_session" in ok.cookies
    assert_error(await client.post("/api/auth/logout", headers={"Origin": "https://evil.example"}), 403,
                 "cross_origin")
    # DNS rebinding: a foreign name pointed at this server sends it as the Host and as the Origin; only a loopback
    # Host is trusted beside the public base URL
    rebound = {"Host": "evil.example", "Origin": "http://evil.example"}
    assert_error(await client.post("/api/auth/logout", headers=rebound), 403, "cross_origin")
    out = await client.post("/api/auth/logout", headers=ORIGIN)
    assert out.json() == {"ok": True}
    assert (await client.get("/api/auth/session")).json() == {"logged_in": False, "owner": None}


async def test_form_login_redirects_to_a_safe_path(client: httpx.AsyncClient) -> None:
    await sign_up(client, "dora")
    client.cookies.clear()
    form = {"username": "dora", "password": "correct horse", "redirect": "//evil.example/x"}
    forged = await client.post("/api/auth/login", data=form, headers={"Origin": "https://evil.example"})
    assert_error(forged, 403, "cross_origin")
    assert "wodi_session" not in forged.cookies, "login CSRF: a foreign page cannot log this browser in"
    response = await client.post("/api/auth/login", data=form, headers=ORIGIN)
    assert response.status_code == 303 and response.headers["location"] == "/my"


@pytest.mark.parametrize("forge", ["garbage", "expired", "other-secret"])
async def test_forged_or_expired_cookie_is_not_logged_in(client: httpx.AsyncClient, forge: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    owner_id = (await sign_up(client, f"eve-{forge}")).json()["owner"]["owner_id"]
    client.cookies.clear()
    if forge == "garbage":
        value = "eyJvd25lcl9pZCI6Im93XzEifQ.bad.sig"
    else:
        secret = "test-secret-key" if forge == "expired" else "someone-elses-secret"
        serializer = URLSafeTimedSerializer(secret, salt="wodi-session-v1")
        if forge == "expired":
            real = time.time
            monkeypatch.setattr(time, "time", lambda: real() - 8 * 86400)
        value = serializer.dumps({"owner_id": owner_id})
        monkeypatch.undo()
    client.cookies.set("wodi_session", value)
    assert (await client.get("/api/auth/session")).json()["logged_in"] is False
    assert_error(await client.get("/api/my/agents"), 401, "login_required")


async def _claimed_agent(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    agent = await register(client, name)
    token = agent["claim_url"].rsplit("/", 1)[1]
    response = await client.post(f"/api/agents/claim/{token}", headers=ORIGIN)
    assert response.status_code == 200, response.text
    return agent


@pytest.mark.parametrize("url", ["https://evil.example\\@clawdchat.cn/", "https://user@clawdchat.cn/",
                                 "https://clawdchat.cn/ x", "javascript://clawdchat.cn/%0aalert(1)",
                                 "https://clawdchat.cn.evil.example/"])
async def test_return_to_tricks_are_refused(client: httpx.AsyncClient, url: str) -> None:
    agent = await register(client, f"trick-{abs(hash(url)) % 10000}")
    token = agent["claim_url"].rsplit("/", 1)[1]
    info = await client.get(f"/api/agents/claim/{token}", params={"return_to": url})
    assert info.json()["return_to"] is None


async def test_password_guessing_is_rate_limited(app: Any, client: httpx.AsyncClient) -> None:
    app.state.runtime.limiter.enabled = True
    try:
        for _ in range(20):
            await client.post("/api/auth/login", json={"username": "nobody", "password": "wrong pw!"})
        limited = await client.post("/api/auth/login", json={"username": "nobody", "password": "wrong pw!"})
        body = assert_error(limited, 429, "rate_limited")
        assert int(limited.headers["Retry-After"]) >= 1 and body["detail"]["bucket"] == "login"
    finally:
        app.state.runtime.limiter.enabled = False


async def test_claim_api(client: httpx.AsyncClient) -> None:
    agent = await register(client, "claimable-bot")
    token = agent["claim_url"].rsplit("/", 1)[1]
    info = await client.get(f"/api/agents/claim/{token}", params={"return_to": "https://clawdchat.cn/a"})
    assert info.json()["agent"]["name"] == "claimable-bot" and info.json()["return_to"] == "https://clawdchat.cn/a"
    evil = await client.get(f"/api/agents/claim/{token}", params={"return_to": "https://evil.example/"})
    assert evil.json()["return_to"] is None
    assert_error(await client.post(f"/api/agents/claim/{token}", headers=ORIGIN), 401, "login_required")
    await sign_up(client, "frank")
    assert_error(await client.post(f"/api/agents/claim/{token}", headers={"Origin": "https://evil.example"}), 403,
                 "cross_origin")
    assert_error(await client.post(f"/api/agents/claim/{token}"), 403, "cross_origin")
    claimed = await client.post(f"/api/agents/claim/{token}", headers=ORIGIN,
                                params={"return_to": "https://evil.example/"})
    assert claimed.status_code == 200
    assert claimed.json()["agent"]["claimed"] is True and claimed.json()["return_to"] is None
    assert claimed.json()["my_url"] == "http://testserver/my"
    assert_error(await client.post(f"/api/agents/claim/{token}", headers=ORIGIN), 404, "claim_token_invalid")
    assert_error(await client.get(f"/api/agents/claim/{token}"), 404, "claim_token_invalid")
    me = await client.get("/api/agents/me", headers=bearer(agent["api_key"]))
    assert me.json()["claim_url"] is None
    mine = (await client.get("/api/my/agents")).json()
    assert [a["name"] for a in mine["agents"]] == ["claimable-bot"] and mine["owner"]["username"] == "frank"


async def test_same_owner_cannot_take_two_seats_via_claim(client: httpx.AsyncClient) -> None:
    await sign_up(client, "grace")
    first = await _claimed_agent(client, "grace-one")
    second = await _claimed_agent(client, "grace-two")
    client.cookies.clear()
    created = await client.post("/api/matches", json={"config": {"n_players": 4, "n_undercover": 1}},
                                headers=bearer(first["api_key"]))
    match_id = created.json()["match_id"]
    clash = await client.post(f"/api/matches/{match_id}/join", json={}, headers=bearer(second["api_key"]))
    assert_error(clash, 409, "same_owner_already_in_match")


async def test_owner_cannot_act_and_sees_exactly_the_agent_view(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.register()
    owner = await sign_up(client, "heidi")
    agent_key = table.keys[1]
    me = (await client.get("/api/agents/me", headers=bearer(agent_key))).json()
    await client.post(f"/api/agents/claim/{me['claim_url'].rsplit('/', 1)[1]}", headers=ORIGIN)
    session_cookie = cookie_of(owner)
    client.cookies.clear()
    created = await client.post("/api/matches", json={"config": table.config}, headers=table.h(0))
    table.match_id = created.json()["match_id"]
    for seat in range(1, 4):
        await table.join(seat)
    before = await table.snap(None)
    for path, body in (("action", {"type": "skip"}), ("concede", None)):
        response = await client.post(f"/api/matches/{table.match_id}/{path}", json=body,
                                     headers={**ORIGIN, **jar(session_cookie)})
        assert_error(response, 403, "owner_cannot_act")
    assert (await table.snap(None))["events_total"] == before["events_total"]
    as_owner = (await client.get(f"/api/matches/{table.match_id}", headers=jar(session_cookie))).json()
    as_agent = (await client.get(f"/api/matches/{table.match_id}", headers=table.h(1))).json()
    assert as_owner["viewer_role"] == "player_owner" and as_agent["viewer_role"] == "player_agent"
    assert as_owner["viewer_capabilities"]["can_act"] is False and as_agent["viewer_capabilities"]["can_act"] is True
    for body in (as_owner, as_agent):
        body.pop("viewer_role")
        body["viewer_capabilities"].pop("can_act")
    assert as_owner == as_agent
    events_owner = await client.get(f"/api/matches/{table.match_id}/events", headers=jar(session_cookie))
    events_agent = await client.get(f"/api/matches/{table.match_id}/events", headers=table.h(1))
    assert events_owner.json()["events"] == events_agent.json()["events"]


async def test_spectator_god_view_and_no_writes(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    watcher = cookie_of(await sign_up(client, "ivan"))
    client.cookies.clear()
    snap = (await client.get(f"/api/matches/{table.match_id}", headers=jar(watcher))).json()
    assert snap["viewer_role"] == "spectator" and snap["viewer_capabilities"]["can_see_alive_roles"] is True
    assert set(snap["wordpair"]) == {"civilian", "undercover"} and "you" not in snap
    assert all(p["role"] in {"civilian", "undercover"} for p in snap["players"])
    assert {e["visibility"] for e in snap["spectator_log"]} >= {"god_only", "private:seat:0"}
    for path, body in (("action", {"type": "skip"}), ("concede", None)):
        response = await client.post(f"/api/matches/{table.match_id}/{path}", json=body,
                                     headers={**ORIGIN, **jar(watcher)})
        assert_error(response, 401, "auth_required")
    mine = (await client.get("/api/my/matches", headers=jar(watcher))).json()
    assert mine == {"matches": []}


async def test_the_hosts_owner_cannot_abort_or_fill_with_the_cookie(client: httpx.AsyncClient) -> None:
    """§3.2 (SOCIAL): an owner's session never authorises a write — the host's abort and fill included: 403
    `owner_cannot_act`, the room untouched (they answered 401 `auth_required`, as if no one had asked)."""
    owner = await sign_up(client, "ivan")
    host = await _claimed_agent(client, "ivan-host")
    session_cookie = cookie_of(owner)
    client.cookies.clear()
    created = await client.post("/api/matches", json={"config": {"n_players": 4, "n_undercover": 1}},
                                headers=bearer(host["api_key"]))
    match_id = created.json()["match_id"]
    for path in ("abort", "fill"):
        response = await client.post(f"/api/matches/{match_id}/{path}", json={},
                                     headers={**ORIGIN, **jar(session_cookie)})
        assert_error(response, 403, "owner_cannot_act")
    snap = (await client.get(f"/api/matches/{match_id}")).json()
    assert snap["status"] == "waiting" and snap["events_total"] == 2
    stranger = await client.post(f"/api/matches/{match_id}/abort", json={}, headers=ORIGIN)
    assert_error(stranger, 401, "auth_required")


async def test_the_account_pages_keep_the_language(client: httpx.AsyncClient) -> None:
    """An English reader stays in English through /my → /login → sign-up → /my, errors included; Chinese too."""
    away = await client.get("/my?lang=en")
    assert away.status_code == 303
    assert away.headers["location"] == "/login?redirect=%2Fmy%3Flang%3Den&lang=en"
    login = await client.get(away.headers["location"])
    assert 'lang="en"' in login.text and 'action="/login?lang=en"' in login.text and "Log in" in login.text
    # The language switch keeps where the login goes back to.
    assert 'href="/login?redirect=%2Fmy%3Flang%3Den" id="lang-switch"' in login.text
    wrong = await client.post("/login?lang=en", headers=ORIGIN,
                              data={"username": "nobody-here", "password": "wrong horse", "redirect": "/my?lang=en"})
    assert wrong.status_code == 401 and "Wrong username or password." in wrong.text
    wrong_zh = await client.post("/login", headers=ORIGIN,
                                 data={"username": "nobody-here", "password": "wrong horse", "redirect": "/my"})
    assert "用户名或密码不对。" in wrong_zh.text
    made = await client.post("/signup?lang=en", headers=ORIGIN,
                             data={"username": "erin", "password": "correct horse", "redirect": "/my?lang=en"})
    assert made.status_code == 303 and made.headers["location"] == "/my?lang=en"
    mine = await client.get(made.headers["location"])
    assert mine.status_code == 200 and "My page" in mine.text and 'action="/logout?lang=en"' in mine.text
    out = await client.post("/logout?lang=en", headers=ORIGIN)
    assert out.headers["location"] == "/?lang=en"


async def test_an_english_claim_page_sends_its_reader_back_in_english(client: httpx.AsyncClient) -> None:
    agent = await register(client, "claim-en")
    token = agent["claim_url"].rsplit("/", 1)[1]
    page = await client.get(f"/claim/{token}?lang=en")
    assert page.status_code == 200 and 'lang="en"' in page.text
    assert f'href="/login?redirect=/claim/{token}%3Flang%3Den&amp;lang=en"' in page.text


async def test_an_owner_rotates_its_agents_key_and_nobody_else_can(client: httpx.AsyncClient) -> None:
    """`POST /api/my/agents/{name}/rotate-key`: the owner's session gets the agent a new key (the old one refused at
    once); another owner, no session, or a foreign page cannot; the owner's own player record has no key."""
    agent = (await client.post("/api/agents", json={"name": "owned-agent"})).json()
    await sign_up(client, "key-owner")
    claimed = await client.post(f"/api/agents/claim/{agent['claim_url'].rsplit('/', 1)[1]}", headers=ORIGIN)
    assert claimed.status_code == 200, claimed.text
    mine = client.cookies.get("wodi_session")
    url = "/api/my/agents/owned-agent/rotate-key"
    assert_error(await client.post(url, headers={"Origin": "https://evil.example"}), 403, "cross_origin")
    rotated = await client.post(url, headers=ORIGIN)
    assert rotated.status_code == 200, rotated.text
    body = rotated.json()
    assert body["name"] == "owned-agent" and body["api_key"].startswith(body["api_key_prefix"])
    assert_error(await client.get("/api/agents/me", headers=bearer(agent["api_key"])), 401, "invalid_api_key")
    assert (await client.get("/api/agents/me", headers=bearer(body["api_key"]))).status_code == 200
    assert_error(await client.post("/api/my/agents/nobody-here/rotate-key", headers=ORIGIN), 404, "agent_not_found")
    played = await client.post("/api/play", json={"game": "undercover"}, headers=ORIGIN)  # makes human_key-owner
    assert played.status_code == 201, played.text
    assert_error(await client.post("/api/my/agents/human_key-owner/rotate-key", headers=ORIGIN), 404,
                 "agent_not_found")
    client.cookies.clear()
    assert_error(await client.post(url, headers=ORIGIN), 401, "login_required")
    await sign_up(client, "other-owner")
    assert_error(await client.post(url, headers=ORIGIN), 404, "agent_not_found")  # not theirs
    assert (await client.get("/api/agents/me", headers=bearer(body["api_key"]))).status_code == 200
    assert mine
