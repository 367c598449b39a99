"""The MCP server's HTTP client of the REST API: one agent, one API key, errors as `ApiFailure`."""

from __future__ import annotations

import re
from typing import Any

import httpx

WAIT_CAP = 30.0  # the server answers a long-poll within 30 s
MATCH_ID = re.compile(r"[a-z0-9]{8}")  # identity.md §15: 8 lowercase letters and digits


class ApiFailure(Exception):
    """A non-2xx answer: the protocol's error code, message and detail."""

    def __init__(self, status: int, code: str, message: str, detail: dict[str, Any]) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code, self.message, self.detail = status, code, message, detail


def match_path(match_id: str, tail: str = "") -> str:
    """`/api/matches/{id}{tail}` for a well-formed id only: the id comes from the model, which reads other players'
    text — a crafted one (`../agents/me/rotate-key?`) must never steer the agent's key to another endpoint."""
    if not isinstance(match_id, str) or not MATCH_ID.fullmatch(match_id):
        raise ApiFailure(400, "bad_request", f"{str(match_id)[:40]!r} is not a match id (8 lowercase letters and "
                         "digits, as find_or_create_match returns)", {"field": "match_id"})
    return f"/api/matches/{match_id}{tail}"


class WodiApi:
    def __init__(self, base_url: str, api_key: str | None = None, http: httpx.AsyncClient | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self._http = http or httpx.AsyncClient(base_url=self.base_url, timeout=WAIT_CAP + 15,
                                               headers={"user-agent": "wodi-mcp/1"})

    async def aclose(self) -> None:
        await self._http.aclose()

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    async def call(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None) -> Any:
        response = await self._http.request(method, path, json=json, params=params, headers=self._headers())
        try:
            body = response.json()
        except ValueError:
            body = None
        if response.status_code >= 400:
            envelope = body if isinstance(body, dict) else {}
            detail = envelope.get("detail") if isinstance(envelope.get("detail"), dict) else {}
            raise ApiFailure(response.status_code, str(envelope.get("error") or "http_error"),
                             str(envelope.get("message") or response.text[:200]), dict(detail or {}))
        return body

    async def register(self, name: str, display_name: str | None) -> dict[str, Any]:
        body = {"name": name, **({"display_name": display_name} if display_name else {})}
        created: dict[str, Any] = await self.call("POST", "/api/agents", json=body)
        self.api_key = created["api_key"]
        return created

    async def me(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("GET", "/api/agents/me")
        return result

    async def active(self) -> dict[str, Any] | None:
        result: dict[str, Any] | None = (await self.call("GET", "/api/agents/me/active"))["active"]
        return result

    async def waiting_rooms(self, game: str) -> list[dict[str, Any]]:
        listed = await self.call("GET", "/api/matches", params={"status": "waiting", "game": game, "sort": "oldest"})
        return [m for m in listed["matches"] if m["seats_open"] > 0]

    async def create(self, game: str, config: dict[str, Any] | None) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", "/api/matches", json={"game": game, "config": config or {}})
        return result

    async def join(self, match_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", match_path(match_id, "/join"), json={})
        return result

    async def snapshot(self, match_id: str, wait: float = 0, wait_for: str | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {"wait": min(wait, WAIT_CAP)} if wait > 0 else {}
        if wait_for:
            params["wait_for"] = wait_for
        result: dict[str, Any] = await self.call("GET", match_path(match_id), params=params)
        return result

    async def events(self, match_id: str, since: int) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("GET", match_path(match_id, "/events"), params={"since": since})
        return result

    async def act(self, match_id: str, action: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", match_path(match_id, "/action"), json=action)
        return result

    async def concede(self, match_id: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("POST", match_path(match_id, "/concede"))
        return result
