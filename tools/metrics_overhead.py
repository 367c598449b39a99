"""What counting and logging a request costs: `python tools/metrics_overhead.py [-n 200000]`.

Drives `RequestIdMiddleware` around a do-nothing ASGI app, in one process and on one event loop, three ways: with
the per-request observation switched off, with it on while the request line is below the log level (a bot's
request at the default INFO), and with it on and the line written (to /dev/null, in the text format). Prints the
microseconds each adds per request: the cost `/metrics` and the request log put on every request, before any
database or game work. Then the same three ways through the whole app (`create_app`, a temporary SQLite file) for
`GET /healthz` (the lightest route: the middleware stack, routing and a response model, no database) and
`GET /api/agents/{name}` of an unknown agent (one indexed SELECT, a 404 with the envelope), to put the figures
beside a request's own cost.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from app import logs
from app.api import middleware
from app.services.match.lobby import BOT_USER_AGENT


class _Route:
    path = "/api/matches/{match_id}"


async def _endpoint(scope: dict[str, Any], receive: Any, send: Any) -> None:
    scope["route"] = _Route
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


async def _send(_message: Any) -> None:
    pass


def _receiver() -> Any:
    """The body (empty) once, then the client's disconnect, as a server's receive channel does."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": b"", "more_body": False}

    return receive


def _scope(agent: bytes) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "path": "/api/matches/abcd1234", "query_string": b"",
            "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", agent), (b"accept", b"*/*"),
                        (b"authorization", b"Bearer ck_live_x")]}


async def _run(n: int, agent: bytes, app: Any = None, path: str = "/api/matches/abcd1234") -> float:
    app = app or middleware.RequestIdMiddleware(_endpoint)
    began = time.perf_counter()
    for _ in range(n):
        await app({**_scope(agent), "path": path, "raw_path": path.encode()}, _receiver(), _send)
    return (time.perf_counter() - began) / n * 1e6


async def _whole_app(url: str, n: int, rounds: int, figures: dict[str, dict[str, list[float]]]) -> None:
    from app.main import create_app
    from app.settings import Settings

    app = create_app(Settings(database_url=url, bots_enabled=False, rate_limit_enabled=False))
    _to_devnull()  # create_app configured the process's logging afresh
    async with app.router.lifespan_context(app):
        for path in figures:  # warm up: first calls fill caches, compile queries and grow the pools
            await _run(n, b"curl/8", app, path)
        for path, by_mode in figures.items():
            await _compare(n, rounds, by_mode, app, path)


def _migrated(folder: str) -> str:
    from alembic import command
    from alembic.config import Config

    url = f"sqlite+aiosqlite:///{folder}/overhead.db"
    config = Config(str(Path(__file__).resolve().parents[1] / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", url)
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")
    return url


async def _compare(n: int, rounds: int, figures: dict[str, list[float]], app: Any = None,
                   path: str = "/api/matches/abcd1234") -> None:
    observed = middleware._answered
    for _ in range(rounds):
        middleware._answered = lambda *_: None  # type: ignore[assignment]
        figures["off"].append(await _run(n, b"curl/8", app, path))
        middleware._answered = observed  # type: ignore[assignment]
        figures["counted"].append(await _run(n, BOT_USER_AGENT.encode(), app, path))
        figures["counted+logged"].append(await _run(n, b"curl/8", app, path))


def _report(title: str, figures: dict[str, list[float]]) -> None:
    base = statistics.median(figures["off"])
    print(title)
    for name, values in figures.items():
        value = statistics.median(values)
        print(f"  {name:15s} {value:7.2f} µs" + ("" if name == "off" else f"   (+{value - base:.2f} µs)"))


def _to_devnull() -> None:
    for handler in logging.getLogger().handlers:
        handler.setStream(open(os.devnull, "w"))  # type: ignore[attr-defined]  # noqa: SIM115 - process-long


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    logs.configure("INFO", args.format)  # as `python -m app` does, writing to /dev/null instead of stderr
    _to_devnull()
    alone: dict[str, list[float]] = {"off": [], "counted": [], "counted+logged": []}
    asyncio.run(_compare(args.n, args.rounds, alone))
    _report(f"{args.n} requests x {args.rounds} rounds, median µs per request, the middleware alone:", alone)
    whole: dict[str, dict[str, list[float]]] = {
        path: {"off": [], "counted": [], "counted+logged": []} for path in ("/healthz", "/api/agents/nobody-here")}
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_whole_app(_migrated(folder), args.n // 10, args.rounds, whole))
    for path, by_mode in whole.items():
        _report(f"{args.n // 10} requests x {args.rounds} rounds, median µs per GET {path} through the whole app:",
                by_mode)


if __name__ == "__main__":
    main()
