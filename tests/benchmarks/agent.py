"""A protocol-only agent for benchmark tests: it reads `/api/agents/me/active` and its snapshot, and sends one of
the actions its `allowed_actions` offers (the text of a text action is plain filler), reporting `usage`."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import httpx

from app.protocol import registry

TEXT_ACTIONS = ("speak", "last_words", "whisper", "private_chat", "debate")
FILLER = ("我先听听大家的", "我觉得要再看看", "这一轮我没有想法", "大家说得都有道理")
USAGE = {"input_tokens": 120, "output_tokens": 30, "model": "random-agent", "cost_usd": 0.0015}


# The field a game's actions name their target seat in, where it is not `target_seat` (its skill guide says so).
TARGET_FIELD = {"script_kill": "target"}


def body_for(option: dict[str, Any], rng: random.Random, game: str = "") -> dict[str, Any]:
    """A request body for one offered action of `game`, its free choices drawn by `rng`."""
    body: dict[str, Any] = {"type": option["type"]}
    for key in ("action", "stage", "choice", "card"):
        if key in option:
            body[key] = option[key]
    if "team_size" in option:  # avalon's proposal: a team of that size from the candidates
        body["team"] = rng.sample(option["targets"], option["team_size"])
    elif option.get("targets"):
        body[TARGET_FIELD.get(game, "target_seat")] = rng.choice(option["targets"])
    elif option["type"] == "shoot":
        body["target_seat"] = None
    offered = [("item", i) for i in option.get("items", [])] + [("clue", c) for c in option.get("clues", [])]
    if option["type"] == "inspect" and offered:  # 剧本杀: one of the offered items or clues
        field, value = rng.choice(offered)
        body[field] = value
    if option["type"] in TEXT_ACTIONS:
        body["text"] = rng.choice(FILLER)
    return body


Policy = Callable[[dict[str, Any], random.Random], dict[str, Any] | None]


def random_policy(snap: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One of the offered actions (never `concede`), at random."""
    options = [a for a in snap["you"].get("allowed_actions", []) if a["type"] != "concede"]
    return body_for(rng.choice(options), rng, snap.get("game", "")) if options else None


class ReferencePolicy:
    """The game's own rule brain, reading the snapshot the API returned (the reference, as an HTTP client), in the
    persona the run's baseline plays this seat with (`personas`: match id → persona, filled by `run`)."""

    def __init__(self) -> None:
        self.personas: dict[str, str] = {}

    def __call__(self, snap: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        persona = self.personas.get(snap["match_id"])
        brain = registry.brain(snap["game"])
        assert brain is not None
        return None if persona is None else brain(snap, persona, rng, baseline=False)


async def act_once(client: httpx.AsyncClient, key: dict[str, str], rng: random.Random,
                   usage: dict[str, Any] | None = USAGE, policy: Policy = random_policy) -> bool:
    """If the agent must act now, send one offered action; True when it sent one."""
    active = (await client.get("/api/agents/me/active", headers=key)).json()["active"]
    if active is None or not active.get("your_turn"):
        return False
    url = f"/api/matches/{active['match_id']}"
    snap = (await client.get(url, headers=key)).json()
    body = policy(snap, rng)
    if body is None:
        return False
    if usage is not None:
        body["usage"] = usage
    sent = await client.post(f"{url}/action", json=body, headers=key)
    assert sent.status_code < 500, sent.text
    return True


async def run(client: httpx.AsyncClient, key: dict[str, str], body: dict[str, Any], seed: int,
              usage: dict[str, Any] | None = USAGE, policy: Policy = random_policy,
              max_steps: int = 50000) -> dict[str, Any]:
    """Start a benchmark and play it to its end; returns its final `GET /api/benchmarks/{id}`."""
    created = await client.post("/api/benchmarks", json=body, headers=key)
    assert created.status_code == 201, created.text
    benchmark_id = created.json()["benchmark_id"]
    rng = random.Random(seed)
    for _ in range(max_steps):
        if not await act_once(client, key, rng, usage, policy):
            view = (await client.get(f"/api/benchmarks/{benchmark_id}")).json()
            if isinstance(policy, ReferencePolicy):
                policy.personas.update({m["match_id"]: m["reference_persona"] for m in view["matches"]})
            if view["status"] != "running":
                return dict(view)
            await asyncio.sleep(0.01)  # the next deal is being opened, or a clock runs
    raise AssertionError("the benchmark did not end")
