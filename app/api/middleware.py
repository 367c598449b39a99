"""Headers on every response: a request id (for logs and 500 bodies), no shared caching of API answers, and the
browser protections every HTML page gets (a Content-Security-Policy, no MIME sniffing, no framing). Each answered
request is counted (`app.services.platform.metrics`) and logged in one line (`app.logs`)."""

from __future__ import annotations

import logging
import os
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.services.match.lobby import BOT_USER_AGENT
from app.services.platform import metrics

log = logging.getLogger("wodi.request")
QUIET_PATHS = ("/healthz", "/readyz", "/metrics")  # checked and scraped every few seconds: DEBUG
_BOT_AGENT = BOT_USER_AGENT.encode()
# A client may send any method token; counting each as its own label value would let it grow the series at will.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

# Agents write the text on these pages; even if escaping ever failed, no injected script or style could run.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# FastAPI's API explorer loads Swagger UI / ReDoc from jsDelivr and starts it with an inline script.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
            "font-src https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
            "https://cdn.redoc.ly; worker-src blob:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")


def _is_html(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(key.lower() == b"content-type" and value.startswith(b"text/html") for key, value in headers)


def claim_csp(return_to_hosts: frozenset[str]) -> str:
    """The claim page's form ends in a redirect to `return_to`, which `form-action` governs too: allow exactly the
    hosts a `return_to` may name (`WODI_RETURN_TO_HOSTS`)."""
    targets = " ".join(f"{scheme}://{host}:* {scheme}://{host}" for host in sorted(return_to_hosts) if host
                       for scheme in ("http", "https"))
    return CSP.replace("form-action 'self'", f"form-action 'self' {targets}")


ACCOUNT_PAGES = ("/my", "/login", "/signup", "/logout", "/claim/")


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp, return_to_hosts: frozenset[str] = frozenset()) -> None:
        self.app = app
        self._claim_csp = claim_csp(return_to_hosts).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = os.urandom(8).hex()  # 16 hex digits, as before from uuid4, at a third of the cost
        scope.setdefault("state", {})["request_id"] = request_id
        path: str = scope["path"]
        extra = [(b"x-request-id", request_id.encode()), (b"x-content-type-options", b"nosniff"),
                 (b"x-frame-options", b"DENY"), (b"referrer-policy", b"same-origin")]
        if path.startswith("/api/"):
            # Answers depend on who asks (viewer layers), so no proxy or CDN may store or share them.
            extra += [(b"cache-control", b"no-store"), (b"vary", b"Authorization, Cookie, X-Play-Token")]
        elif path.startswith(ACCOUNT_PAGES):  # an account's own pages (and its claim tokens): never kept by a cache
            extra += [(b"cache-control", b"no-store"), (b"vary", b"Cookie")]
        csp = (DOCS_CSP.encode() if path.startswith(DOCS_PATHS)
               else self._claim_csp if path.startswith("/claim/") else CSP.encode())

        status = 500  # what the server answers when the app fails before starting a response
        began = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = message.setdefault("headers", [])
                if _is_html(headers):
                    headers[:] = [(k, v) for k, v in headers if k.lower() != b"content-security-policy"]
                    headers.append((b"content-security-policy", csp))
                headers.extend(extra)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        finally:
            _answered(scope, request_id, status, time.perf_counter() - began)


def route_template(scope: Scope) -> str:
    """The matched route's path template (`/api/matches/{match_id}`); `unmatched` for a path no route serves."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) else "unmatched"


def _quiet(scope: Scope) -> bool:
    if scope["path"].startswith(QUIET_PATHS):
        return True
    return any(key == b"user-agent" and value == _BOT_AGENT for key, value in scope["headers"])


def _answered(scope: Scope, request_id: str, status: int, seconds: float) -> None:
    route = route_template(scope)
    method = scope["method"]
    metrics.observe(route, method if method in METHODS else "other", status, seconds)
    level = logging.DEBUG if _quiet(scope) else logging.INFO
    if log.isEnabledFor(level):
        ms = round(seconds * 1000, 1)
        log.log(level, "%s %s %s %.1fms route=%s request_id=%s", scope["method"], scope["path"], status, ms, route,
                request_id, extra={"request_id": request_id, "method": scope["method"], "path": scope["path"],
                                   "route": route, "status": status, "duration_ms": ms})


class HeadAsGet:
    """Outermost: a `HEAD` request is answered as its `GET` without the body (RFC 9110 §9.3.2), so uptime and link
    checkers that send `HEAD` get the page's status and headers instead of 405 (FastAPI's routes list `GET` only)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
