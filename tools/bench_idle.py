"""Benchmark: one server process holding many idle long-polls and open event streams.

    python -m tools.bench_idle                                  # 10,000 long-polls + 1,000 streams, SQLite
    python -m tools.bench_idle --polls 2000 --streams 200 --database postgresql+asyncpg://…/wodi_idle

Spawns the server (bots off), opens one running 4-seat match, then holds `--polls` spectator long-polls
(`GET /api/matches/{id}?wait=30`, re-sent as each returns) and `--streams` event streams
(`GET /api/matches/{id}/events/stream`) for `--hold` seconds. Meanwhile it reads the match's snapshot four times a
second and, at the end, the server's resident memory (VmRSS). The reads taken while the clients are still opening
their connections are reported apart; the figures "meanwhile" start once the server's `/metrics` says it holds
every one of them (`wodi_longpolls_held`). Prints the figures, then one SUMMARY line. The client side runs
`--workers` processes so the client is not what limits.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx

from tools.bench import percentile, register, spawn


def held_now(base_url: str) -> dict[str, float]:
    """The server's own count of what it holds (`/metrics`: wodi_longpolls_held, wodi_streams_held)."""
    text = httpx.get(f"{base_url}/metrics", timeout=30).text  # a blocking read: the sampling loop waits for it
    return {line.split("{")[0]: float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
            if line.startswith(("wodi_longpolls_held{", "wodi_streams_held{"))}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def open_match(base_url: str) -> str:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        keys = [await register(client, f"idle-{int(time.time() * 1000) % 10_000_000}-{seat}") for seat in range(4)]
        created = await client.post("/api/matches", headers={"Authorization": f"Bearer {keys[0]}"},
                                    json={"config": {"n_players": 4, "n_undercover": 1, "speak_timeout": 600}})
        created.raise_for_status()
        match_id = str(created.json()["match_id"])
        for key in keys[1:]:
            (await client.post(f"/api/matches/{match_id}/join", json={},
                               headers={"Authorization": f"Bearer {key}"})).raise_for_status()
        return match_id


async def hold(base_url: str, match_id: str, polls: int, streams: int, seconds: float) -> tuple[int, int, int]:
    """Hold the long-polls and streams until `seconds` have passed; (long-polls answered, streams opened, errors)."""
    limits = httpx.Limits(max_connections=polls + streams + 10, max_keepalive_connections=polls + streams + 10)
    until = time.monotonic() + seconds
    answered = opened = errors = 0
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:

        async def poll() -> None:
            nonlocal answered, errors
            while time.monotonic() < until:
                try:
                    response = await client.get(f"/api/matches/{match_id}",
                                                params={"wait": 30, "wait_for": "any_change"})
                    answered += response.status_code == 200
                    errors += response.status_code != 200
                except httpx.HTTPError:
                    errors += 1
                    await asyncio.sleep(1)

        async def stream() -> None:
            nonlocal opened, errors
            try:
                async with client.stream("GET", f"/api/matches/{match_id}/events/stream") as response:
                    if response.status_code != 200:
                        errors += 1
                        return
                    opened += 1
                    async for _ in response.aiter_bytes():
                        if time.monotonic() >= until:
                            return
            except httpx.HTTPError:
                errors += 1

        tasks = [asyncio.create_task(poll()) for _ in range(polls)] + [
            asyncio.create_task(stream()) for _ in range(streams)]
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return answered, opened, errors


def _worker(job: tuple[str, str, int, int, float]) -> tuple[int, int, int]:
    return asyncio.run(hold(*job))


async def sample_reads(base_url: str, match_id: str, until: float, every: float = 0.25,
                       stop_when_held: int | None = None) -> tuple[list[float], dict[str, float], bool]:
    """A snapshot read every `every` seconds until `until` (monotonic), and the most the server said it held
    (`/metrics`, read after each read), and whether it stopped because the server held `stop_when_held` waiters."""
    times: list[float] = []
    most: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        while time.monotonic() < until:
            began = time.perf_counter()
            (await client.get(f"/api/matches/{match_id}")).raise_for_status()
            times.append(time.perf_counter() - began)
            held = held_now(base_url)
            for name, value in held.items():
                most[name] = max(most.get(name, 0.0), value)
            if stop_when_held is not None and held.get("wodi_longpolls_held", 0) >= stop_when_held:
                return times, most, True
            await asyncio.sleep(every)
    return times, most, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polls", type=int, default=10_000)
    parser.add_argument("--streams", type=int, default=1_000)
    parser.add_argument("--hold", type=float, default=90.0,
                        help="seconds the clients hold them, opening included (reads are sampled once all are held)")
    parser.add_argument("--database", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    args = parser.parse_args()
    database = args.database or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/idle.db"
    os.environ["WODI_STREAMS_PER_CLIENT"] = str(args.streams + 10)  # every stream comes from this one address
    server = spawn(database, args.port)
    base_url = f"http://127.0.0.1:{args.port}"
    try:
        match_id = asyncio.run(open_match(base_url))
        idle_rss = rss_mb(server.pid)
        share = [(base_url, match_id, args.polls // args.workers, args.streams // args.workers, args.hold)
                 for _ in range(args.workers)]
        with ProcessPoolExecutor(args.workers) as pool:
            began = time.monotonic()
            held = pool.map(_worker, share)
            # While the clients open their connections, the machine's two cores are theirs as much as the server's:
            # those reads are reported apart. "Meanwhile" starts once the server itself holds every one of them.
            everyone = args.polls + args.streams
            opening, _, all_held = asyncio.run(
                sample_reads(base_url, match_id, began + args.hold / 2, stop_when_held=everyone))
            opened_in = time.monotonic() - began
            if not all_held:
                print(f"the server never held all {everyone} at once in {opened_in:.0f} s: the figures below include "
                      "the opening")
            reads, held_by_server, _ = asyncio.run(sample_reads(base_url, match_id, began + args.hold - 2))
            peak_rss = rss_mb(server.pid)
            answered, opened, errors = (sum(x) for x in zip(*held, strict=True))
    finally:
        server.terminate()
        server.wait(30)
    p50, p99 = (percentile(reads, q) * 1000 for q in (0.5, 0.99))
    print(f"held {args.polls} long-polls (answered {answered}) and {args.streams} streams (opened {opened}) for "
          f"{args.hold:.0f}s; errors {errors}")
    waiters, held_streams = held_by_server.get("wodi_longpolls_held", 0), held_by_server.get("wodi_streams_held", 0)
    print(f"the most the server held while sampled: {waiters:.0f} waiters (long-polls and the streams' waits), "
          f"{held_streams:.0f} streams (its /metrics)")
    print(f"server resident memory: {idle_rss:.0f} MB before, {peak_rss:.0f} MB while holding them")
    print(f"while the clients opened them ({opened_in:.1f} s): snapshot read p50 "
          f"{percentile(opening, 0.5) * 1000:.1f} ms, slowest {max(opening) * 1000:.1f} ms (n={len(opening)})")
    print(f"snapshot read meanwhile (all held, {len(reads) * 0.25:.0f} s): p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"slowest {max(reads) * 1000:.1f} ms (n={len(reads)})")
    print(f"SUMMARY idle {database.split(':', 1)[0]}: {args.polls} long-polls + {args.streams} streams, "
          f"{peak_rss:.0f} MB resident, snapshot p50/p99 {p50:.1f}/{p99:.1f} ms, errors {errors}")


if __name__ == "__main__":
    main()
