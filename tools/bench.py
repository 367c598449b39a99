"""Benchmark: T tables of 6 agents play real games over HTTP, every agent long-polling, votes simultaneous.

    python -m tools.bench --tables 10                 # starts its own server on a fresh SQLite file
    python -m tools.bench --tables 10 --database postgresql+asyncpg://postgres@127.0.0.1/wodi_bench
    python -m tools.bench --tables 10 --base-url http://127.0.0.1:8000   # an already running server
    python -m tools.bench --tables 10 --database postgresql+asyncpg://… --processes 1,2   # 1 vs 2 processes

Prints games/s, actions/s, p50/p99 action latency, p50/p99 turn hand-off (from an action's response to the
next actor's long-poll return), how busy the spawned servers and the machine were (a server near a whole core is
saturated, and its p99 is then queueing), and errors, then one summary line. The hand-offs are also split by
whether the next actor's long-poll was already sent when the action was answered (the server's wake-up) or only
after (then it includes that request's own trip through the server: a voter whose vote closed the round, say).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

# One TLS context for every client of a process. httpx builds a new one (loading the CA bundle, ~20 ms of CPU) for
# each client it is not given one: with six clients per table per game, that was 62 % of the load generator's CPU,
# taken from the server on the same cores in bursts as tables started (py-spy, 2026-12-06).
TLS = ssl.create_default_context()

CLUES = ["这个东西很常见", "我觉得大家都用过", "和生活有关", "颜色不好说", "有时候在外面能看到", "挺实用的"]


@dataclass
class Figures:
    actions: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    handoffs: list[float] = field(default_factory=list)
    waiting: list[float] = field(default_factory=list)  # hand-offs to a long-poll sent before the action's answer
    late: list[float] = field(default_factory=list)  # hand-offs to a long-poll sent after it
    acted: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    woken: list[tuple[str, int, float, float]] = field(default_factory=list)  # match, seq, returned, sent
    early: int = 0
    elapsed: float = 0.0
    requests: int = 0  # HTTP requests sent, of every kind (registrations, joins, long-polls, actions)
    writes: int = 0  # of which not GETs: registrations, rooms, joins and actions (each a write transaction)

    def counting(self) -> dict[str, list[Any]]:
        """httpx event hooks that count every request a client sends into `requests`."""
        async def count(request: httpx.Request) -> None:
            self.requests += 1
            self.writes += request.method != "GET"

        return {"request": [count]}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def register(client: httpx.AsyncClient, name: str) -> str:
    response = await client.post("/api/agents", json={"name": name})
    response.raise_for_status()
    return str(response.json()["api_key"])


def choose(snap: dict[str, Any], seat: int, rnd: int) -> dict[str, Any] | None:
    you = snap["you"]
    action = you["next_action"]
    if action == "speak":
        text = next((c for c in CLUES[rnd % len(CLUES):] + CLUES if not you["word"] or you["word"] not in c), "嗯")
        return {"type": "speak", "text": f"{text}（{rnd}）"}
    if action == "vote":
        pool = [s for s in snap.get("pk_candidates") or [] if s != seat] or [
            p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != seat]
        return {"type": "vote", "target_seat": pool[(seat + rnd) % len(pool)]}
    if action == "last_words":
        return {"type": "last_words", "text": "祝大家好运"}
    if action == "guess_word":
        return {"type": "guess_word", "word": "不知道"}
    return None


async def agent(client: httpx.AsyncClient, key: str, match_id: str, seat: int, figures: Figures,
                serial: asyncio.Lock | None = None) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    url = f"/api/matches/{match_id}"
    rnd = 0
    while True:
        sent = time.perf_counter()
        response = await client.get(url, params={"wait": 30, "wait_for": "your_turn"}, headers=headers)
        returned = time.perf_counter()
        if response.status_code != 200:
            figures.errors.append(f"GET {response.status_code} {response.text[:120]}")
            return
        snap = response.json()
        if snap["status"] != "in_progress":
            return
        body = choose(snap, seat, rnd)
        if body is None:
            continue
        figures.woken.append((match_id, snap["events_total"], returned, sent))
        rnd += 1
        start = time.perf_counter()
        if serial is None:
            acted = await client.post(f"{url}/action", json=body, headers=headers)
        else:  # serial actions: one in flight per table, as a client that cannot send votes together
            async with serial:
                acted = await client.post(f"{url}/action", json=body, headers=headers)
        done = time.perf_counter()
        figures.latencies.append(done - start)
        figures.actions += 1
        if acted.status_code != 200:
            figures.errors.append(f"{body['type']} {acted.status_code} {acted.text[:160]}")
        else:
            figures.acted.setdefault(match_id, []).append((acted.json()["seq"], done))


async def table(clients: list[httpx.AsyncClient], index: int, run_id: str, figures: Figures,
                serial: bool = False) -> None:
    """One table; seat i talks to server `(index + i) % len(clients)`, so load spreads over every process."""
    client = clients[index % len(clients)]
    keys = [await register(client, f"bench-{run_id}-{index}-{seat}") for seat in range(6)]
    created = await client.post("/api/matches", headers={"Authorization": f"Bearer {keys[0]}"},
                                json={"config": {"n_players": 6, "n_undercover": 1, "last_words": True}})
    created.raise_for_status()
    match_id = created.json()["match_id"]
    for key in keys[1:]:
        (await client.post(f"/api/matches/{match_id}/join", json={},
                           headers={"Authorization": f"Bearer {key}"})).raise_for_status()
    # Each agent is its own client with its own connections, as separate agent programs would be.
    own = [httpx.AsyncClient(base_url=clients[(index + seat) % len(clients)].base_url, timeout=60, verify=TLS,
                             limits=httpx.Limits(max_connections=2), event_hooks=figures.counting())
           for seat in range(len(keys))]
    try:
        lock = asyncio.Lock() if serial else None
        await asyncio.gather(*(agent(own[seat], key, match_id, seat, figures, lock) for seat, key in enumerate(keys)))
    finally:
        for client_of_agent in own:
            await client_of_agent.aclose()
    figures.games += 1


def settle_handoffs(figures: Figures) -> None:
    """Pair each turn's long-poll return with the action that caused it (the last one at or before the seq the
    snapshot shows). A return that reached the client before that action's own response counts as 0 (the wake-up
    beat the response); the time is never charged to an earlier action."""
    for match_id, events_total, returned, sent in figures.woken:
        actions = sorted(figures.acted.get(match_id, []))
        index = bisect.bisect_right(actions, (events_total, float("inf"))) - 1
        if index < 0:
            continue  # the first turn after the deal: caused by a join, not an action
        done = actions[index][1]
        figures.early += returned < done
        figures.handoffs.append(max(0.0, returned - done))
        (figures.late if sent > done else figures.waiting).append(figures.handoffs[-1])
    figures.woken.clear()
    figures.acted.clear()


def run_workers(base_urls: list[str], tables: int, rounds: int, workers: int, serial: bool = False) -> Figures:
    """Split the tables over `workers` client processes. Each agent has its own HTTP client and connections, as
    separate agent programs would; one Python process still runs many agents on one event loop."""
    if workers <= 1:
        figures = asyncio.run(run(base_urls, tables, rounds, serial=serial))
        settle_handoffs(figures)
        return figures
    shares = [range(w, tables, workers) for w in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_worker, [(base_urls, list(share), rounds, serial) for share in shares if share]))
    total = Figures(elapsed=max(p.elapsed for p in parts))
    for part in parts:
        total.games += part.games
        total.actions += part.actions
        total.errors += part.errors
        total.latencies += part.latencies
        total.handoffs += part.handoffs
        total.waiting += part.waiting
        total.late += part.late
        total.early += part.early
        total.requests += part.requests
        total.writes += part.writes
    return total


def _worker(job: tuple[list[str], list[int], int, bool]) -> Figures:
    base_urls, indexes, rounds, serial = job
    figures = asyncio.run(run(base_urls, len(indexes), rounds, indexes, serial))
    settle_handoffs(figures)
    return figures


async def run(base_urls: list[str], tables: int, rounds: int, indexes: list[int] | None = None,
              serial: bool = False) -> Figures:
    figures = Figures()
    indexes = indexes if indexes is not None else list(range(tables))
    limits = httpx.Limits(max_connections=tables * 6 + 10, max_keepalive_connections=tables * 6 + 10)
    clients = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits, verify=TLS, event_hooks=figures.counting())
               for url in base_urls]
    try:
        run_id = f"{int(time.time() * 1000) % 10_000_000}"
        started = time.perf_counter()
        for r in range(rounds):
            await asyncio.gather(*(table(clients, i, f"{run_id}r{r}", figures, serial) for i in indexes))
            print(f"  batch {r + 1}/{rounds}: {figures.games} games, {figures.actions} actions", file=sys.stderr)
        figures.elapsed = time.perf_counter() - started
    finally:
        for client in clients:
            await client.aclose()
    return figures


def report(figures: Figures, label: str, tables: int, load: str | None = None) -> str:
    """The figures, one per line (`load`: how busy the servers and the machine were), then one SUMMARY line."""
    rate = figures.games / figures.elapsed, figures.actions / figures.elapsed
    act = [percentile(figures.latencies, q) * 1000 for q in (0.5, 0.99)]
    hand = [percentile(figures.handoffs, q) * 1000 for q in (0.5, 0.99)]
    split = [percentile(values, q) * 1000 for values in (figures.waiting, figures.late) for q in (0.5, 0.99)]
    lines = [
        f"tables={tables} games={figures.games} actions={figures.actions} elapsed={figures.elapsed:.1f}s",
        f"games/s={rate[0]:.2f} actions/s={rate[1]:.1f}",
        f"action latency p50={act[0]:.1f}ms p99={act[1]:.1f}ms",
        f"hand-off p50={hand[0]:.1f}ms p99={hand[1]:.1f}ms (n={len(figures.handoffs)}, "
        f"{figures.early} woken before the action's response arrived)",
        f"  to a long-poll already sent p50={split[0]:.1f}ms p99={split[1]:.1f}ms (n={len(figures.waiting)}); "
        f"to one sent after the action's answer p50={split[2]:.1f}ms p99={split[3]:.1f}ms (n={len(figures.late)})",
        *([load] if load else []),
        f"errors={len(figures.errors)}",
        *(f"  error: {error}" for error in figures.errors[:5]),
        f"SUMMARY {label} T={tables}: {rate[0]:.2f} games/s, {rate[1]:.1f} actions/s, action p50/p99 "
        f"{act[0]:.1f}/{act[1]:.1f} ms, hand-off p50/p99 {hand[0]:.1f}/{hand[1]:.1f} ms, errors {len(figures.errors)}",
    ]
    return "\n".join(lines)


def spawn(database_url: str, port: int, *, bots: bool = False, pool_max: int = 20,
          module: tuple[str, ...] = ("app",)) -> subprocess.Popen[bytes]:
    """A server process on `port` (the schema is migrated first); with `bots`, its official bots fill only the
    rooms that ask for them at once (quick starts), and play no showcase. `module`: what `python -m` runs (the
    server, or a tool wrapping it)."""
    port_free(port)
    env = {**os.environ, "WODI_DATABASE_URL": database_url, "WODI_PORT": str(port), "WODI_LOG_LEVEL": "WARNING",
           "WODI_RATE_LIMIT_ENABLED": "false", "WODI_BOTS_ENABLED": "true" if bots else "false",
           "WODI_BOT_FILL_AFTER": "600", "WODI_BOT_POOL_MAX": str(pool_max), "WODI_SHOWCASE": "false",
           "WODI_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}", "WODI_TRUSTED_PROXIES": "127.0.0.1"}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], env=env, check=True,
                   capture_output=True)
    process = subprocess.Popen([sys.executable, "-m", *module], env=env)  # noqa: S603 - our own modules
    return started(process, f"http://127.0.0.1:{port}/readyz")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far, its exited children excluded (Linux `/proc`; 0 where
    it cannot be read)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_jiffies() -> tuple[int, int]:
    """(busy, all) clock ticks of every core so far, from /proc/stat's `cpu` line (idle and iowait are not busy;
    zeros where it cannot be read)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    idle = sum(fields[3:5])
    return sum(fields) - idle, sum(fields)


