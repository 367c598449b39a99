"""The three requests an agent sends most — its snapshot (a long-poll), its events and its action — answered beneath
FastAPI's router and dependency solving, which cost more CPU than the answer itself (a snapshot from the cache is
a dictionary lookup; matching a path against every route and resolving five dependencies is not).

The routes stay declared in `app.api.matches`: they make `openapi.json` and answer every request this path leaves
alone. This middleware takes a request only when it is plainly well-formed — the path is the route's and no earlier
route claims it, each parameter and header appears at most once, a number is a plain decimal, an action's body is
a JSON object sent as `application/json` — and then calls what the route calls, in the order FastAPI resolves it
(the key, the proxy's headers, the owner's cookie), renders refusals with the app's own handlers and names the
route in the scope for `/metrics` and the request log. Anything else goes on to FastAPI unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from pydantic import TypeAdapter
from starlette.requests import Request, cookie_parser
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api import matches
from app.api.deps import client_ip, get_provider, playing_agent
from app.api.edge import JSON_BODY
from app.api.errors import refusal
from app.api.match_schemas import ActionAccepted
from app.games.base import GameError
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity.sessions import COOKIE

PREFIX = "/api/matches"
_PATH = re.compile(r"/api/matches/([^/]+)(/events|/action)?")
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?")
_COUNT = re.compile(r"[0-9]{1,18}")
# The headers a hot route reads (lower-case, as ASGI gives them); a repeated one goes to FastAPI.
_HEADERS = {b"authorization": "authorization", b"x-play-token": "play_token", b"cookie": "cookie",
            b"x-provider-id": "provider_id", b"x-provider-agent-meta": "agent_meta", b"content-type": "content_type"}
_ACCEPTED = TypeAdapter(ActionAccepted)  # FastAPI's own rendering of the route's response model
JSON = "application/json"

Handler = Callable[[Runtime, str, dict[str, str], dict[str, str], Scope], Awaitable[Response | None]]


def _leaves(routes: Iterable[BaseRoute]) -> list[BaseRoute]:
    """The app's routes in the order the router tries them (included routers flattened)."""
    flat: list[BaseRoute] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        flat += _leaves(inner.routes) if inner is not None else [route]
    return flat


