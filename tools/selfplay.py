"""Bot-only games over HTTP: every seat is an official bot playing through the public API.

    python -m tools.selfplay --games 500 [--tables 10]                 # spawns a server on a temp SQLite file
    python -m tools.selfplay --games 500 --base-url http://127.0.0.1:8000 [--official-key …]

Registers 6 official agents per concurrent table (`bot_selfplay1@wodi`, … — personas in turn), and at each
table one bot creates a match and the others join; the game mix cycles through `CONFIGS`. Prints a progress
line every `--every` games, the count of every error code the server answered, timeouts, winners and a
SUMMARY line. Official registrations are not rate-limited, but match creation is (120 per hour per IP): use a
server with `WODI_RATE_LIMIT_ENABLED=false` (the spawned one is) for long runs.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.bots.personas import PERSONAS
from app.bots.player import BotStats, MatchPlayer, error_code
from app.bots.pool import register_bot
from app.settings import get_settings

WATCHED = ("speech_contains_secret_word", "text_too_long", "wrong_phase")
# Extensions are off by default; self-play turns them on to exercise the bots' last words and guesses,
# and keeps one protocol-only table (the defaults).
CONFIGS: tuple[dict[str, Any], ...] = (
    {"n_players": 6, "n_undercover": 2, "last_words": True},
    {"n_players": 6, "n_undercover": 1, "n_blank": 1, "tie_break": "revote", "last_words": True, "blank_guess": True},
    {"n_players": 5, "n_undercover": 1, "tie_break": "noop_then_random", "last_words": True},
    {"n_players": 6, "n_undercover": 1, "first_speaker": "random", "last_words": True},
    {"n_players": 4, "n_undercover": 1},
)


@dataclass
class Seat:
    handle: str
    key: str
    persona_index: int


@dataclass
class Selfplay:
    """What a run produced."""

    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    failures: list[str] = field(default_factory=list)
    stats: BotStats = field(default_factory=BotStats)
    elapsed: float = 0.0

    def watched(self) -> dict[str, int]:
        return {code: self.stats.errors.get(code, 0) for code in WATCHED}


async def run(base_url: str, official_key: str, games: int, tables: int, every: int = 50,
              turn_seconds: int = 20, seed: int = 0, out: Any = None) -> Selfplay:
    """Play `games` bot-only games on `tables` concurrent tables."""
    out = out or sys.stdout
    result = Selfplay()
    limits = httpx.Limits(max_connections=tables * 6 + 8, max_keepalive_connections=tables * 6 + 8)
    async with httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=30.0, limits=limits) as client:
        seats: list[Seat] = []
        for n in range(1, tables * 6 + 1):
            persona = PERSONAS[(n - 1) % len(PERSONAS)]
            handle = f"bot_selfplay{n}@wodi"
            key = await register_bot(client, official_key, handle, f"{persona.display_name}·{n}", persona)
            seats.append(Seat(handle, key, (n - 1) % len(PERSONAS)))
        counter = itertools.count()
        started = time.perf_counter()

        async def table(t: int) -> None:
            group = seats[t * 6:(t + 1) * 6]
            while (index := next(counter)) < games:
                await _game(client, group, index, turn_seconds, seed, result)
                if every and (result.games % every == 0 or result.games == games):
                    print(f"  [selfplay] {result.games}/{games} games, {time.perf_counter() - started:.0f}s, "
                          f"actions {sum(result.stats.actions.values())}, errors {dict(result.stats.errors) or 0}",
                          file=out, flush=True)

        await asyncio.gather(*(table(t) for t in range(tables)))
        result.elapsed = time.perf_counter() - started
    return result


async def _game(client: httpx.AsyncClient, group: list[Seat], index: int, turn_seconds: int, seed: int,
                result: Selfplay) -> None:
    config = {**CONFIGS[index % len(CONFIGS)], "speak_timeout": turn_seconds, "vote_timeout": turn_seconds}
    shift = index % len(group)
    players = (group[shift:] + group[:shift])[: config["n_players"]]
    created = await client.post("/api/matches", json={"game": "undercover", "config": config},
                                headers=_bearer(players[0].key))
    if created.status_code != 201:
        result.stats.errors[error_code(created)] += 1
        result.failures.append(f"create: {created.status_code} {created.text[:120]}")
        return
    match_id = created.json()["match_id"]
    for seat in players[1:]:
        joined = await client.post(f"/api/matches/{match_id}/join", json={}, headers=_bearer(seat.key))
        if joined.status_code != 200:
            result.stats.errors[error_code(joined)] += 1
            result.failures.append(f"join: {joined.status_code} {joined.text[:120]}")
            return
    loops = [MatchPlayer(client, seat.key, match_id, PERSONAS[seat.persona_index], stats=result.stats,
                         rng=random.Random(f"{seed}:{index}:{n}"), name=seat.handle,
                         give_up_after=8)
             for n, seat in enumerate(players)]
    finals = await asyncio.gather(*(loop.run() for loop in loops), return_exceptions=True)
    broken = [f for f in finals if isinstance(f, BaseException)]
    if broken:
        result.failures.append(f"game {match_id}: {broken[0]!r}")
        return
    final = next((f for f in finals if isinstance(f, dict)), {})
    result.games += 1
    result.winners[str((final.get("result") or {}).get("winner_camp"))] += 1
    for event in final.get("public_log") or []:
        if event["type"] == "speech_skipped" and event.get("reason") == "timeout":
            result.timeouts += 1
        elif event["type"] == "vote_abstained":
            result.timeouts += len(event.get("seats") or [])


def report(result: Selfplay, tables: int) -> str:
    errors = dict(sorted(result.stats.errors.items()))
    watched = result.watched()
    lines = [
        f"selfplay: {result.games} games on {tables} tables in {result.elapsed:.0f}s, "
        f"{sum(result.stats.actions.values())} actions {dict(result.stats.actions)}",
        f"winners: {dict(result.winners)}",
        f"error codes received: {errors or 'none'}",
        f"timeouts (skipped turns + abstentions): {result.timeouts}; read retries: {result.stats.retries}",
        *(f"  failure: {f}" for f in result.failures[:5]),
        f"SUMMARY selfplay games={result.games} "
        + " ".join(f"{code}={n}" for code, n in watched.items())
        + f" other_errors={sum(errors.values()) - sum(watched.values())} timeouts={result.timeouts}",
    ]
    return "\n".join(lines)


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--base-url", default=None, help="a running server (default: spawn one on temp SQLite)")
    parser.add_argument("--official-key", default=None, help="X-Official-Bot-Key (default: WODI_OFFICIAL_BOT_KEY)")
    parser.add_argument("--port", type=int, default=8792, help="port of a spawned server")
    parser.add_argument("--every", type=int, default=50, help="a progress line every N games")
    parser.add_argument("--timeout", type=int, default=20, help="speak/vote timeout of the tables (seconds)")
    args = parser.parse_args(argv)
    official_key = args.official_key or get_settings().official_bot_key
    process = None
    if args.base_url is None:
        from tools.bench import spawn

        process = spawn(f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/selfplay.db", args.port)
        args.base_url = f"http://127.0.0.1:{args.port}"
    try:
        result = asyncio.run(run(args.base_url, official_key, args.games, args.tables, args.every, args.timeout))
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:  # long-polls can hold a graceful shutdown for their full wait
                process.kill()
                process.wait(10)
    print(report(result, args.tables))


if __name__ == "__main__":
    main()