def load_line(pids: list[int], before: list[float], jiffies: tuple[int, int], elapsed: float) -> str:
    """How busy the spawned servers and the whole machine were since `before` / `jiffies`: a closed-loop bench runs
    the servers as fast as the machine lets them, so a server near a whole core means its p99 is mostly queueing."""
    spent = sum(cpu_seconds(pid) - then for pid, then in zip(pids, before, strict=True))
    busy, total = (now - then for now, then in zip(machine_jiffies(), jiffies, strict=True))
    cores = os.cpu_count() or 1
    machine = f"{100 * busy / total:.0f} % of its {cores} cores" if total else "unknown"
    return (f"load: the server{'s' if len(pids) > 1 else ''} used {spent:.2f} s of CPU in {elapsed:.1f} s "
            f"({100 * spent / elapsed / len(pids):.0f} % of a core each); the machine was busy {machine} "
            f"(servers, clients, database)")


def port_free(port: int) -> None:
    """Exit unless nothing listens on 127.0.0.1:`port`: a spawned server that cannot bind would leave the
    benchmark measuring whichever server already answers there (another benchmark's, say)."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        raise SystemExit(f"port {port} is taken (another server listens there): pass --port")


def started(process: subprocess.Popen[bytes], url: str) -> subprocess.Popen[bytes]:
    """`process`, once `url` answers 200 — and only while `process` itself still runs."""
    for _ in range(150):
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode} before answering {url}")
        try:
            if httpx.get(url, timeout=1).status_code == 200 and process.poll() is None:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not answer {url}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--batches", type=int, default=1, help="play this many games per table, one after another")
    parser.add_argument("--base-url", default=None, help="comma-separated URLs of running servers")
    parser.add_argument("--database", default=None, help="database URL for spawned servers (default: temp SQLite)")
    parser.add_argument("--processes", default="1", help="spawn this many server processes; '1,2' runs both")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--workers", type=int, default=4,
                        help="client processes that play the tables (default 4): agents packed into one Python "
                             "process wait for each other's JSON and HTTP work, and that wait shows up in the hand-off")
    args = parser.parse_args()
    if args.base_url:
        figures = run_workers(args.base_url.split(","), args.tables, args.batches, args.workers)
        print(report(figures, args.base_url, args.tables))
        return
    database = args.database or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.db"
    results = {}
    for count in (int(n) for n in args.processes.split(",")):
        processes = [spawn(database, args.port + i) for i in range(count)]
        try:
            urls = [f"http://127.0.0.1:{args.port + i}" for i in range(count)]
            pids = [process.pid for process in processes]
            before, jiffies, began = [cpu_seconds(pid) for pid in pids], machine_jiffies(), time.perf_counter()
            results[count] = run_workers(urls, args.tables, args.batches, args.workers)
            load = load_line(pids, before, jiffies, time.perf_counter() - began)
        finally:
            for process in processes:
                process.terminate()
                process.wait(10)
        print(report(results[count], f"{database.split(':', 1)[0]} processes={count}", args.tables, load), flush=True)
    if len(results) > 1:
        base = min(results)
        for count, figures in results.items():
            ratio = (figures.actions / figures.elapsed) / (results[base].actions / results[base].elapsed)
            print(f"RATIO actions/s with {count} processes vs {base}: {ratio:.2f}")


if __name__ == "__main__":
    main()
