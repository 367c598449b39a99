"""CPU per request kind, one request at a time: `python -m tools.request_cpu [--database-url URL] [--tables 100]`.

Runs the whole app in process (`create_app`, its lifespan, real HTTP requests through httpx's ASGI transport) and
measures the process's CPU time (`time.process_time`) around each kind of request in turn: `register` (an agent),
`create` (a 6-seat undercover room), `join` (seats 1–4) and the `join` that fills the table and deals (seat 5),
then a seat's `snapshot`, then every action of every table played to its end (`action: speak`, `action: vote`,
…). Prints milliseconds per request of each kind, then one SUMMARY line. The network and
uvicorn are left out, so the figures are the app's own work; the default database is a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial

import httpx
from alembic import command
from alembic.config import Config

from app.main import create_app
from app.settings import Settings
from tools.bench import choose
from tools.statement_counts import ROOT


async def run(url: str, tables: int) -> dict[str, float]:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", url)
    await asyncio.to_thread(command.upgrade, config, "head")
    settings = Settings(database_url=url, public_base_url="http://testserver", rate_limit_enabled=False,
                        secret_key=secrets.token_hex(16), official_bot_key=secrets.token_hex(16), bots_enabled=False)
    app = create_app(settings, tune_collector=True)  # as the server process does
    per_request: dict[str, float] = {}
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:

        async def timed(kind: str, requests: list[Callable[[], Awaitable[httpx.Response]]]) -> list[httpx.Response]:
            began = time.process_time()
            answers = [await send() for send in requests]
            per_request[kind] = (time.process_time() - began) / len(requests) * 1000
            for answer in answers:
                answer.raise_for_status()
            return answers

        run_id = secrets.token_hex(3)
        made = await timed("register", [partial(http.post, "/api/agents", json={"name": f"cpu-{run_id}-{i}"})
                                        for i in range(tables * 6)])
        keys = [{"Authorization": f"Bearer {answer.json()['api_key']}"} for answer in made]
        body = {"game": "undercover", "config": {"n_players": 6, "n_undercover": 1}}
        rooms = await timed("create", [partial(http.post, "/api/matches", json=body, headers=keys[t * 6])
                                       for t in range(tables)])
        ids = [room.json()["match_id"] for room in rooms]

        def joins(seats: range) -> list[Callable[[], Awaitable[httpx.Response]]]:
            return [partial(http.post, f"/api/matches/{ids[t]}/join", json={}, headers=keys[t * 6 + s])
                    for s in seats for t in range(tables)]

        await timed("join", joins(range(1, 5)))
        await timed("join (deals)", joins(range(5, 6)))
        await timed("snapshot (seat)", [partial(http.get, f"/api/matches/{ids[t]}", headers=keys[t * 6])
                                        for t in range(tables)])
        await _play(http, ids, keys, per_request)
    return per_request


async def _play(http: httpx.AsyncClient, ids: list[str], keys: list[dict[str, str]],
                per_request: dict[str, float]) -> None:
    """Play every table to its end, one action at a time; the CPU of each action is added to its kind."""
    spent: dict[str, list[float]] = {}
    live = dict.fromkeys(range(len(ids)), 0)  # table → actions sent
    while live:
        for t in list(live):
            acted = False
            for seat in range(6):
                snap = (await http.get(f"/api/matches/{ids[t]}", headers=keys[t * 6 + seat])).json()
                if snap["status"] != "in_progress":
                    del live[t]
                    break
                body = choose(snap, seat, live[t])
                if body is None:
                    continue
                began = time.process_time()
                answer = await http.post(f"/api/matches/{ids[t]}/action", json=body, headers=keys[t * 6 + seat])
                spent.setdefault(f"action: {body['type']}", []).append(time.process_time() - began)
                answer.raise_for_status()
                live[t] += 1
                acted = True
            if t in live and not acted:
                raise SystemExit(f"table {ids[t]}: nobody can act")
    for kind, times in sorted(spent.items()):
        per_request[kind] = sum(times) / len(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=None, help="an empty database (default: a temporary SQLite file)")
    parser.add_argument("--tables", type=int, default=100)
    args = parser.parse_args()
    url = args.database_url or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/request_cpu.db"
    figures = asyncio.run(run(url, args.tables))
    for kind, ms in figures.items():
        print(f"{kind:<18}{ms:8.3f} ms CPU per request")
    summary = ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in figures.items())
    print(f"SUMMARY request cpu ({url.split(':', 1)[0]}, {args.tables} tables): {summary}")


if __name__ == "__main__":
    main()
