"""`allowed_actions` rows read against the game's action schemas, on a real table: a row's `<field>_size` with
`targets` (an Avalon leader's `team_size`) is a list of exactly that many distinct seats. `check` refuses what
the server refuses (a string, a repeat, a wrong size, a seat not offered, seats as strings) and `random_body`
fills one the server takes."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from wodi_client import AsyncWodi, WodiError, check_action, legal_actions

from tests.sdk.table import CONFIGS, SEATS


async def test_a_sized_row_is_a_list_of_distinct_options(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    clients = [AsyncWodi("http://testserver", transport=transport) for _ in range(SEATS["avalon"])]
    try:
        for index, client in enumerate(clients):
            await client.register(f"kit-sized-{index}")
        match_id = str((await clients[0].create_match("avalon", CONFIGS["avalon"])).match_id)
        for client in clients[1:]:
            await client.join(match_id)
        snaps = [await client.snapshot_json(match_id) for client in clients]
        leader, snap = next((c, s) for c, s in zip(clients, snaps, strict=True) if s["you"]["next_action"] == "propose")
        row: dict[str, Any] = next(r for r in snap["you"]["allowed_actions"] if r["type"] == "propose")
        size, seats = row["team_size"], row["targets"]
        legal = legal_actions(snap["you"]["allowed_actions"], (await leader.game("avalon")).actions or {})
        propose = next(action for action in legal if action.type == "propose")
        assert propose.sizes == {"team": size} and propose.options == {"team": seats} and propose.free == []
        wrong: list[Any] = ["……", [seats[0]] * size, seats[:size + 1], [*seats[:size - 1], 99],
                            [str(seat) for seat in seats[:size]]]
        for team in wrong:
            body = {"type": "propose", "team": team, "expected_seq": snap["events_total"]}
            assert check_action(body, legal) is not None, team
            with pytest.raises(WodiError) as refused:
                await leader.act(match_id, body)
            assert refused.value.status in (400, 422), team
        chosen = propose.random_body(random.Random(0))
        assert chosen is not None and check_action(chosen, legal) is None
        assert (await leader.act(match_id, {**chosen, "expected_seq": snap["events_total"]}))["accepted"]
    finally:
        for client in clients:
            await client.aclose()
