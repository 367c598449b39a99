"""`wodi-agent`: register an agent, then play matches with any `Agent` class.

    wodi-agent register my-agent                      # prints WODI_API_KEY=… (shown once)
    wodi-agent play --game undercover --agent wodi_client.examples.random_agent:RandomAgent --matches 3
    wodi-agent benchmark --game werewolf --games 6 --agent my_agent:MyAgent    # on a server with /api/benchmarks

The server is `--base-url` or `WODI_BASE_URL` (default http://127.0.0.1:8000); the key `--key` or `WODI_API_KEY`.
`benchmark` prints only the run's report, as JSON, on stdout (so `| jq` reads it); its progress goes to stderr.
Ctrl-C cancels the run on the server (`POST /api/benchmarks/{id}/cancel`) and prints the report so far.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sys
from typing import Any

from wodi_client.agent import Agent
from wodi_client.client import AsyncWodi, WodiError
from wodi_client.models import Snapshot
from wodi_client.runner import MatchRecord, Runner


def load_agent(spec: str) -> Agent:
    """`package.module:Class` → an instance (the class is called with no arguments)."""
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise SystemExit(f"--agent must be module:Class, not {spec!r}")
    sys.path.insert(0, os.getcwd())  # so a file in the current directory can be named
    try:
        target = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"wodi-agent: --agent {spec}: {type(exc).__name__}: {exc}") from None
    agent = target() if isinstance(target, type) else target
    if not callable(getattr(agent, "decide", None)):
        raise SystemExit(f"{spec} has no decide(view)")
    return agent  # type: ignore[no-any-return]


class ProgressLine:
    """One status line on stderr, rewritten in place on a terminal (one line per change otherwise)."""

    def __init__(self, index: int, total: int) -> None:
        self.index, self.total = index, total
        self.last = ""

    def __call__(self, record: MatchRecord, snap: Snapshot | None) -> None:
        phase = snap.phase if snap is not None else "?"
        refused = sum(record.refused.values())
        line = (f"[{self.index}/{self.total}] {record.game} {record.match_id} {phase} seat {record.seat} · "
                f"{record.accepted} actions · {refused} refused · {record.local_refusals} caught by the kit")
        if record.usage.input_tokens or record.usage.output_tokens:
            line += f" · {record.usage.input_tokens}+{record.usage.output_tokens} tokens"
        if line == self.last:
            return
        self.last = line
        end = "\r" if sys.stderr.isatty() else "\n"
        sys.stderr.write(line.ljust(100) + end)
        sys.stderr.flush()


def outcome(record: MatchRecord) -> str:
    result = record.result or {}
    verdict = {True: "won", False: "lost", None: "no result"}[record.won]
    return (f"match {record.match_id} ({record.game}) {record.status}: {verdict} — seat {record.seat}, "
            f"winner {result.get('winner_camp')}, {record.accepted} actions, {sum(record.refused.values())} refused")


async def _register(args: argparse.Namespace) -> int:
    async with AsyncWodi(args.base_url) as client:
        agent = await client.register(args.name, args.display_name)
    print(f"WODI_API_KEY={agent.api_key}")
    print(f"# {agent.name}: keep this key secret; it is shown once. Profile: {agent.profile_url}", file=sys.stderr)
    return 0


async def _play(args: argparse.Namespace) -> int:
    if not args.key:
        raise SystemExit("no key: pass --key or set WODI_API_KEY (wodi-agent register NAME prints one)")
    agent = load_agent(args.agent)
    config: dict[str, Any] | None = json.loads(args.config) if args.config else None
    choices: dict[str, Any] | None = json.loads(args.choices) if args.choices else None
    if args.quick and (config is not None or args.fill):
        raise SystemExit("--quick seats the bots itself and takes --choices, not --config or --fill")
    if choices is not None and not args.quick:
        raise SystemExit("--choices goes with --quick")
    records = []
    async with AsyncWodi(args.base_url, args.key) as client:
        await client.game(args.game)  # fails early on a game the server does not play
        for index in range(1, args.matches + 1):
            runner = Runner(client, agent, progress=ProgressLine(index, args.matches), wait=args.wait)
            if args.quick:
                match_id = await runner.quick_start(args.game, choices)
            else:
                match_id = await runner.find_or_create(args.game, config, fill=args.fill)
            record = await runner.play_match(match_id)
            records.append(record)
            print(outcome(record), flush=True)
    wins = sum(1 for r in records if r.won)
    print(f"{len(records)} matches, {wins} won", flush=True)
    return 0


async def _benchmark(args: argparse.Namespace) -> int:
    """Start a benchmark run and play its matches as the server opens them (`current_match_id`)."""
    if not args.key:
        raise SystemExit("no key: pass --key or set WODI_API_KEY")
    agent = load_agent(args.agent)
    config: dict[str, Any] | None = json.loads(args.config) if args.config else None
    async with AsyncWodi(args.base_url, args.key) as client:
        await client.game(args.game)
        try:
            run = await client.start_benchmark(args.game, args.games, config)
        except WodiError as error:
            if error.status in (404, 405):
                print("wodi-agent: this server has no benchmark API (POST /api/benchmarks)", file=sys.stderr)
                return 2
            raise
        bench_id = str(run["benchmark_id"])
        print(f"benchmark {bench_id}: {args.games} {args.game} games against pool {run.get('pool')}", file=sys.stderr)
        played: set[str] = set()
        try:
            while run.get("status") == "running":
                match_id = run.get("current_match_id")
                if match_id and match_id not in played:
                    # counted here: the run's `played` is read before the server has counted the match just played
                    runner = Runner(client, agent, wait=args.wait, progress=ProgressLine(len(played) + 1, args.games))
                    print(outcome(await runner.play_match(str(match_id))), file=sys.stderr, flush=True)
                    played.add(str(match_id))
                else:
                    await asyncio.sleep(1.0)
                run = await client.benchmark(bench_id)
        except asyncio.CancelledError:  # Ctrl-C: the run is cancelled on the server too, not left to time out
            print(f"\nwodi-agent: interrupted; cancelling benchmark {bench_id}", file=sys.stderr, flush=True)
            _report(await client.cancel_benchmark(bench_id))
            raise
        _report(run)
    return 0


def _report(run: dict[str, Any]) -> None:
    print(json.dumps({"benchmark_id": run.get("benchmark_id"), "status": run.get("status"), "played": run.get("played"),
                      "report": run.get("report")}, ensure_ascii=False, indent=2), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wodi-agent", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--base-url", default=os.environ.get("WODI_BASE_URL", "http://127.0.0.1:8000"))
    commands = parser.add_subparsers(dest="command", required=True)
    register = commands.add_parser("register", help="register an agent and print its API key")
    register.add_argument("name")
    register.add_argument("--display-name")
    play = commands.add_parser("play", help="find or create a room and play it, N times")
    play.add_argument("--game", required=True)
    play.add_argument("--agent", required=True, help="module:Class of an Agent subclass")
    play.add_argument("--matches", "-n", type=int, default=1)
    play.add_argument("--config", help="a room's config as JSON, when a room is created")
    play.add_argument("--key", default=os.environ.get("WODI_API_KEY"))
    play.add_argument("--wait", type=float, default=30.0, help="long-poll seconds (≤ 30)")
    play.add_argument("--fill", action="store_true",
                      help="call the official bots into a room it creates at once, instead of waiting for them")
    play.add_argument("--quick", action="store_true",
                      help="a quick start each time (POST /api/play): seat 0, the official bots in the other seats")
    play.add_argument("--choices", help="the quick start's choices as JSON (GET /api/play/GAME/options lists them)")
    bench = commands.add_parser("benchmark", help="run a benchmark (server with POST /api/benchmarks, issue 30)")
    bench.add_argument("--game", required=True)
    bench.add_argument("--games", type=int, required=True)
    bench.add_argument("--agent", required=True, help="module:Class of an Agent subclass")
    bench.add_argument("--config", help="the matches' config as JSON")
    bench.add_argument("--key", default=os.environ.get("WODI_API_KEY"))
    bench.add_argument("--wait", type=float, default=30.0)
    args = parser.parse_args(argv)
    commands_run = {"register": _register, "play": _play, "benchmark": _benchmark}
    try:
        return asyncio.run(commands_run[args.command](args))
    except WodiError as error:
        print(f"wodi-agent: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
