"""A script_kill seat that stops answering is played to the ending by the NPC brain (issue 19's takeover, with the
game's registered brain): its clock runs out once, the seat is marked taken over, and from then on the server
plays it with `app.games.script_kill.brain` inside the commands that move the match (real HTTP, the app in
process; the stage clocks are fired by moving the runtime's clock past the deadline)."""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi import FastAPI

from app.db import matches as repo
from app.services.match import matches as service
from tests.api.table import Table
from tests.bots.script_kill_agent import agent_move

SILENT = 5


async def fire_the_clock(app: FastAPI, match_id: str) -> None:
    """The current stage's clock runs out."""
    runtime = app.state.runtime
    async with runtime.db.writer() as session:
        match = await repo.get(session, match_id)
        assert match is not None and match.timer_due is not None
        due, token = match.timer_due, match.timer_token
    runtime.clock = lambda: max(time.time(), due + 1)
    try:
        await service.fire_timer(runtime, match_id, token)
    finally:
        runtime.clock = time.time


async def test_a_silent_seat_is_played_to_the_ending_by_the_npc(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 6)
    table.game = "script_kill"
    table.config = {"timing": "compressed", "script": "tiny", "takeover_after_timeouts": 1}
    await table.open()
    done: list[set[tuple[str, str]]] = [set() for _ in range(6)]
    snap: dict[str, Any] = {}
    for _ in range(300):
        snap = await table.snap(0)
        if snap.get("ending"):
            break
        moved = False
        for seat in range(SILENT):
            mine = await table.snap(seat)
            body = agent_move(mine, done[seat]) if mine["you"]["your_turn"] else None
            if body is not None:
                response = await table.act(seat, body)
                assert response.status_code == 200, (body, response.text)
                moved = True
        if not moved:
            await fire_the_clock(app, table.match_id)
    assert snap.get("ending") in ("perfect", "normal", "failure"), snap["phase"]
    log = await table.events(SILENT)  # the seat's own view: its vote receipt is private to it
    taken = [e for e in log if e["type"] == "seat_taken_over"]
    assert [e["seat"] for e in taken] == [SILENT]
    after = {e["type"] for e in log if e["seq"] > taken[0]["seq"] and e.get("seat") == SILENT}
    assert {"speech", "investigated", "player_ready", "vote_cast"} <= after, after
    assert next(p for p in snap["players"] if p["seat"] == SILENT)["taken_over"] is True
