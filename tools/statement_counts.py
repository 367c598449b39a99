"""SQL statements per request kind: `python -m tools.statement_counts [--database-url URL] [--tables 3]`.

Plays real 6-seat undercover tables over HTTP through the whole app (`create_app`, in process, one request at a
time) and counts the statements the database driver executes while each request runs, background work it started
included: `register`, `create`, `join` (and the join that fills the table and deals), `speak`, `vote` (a vote that
does not close the round, and the one that does), the seat's `snapshot`, a spectator's `snapshot`, an `events`
read, and a long-poll `wake` (the statements a held `GET …/events?wait=` costs when an action wakes it, the
action's own subtracted). Prints the median and the maximum per kind, then a summary line. The default database is
a temporary SQLite file; pass a PostgreSQL URL (an empty database) to count there.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Engine

from app.db import direct
from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
SETTLE = 0.05  # seconds for the after-commit work a request started to finish


class Counter:
    def __init__(self, show: bool = False) -> None:
        self.total = 0
        self.show = show

    def __call__(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        self.total += 1
        if self.show:
            print("   ", " ".join(statement.split())[:160])


async def measured(counter: Counter, request: Any) -> tuple[int, httpx.Response]:
    before = counter.total
    response = await request
    await asyncio.sleep(SETTLE)
    return counter.total - before, response


async def play_table(http: httpx.AsyncClient, counter: Counter, counts: dict[str, list[int]], index: int) -> None:
    keys = []
    for seat in range(6):
        n, made = await measured(counter, http.post("/api/agents", json={"name": f"count-{index}-{seat}"}))
        counts["register"].append(n)
        keys.append({"Authorization": f"Bearer {made.json()['api_key']}"})
    n, created = await measured(counter, http.post("/api/matches", headers=keys[0], json={
        "game": "undercover", "config": {"n_players": 6, "n_undercover": 1}}))
    counts["create"].append(n)
    match_id = created.json()["match_id"]
    for seat in range(1, 6):
        n, _ = await measured(counter, http.post(f"/api/matches/{match_id}/join", json={}, headers=keys[seat]))
        counts["join (deals)" if seat == 5 else "join"].append(n)
    url = f"/api/matches/{match_id}"
    while True:
        snap = (await http.get(url, headers=keys[0])).json()
        if snap["status"] != "in_progress":
            return
        n, _ = await measured(counter, http.get(url, headers=keys[1]))
        counts["snapshot (seat)"].append(n)
        n, _ = await measured(counter, http.get(url))
        counts["snapshot (spectator)"].append(n)
        since = {"since": max(0, snap["events_total"] - 5)}
        n, _ = await measured(counter, http.get(f"{url}/events", params=since, headers=keys[2]))
        counts["events"].append(n)
        if snap["phase"].startswith("speak"):
            seat = snap["current_speaker_seat"]
            body = {"type": "speak", "text": f"第{seat}号的描述，和第{snap['events_total']}步有关"}
            alone, response = await measured(counter, http.post(f"{url}/action", json=body, headers=keys[seat]))
            counts["speak"].append(alone)
            await wake(http, counter, counts, url, keys, snap)
        elif snap["phase"].startswith("vote"):
            voters = [p["seat"] for p in snap["players"] if p["alive"]]
            for position, seat in enumerate(voters):
                target = next(s for s in voters if s != seat)
                n, response = await measured(counter, http.post(f"{url}/action", headers=keys[seat],
                                                                json={"type": "vote", "target_seat": target}))
                counts["vote (round closes)" if position == len(voters) - 1 else "vote"].append(n)
        else:
            await asyncio.sleep(0.2)


async def wake(http: httpx.AsyncClient, counter: Counter, counts: dict[str, list[int]], url: str,
               keys: list[dict[str, str]], snap: dict[str, Any]) -> None:
    """One held long-poll woken by the next speech: the statements of both, less the median speech alone."""
    after = (await http.get(url, headers=keys[0])).json()
    if after["status"] != "in_progress" or not after["phase"].startswith("speak"):
        return
    seat = after["current_speaker_seat"]
    before = counter.total
    poll = asyncio.create_task(http.get(f"{url}/events", params={"since": after["events_total"], "wait": 10},
                                        headers=keys[(seat + 1) % 6]))
    await asyncio.sleep(SETTLE)
    await http.post(f"{url}/action", json={"type": "speak", "text": f"第{seat}号接着说"}, headers=keys[seat])
    await poll
    await asyncio.sleep(SETTLE)
    counts["long-poll wake"].append(counter.total - before - int(statistics.median(counts["speak"])))


async def run(url: str, tables: int, show: bool = False) -> dict[str, list[int]]:
    settings = Settings(database_url=url, public_base_url="http://testserver", rate_limit_enabled=False,
                        secret_key=secrets.token_hex(16), official_bot_key=secrets.token_hex(16), bots_enabled=False)
    app = create_app(settings)
    counts: dict[str, list[int]] = defaultdict(list)
    async with app.router.lifespan_context(app):
        counter = Counter(show)
        event.listen(Engine, "before_cursor_execute", counter)  # every engine: the readers' and the writer's
        direct.OBSERVERS.append(lambda sql: counter(None, None, sql))  # the command path's own (SQLite)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
            for index in range(tables):
                await play_table(http, counter, counts, index)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="an empty database (default: a temporary SQLite file)")
    parser.add_argument("--show", action="store_true", help="print every statement as it runs")
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/count.db"
        config = Config(str(ROOT / "alembic.ini"))
        config.set_main_option("sqlalchemy.url", url)
        command.upgrade(config, "head")
        counts = asyncio.run(run(url, args.tables, args.show))
    print(f"{'request':<22}{'n':>6}{'median':>8}{'max':>6}")
    for kind in sorted(counts):
        values = counts[kind]
        print(f"{kind:<22}{len(values):>6}{statistics.median(values):>8.0f}{max(values):>6}")
    dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
    summary = ", ".join(f"{kind} {statistics.median(v):.0f}" for kind, v in sorted(counts.items()))
    print(f"statements per request ({dialect}, {args.tables} tables, median): {summary}")


if __name__ == "__main__":
    main()
