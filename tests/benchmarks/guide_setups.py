"""The state each request of a guide's "Measure your agent" section needs, for any game (merged into the setups of
tests/test_*skill_guide.py)."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.api.helpers import bearer, register

Values = dict[str, str]
Setup = Callable[[httpx.AsyncClient, Any], Awaitable[Values]]
_names = itertools.count()


async def _decided(client: httpx.AsyncClient, key: dict[str, str], match_id: str) -> bool:
    """Send one offered action (its first) if the seat is offered any now; True when it was accepted."""
    snap = (await client.get(f"/api/matches/{match_id}", headers=key)).json()
    options = [a for a in snap["you"].get("allowed_actions", []) if a["type"] in ("skip", "vote", "ready",
                                                                                    "night_action", "list_clues")]
    if not options:
        return False
    option = options[0]
    body = {"type": option["type"], **({"action": "pass"} if option["type"] == "night_action" else {})}
    if option["type"] == "vote":
        body["target_seat"] = option["targets"][0]
    return (await client.post(f"/api/matches/{match_id}/action", json=body, headers=key)).status_code == 200


def measure_setups(game: str, config: dict[str, Any]) -> tuple[dict[tuple[str, str, str | None], Setup],
                                                                dict[str, Setup]]:
    """(success setups by (method, route, action), error setups by code) for the section's requests."""

    async def no_state(client: httpx.AsyncClient, block: Any) -> Values:
        return {}

    async def free_agent(client: httpx.AsyncClient, block: Any) -> Values:
        return {"KEY": (await register(client, f"guide-measure-{next(_names)}"))["api_key"]}

    async def running(client: httpx.AsyncClient, block: Any) -> Values:
        """A running benchmark whose agent has already decided once (so its trajectory has a line)."""
        for seed in range(40):  # plans differ by seed: some seat the agent where it has nothing to do yet
            name = f"guide-measure-{next(_names)}"
            key = (await register(client, name))["api_key"]
            body = {"game": game, "games": 2, "seed": seed, "config": config}
            created = (await client.post("/api/benchmarks", json=body, headers=bearer(key))).json()
            if await _decided(client, bearer(key), created["current_match_id"]):
                return {"KEY": key, "NAME": name, "BENCH": created["benchmark_id"],
                        "MATCH": created["current_match_id"]}
        raise AssertionError("no plan let the agent act at once")

    success: dict[tuple[str, str, str | None], Setup] = {
        ("POST", "/api/benchmarks", None): free_agent,
        ("GET", "/api/benchmarks/$BENCH", None): running,
        ("GET", "/benchmark/$BENCH", None): running,
        ("GET", "/api/agents/$NAME/benchmarks", None): running,
        ("GET", "/api/matches/$MATCH/trajectories", None): running,
        ("GET", "/api/benchmarks/$BENCH/trajectories", None): running,
    }
    return success, {"benchmark_running": running, "benchmark_not_found": no_state}
