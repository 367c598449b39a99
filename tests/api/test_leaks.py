"""Leak test: random complete games; every snapshot and event list served to anonymous and to each seat is
checked — no role or word of another living seat, no word pair — until the end; after it, all is public."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from tests.api.table import Table, lowest_other


class Truth:
    def __init__(self, snaps: list[dict[str, Any]]) -> None:
        self.words = [s["you"]["word"] for s in snaps]
        self.roles = [s["you"]["role"] for s in snaps]


async def _check_views(table: Table, truth: Truth) -> None:
    anonymous = await table.snap(None)
    if anonymous["status"] != "in_progress":
        return
    alive = {p["seat"] for p in anonymous["players"] if p["alive"]}
    words = {w for w in truth.words if w}
    anon_text = json.dumps([anonymous, await table.events(None)], ensure_ascii=False)
    assert "wordpair" not in anonymous and "spectator_log" not in anonymous and "you" not in anonymous
    for word in words:
        assert word not in anon_text, f"anonymous sees a secret word {word}"
    for player in anonymous["players"]:
        assert ("role" in player) is False and ("word" in player) is False
        if player["seat"] not in alive:
            assert player["revealed_role"] == truth.roles[player["seat"]]
    for seat in range(table.n):
        snap = await table.snap(seat)
        events = await table.events(seat)
        text = json.dumps([snap, events], ensure_ascii=False)
        for other in words - {truth.words[seat]}:
            assert other not in text, f"seat {seat} sees the other word"
        assert "wordpair" not in snap
        for player in snap["players"]:
            assert "role" not in player and "word" not in player
        for event in events:
            assert event["visibility"] in ("public", f"private:seat:{seat}") or (
                event["visibility"] == "private:role:undercover" and truth.roles[seat] == "undercover")
            if event["type"] == "role_assigned":
                assert event["seat"] == seat


def random_policy(rng: random.Random):
    def policy(table: Table, seat: int, snap: dict[str, Any]) -> dict[str, Any] | None:
        action = snap["you"]["next_action"]
        if action == "vote":
            targets = [p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != seat]
            pk = [t for t in snap.get("pk_candidates") or [] if t != seat]
            return {"type": "vote", "target_seat": rng.choice(pk or targets)}
        if action == "speak" and rng.random() < 0.3:
            return {"type": "skip"}
        return lowest_other(table, seat, snap)
    return policy


@pytest.mark.parametrize("seed", range(4))
async def test_no_leak_until_the_end(client: httpx.AsyncClient, seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([4, 5, 6, 8])
    table = Table(client, n, n_blank=1 if n >= 6 and seed % 2 else 0,
                  tie_break=rng.choice(["random", "revote", "noop_then_random"]))
    await table.open()
    truth = Truth([await table.snap(seat) for seat in range(n)])

    async def check(t: Table) -> None:
        await _check_views(t, truth)

    await check(table)
    final = await table.play(random_policy(rng), on_step=check)
    assert final["status"] == "finished"
    after = await table.snap(None)
    assert after["wordpair"] == final["result"]["wordpair"]
    assert all("role" in p for p in after["players"])
    everything = await table.events(None)
    assert len(everything) == after["events_total"], "after the end every viewer sees every event"
    assert {e["visibility"] for e in everything} >= {"public", "god_only"}