class _Table:
    """Each hot route, and the routes tried before it that could claim one of its paths."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        self.route: dict[tuple[str, str], BaseRoute] = {}
        self.earlier: dict[tuple[str, str], list[Any]] = {}
        before: list[Any] = []
        for route in _leaves(routes):
            path, methods = getattr(route, "path", ""), getattr(route, "methods", None) or set()
            for key in ((method, path) for method in methods):
                if key in _ROUTES and key not in self.route and getattr(route, "endpoint", None) is _ROUTES[key][2]:
                    probe = path.replace("{match_id}", "x")
                    self.route[key] = route
                    self.earlier[key] = [r for r in before if getattr(r, "path", "").startswith(PREFIX + "/")
                                         or (getattr(r, "path_regex", None) and r.path_regex.match(probe))]
            before.append(route)

    def claimed(self, key: tuple[str, str], scope: Scope) -> BaseRoute | None:
        """The hot route for `key`, or None when an earlier route matches this path and method."""
        route = self.route.get(key)
        if route is None:
            return None
        method, path = scope["method"], scope["path"]
        for other in self.earlier[key]:
            regex = getattr(other, "path_regex", None)
            if regex is not None and regex.match(path) and method in (getattr(other, "methods", None) or {method}):
                return None
        return route


def _once(pairs: Iterable[tuple[str, str]], wanted: set[str]) -> dict[str, str] | None:
    found: dict[str, str] = {}
    for name, value in pairs:
        if name in wanted:
            if name in found:
                return None
            found[name] = value
    return found


def _headers(scope: Scope) -> dict[str, str] | None:
    found: dict[str, str] = {}
    for key, value in scope["headers"]:
        name = _HEADERS.get(key)
        if name is not None:
            if name in found:
                return None
            found[name] = value.decode("latin-1")
    return found


def _owner_id(runtime: Runtime, headers: dict[str, str]) -> str | None:
    """The logged-in owner of the session cookie (`deps.get_owner_id`), or None."""
    cookie = headers.get("cookie")
    return runtime.sessions.owner_id(cookie_parser(cookie).get(COOKIE) if cookie else None)


async def _caller(runtime: Runtime, headers: dict[str, str]) -> tuple[Any, str | None]:
    return await playing_agent(runtime, headers.get("authorization")), _owner_id(runtime, headers)


def _wait(query: dict[str, str]) -> float | None:
    raw = query.get("wait", "0")
    return float(raw) if _DECIMAL.fullmatch(raw) else None


async def _snapshot(runtime: Runtime, match_id: str, query: dict[str, str], headers: dict[str, str],
                    _scope: Scope) -> Response | None:
    wait, since = _wait(query), query.get("since")
    if wait is None or (since is not None and not _COUNT.fullmatch(since)):
        return None
    agent, owner_id = await _caller(runtime, headers)
    body = await matches.snapshot_answer(runtime, match_id, agent, headers.get("play_token"), owner_id, wait,
                                         query.get("wait_for"), None if since is None else int(since))
    return Response(body, media_type=JSON)


async def _events(runtime: Runtime, match_id: str, query: dict[str, str], headers: dict[str, str],
                  _scope: Scope) -> Response | None:
    wait, since = _wait(query), query.get("since", "0")
    if wait is None or not _COUNT.fullmatch(since):
        return None
    agent, owner_id = await _caller(runtime, headers)
    body = await matches.events_answer(runtime, match_id, agent, headers.get("play_token"), owner_id, int(since),
                                       wait)
    return Response(body, media_type=JSON)


async def _action(runtime: Runtime, match_id: str, _query: dict[str, str], headers: dict[str, str],
                  scope: Scope) -> Response | None:
    body = scope.get(JSON_BODY)  # the edge guard parsed it (strict JSON)
    kind = headers.get("content_type", "").split(";")[0].strip().lower()
    if kind != JSON or not isinstance(body, dict):
        return None
    agent = await playing_agent(runtime, headers.get("authorization"))
    await get_provider(runtime, headers.get("provider_id"), headers.get("agent_meta"))
    answer = await matches.action_answer(runtime, match_id, body, agent, headers.get("play_token"),
                                         _owner_id(runtime, headers), client_ip(Request(scope)))
    return Response(_ACCEPTED.dump_json(_ACCEPTED.validate_python(answer)), media_type=JSON)


# Each hot route: its handler here, the query parameters it reads, and the route's own endpoint (which route it is).
_ROUTES: dict[tuple[str, str], tuple[Handler, set[str], Callable[..., Any]]] = {
    ("GET", PREFIX + "/{match_id}"): (_snapshot, {"wait", "wait_for", "since"}, matches.get_match),
    ("GET", PREFIX + "/{match_id}/events"): (_events, {"since", "wait"}, matches.get_events),
    ("POST", PREFIX + "/{match_id}/action"): (_action, set(), matches.act),
}
_TAILS = {None: "/{match_id}", "/events": "/{match_id}/events", "/action": "/{match_id}/action"}


class HotPaths:
    """ASGI middleware, innermost: see the module's docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._table: _Table | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        key = (scope["method"], PREFIX + _TAILS[found.group(2)]) if found else None
        if found is None or key not in _ROUTES:
            await self.app(scope, receive, send)
            return
        if self._table is None:
            self._table = _Table(scope["app"].router.routes)
        route = self._table.claimed(key, scope)
        handler, names, _endpoint = _ROUTES[key]
        query = _once(parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True), names)
        headers = _headers(scope)
        if route is None or query is None or headers is None:
            await self.app(scope, receive, send)
            return
        runtime: Runtime = scope["app"].state.runtime
        try:
            response = await handler(runtime, found.group(1), query, headers, scope)
        except (ApiError, GameError) as refused:
            response = await refusal(Request(scope, receive), refused)
        if response is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = route  # the request log and /metrics name the route, as when FastAPI routes it
        await response(scope, receive, send)
