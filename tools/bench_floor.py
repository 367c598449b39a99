"""Benchmark: the floor of the stack — what the cheapest requests cost in FastAPI, uvicorn and SQLAlchemy (async)
with no Wodi code above the database handle — against the bare endpoint `tools.bench_cpu` divides by.

    python -m tools.bench_floor                       # each route of tools/floor_app.py, 3,000 requests, 3 runs
    python -m tools.bench_floor --mix 1760:1316       # and the floor of a bench run's requests (writes:reads)
    python -m tools.bench_floor --database postgresql+asyncpg://postgres@127.0.0.1/wodi_floor

Serves `tools.floor_app` under uvicorn with the server's settings (one process, uvloop and httptools as the
server gets them) and sends each route `--requests` requests from `--clients` concurrent keep-alive clients, `--runs`
times; the server process's CPU (user + system, from /proc) divided by the requests is a route's cost, the median of
the runs is printed beside its multiple of the bare `GET`. With `--mix W:R` it also sends W writes (`POST
/direct`: the shape of Wodi's action transaction, run the way Wodi runs it) and R reads (`GET /bare`) interleaved, as
a game's agents do, and prints that mix's CPU per request in bare requests: what those requests cost on this stack
before any code of a game server — a key, a rule, a view — runs. `tools.bench_cpu` prints a run's writes and reads.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from tools.bench import cpu_seconds, port_free, started

ROUTES = ("bare", "post", "empty", "append", "command", "direct")
BODY = {"type": "speak", "text": "这个东西很常见"}


def floor_server(port: int, database: str) -> subprocess.Popen[bytes]:
    port_free(port)
    env = {**os.environ, "WODI_FLOOR_DATABASE_URL": database}
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "tools.floor_app:app", "--port", str(port),  # noqa: S603
                                "--log-level", "warning", "--no-access-log", "--timeout-keep-alive", "65"], env=env)
    return started(process, f"http://127.0.0.1:{port}/bare")


def plan_mix(writes: int, reads: int, clients: int) -> list[list[str]]:
    """Each client's requests in order: the requests dealt out evenly, each client's share of the writes in
    proportion to its share of the requests, and its writes spread evenly among its reads (as a seat's actions
    come between its long-polls)."""
    total = writes + reads
    sizes = [total // clients + (c < total % clients) for c in range(clients)]
    plan: list[list[str]] = []
    done_requests = done_writes = 0
    for size in sizes:
        mine = (done_requests + size) * writes // total - done_writes  # the writes due by the end of this share
        done_requests, done_writes = done_requests + size, done_writes + mine
        plan.append(["direct" if (i * mine) // size != ((i + 1) * mine) // size else "bare" for i in range(size)])
    return plan


async def send(base: str, plan: list[list[str]]) -> None:
    async def one(index: int, kinds: list[str]) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=1)) as client:
            for kind in kinds:
                if kind == "bare":
                    response = await client.get("/bare")
                else:
                    response = await client.post(f"/{kind}/{index % 10}", json=BODY)
                response.raise_for_status()

    await asyncio.gather(*(one(index, kinds) for index, kinds in enumerate(plan)))


def measure(pid: int, base: str, plan: list[list[str]]) -> float:
    """The server's CPU milliseconds per request while it answers `plan`."""
    before = cpu_seconds(pid)
    asyncio.run(send(base, plan))
    return (cpu_seconds(pid) - before) / max(1, sum(map(len, plan))) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3000, help="requests per route and run")
    parser.add_argument("--clients", type=int, default=60, help="concurrent clients (the bench's 10 tables of 6)")
    parser.add_argument("--runs", type=int, default=3, help="runs per route; the median is printed")
    parser.add_argument("--mix", default=None, help="WRITES:READS of a bench run (tools.bench_cpu prints them)")
    parser.add_argument("--database", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    database = args.database or f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'floor.db'}"
    if args.mix is not None:
        writes, reads = (int(part) for part in args.mix.split(":"))

    server = floor_server(args.port, database)
    base = f"http://127.0.0.1:{args.port}"
    figures: dict[str, list[float]] = {}
    try:
        for run in range(args.runs):
            for route in ROUTES:
                plan = [[route] * (args.requests // args.clients) for _ in range(args.clients)]
                figures.setdefault(route, []).append(measure(server.pid, base, plan))
            if args.mix is not None:
                figures.setdefault("mix", []).append(measure(server.pid, base, plan_mix(writes, reads, args.clients)))
            print(f"  run {run + 1}/{args.runs}: " + ", ".join(f"{k} {v[-1]:.3f}" for k, v in figures.items()),
                  flush=True)
    finally:
        server.terminate()
        server.wait(10)

    median = {route: statistics.median(runs) for route, runs in figures.items()}
    bare = median["bare"]
    print(f"{'route':<10} {'CPU per request':>16} {'x bare':>7}")
    for route, value in median.items():
        print(f"{route:<10} {value:>13.3f} ms {value / bare:>7.1f}")
    summary = (f"SUMMARY floor {database.split(':', 1)[0]}: bare {bare:.3f} ms, post {median['post'] / bare:.1f}x, "
               f"empty write {median['empty'] / bare:.1f}x, 2-statement write {median['append'] / bare:.1f}x, "
               f"3-statement write {median['command'] / bare:.1f}x, direct {median['direct'] / bare:.1f}x")
    if "mix" in median:
        summary += f"; {writes} writes + {reads} reads: {median['mix'] / bare:.1f}x bare per request"
    print(summary)


if __name__ == "__main__":
    main()
