"""Identity endpoints (identity.md §4, §15)."""

from __future__ import annotations

import hashlib
import re

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from tests.api.helpers import KEY_RE, assert_error, bearer, register
from tests.conftest import OFFICIAL_KEY


async def test_register_returns_key_once_and_claim_url(client: httpx.AsyncClient) -> None:
    body = await register(client, "  Alice-Bot ", display_name="Alice", bio="hi", homepage="https://a.example")
    assert KEY_RE.match(body["api_key"])
    assert body["name"] == "alice-bot"
    assert body["api_key_prefix"] == body["api_key"][:12]
    assert body["claim_url"].startswith("http://testserver/claim/")
    assert body["profile_url"] == "http://testserver/agents/alice-bot"
    assert (body["wins"], body["losses"], body["total_matches"], body["win_rate"]) == (0, 0, 0, None)
    me = await client.get("/api/agents/me", headers=bearer(body["api_key"]))
    assert me.status_code == 200
    assert "api_key" not in me.json()
    assert me.json()["claim_url"] == body["claim_url"]


async def test_display_name_defaults_to_handle(client: httpx.AsyncClient) -> None:
    body = await register(client, "plain-bot", display_name="   ")
    assert body["display_name"] == "plain-bot"


@pytest.mark.parametrize("name", ["ab", "1abc", "has space", "UPPER!", "x" * 65, "中文名字"])
async def test_bad_handles_are_rejected(client: httpx.AsyncClient, name: str) -> None:
    assert_error(await client.post("/api/agents", json={"name": name}), 400, "invalid_name")


async def test_reserved_bot_prefix_needs_the_operator_key(client: httpx.AsyncClient) -> None:
    assert_error(await client.post("/api/agents", json={"name": "bot_fake@wodi"}), 400, "invalid_name")
    wrong = await client.post("/api/agents", json={"name": "bot_x@wodi"}, headers={"X-Official-Bot-Key": "nope"})
    assert_error(wrong, 403, "invalid_official_bot_key")
    ok = await client.post("/api/agents", json={"name": "bot_steady@wodi"},
                           headers={"X-Official-Bot-Key": OFFICIAL_KEY})
    assert ok.status_code == 201
    assert ok.json()["is_official"] is True and ok.json()["claim_url"] is None
    operator = {"X-Official-Bot-Key": OFFICIAL_KEY}
    again = await client.post("/api/agents", json={"name": "bot_steady@wodi", "display_name": "稳健·二号"},
                              headers=operator)
    assert again.status_code == 201 and again.json()["agent_id"] == ok.json()["agent_id"]
    assert again.json()["display_name"] == "稳健·二号", "re-registering takes the operator's current cast"
    assert_error(await client.get("/api/agents/me", headers=bearer(ok.json()["api_key"])), 401, "invalid_api_key")
    assert (await client.get("/api/agents/me", headers=bearer(again.json()["api_key"]))).status_code == 200


async def test_name_taken(client: httpx.AsyncClient) -> None:
    await register(client, "dup-bot")
    body = assert_error(await client.post("/api/agents", json={"name": "DUP-bot"}), 409, "name_taken")
    assert body["detail"]["name"] == "dup-bot"


async def test_profile_fields_validated(client: httpx.AsyncClient) -> None:
    assert_error(await client.post("/api/agents", json={"name": "bio-bot", "bio": "x" * 281}), 400, "bio_too_long")
    bad_home = await client.post("/api/agents", json={"name": "home-bot", "homepage": "ftp://x"})
    assert_error(bad_home, 400, "invalid_homepage")


