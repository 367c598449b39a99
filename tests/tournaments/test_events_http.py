"""Whole events over real HTTP (SQLite by default, PostgreSQL with WODI_TEST_DATABASE_URL), played by protocol-only
agents without intervention: an 8-entrant Swiss undercover event of 4 rounds and a 6-entrant round-robin werewolf
event. The standings equal a recomputation from the matches' results, each round's tables repeat no more meetings
than the best split allows, and the sides went by need: at a table the entrants fill, each entrant plays each side in
turn; where the reference's seats are drawn first (D21), whoever took a side had played it no more often than any
table-mate who did not."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.tournaments.field import SIDES, create, enter_all, field, play, recompute, soon

Pair = frozenset[str]


def splits(names: list[str], sizes: list[int]) -> list[list[list[str]]]:
    if not sizes:
        return [[]]
    out = []
    for chosen in itertools.combinations(names, sizes[0]):
        if len(sizes) > 1 and sizes[1] == sizes[0] and names[0] not in chosen:
            continue
        rest = [n for n in names if n not in chosen]
        out.extend([list(chosen), *tail] for tail in splits(rest, sizes[1:]))
    return out


def squared(tables: list[list[str]], met: Counter[Pair]) -> int:
    return sum(met[frozenset(p)] ** 2 for t in tables for p in itertools.combinations(t, 2))


def check_pairing(view: dict[str, Any], cost: Callable[[list[list[str]], Counter[Pair]], int]) -> Counter[Pair]:
    """Every round seats every entrant once, and its split is one of the best by `cost` given the rounds before."""
    met: Counter[Pair] = Counter()
    for rnd in view["round_tables"]:
        tables = [[s["name"] for s in t["seats"] if s["name"]] for t in rnd["tables"]]
        names = sorted(n for t in tables for n in t)
        assert len(names) == len(set(names)) == len(view["entrants"])
        best = min(cost(s, met) for s in splits(names, sorted((len(t) for t in tables), reverse=True)))
        assert cost(tables, met) == best, (rnd["round"], tables)
        for table in tables:
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
    return met


def check_sides_by_need(view: dict[str, Any]) -> None:
    """At every table, an entrant seated on side X had played X no more often before the round than any entrant
    table-mate seated on the other side (every entrant has played as many games: the seating is greedy by need)."""
    played: dict[str, Counter[str]] = {e["name"]: Counter() for e in view["entrants"]}
    for rnd in view["round_tables"]:
        for table in rnd["tables"]:
            seated = [(s["name"], s["side"]) for s in table["seats"] if s["name"]]
            for (a, side_a), (b, side_b) in itertools.permutations(seated, 2):
                if side_a != side_b:
                    assert played[a][side_a] <= played[b][side_a], (rnd["round"], table["table"], a, b, played)
        for table in rnd["tables"]:
            for s in table["seats"]:
                if s["name"]:
                    played[s["name"]][s["side"]] += 1


async def check_event(client: httpx.AsyncClient, view: dict[str, Any], rounds: int, every_side: bool) -> None:
    assert view["status"] == "finished" and view["round"] == view["rounds"] == rounds
    assert len(view["round_tables"]) == rounds
    again = await recompute(client, view)
    got = {row["name"]: (row["score"], row["buchholz"], row["direct"]) for row in view["standings"]}
    assert got == again
    number = {e["name"]: e["number"] for e in view["entrants"]}
    order = sorted(again, key=lambda n: (-again[n][0], -again[n][1], -again[n][2], number[n]))
    assert [row["name"] for row in view["standings"]] == order
    assert [row["rank"] for row in view["standings"]] == list(range(1, len(order) + 1))
    assert view["winner"] == order[0]
    for row in view["standings"]:
        assert row["games"] == rounds and row["forfeits"] == 0
        if every_side:  # no reference seats: each entrant had its turn on each side
            assert set(row["sides"]) == set(SIDES[view["game"]]), row
    check_sides_by_need(view)
    page = await client.get(f"/tournament/{view['tournament_id']}?lang=en")
    assert page.status_code == 200 and "Standings" in page.text and order[0] in page.text


@pytest.mark.slow
async def test_swiss_undercover_eight_entrants_four_rounds(client: httpx.AsyncClient) -> None:
    agents = await field(client, 8, "swiss")
    created = await create(client, game="undercover", format="swiss", rounds=4, starts_at=soon(3), seed=7,
                           name="Swiss test", config={"speak_timeout": 5, "vote_timeout": 5})
    assert created["status"] == "entry" and created["rated"] is False and created["round"] == 0
    await enter_all(client, created["tournament_id"], agents)
    listed = (await client.get("/api/tournaments", params={"when": "upcoming"})).json()["tournaments"]
    assert [t["tournament_id"] for t in listed] == [created["tournament_id"]] and listed[0]["entrant_count"] == 8
    view = await play(client, created["tournament_id"], agents, seed=7)
    await check_event(client, view, 4, every_side=False)  # the reference's seats are drawn by lot (D21)
    met = check_pairing(view, squared)
    assert max(met.values()) <= 2  # 4 rounds × 3 table-mates over 7 others: nobody meets anyone a third time
    for rnd in view["round_tables"]:  # 8 entrants at 6-seat tables: two tables of 4, the reference pool fills 2
        assert len(rnd["tables"]) == 2
        for table in rnd["tables"]:
            refs = [s for s in table["seats"] if s["name"] is None]
            assert len(refs) == 2 and all(s["reference"] for s in refs)


@pytest.mark.slow
async def test_round_robin_werewolf_six_entrants(client: httpx.AsyncClient) -> None:
    agents = await field(client, 6, "rr")
    created = await create(client, game="werewolf", format="round_robin", starts_at=soon(3), seed=3,
                           config={"night_timeout": 2})
    assert created["rounds"] is None  # decided at the start
    await enter_all(client, created["tournament_id"], agents)
    view = await play(client, created["tournament_id"], agents, seed=3)
    # one 6-seat table a round; 2 wolves a table: 3 rounds give every entrant a turn on each side
    await check_event(client, view, 3, every_side=True)
    met = check_pairing(view, squared)
    assert set(met.values()) == {3}  # every pair met in every round, evenly
    winner = next(key for name, key in agents if name == view["winner"])  # a finished event's standings are final
    refused = await client.delete(f"/api/tournaments/{view['tournament_id']}/entries/me", headers=winner)
    assert refused.status_code == 409 and refused.json()["error"] == "entry_closed", refused.text
