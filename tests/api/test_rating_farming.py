"""Issue 26 item 2, over HTTP: ratings cannot be farmed by one client's sock puppets.

The attack as found: four fresh, unclaimed agents of one client in a `compete_mode` match, the other side conceding
at once, moved one agent's rating 0 → 6.41 in three matches. Each match here is that attack or one of its next
steps (the puppets claimed by four throwaway owners; the same owners again) — none moves a rating — and a
legitimate match of independent owners still rates.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from app.db.models import Match
from app.ratings.model import Skill
from app.ratings.rebuild import rebuild
from app.services.rating.ratings import Rules
from tests.api.helpers import claim_each
from tests.api.table import Table, lowest_other


async def _ratings(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await client.get(f"/api/agents/{name}/ratings", params={"game": "undercover"})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _rating_of(got: dict[str, Any]) -> dict[str, Any]:
    """The rating itself (the per-side win record beside it counts every finished match, rated or not)."""
    return {k: got[k] for k in ("rating", "mu", "sigma", "rated_games", "history")}


async def _unmoved(client: httpx.AsyncClient, names: list[str]) -> None:
    for name in names:
        got = await _ratings(client, name)
        assert got["history"] == [] and got["rated_games"] == 0, got
        assert got["rating"] == round(Skill().conservative, 2)
    ladder = await client.get("/api/agents", params={"sort": "rating", "game": "undercover"})
    assert not {row["name"] for row in ladder.json()} & set(names)


async def _table(client: httpx.AsyncClient, reuse: Table | None = None, claim: bool = False) -> Table:
    """A competitive 4-seat room, open and full (with `reuse`: the same agents again)."""
    table = Table(client, 4, compete_mode=True, first_speaker=0)
    table.claim = claim
    if reuse is not None:
        table.keys, table.names = reuse.keys, reuse.names

        async def same() -> None:
            return None

        table.register = same  # type: ignore[method-assign]
    await table.open()
    return table


async def _concede_until_over(table: Table) -> dict[str, Any]:
    """The other side gives up at once: seats 3, 2, 1 concede until the match is over."""
    for seat in (3, 2, 1):
        if (await table.snap())["status"] != "in_progress":
            break
        conceded = await table.client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(seat))
        assert conceded.status_code == 200, conceded.text
    final = await table.snap(0)
    assert final["status"] == "finished", final["status"]
    return final


async def _verdict(app: FastAPI, match_id: str) -> tuple[bool, str | None]:
    async with app.state.runtime.db.reader() as session:
        match = await session.get(Match, match_id)
        assert match is not None
        return match.rated, match.pairing


async def test_unclaimed_sock_puppets_farm_nothing(app: FastAPI, client: httpx.AsyncClient) -> None:
    """The attack as reported: three matches of the same four unclaimed agents, the other side conceding."""
    first = await _table(client)
    await _concede_until_over(first)
    for _ in range(2):
        await _concede_until_over(await _table(client, reuse=first))
    await _unmoved(client, first.names)
    assert (await _verdict(app, first.match_id)) == (False, None)


async def test_claimed_puppets_conceding_before_everyone_acted_farm_nothing(client: httpx.AsyncClient) -> None:
    """The next step: each puppet claimed by a throwaway owner of its own. A concession before every seat has
    acted leaves the match unrated."""
    table = await _table(client, claim=True)
    await _concede_until_over(table)
    await _unmoved(client, table.names)


async def test_a_concession_after_everyone_acted_is_rated_once_per_pairing(app: FastAPI,
                                                                            client: httpx.AsyncClient) -> None:
    """Every seat speaks, then the other side concedes: independent owners, every seat acted — rated. The same
    four owners again within the window: not rated again."""
    table = await _table(client, claim=True)
    for seat in range(4):  # first_speaker 0: the speeches go 0, 1, 2, 3
        spoke = await table.act(seat, {"type": "speak", "text": f"我的描述是第{seat}种说法"})
        assert spoke.status_code == 200, spoke.text
    await _concede_until_over(table)
    rated, pairing = await _verdict(app, table.match_id)
    assert rated is True and pairing
    moved = [_rating_of(await _ratings(client, name)) for name in table.names]
    assert all(got["rated_games"] == 1 for got in moved)
    again = await _table(client, reuse=table)
    assert (await again.play(lowest_other))["status"] == "finished"
    assert (await _verdict(app, again.match_id)) == (False, pairing)  # the same owners: counted once
    assert [_rating_of(await _ratings(client, name)) for name in table.names] == moved


async def test_a_legitimate_match_still_rates(client: httpx.AsyncClient) -> None:
    """Four owners' agents playing to the end: rated, every seat's rating moved."""
    table = await _table(client, claim=True)
    final = await table.play(lowest_other)
    assert final["status"] == "finished"
    winners = {table.names[s] for s in final["result"]["winning_seats"]}
    for name in table.names:
        got = await _ratings(client, name)
        assert got["rated_games"] == 1 and (got["rating"] > round(Skill().conservative, 2)) == (name in winners)


async def test_rebuild_applies_the_same_rule(app: FastAPI, client: httpx.AsyncClient) -> None:
    """`python -m app.ratings rebuild` judges every finished match again: a puppet match a former rule rated is
    unrated, and claims made after a match ended do not count for it."""
    puppets = await _table(client)
    await _concede_until_over(puppets)
    legit = await _table(client, claim=True)
    assert (await legit.play(lowest_other))["status"] == "finished"
    async with app.state.runtime.db.writer() as session:  # as the rule before issue 26 left it
        match = await session.get(Match, puppets.match_id)
        assert match is not None and match.rated is False
        match.rated = True
    await claim_each(client, puppets.keys)  # claimed now, after their match ended
    before = [_rating_of(await _ratings(client, name)) for name in legit.names]
    assert await rebuild(app.state.runtime.db, Rules(frozenset(), timedelta(hours=24))) == 1
    assert (await _verdict(app, puppets.match_id))[0] is False
    await _unmoved(client, puppets.names)
    assert [_rating_of(await _ratings(client, name)) for name in legit.names] == before
