"""The edge: every request's path, query and body are checked here before any router sees them.

Whatever reaches a router is text a database stores and a browser renders: valid UTF-8 (no lone surrogates),
no NUL, strict JSON (no NaN or Infinity, numbers a float can hold), bounded in size and depth. A request that
breaks one of these gets 400 `bad_request` (413 `payload_too_large` for an oversize body) with the envelope, the
same answer on every database, and nothing of it is stored.
"""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.protocol.errors import ApiError

MAX_BODY = 64 * 1024  # bytes; the largest legitimate body (a 500-character speech with 4 KB analysis) is ~6 KB
MAX_DEPTH = 32  # nesting of JSON arrays and objects
MAX_META_BYTES = 4096  # a seat's `player.meta`, a proxy's `X-Provider-Agent-Meta`
_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
JSON_BODY = "wodi.json"  # the scope key of a JSON body as the guard parsed it (`app.api.hot` reads it there)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(number: str) -> float:
    value = float(number)
    if not math.isfinite(value):
        raise ValueError(f"{number[:20]} is out of range")
    return value


def _int64(number: str) -> int:
    """An integer the server can store and write back (a signed 64-bit one): JSON allows any, our encoder does not."""
    value = int(number)
    if not -(2**63) <= value < 2**63:
        raise ValueError(f"the integer {number[:20]}… is outside the signed 64-bit range")
    return value


def json_size(value: Any) -> int:
    """Bytes of `value` as compact JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def check_text(value: str, where: str) -> None:
    """Text must be storable and renderable: no NUL, no lone surrogate (which no UTF-8 encoder accepts)."""
    if "\x00" in value:
        raise ApiError("bad_request", f"{where} must not contain NUL characters", field=where)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError("bad_request", f"{where} is not valid UTF-8 text (a lone surrogate)", field=where) from None


def check_value(value: Any, where: str = "body") -> None:
    """Walk a parsed JSON value: every key and string checked by `check_text`, nesting at most `MAX_DEPTH`."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, where)
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ApiError("bad_request", f"{where} is nested deeper than {MAX_DEPTH} levels", field=where,
                               limit=MAX_DEPTH)
            if isinstance(item, dict):
                for key, child in item.items():
                    check_text(key, where)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


def strict_json(raw: bytes | str, where: str = "body") -> Any:
    """Parse JSON as the standard defines it (RFC 8259), then `check_value` it; ApiError on anything else."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite, parse_int=_int64)
    except UnicodeDecodeError:
        raise ApiError("bad_request", f"{where} is not valid UTF-8", field=where) from None
    except RecursionError:
        raise ApiError("bad_request", f"{where} is nested deeper than {MAX_DEPTH} levels", field=where,
                       limit=MAX_DEPTH) from None
    except ValueError as exc:
        raise ApiError("bad_request", f"{where} is not valid JSON: {str(exc)[:120]}", field=where) from None
    check_value(value, where)
    return value


def _check_form(raw: bytes) -> None:
    try:
        pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise ApiError("bad_request", "the form is not valid UTF-8", field="body") from None
    for name, value in pairs:
        check_text(name, "body")
        check_text(value, name[:40])


def check_target(scope: Scope) -> None:
    """The path and the query string: UTF-8 without NUL (a `%00` in a match id or `?agent=`)."""
    path: str = scope.get("path", "")
    if "\x00" in path:
        raise ApiError("bad_request", "the path must not contain NUL characters", field="path")
    try:
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True,
                          encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise ApiError("bad_request", "the query string is not valid UTF-8", field="query") from None
    for name, value in query:
        check_text(name, "query")
        check_text(value, name[:40])


def check_body(raw: bytes, content_type: str | None) -> Any:
    """Bodies the routers will read: JSON (declared, or undeclared as FastAPI reads it) and HTML forms. Returns a
    JSON body as parsed (None for any other)."""
    if not raw:
        return None
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind in ("", "application/json") or (kind.startswith("application/") and kind.endswith("+json")):
        return strict_json(raw)
    if kind == "application/x-www-form-urlencoded":
        _check_form(raw)
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class _TooLarge(Exception):
    pass


async def _read_body(receive: Receive, declared: str | None) -> tuple[bytes, list[Message]]:
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise _TooLarge
    chunks: list[bytes] = []
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break  # the client went away: let the app see it
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


class EdgeGuard:
    """ASGI middleware: refuses what `check_target` and `check_body` refuse, then replays the body unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            check_target(scope)
            if scope["method"] not in _BODY_METHODS:
                await self.app(scope, receive, send)
                return
            raw, messages = await _read_body(receive, _header(scope, b"content-length"))
            scope[JSON_BODY] = check_body(raw, _header(scope, b"content-type"))  # parsed once, here
        except _TooLarge:
            await _refuse(send, ApiError("payload_too_large", f"the body is larger than {MAX_BODY} bytes",
                                         limit=MAX_BODY))
            return
        except ApiError as exc:
            await _refuse(send, exc)
            return
        await self.app(scope, _replay(messages, receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


async def _refuse(send: Send, exc: ApiError) -> None:
    body = json.dumps(exc.body(), ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": exc.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
