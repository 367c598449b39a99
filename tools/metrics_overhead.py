"""What counting and logging a request costs: `python tools/metrics_overhead.py [-n 200000]`.

Drives `RequestIdMiddleware` around a do-nothing ASGI app, in one process and on one event loop, three ways: with
the per-request observation switched off, with it on while the request line is below the log level (a bot's
request at the default INFO), and with it on and the line written (to /dev/null, in the text format). Prints the
microseconds each adds per request: the cost `/metrics` and the request log put on every request, before any
database or game work. Then the same three ways through the whole app (`create_app`, a temporary SQLite file) for
`GET /api/games`, a real endpoint that reads no database, to put the figures beside a request's own cost.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from typing import Any

from app import logs
from app.api import middleware
from app.services.lobby import BOT_USER_AGENT


class _Route:
    path = "/api/matches/{match_id}"


async def _endpoint(scope: dict[str, Any], receive: Any, send: Any) -> None:
    scope["route"] = _Route
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


async def _send(_message: Any) -> None:
    pass


async def _receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b""}


def _scope(agent: bytes) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": "/api/matches/abcd1234", "query_string": b"",
            "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", agent), (b"accept", b"*/*"),
                        (b"authorization", b"Bearer ck_live_x")]}


async def _run(n: int, agent: bytes, app: Any = None) -> float:
    path = "/api/games" if app is not None else "/api/matches/abcd1234"
    app = app or middleware.RequestIdMiddleware(_endpoint)
    began = time.perf_counter()
    for _ in range(n):
        await app({**_scope(agent), "path": path, "raw_path": path.encode()}, _receive, _send)
    return (time.perf_counter() - began) / n * 1e6


async def _whole_app(n: int, rounds: int, figures: dict[str, list[float]]) -> None:
    from app.main import create_app
    from app.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/overhead.db"
        app = create_app(Settings(database_url=url, bots_enabled=False, rate_limit_enabled=False))
        async with app.router.lifespan_context(app):
            await _compare(n, rounds, figures, app)


async def _compare(n: int, rounds: int, figures: dict[str, list[float]], app: Any = None) -> None:
    observed = middleware._answered
    for _ in range(rounds):
        middleware._answered = lambda *_: None  # type: ignore[assignment]
        figures["off"].append(await _run(n, b"curl/8", app))
        middleware._answered = observed  # type: ignore[assignment]
        figures["counted"].append(await _run(n, BOT_USER_AGENT.encode(), app))
        figures["counted+logged"].append(await _run(n, b"curl/8", app))


def _report(title: str, figures: dict[str, list[float]]) -> None:
    base = statistics.median(figures["off"])
    print(title)
    for name, values in figures.items():
        value = statistics.median(values)
        print(f"  {name:15s} {value:7.2f} µs" + ("" if name == "off" else f"   (+{value - base:.2f} µs)"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    logs.configure("INFO", args.format)  # as `python -m app` does, writing to /dev/null instead of stderr
    for handler in logging.getLogger().handlers:
        handler.setStream(open(os.devnull, "w"))  # type: ignore[attr-defined]  # noqa: SIM115 - process-long
    alone: dict[str, list[float]] = {"off": [], "counted": [], "counted+logged": []}
    asyncio.run(_compare(args.n, args.rounds, alone))
    _report(f"{args.n} requests x {args.rounds} rounds, median µs per request, the middleware alone:", alone)
    whole: dict[str, list[float]] = {"off": [], "counted": [], "counted+logged": []}
    asyncio.run(_whole_app(args.n // 10, args.rounds, whole))
    _report(f"{args.n // 10} requests x {args.rounds} rounds, median µs per GET /api/games through the whole app:",
            whole)


if __name__ == "__main__":
    main()
