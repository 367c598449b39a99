"""A request id on every request and response (for logs and 500 bodies), and no shared caching of API answers."""

from __future__ import annotations

import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex[:16]
        scope.setdefault("state", {})["request_id"] = request_id
        # Answers depend on who asks (viewer layers), so no proxy or CDN may store or share them.
        extra = [(b"x-request-id", request_id.encode())]
        if scope["path"].startswith("/api/"):
            extra += [(b"cache-control", b"no-store"), (b"vary", b"Authorization, Cookie, X-Play-Token")]

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).extend(extra)
            await send(message)

        await self.app(scope, receive, send_with_id)
