"""The report's figures recomputed from the matches' own results (as any client can read them), with the method
docs/agents/measure.md documents — written here again, not imported, so a slip in the server's version shows."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import httpx

SIDE_FIELD = {"undercover": "role", "werewolf": "camp", "script_kill": "side"}


def wilson(wins: int, games: int) -> list[float] | None:
    if not games:
        return None
    z, p = 1.96, wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def bootstrap(deltas: list[int]) -> list[float]:
    rng = random.Random(30)
    means = sorted(sum(rng.choices(deltas, k=len(deltas))) / len(deltas) for _ in range(2000))
    return [round(means[50], 4), round(means[1949], 4)]


async def _finished(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    snap = (await client.get(f"/api/matches/{match_id}")).json()
    assert snap["status"] == "finished", snap["status"]
    return dict(snap)


async def recompute(client: httpx.AsyncClient, view: dict[str, Any], agent_name: str) -> dict[str, Any]:
    """Sides, intervals, the duplicate delta and the counts, from the matches and their trajectories alone."""
    game = view["game"]
    sides: dict[str, list[int]] = {}
    deltas: list[int] = []
    for row in view["matches"]:
        mine = await _finished(client, row["match_id"])
        seat = next(p["seat"] for p in mine["players"] if p["name"] == agent_name)
        assert seat == row["seat"]
        side = mine["players"][seat][SIDE_FIELD[game]]
        won = seat in mine["result"]["winning_seats"]
        reference = await _finished(client, row["reference_match_id"])
        assert reference["players"][seat][SIDE_FIELD[game]] == side  # the same deal: the same side in the seat
        assert [p[SIDE_FIELD[game]] for p in reference["players"]] == [p[SIDE_FIELD[game]] for p in mine["players"]]
        sides.setdefault(side, []).append(int(won))
        deltas.append(int(won) - int(seat in reference["result"]["winning_seats"]))
    lines = [json.loads(line) for line in
             (await client.get(f"/api/benchmarks/{view['benchmark_id']}/trajectories")).text.splitlines()]
    own = [line for line in lines if line["by"] == "agent"]
    return {
        "sides": {side: {"games": len(won), "wins": sum(won), "interval": wilson(sum(won), len(won))}
                  for side, won in sides.items()},
        "delta": round(sum(deltas) / len(deltas), 4), "interval": bootstrap(deltas),
        "timeouts": sum(1 for line in own if line["outcome"] == "timeout"),
        "refusals": sum(1 for line in own if line["outcome"] == "refused"),
        "decisions": sum(1 for line in own if line["outcome"] != "timeout"),
        "tokens": sum(line["usage"]["input_tokens"] + line["usage"]["output_tokens"] for line in own if line["usage"]),
    }
