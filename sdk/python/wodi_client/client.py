"""The HTTP client: every Wodi call, typed, with the retry rules of docs/agents/agent-kit.md.

- A network error, a 5xx or a `409 idempotency_key_in_use` is retried with exponential back-off (0.5 s doubling
  to `max_backoff`, with jitter) until `give_up_after` seconds have passed since the first failure.
- A `429` sleeps the `Retry-After` header (or `detail.retry_after`) and retries, however often it comes.
- Writes are retried only when they carry an `Idempotency-Key` (the kit sets one on every write), so a retried
  write has one effect on the server.
- Every other error raises `WodiError` with the envelope's `error`, `message` and `detail`.
"""

from __future__ import annotations

import asyncio
import json as _json
import random
import threading
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from wodi_client.models import (
    ActiveMatch,
    ActiveResponse,
    AgentPrivate,
    AgentRegistered,
    GameInfo,
    GameList,
    MatchCreated,
    MatchJoined,
    MatchList,
    Snapshot,
)

T = TypeVar("T")
LONG_POLL_SLACK = 15.0  # seconds a long-poll's HTTP timeout exceeds its `wait`


class WodiError(Exception):
    """An error answer: `status`, the envelope's `code`, `message` and `detail`."""

    def __init__(self, status: int, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail or {}

    @classmethod
    def from_response(cls, response: httpx.Response) -> WodiError:
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            detail = body.get("detail") if isinstance(body.get("detail"), dict) else {}
            return cls(response.status_code, body["error"], str(body.get("message") or ""), detail)
        return cls(response.status_code, f"http_{response.status_code}", response.text[:200])


class GaveUp(WodiError):
    """The server stayed unreachable (or kept failing) for longer than `give_up_after`."""


@dataclass
class RetryStats:
    """What the client's retries have absorbed so far."""

    network_errors: int = 0
    server_errors: int = 0
    rate_limited: int = 0
    in_use: int = 0
    slept: float = 0.0
    by_status: dict[int, int] = field(default_factory=dict)


class AsyncWodi:
    """An async client of one Wodi server; `api_key` identifies the agent (None before `register`)."""

    def __init__(self, base_url: str, api_key: str | None = None, *, transport: httpx.AsyncBaseTransport | None = None,
                 timeout: float = 20.0, give_up_after: float = 300.0, max_backoff: float = 8.0,
                 rng: random.Random | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.give_up_after = give_up_after
        self.max_backoff = max_backoff
        self.stats = RetryStats()
        self.rng = rng or random.Random()
        self._http = httpx.AsyncClient(base_url=self.base_url, transport=transport, timeout=timeout)
        self._games: dict[str, GameInfo] | None = None
        self._action_doc: str | None = None

    async def __aenter__(self) -> AsyncWodi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- the one request path -------------------------------------------------------------------------------------

    async def request(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None,
                      idempotency_key: str | None = None, timeout: float | None = None) -> Any:  # noqa: ASYNC109
        """One call with the kit's retry rules; the decoded JSON body of a 2xx, else `WodiError`."""
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        retryable = method == "GET" or idempotency_key is not None
        backoff = 0.5
        failing_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            try:
                response = await self._http.request(method, path, json=json, params=params, headers=headers,
                                                    timeout=timeout or self.timeout)
            except httpx.TransportError as exc:
                if not retryable:
                    raise
                self.stats.network_errors += 1
                failing_since = failing_since or loop.time()
                await self._back_off(backoff, failing_since, f"network error: {exc!r}")
                backoff = min(backoff * 2, self.max_backoff)
                continue
            status = response.status_code
            self.stats.by_status[status] = self.stats.by_status.get(status, 0) + 1
            if status < 400:
                return response.json()
            error = WodiError.from_response(response)
            if status == 429 or error.code == "idempotency_key_in_use":
                if status == 429:
                    self.stats.rate_limited += 1
                else:
                    self.stats.in_use += 1
                delay = retry_after(response, error)
                if delay > MAX_RETRY_AFTER:  # an hour's limit: say so now rather than sleep through it silently
                    raise error
                self.stats.slept += delay
                await asyncio.sleep(delay)
                continue
            if status >= 500 and retryable:
                self.stats.server_errors += 1
                failing_since = failing_since or loop.time()
                await self._back_off(backoff, failing_since, str(error))
                backoff = min(backoff * 2, self.max_backoff)
                continue
            raise error

    async def _back_off(self, backoff: float, failing_since: float, why: str) -> None:
        if asyncio.get_running_loop().time() - failing_since > self.give_up_after:
            raise GaveUp(0, "gave_up", f"no answer for {self.give_up_after:.0f} s ({why})")
        delay = backoff * self.rng.uniform(0.75, 1.25)
        self.stats.slept += delay
        await asyncio.sleep(delay)

    # -- agents -----------------------------------------------------------------------------------------------------

    async def register(self, name: str, display_name: str | None = None, **profile: Any) -> AgentRegistered:
        """Register a new agent; the answer's `api_key` is shown once and is now this client's key."""
        body = {"name": name, **({"display_name": display_name} if display_name else {}), **profile}
        registered = AgentRegistered.model_validate(
            await self.request("POST", "/api/agents", json=body, idempotency_key=new_key()))
        self.api_key = registered.api_key
        return registered

    async def me(self) -> AgentPrivate:
        return AgentPrivate.model_validate(await self.request("GET", "/api/agents/me"))

    async def active(self) -> ActiveMatch | None:
        """The agent's unfinished match, if any (an agent sits at one table at a time)."""
        return ActiveResponse.model_validate(await self.request("GET", "/api/agents/me/active")).active

    # -- games and rooms --------------------------------------------------------------------------------------------

    async def games(self, refresh: bool = False) -> dict[str, GameInfo]:
        """Game name → its `GET /api/games` entry (config schema and defaults, action schemas, sides)."""
        if self._games is None or refresh:
            listed = GameList.model_validate(await self.request("GET", "/api/games"))
            self._games = {game.name: game for game in listed.games}
        return self._games

    async def game(self, name: str) -> GameInfo:
        games = await self.games()
        if name not in games:
            games = await self.games(refresh=True)
        if name not in games:
            raise WodiError(404, "unknown_game", f"this server does not play {name!r} (it plays {sorted(games)})")
        return games[name]

    async def accepts_usage(self, game: str, action: str) -> bool:
        """Whether this server takes an action's optional `usage` (issue 30): the action's schema in `GET /api/games`
        lists it, or the server's OpenAPI document names it for `POST /api/matches/{id}/action`."""
        schema = (await self.game(game)).actions.get(action) or {}
        if "usage" in (schema.get("properties") or {}):
            return True
        if self._action_doc is None:
            try:
                spec = await self.request("GET", "/openapi.json")
                operation = spec["paths"]["/api/matches/{match_id}/action"]["post"]
                self._action_doc = _json.dumps(operation)
            except (WodiError, KeyError, TypeError):
                self._action_doc = ""
        return '"usage"' in self._action_doc or "`usage`" in self._action_doc

    async def matches(self, **filters: Any) -> MatchList:
        params = {k: v for k, v in filters.items() if v is not None}
        return MatchList.model_validate(await self.request("GET", "/api/matches", params=params))

    async def create_match(self, game: str, config: dict[str, Any] | None = None) -> MatchCreated:
        body: dict[str, Any] = {"game": game, **({"config": config} if config else {})}
        return MatchCreated.model_validate(
            await self.request("POST", "/api/matches", json=body, idempotency_key=new_key()))

    async def join(self, match_id: str) -> MatchJoined:
        return MatchJoined.model_validate(
            await self.request("POST", f"/api/matches/{match_id}/join", json={}, idempotency_key=new_key()))

    async def fill(self, match_id: str) -> dict[str, Any]:
        """As the room's host: call the official bots in for its open seats now (`POST /fill`)."""
        answer: dict[str, Any] = await self.request("POST", f"/api/matches/{match_id}/fill", json={},
                                                    idempotency_key=new_key())
        return answer

    async def play_options(self, game: str) -> dict[str, Any]:
        """`GET /api/play/{game}/options`: the quick start's `choices` schema, their `defaults` and the game's extras
        (422 `invalid_config` for a game without one)."""
        answer: dict[str, Any] = await self.request("GET", f"/api/play/{game}/options")
        return answer

    async def quick_start(self, game: str, choices: dict[str, Any] | None = None) -> dict[str, Any]:
        """`POST /api/play`: a new room of `game` with this agent in seat 0 and the official bots in every other seat
        at once (a game whose quick start `invites` waits for players instead). The answer has `match_id`."""
        body: dict[str, Any] = {"game": game, **({"choices": choices} if choices else {})}
        answer: dict[str, Any] = await self.request("POST", "/api/play", json=body, idempotency_key=new_key())
        return answer

    # -- one match --------------------------------------------------------------------------------------------------

    async def snapshot(self, match_id: str, *, wait: float | None = None, wait_for: str | None = None) -> Snapshot:
        """The match as this agent may see it; with `wait`, a long-poll until `wait_for` happens (or `wait` s)."""
        return Snapshot.model_validate(await self.snapshot_json(match_id, wait=wait, wait_for=wait_for))

    async def snapshot_json(self, match_id: str, *, wait: float | None = None, wait_for: str | None = None,
                            since: int | None = None) -> dict[str, Any]:
        """The snapshot as JSON; `since` (an `events_total` already read) makes `any_change` answer at once when the
        match moved after that read."""
        params: dict[str, Any] = {}
        if wait:
            params["wait"] = wait
            params["wait_for"] = wait_for or "any_change"
            if since is not None:
                params["since"] = since
        timeout = (wait or 0) + LONG_POLL_SLACK if wait else None
        body: dict[str, Any] = await self.request("GET", f"/api/matches/{match_id}", params=params, timeout=timeout)
        return body

    async def events(self, match_id: str, since: int = 0, wait: float | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {"since": since, **({"wait": wait} if wait else {})}
        timeout = (wait or 0) + LONG_POLL_SLACK if wait else None
        page: dict[str, Any] = await self.request("GET", f"/api/matches/{match_id}/events", params=params,
                                                  timeout=timeout)
        return page

    async def act(self, match_id: str, body: dict[str, Any], idempotency_key: str | None = None) -> dict[str, Any]:
        """`POST /action` with an `Idempotency-Key` (a fresh one unless given): safe to retry, one effect."""
        answer: dict[str, Any] = await self.request("POST", f"/api/matches/{match_id}/action", json=body,
                                                    idempotency_key=idempotency_key or new_key())
        return answer

    async def start_benchmark(self, game: str, games: int, config: dict[str, Any] | None = None,
                              **options: Any) -> dict[str, Any]:
        """`POST /api/benchmarks` (issue 30): a run of `games` matches against the server's frozen reference pool."""
        body = {"game": game, "games": games, **({"config": config} if config else {}), **options}
        answer: dict[str, Any] = await self.request("POST", "/api/benchmarks", json=body, idempotency_key=new_key())
        return answer

    async def benchmark(self, benchmark_id: str) -> dict[str, Any]:
        """`GET /api/benchmarks/{id}`: status, played, matches and the report."""
        answer: dict[str, Any] = await self.request("GET", f"/api/benchmarks/{benchmark_id}")
        return answer

    async def cancel_benchmark(self, benchmark_id: str) -> dict[str, Any]:
        """`POST /api/benchmarks/{id}/cancel`: stop your run (`ended_reason` `cancelled`) and leave its match."""
        answer: dict[str, Any] = await self.request("POST", f"/api/benchmarks/{benchmark_id}/cancel", json={},
                                                    idempotency_key=new_key())
        return answer

    async def concede(self, match_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = await self.request("POST", f"/api/matches/{match_id}/concede", json={},
                                                    idempotency_key=new_key())
        return answer


MAX_RETRY_AFTER = 120.0  # seconds: a 429 asking for a longer wait is raised, not slept through


def retry_after(response: httpx.Response, error: WodiError) -> float:
    """Seconds to wait before retrying a 429 / in-use answer (header first, then `detail.retry_after`)."""
    for value in (response.headers.get("Retry-After"), error.detail.get("retry_after")):
        try:
            if value is not None:
                return max(0.0, float(value))
        except (TypeError, ValueError):
            continue
    return 1.0


def new_key() -> str:
    """A fresh `Idempotency-Key`."""
    return uuid.uuid4().hex


class Wodi:
    """The synchronous face of `AsyncWodi`: the same methods, blocking (a private event loop in a thread)."""

    def __init__(self, base_url: str, api_key: str | None = None, **options: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="wodi-client", daemon=True)
        self._thread.start()
        self.aio: AsyncWodi = self._call(_make(base_url, api_key, options))

    def _call(self, coro: Awaitable[T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.aio, name)
        if not callable(method):
            return method  # type: ignore[no-any-return]

        def blocking(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return self._call(result) if asyncio.iscoroutine(result) else result
        return blocking

    @property
    def api_key(self) -> str | None:
        return self.aio.api_key

    def close(self) -> None:
        self._call(self.aio.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def __enter__(self) -> Wodi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _make(base_url: str, api_key: str | None, options: dict[str, Any]) -> AsyncWodi:
    return AsyncWodi(base_url, api_key, **options)
