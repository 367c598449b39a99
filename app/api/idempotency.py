"""ASGI middleware: `Idempotency-Key` on every `POST /api/…` (`app.services.platform.idempotency` keeps the answers).

The key belongs to the caller: the scope is the digest of the credential the request carries — the Bearer API key,
else the X-Play-Token, else a valid owner session cookie — or, with none, the client IP. Scoping by the credential,
not the agent, lets a retried `rotate-key` (sent with the old key) find its answer. A stored answer is replayed only
within its scope, so an answer for one credential never reaches a request with another, whatever the IP (issue 26).
The IP scope holds people who share nothing but an address, so for an anonymous caller:

- an answer that carries a new credential (a play token, an API key) is not replayed: the row only records that
  the request took effect, and a retry gets 409 `idempotency_key_in_use` (`withheld`) — a seat or a key is never
  handed to whoever else sends the same key and body from the same address;
- a call that changed nothing stores no row: a refusal (4xx), or a handler that says so (`mark_unchanged`, e.g.
  logging out without a session).

A sign-up or login answer (a session cookie) is replayed in the IP scope: its body holds the password, so a replay
gives nothing the request did not already prove. The fingerprint is the method, the path and the SHA-256 of the
body (JSON bodies canonicalised first, so re-serialising the same object is the same request).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.deps import client_ip
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity.sessions import COOKIE
from app.services.platform import idempotency as service
from app.services.platform.idempotency import Answer

HEADER = "Idempotency-Key"
REPLAYED = (b"idempotent-replayed", b"true")
_KEPT_HEADERS = {"content-type", "set-cookie", "location"}
ANONYMOUS = "ip:"
UNCHANGED = "idempotency_unchanged"  # the request-state flag `mark_unchanged` sets
CREDENTIALS = ("play_token", "api_key")  # answer fields that hand the caller a new credential


def _digest(value: str | bytes) -> str:
    return hashlib.sha256(value.encode() if isinstance(value, str) else value).hexdigest()


def caller_scope(request: Request, runtime: Runtime) -> str:
    """Whose key this is: the credential's digest (API key, play token, owner session), or the client IP."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer ") and authorization[7:].strip():
        return "api:" + _digest(authorization[7:].strip())
    token = request.headers.get("x-play-token")
    if token:
        return "play:" + _digest(token)
    cookie = request.cookies.get(COOKIE)
    if cookie and runtime.sessions.owner_id(cookie) is not None:
        return "session:" + _digest(cookie)
    return f"{ANONYMOUS}{client_ip(request)}"[:80]


def mark_unchanged(request: Request) -> None:
    """A handler's note that this call changed nothing: an anonymous caller's answer is then not kept."""
    setattr(request.state, UNCHANGED, True)


def carries_credential(body: bytes) -> bool:
    """The answer hands out a play token or an API key."""
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and any(data.get(field) for field in CREDENTIALS)


def fingerprint(method: str, path: str, body: bytes) -> str:
    """method + path + SHA-256 of the body (a JSON body canonicalised: key order and spacing do not count)."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    except ValueError:
        canonical = body
    return _digest(f"{method} {path} {_digest(canonical)}")


class IdempotencyGuard:
    """Replays a stored answer, or runs the request once and stores its answer (`service.should_store`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        key = request.headers.get(HEADER)
        if key is None:
            await self.app(scope, receive, send)
            return
        runtime: Runtime = scope["app"].state.runtime
        body, messages = await _read(receive)
        try:
            service.check_key(key)
            owner = caller_scope(request, runtime)
            answer = await service.begin(runtime, owner, key, fingerprint("POST", scope["path"], body))
        except ApiError as exc:
            await _send(send, _error_answer(exc))
            return
        if answer is not None:
            await _send(send, answer, replayed=True)
            return
        scope.setdefault("state", {})  # the handler's `request.state` writes here (`mark_unchanged`)
        await self._run(scope, _replay(messages, receive), send, runtime, owner, key)

    async def _run(self, scope: Scope, receive: Receive, send: Send, runtime: Runtime, owner: str,
                   key: str) -> None:
        """Run the request, holding its response back until the answer is stored: a client that has seen an answer
        finds it again on retry, even if this process dies the moment after."""
        started: dict[str, Any] = {}
        chunks: list[bytes] = []
        done = False

        async def held(message: Message) -> None:
            nonlocal done
            if message["type"] == "http.response.start":
                started.update(message)
                return
            if message["type"] != "http.response.body" or done:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            done = True
            await self._settle(runtime, owner, key, started, b"".join(chunks), scope["state"])
            await send(started)
            await send({"type": "http.response.body", "body": b"".join(chunks)})

        try:
            await self.app(scope, receive, held)
        finally:
            if not done:  # no complete response (a crash, or cancelled): the key is free for a retry
                await asyncio.shield(service.release(runtime, owner, key))

    async def _settle(self, runtime: Runtime, owner: str, key: str, started: dict[str, Any], body: bytes,
                      state: dict[str, Any]) -> None:
        status = int(started.get("status", 500))
        anonymous = owner.startswith(ANONYMOUS)
        # Shielded: a client that hangs up must not leave the key claimed with the effect already done.
        if not service.should_store(status) or (anonymous and (status >= 400 or state.get(UNCHANGED))):
            await asyncio.shield(service.release(runtime, owner, key))
        elif anonymous and carries_credential(body):
            await asyncio.shield(service.withhold(runtime, owner, key, status))
        else:
            headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in started.get("headers", [])
                       if k.decode("latin-1").lower() in _KEPT_HEADERS]
            await asyncio.shield(service.finish(runtime, owner, key, Answer(status, headers, body)))


async def _read(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole body (the edge guard has bounded it already) and the messages that carried it."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


def _error_answer(exc: ApiError) -> Answer:
    headers = [("content-type", "application/json"), *(exc.headers or {}).items()]
    return Answer(exc.status, headers, json.dumps(exc.body(), ensure_ascii=False).encode())


async def _send(send: Send, answer: Answer, replayed: bool = False) -> None:
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers]
    headers.append((b"content-length", str(len(answer.body)).encode()))
    if replayed:
        headers.append(REPLAYED)
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body})