async def test_schema_errors_are_bad_request(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/api/agents", json={"nom": "x"}), 400, "bad_request")
    assert body["detail"]["errors"][0]["loc"] == ["body", "name"]
    broken = await client.post("/api/agents", content=b"{not json", headers={"Content-Type": "application/json"})
    assert_error(broken, 400, "bad_request")


async def test_keys_are_stored_only_as_digests(client: httpx.AsyncClient, app: FastAPI) -> None:
    body = await register(client, "secret-bot")
    key = body["api_key"]
    async with app.state.runtime.db.reader() as session:
        rows = (await session.execute(text("SELECT * FROM agents"))).mappings().all()
    dumped = repr([dict(r) for r in rows])
    assert key not in dumped and key[12:] not in dumped
    assert rows[0]["api_key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert rows[0]["api_key_prefix"] == key[:12]


async def test_rotated_key_is_rejected(client: httpx.AsyncClient) -> None:
    old = (await register(client, "rot-bot"))["api_key"]
    rotated = await client.post("/api/agents/me/rotate-key", headers=bearer(old))
    assert rotated.status_code == 200
    new = rotated.json()["api_key"]
    assert KEY_RE.match(new) and new != old and rotated.json()["api_key_prefix"] == new[:12]
    assert_error(await client.get("/api/agents/me", headers=bearer(old)), 401, "invalid_api_key")
    assert (await client.get("/api/agents/me", headers=bearer(new))).status_code == 200


@pytest.mark.parametrize("header", ["Basic abc", "Bearer", "Bearer pk_live_x", "Bearer ck_live_" + "a" * 43])
async def test_bad_authorization_headers(client: httpx.AsyncClient, header: str) -> None:
    assert_error(await client.get("/api/agents/me", headers={"Authorization": header}), 401, "invalid_api_key")


async def test_auth_required(client: httpx.AsyncClient) -> None:
    for method, path in (("GET", "/api/agents/me"), ("POST", "/api/agents/me/rotate-key"),
                         ("GET", "/api/agents/me/active"), ("GET", "/api/auth/check")):
        assert_error(await client.request(method, path), 401, "auth_required")


async def test_auth_check_and_active(client: httpx.AsyncClient) -> None:
    body = await register(client, "check-bot")
    check = await client.get("/api/auth/check", headers=bearer(body["api_key"]))
    assert check.json() == {"ok": True, "agent_id": body["agent_id"], "name": "check-bot",
                            "display_name": "check-bot", "api_key_prefix": body["api_key_prefix"]}
    active = await client.get("/api/agents/me/active", headers=bearer(body["api_key"]))
    assert active.json() == {"active": None}


async def test_public_profile_hides_private_fields(client: httpx.AsyncClient) -> None:
    await register(client, "pub-bot", contact="me@example.com")
    profile = await client.get("/api/agents/PUB-BOT")
    assert profile.status_code == 200
    body = profile.json()
    for hidden in ("api_key", "api_key_prefix", "contact", "claim_url", "owner_id"):
        assert hidden not in body
    assert body["is_official"] is False and body["games_played"] == 0
    assert_error(await client.get("/api/agents/nobody-here"), 404, "agent_not_found")


async def test_provider_headers_stored_not_echoed(client: httpx.AsyncClient, app: FastAPI) -> None:
    meta = '{"agent_id": "u-1", "model": "m", "owner_id": "o-9"}'
    response = await client.post("/api/agents", json={"name": "prox@clawdchat"},
                                 headers={"X-Provider-Id": "clawdchat", "X-Provider-Agent-Meta": meta})
    assert response.status_code == 201
    assert "u-1" not in response.text and "clawdchat\"" not in response.text.replace("prox@clawdchat", "")
    public = await client.get("/api/agents/prox@clawdchat")
    assert "u-1" not in public.text and "o-9" not in public.text
    async with app.state.runtime.db.reader() as session:
        row = (await session.execute(text("SELECT provider_id FROM agents"))).scalar_one()
    assert row == "clawdchat"
    bad = await client.post("/api/agents", json={"name": "prox2"}, headers={"X-Provider-Agent-Meta": "{oops"})
    assert_error(bad, 400, "bad_request")


async def test_leaderboard(client: httpx.AsyncClient) -> None:
    for name in ("lb-one", "lb-two", "lb-three"):
        await register(client, name)
    board = await client.get("/api/agents", params={"limit": 2})
    assert board.status_code == 200
    rows = board.json()
    assert isinstance(rows, list) and len(rows) == 2
    assert [r["name"] for r in rows] == ["lb-one", "lb-two"]
    assert {"win_rate", "is_official", "profile_url"} <= rows[0].keys()
    assert_error(await client.get("/api/agents", params={"limit": 0}), 400, "bad_request")
    assert_error(await client.get("/api/agents", params={"limit": 201}), 400, "bad_request")


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/matches"), ("GET", "/api/agents"),
                                              ("GET", "/api/agents/someone"), ("POST", "/api/agents"),
                                              ("GET", "/api/auth/session"), ("GET", "/api/agents/claim/xyz")])
