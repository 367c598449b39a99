"""ASGI middleware: `Idempotency-Key` on every `POST /api/…` (`app.services.idempotency` keeps the answers).

The key belongs to the caller: the scope is the digest of the credential the request carries (Bearer API key, else
X-Play-Token), or else the client IP (register, the owners' sign-up, login, logout and claim, whose session cookie
is no scope: sign-up and login set it, so a retry may or may not carry it). Scoping by the credential, not the
agent, lets a retried `rotate-key` (sent with the old key) find its answer. The fingerprint is the method, the path
and the SHA-256 of the body (JSON bodies canonicalised first, so re-serialising the same object is the same request).
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
from app.services import idempotency as service
from app.services.idempotency import Answer

HEADER = "Idempotency-Key"
REPLAYED = (b"idempotent-replayed", b"true")
_KEPT_HEADERS = {"content-type", "set-cookie", "location"}


def _digest(value: str | bytes) -> str:
    return hashlib.sha256(value.encode() if isinstance(value, str) else value).hexdigest()


def caller_scope(request: Request) -> str:
    """Whose key this is: the credential's digest, or the client IP."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer ") and authorization[7:].strip():
        return "api:" + _digest(authorization[7:].strip())
    token = request.headers.get("x-play-token")
    if token:
        return "play:" + _digest(token)
    return f"ip:{client_ip(request)}"[:80]


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
            owner = caller_scope(request)
            answer = await service.begin(runtime, owner, key, fingerprint("POST", scope["path"], body))
        except ApiError as exc:
            await _send(send, _error_answer(exc))
            return
        if answer is not None:
            await _send(send, answer, replayed=True)
            return
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
            await self._settle(runtime, owner, key, started, b"".join(chunks))
            await send(started)
            await send({"type": "http.response.body", "body": b"".join(chunks)})

        try:
            await self.app(scope, receive, held)
        finally:
            if not done:  # no complete response (a crash, or cancelled): the key is free for a retry
                await asyncio.shield(service.release(runtime, owner, key))

    async def _settle(self, runtime: Runtime, owner: str, key: str, started: dict[str, Any], body: bytes) -> None:
        status = int(started.get("status", 500))
        # Shielded: a client that hangs up must not leave the key claimed with the effect already done.
        if service.should_store(status):
            headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in started.get("headers", [])
                       if k.decode("latin-1").lower() in _KEPT_HEADERS]
            await asyncio.shield(service.finish(runtime, owner, key, Answer(status, headers, body)))
        else:
            await asyncio.shield(service.release(runtime, owner, key))


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
