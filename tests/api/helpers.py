"""Small helpers the API tests share."""

from __future__ import annotations

import re
from typing import Any

import httpx

KEY_RE = re.compile(r"^ck_live_[A-Za-z0-9_-]{43}$")


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The response is `status` with the one envelope carrying `code`."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert body["detail"]["error"] == code and body["detail"]["message"] == body["message"]
    return body


async def register(client: httpx.AsyncClient, name: str, **extra: Any) -> dict[str, Any]:
    response = await client.post("/api/agents", json={"name": name, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def client_at(app: Any, ip: str) -> httpx.AsyncClient:
    """A client of `app` calling from `ip` (a person on another device: per-client limits count it apart)."""
    from tests.conftest import RecordingClient

    return RecordingClient(transport=httpx.ASGITransport(app=app, client=(ip, 50000)), base_url="http://testserver")
