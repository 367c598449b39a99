"""Benchmark: the server's CPU per request and per finished game, against a bare FastAPI JSON endpoint.

    python -m tools.bench_cpu                  # 10 tables of 6 agents, parallel votes, on a fresh SQLite file
    python -m tools.bench_cpu --serial         # one action in flight per table (how the reference is measured)
    python -m tools.bench_cpu --tables 10 --database postgresql+asyncpg://postgres@127.0.0.1/wodi_cpu

Runs, side by side in one invocation:
1. the server (`python -m app`, bots off) while `tools.bench` plays `--tables` undercover tables over HTTP (every
   agent long-polls, a round's votes are sent at once); the server process's CPU time (user + system, from
   /proc) is divided by the HTTP requests the agents sent and by the games finished;
2. a bare FastAPI app (one `GET` answering a small JSON object) under uvicorn with the server's settings, sent as
   many requests by as many concurrent clients, three times (`--bare-runs`); its median CPU per request is the
   yardstick;
3. the stack's floor for the same requests (`tools.bench_floor`): as many writes and reads as the agents sent,
   answered by FastAPI, uvicorn and SQLAlchemy with no game server's code above the database handle (a write is
   a three-statement transaction run the way Wodi's command path runs it, a read the bare `GET`) — what those
   requests would cost on this stack before any key, rule or view (`--no-floor` skips it).
Prints all three, their ratio and the CPU per finished game, then one SUMMARY line. The issue's reference figure
(1,697 ms of server CPU per finished game, serial actions) is quoted beside it; the reference itself does not run
here, so the comparison that holds across machines is in units of the bare endpoint's request: the issue's machine
answered it in 0.242 ms (the reference's 6.05 ms per request was 25x), so the reference's game cost 7,012 of them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from tools.bench import Figures, cpu_seconds, port_free, report, run_workers, spawn, started
from tools.bench_floor import floor_server, measure, plan_mix

REFERENCE_MS_PER_GAME = 1697.0  # issue 29's measurement of the reference implementation (serial actions)
# The bare endpoint on the machine: the reference's 6.05 ms per request was 25x it. Dividing a game's CPU
# by the bare endpoint of its own run compares games measured on different machines.
REFERENCE_BARE_MS = 6.05 / 25
BARE_APP = '''
from fastapi import FastAPI
app = FastAPI()

@app.get("/bare")
async def bare() -> dict:
    return {"ok": True, "seq": 1, "phase": "speaking"}
'''


def bare_server(port: int) -> subprocess.Popen[bytes]:
    port_free(port)
    folder = Path(tempfile.mkdtemp())
    (folder / "bare_app.py").write_text(BARE_APP)
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "bare_app:app", "--port", str(port),  # noqa: S603
                                "--log-level", "warning", "--no-access-log", "--timeout-keep-alive", "65"],
                               cwd=folder)
    return started(process, f"http://127.0.0.1:{port}/bare")


async def hammer(url: str, requests: int, clients: int) -> None:
    """`requests` GETs from `clients` concurrent clients, each sending one after another."""
    share = [requests // clients + (i < requests % clients) for i in range(clients)]

    async def one(n: int) -> None:
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=1)) as client:
            for _ in range(n):
                (await client.get(url)).raise_for_status()

    await asyncio.gather(*(one(n) for n in share))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--batches", type=int, default=1, help="games per table, one after another")
    parser.add_argument("--database", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8797, help="the bare endpoint takes the next port")
    parser.add_argument("--workers", type=int, default=4, help="client processes that play the tables")
    parser.add_argument("--bare-runs", type=int, default=3,
                        help="send the bare endpoint the same requests this many times and take the median CPU: one "
                             "short run moves with the machine's noise (up to 2x here)")
    parser.add_argument("--no-floor", action="store_true", help="skip the stack's floor (step 3)")
    parser.add_argument("--serial", action="store_true",
                        help="serial actions: one action in flight per table (the reference's way; votes wait)")
    args = parser.parse_args()
    database = args.database or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/cpu.db"

    server = spawn(database, args.port)
    try:
        before = cpu_seconds(server.pid)
        figures = run_workers([f"http://127.0.0.1:{args.port}"], args.tables, args.batches, args.workers, args.serial)
        wodi_cpu = cpu_seconds(server.pid) - before
    finally:
        server.terminate()
        server.wait(10)
    print(report(figures, f"{database.split(':', 1)[0]} (played for the CPU figures)", args.tables))

    bare = bare_server(args.port + 1)
    runs: list[float] = []
    try:
        for _ in range(args.bare_runs):
            before = cpu_seconds(bare.pid)
            asyncio.run(hammer(f"http://127.0.0.1:{args.port + 1}/bare", figures.requests, args.tables * 6))
            runs.append(cpu_seconds(bare.pid) - before)
    finally:
        bare.terminate()
        bare.wait(10)
    bare_cpu = statistics.median(runs)
    print("bare endpoint CPU per run: " + ", ".join(f"{run:.2f}s" for run in runs) + " (the median is used)")
    floor = None if args.no_floor else stack_floor(figures, database, args.port + 2, args.bare_runs, args.tables * 6)

    per_request = wodi_cpu / max(1, figures.requests) * 1000
    bare_per_request = bare_cpu / max(1, figures.requests) * 1000
    per_game = wodi_cpu / max(1, figures.games) * 1000
    ratio = per_request / bare_per_request if bare_per_request else float("nan")
    print(f"requests={figures.requests} ({figures.writes} writes, {figures.requests - figures.writes} reads) "
          f"games={figures.games} server CPU={wodi_cpu:.2f}s bare CPU={bare_cpu:.2f}s")
    print(f"CPU per request: server {per_request:.3f} ms, bare endpoint {bare_per_request:.3f} ms ({ratio:.1f}x)")
    print(f"CPU per finished game: {per_game:.0f} ms (the issue's reference: {REFERENCE_MS_PER_GAME:.0f} ms, "
          f"1/{REFERENCE_MS_PER_GAME / per_game:.1f} of it, on another machine)")
    games_in_bare = per_game / bare_per_request if bare_per_request else float("nan")
    reference_in_bare = REFERENCE_MS_PER_GAME / REFERENCE_BARE_MS
    print(f"CPU per finished game in bare-endpoint requests of the same machine: {games_in_bare:.0f} (the "
          f"reference's: {reference_in_bare:.0f}, so 1/{reference_in_bare / games_in_bare:.1f} of it)")
    if floor is not None:
        print(f"the stack's floor for these {figures.requests} requests: {floor:.3f} ms/request "
              f"({floor / bare_per_request:.1f}x bare): Wodi's own code adds {per_request - floor:.3f} ms")
    mode = "serial" if args.serial else "parallel votes"
    print(f"SUMMARY cpu {database.split(':', 1)[0]} T={args.tables} {mode}: {per_request:.3f} ms/request = "
          f"{ratio:.1f}x bare "
          f"({bare_per_request:.3f} ms), {per_game:.0f} ms/game = 1/{reference_in_bare / games_in_bare:.1f} of the "
          f"reference's in bare requests, errors {len(figures.errors)}"
          + (f", the stack's floor {floor / bare_per_request:.1f}x bare" if floor is not None else ""))


def stack_floor(figures: Figures, database: str, port: int, runs: int, clients: int) -> float:
    """The median CPU per request of `tools.floor_app` answering the run's writes and reads, on the run's kind of
    database (its own SQLite file; the run's PostgreSQL database, in tables of its own)."""
    if database.startswith("sqlite"):
        database = f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'floor.db'}"
    server = floor_server(port, database)
    try:
        plan = plan_mix(figures.writes, figures.requests - figures.writes, clients)
        return statistics.median(measure(server.pid, f"http://127.0.0.1:{port}", plan) for _ in range(runs))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
