"""Benchmark: people start tables against the official bots (issue 17's 开一局), over real HTTP.

    python -m tools.bench_play                       # spawns a server with its bots on a fresh SQLite file
    python -m tools.bench_play --tables 20 --spread 2 --database postgresql+asyncpg://postgres@127.0.0.1/wodi_bench
    python -m tools.bench_play --base-url http://127.0.0.1:8000   # a running server (its bots must be on)

Opens `--tables` quick starts (`POST /api/play`, a guest each, default choices: six seats, five bots) spread evenly
over `--spread` seconds, then for each long-polls the guest's view until the room stops waiting. Prints, per table
and as p50/p95/max, the time to fully seated: by the server's own stamps (`match_created` → `match_started`) and
as the person sees it (the quick start's request sent → the long-poll returning the running match); then one
SUMMARY line. The spawned server starts with the filler's first two agents per persona and its reserve (four per
persona, registered as it starts), so the run includes the pool's growth (the server making, or the filler
registering, the agents the tables need, up to `WODI_BOT_POOL_MAX` per persona). A table the server seated in the
transaction that created it counts 0 ms by the server's stamps; the line after the tables says how many were.
Each table is a guest on a device of its own (`X-Forwarded-For`, which the spawned server trusts from 127.0.0.1):
one client's share of the bots (`WODI_QUICK_START_BOTS_PER_CLIENT`) would refuse the third table of a single
address. A running server must trust the bench's address the same way
(`WODI_TRUSTED_PROXIES`) or allow one client the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx

from app.bots.personas import PERSONAS
from tools.bench import cpu_seconds, percentile, spawn

TARGET = 2.0  # seconds: issue 17's "fully seated within 2 s of their creation"


@dataclass
class Seated:
    match_id: str
    server: float  # seconds, match_created → match_started (server stamps)
    client: float  # seconds, request sent → long-poll answered with the running match
    status: str
    answered: float = 0.0  # seconds, request sent → the quick start's 201
    first_bot: float = float("inf")  # seconds, match_created → the first bot's seat (server stamps)


async def one_table(client: httpx.AsyncClient, index: int, delay: float) -> Seated:
    await asyncio.sleep(delay)
    sent = time.perf_counter()
    device = {"X-Forwarded-For": f"10.77.{index // 250}.{index % 250 + 1}"}  # one guest, one device
    started = await client.post("/api/play", json={"name": f"玩家{index}"}, headers=device)
    if started.status_code != 201:
        raise RuntimeError(f"table {index}: POST /api/play {started.status_code} {started.text[:200]}")
    answered = time.perf_counter() - sent
    body = started.json()
    headers = {"X-Play-Token": body["play_token"]}
    snap: dict[str, Any] = {}
    for _ in range(10):  # each long-poll returns on the next change; bounded so a stuck room cannot hang the run
        response = await client.get(f"/api/matches/{body['match_id']}", headers=headers,
                                    params={"wait": 30, "wait_for": "opponent_joined"})
        response.raise_for_status()
        snap = response.json()
        if snap["status"] != "waiting":
            break
    seen = time.perf_counter() - sent
    return Seated(body["match_id"], _server_seconds(snap), seen, snap["status"], answered, _first_bot(snap))


def _server_seconds(snap: dict[str, Any]) -> float:
    stamps = {e["type"]: datetime.fromisoformat(e["ts"]).timestamp() for e in snap.get("public_log", [])}
    if "match_started" not in stamps:
        return float("inf")
    return stamps["match_started"] - stamps["match_created"]


def _first_bot(snap: dict[str, Any]) -> float:
    """Seconds from the room's creation to the first seat a bot took: the bots' share of the wait (being woken,
    listing the room, registering agents the pool lacked) before the joins themselves."""
    log = snap.get("public_log", [])
    stamps = [datetime.fromisoformat(e["ts"]).timestamp() for e in log
              if e["type"] == "player_joined" and e.get("seat", 0) > 0]
    created = next((datetime.fromisoformat(e["ts"]).timestamp() for e in log if e["type"] == "match_created"), None)
    return min(stamps) - created if stamps and created is not None else float("inf")


async def run(base_url: str, tables: int, spread: float) -> list[Seated]:
    limits = httpx.Limits(max_connections=tables * 2 + 4, max_keepalive_connections=tables * 2 + 4)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:
        step = spread / max(tables - 1, 1)
        return list(await asyncio.gather(*(one_table(client, i, i * step) for i in range(tables))))


def report(results: list[Seated], label: str, spread: float) -> str:
    server = [r.server for r in results]
    client = [r.client for r in results]
    within = sum(r.server <= TARGET and r.status == "in_progress" for r in results)
    at_once = sum(r.server == 0 and r.status == "in_progress" for r in results)  # dealt as the room was created
    lines = [f"  table {i:2d} {r.match_id}: seated in {r.server * 1000:7.1f} ms (server), "
             f"{r.client * 1000:7.1f} ms (client; the 201 after {r.answered * 1000:.0f} ms; the first bot sat after "
             f"{r.first_bot * 1000:.0f} ms), {r.status}"
             for i, r in enumerate(results)]

    def stats(values: list[float]) -> str:
        return "/".join(f"{percentile(values, q) * 1000:.0f}" for q in (0.5, 0.95)) + f"/{max(values) * 1000:.0f}"

    lines += [
        f"tables={len(results)} opened over {spread:.1f}s",
        f"time to fully seated p50/p95/max: server {stats(server)} ms, client {stats(client)} ms; "
        f"POST /api/play answered p50/p95/max {stats([r.answered for r in results])} ms; the first bot seated "
        f"p50/p95/max {stats([r.first_bot for r in results])} ms after the room's creation; {at_once} tables dealt "
        f"in the transaction that created them",
        f"SUMMARY {label} quick starts T={len(results)} over {spread:.1f}s: fully seated p50/p95/max "
        f"{stats(server)} ms (server stamps), {stats(client)} ms (client); {within}/{len(results)} within "
        f"{TARGET:.0f} s",
    ]
    return "\n".join(lines)


def _wait_for_bots(base_url: str) -> None:
    """Until the filler has registered its first agents (the last one it registers is the sixth persona's second)."""
    last = f"/api/agents/{PERSONAS[-1].handle(2)}"
    for _ in range(300):
        if httpx.get(base_url + last, timeout=5).status_code == 200:
            time.sleep(0.2)  # its first pass over the lobby follows at once
            return
        time.sleep(0.1)
    raise SystemExit("the server's official bots did not register")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--spread", type=float, default=2.0, help="open the tables evenly over this many seconds")
    parser.add_argument("--base-url", default=None, help="a running server (with its official bots on)")
    parser.add_argument("--database", default=None, help="database URL for the spawned server (default: temp SQLite)")
    parser.add_argument("--pool-max", type=int, default=20, help="WODI_BOT_POOL_MAX of the spawned server")
    parser.add_argument("--port", type=int, default=8795)
    args = parser.parse_args()
    if args.base_url:
        print(report(asyncio.run(run(args.base_url, args.tables, args.spread)), args.base_url, args.spread))
        return
    database = args.database or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench_play.db"
    process = spawn(database, args.port, bots=True, pool_max=args.pool_max)
    try:
        _wait_for_bots(f"http://127.0.0.1:{args.port}")
        cpu_before = cpu_seconds(process.pid)
        results = asyncio.run(run(f"http://127.0.0.1:{args.port}", args.tables, args.spread))
        cpu = cpu_seconds(process.pid) - cpu_before
        print(f"server CPU during the run: {cpu:.2f} s (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
              "cores)", flush=True)
    finally:
        process.terminate()
        process.wait(10)
    print(report(results, database.split(":", 1)[0], args.spread), flush=True)
    sys.exit(0 if all(r.status == "in_progress" for r in results) else 1)


if __name__ == "__main__":
    main()
