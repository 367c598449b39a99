"""Liveness, readiness, and the one error envelope for every failure."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.api.helpers import assert_error
from tests.conftest import SEEN_ERRORS, check_envelope, make_settings


async def test_health(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json()["status"] == "ok"
    ready = await client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["detail"]["database"] in {"sqlite", "postgresql"}


async def test_readyz_reports_unreachable_database() -> None:
    app = create_app(make_settings("postgresql+asyncpg://nobody@127.0.0.1:1/none"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as http:
        assert_error(await http.get("/readyz"), 503, "service_unavailable")


async def test_unknown_route_and_method(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/nothing-here"), 404, "not_found")
    assert_error(await client.delete("/api/agents"), 405, "method_not_allowed")


async def test_crash_is_internal_error_with_request_id(app: FastAPI) -> None:
    async def boom() -> None:
        raise RuntimeError("secret stack detail")

    app.add_api_route("/boom", boom)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        response = await http.get("/boom")
    body = assert_error(response, 500, "internal_error")
    assert body["detail"]["request_id"] in body["message"]
    assert "secret stack detail" not in response.text and "Traceback" not in response.text


async def test_the_recording_client_checks_every_error(client: httpx.AsyncClient) -> None:
    # Every test's `client` checks each error response as it arrives (tests/conftest.py RecordingClient).
    before = len(SEEN_ERRORS)
    await client.get("/api/agents/me")
    assert len(SEEN_ERRORS) == before + 1 and SEEN_ERRORS[-1][0] == 401
    with pytest.raises(AssertionError):
        check_envelope(400, {"detail": {"error": "x", "message": "y"}})


async def test_api_answers_are_never_cached_by_proxies(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/matches")
    assert response.headers["cache-control"] == "no-store"
    assert {v.strip() for v in response.headers["vary"].split(",")} >= {"Authorization", "Cookie", "X-Play-Token"}
    assert response.headers["x-request-id"]


async def test_a_body_without_json_content_type_says_so(client: httpx.AsyncClient) -> None:
    for headers in ({}, {"Content-Type": "text/plain"}):
        refused = await client.post("/api/agents", content=b'{"name": "plain-text"}', headers=headers)
        body = assert_error(refused, 400, "bad_request")
        assert "Content-Type: application/json" in body["message"] and body["detail"]["field"] == "body", body


async def test_a_bad_field_is_named_as_the_client_sent_it(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/api/agents", json={"name": 7}), 400, "bad_request")
    assert body["detail"]["field"] == "name", body
    body = assert_error(await client.get("/api/agents", params={"limit": "many"}), 400, "bad_request")
    assert body["detail"]["field"] == "limit", body