async def test_an_invalid_bearer_is_refused_everywhere(client: httpx.AsyncClient, method: str, path: str) -> None:
    response = await client.request(method, path, headers=bearer("ck_live_" + "z" * 43),
                                    json={"name": "never-made"} if method == "POST" else None)
    assert_error(response, 401, "invalid_api_key")


async def test_every_api_read_refuses_an_invalid_bearer(app: FastAPI, client: httpx.AsyncClient) -> None:
    """identity.md §15.8: a present but invalid Bearer on any endpoint, reads included → 401 `invalid_api_key`.
    Every `GET` path under `/api` the app documents, with a made-up value in each path parameter."""
    paths = sorted({re.sub(r"\{[^}]+\}", "zz9zz9zz", path) for path, operations in app.openapi()["paths"].items()
                    if path.startswith("/api/") and "get" in operations})
    assert len(paths) > 20
    answered = {path: await client.get(path, headers=bearer("ck_live_" + "z" * 43)) for path in paths}
    wrong = {path: (r.status_code, r.json().get("error") if r.headers.get("content-type", "").startswith(
        "application/json") else r.text[:60]) for path, r in answered.items()
        if (r.status_code, r.headers.get("content-type", "").startswith("application/json") and r.json().get("error"))
        != (401, "invalid_api_key")}
    assert not wrong, wrong


@pytest.mark.parametrize("name", ["steady-bot", "bot_steady", "bot_steady@clawvert"])
async def test_an_official_bot_is_named_bot_persona_at_wodi(client: httpx.AsyncClient, name: str) -> None:
    """identity.md §15.11: official bots are `bot_<persona>@wodi`; the operator's key registers no other handle."""
    refused = await client.post("/api/agents", json={"name": name}, headers={"X-Official-Bot-Key": OFFICIAL_KEY})
    assert_error(refused, 400, "invalid_name")
    assert (await client.get(f"/api/agents/{name}")).status_code == 404


async def test_a_read_with_a_key_bumps_last_seen_at(client: httpx.AsyncClient, app: FastAPI,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """identity.md: a valid key bumps the agent's `last_seen_at` — on a read too (a snapshot, an events page), not only
    on a write; at most once a minute, so a long-poll loop writes once a minute, not once a poll."""
    from datetime import timedelta

    from app.db import types
    from app.services.identity import agents as service
    host = await register(client, "seen-host")
    reader = await register(client, "seen-reader")
    match_id = (await client.post("/api/matches", json={"game": "undercover"},
                                  headers=bearer(host["api_key"]))).json()["match_id"]

    async def seen() -> str:
        async with app.state.runtime.db.reader() as session:
            return str((await session.execute(text("SELECT last_seen_at FROM agents WHERE name = 'seen-reader'"))
                        ).scalar_one())

    registered = await seen()
    later = types.utcnow() + timedelta(minutes=5)
    monkeypatch.setattr(service, "utcnow", lambda: later)
    assert (await client.get(f"/api/matches/{match_id}", headers=bearer(reader["api_key"]))).status_code == 200
    first = await seen()
    assert first != registered and first.startswith(later.strftime("%Y-%m-%d %H:%M")), (registered, first)
    monkeypatch.setattr(service, "utcnow", lambda: later + timedelta(seconds=30))  # within the minute: no write
    assert (await client.get(f"/api/matches/{match_id}/events", headers=bearer(reader["api_key"]))).status_code == 200
    assert await seen() == first
    monkeypatch.setattr(service, "utcnow", lambda: later + timedelta(minutes=2))
    assert (await client.get(f"/api/matches/{match_id}/events", headers=bearer(reader["api_key"]))).status_code == 200
    assert await seen() != first
