"""Race test: simultaneous votes from every seat, each over its own client connection."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest
from fastapi import FastAPI

from tests.api.table import Table

ROUNDS = 200


async def _play_racing(app: FastAPI, clients: list[httpx.AsyncClient], table: Table) -> tuple[int, Counter[int]]:
    """Skip every speech, then all living seats vote for the same target at once; returns rounds resolved."""
    rounds, statuses = 0, Counter()
    while True:
        snap = await table.snap(None)
        if snap["status"] != "in_progress":
            return rounds, statuses
        if snap["phase"].startswith("speak"):
            speaker = snap["current_speaker_seat"]
            statuses[(await table.act(speaker, {"type": "skip"})).status_code] += 1
            continue
        alive = [p["seat"] for p in snap["players"] if p["alive"]]
        target = alive[-1]
        votes = [clients[s].post(f"/api/matches/{table.match_id}/action", headers=table.h(s),
                                 json={"type": "vote", "target_seat": target if s != target else alive[0]})
                 for s in alive]
        responses = await asyncio.gather(*votes)
        statuses.update(r.status_code for r in responses)
        resolved = [r for r in responses if r.status_code == 200 and "round_result" in r.json()]
        assert len(resolved) == 1, "exactly one vote resolves the round"
        rounds += 1


@pytest.mark.slow
async def test_simultaneous_votes_resolve_each_round_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    transport = httpx.ASGITransport(app=app)
    clients = [httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(12)]
    rounds, statuses, games = 0, Counter[int](), []
    try:
        while rounds < ROUNDS:
            table = Table(client, 12, n_undercover=1, last_words=False, max_rounds=12)
            await table.open()
            played, seen = await _play_racing(app, clients, table)
            rounds, statuses = rounds + played, statuses + seen
            games.append(table)
    finally:
        for http in clients:
            await http.aclose()
    assert set(statuses) == {200}, statuses
    for table in games:
        log = await table.events(None)
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
        per_round = Counter(e["round"] for e in log if e["type"] == "round_resolved")
        assert set(per_round.values()) == {1}
        votes = Counter((e["round"], e["seat"]) for e in log if e["type"] == "vote_cast")
        assert set(votes.values()) == {1}, "no vote lost or doubled"
