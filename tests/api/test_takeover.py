"""Seats that never go dead (issue 19): with `takeover_after_timeouts`, a seat that stops answering is played to
the end by the game's rule bot; a public `seat_taken_over` event and a `taken_over` mark appear, the original agent
records an abandoned match, and the match is unrated. The bot is the game's registered brain
(`app/games/installed.py`), the one the lobby's official bots use."""

from __future__ import annotations

from typing import Any

import httpx

from app.protocol import registry
from tests.api.table import Table, lowest_other

DEAD = 0  # seat 0 speaks first and never answers


async def _play_without(table: Table, dead: int) -> dict[str, Any]:
    """Everyone but `dead` plays; when only `dead` is due, wait for its clock (or the bot) to move the match."""
    for _ in range(200):
        snaps = {seat: await table.snap(seat) for seat in range(table.n) if seat != dead}
        first = next(iter(snaps.values()))
        if first["status"] != "in_progress":
            return first
        moves = [(seat, lowest_other(table, seat, snap)) for seat, snap in snaps.items() if snap["you"]["your_turn"]]
        moves = [(seat, body) for seat, body in moves if body is not None]
        if not moves:
            await table.snap(None, wait=10, wait_for="any_change")
            continue
        for seat, body in moves:
            response = await table.act(seat, body)
            # The bot and the clock move the match too: it may have moved on (or ended) since the snapshots.
            assert response.status_code == 200 or response.json()["error"] in {
                "wrong_phase", "not_your_turn", "match_finished"}, response.text
    raise AssertionError("the match did not end")


async def test_a_seat_that_stops_answering_is_played_to_the_end_by_the_bot(client: httpx.AsyncClient) -> None:
    assert registry.brain("undercover") is not None
    # Clocks of a few seconds: the seats that play must never time out, even on a loaded machine.
    table = Table(client, 4, speak_timeout=4, vote_timeout=4, takeover_after_timeouts=1, compete_mode=True)
    await table.open()
    final = await _play_without(table, DEAD)
    assert final["status"] == "finished"
    log = await table.events()
    taken = [e for e in log if e["type"] == "seat_taken_over"]
    assert [(e["seat"], e["visibility"]) for e in taken] == [(DEAD, "public")]
    timed_out = [e for e in log if e["seq"] < taken[0]["seq"] and e.get("seat") == DEAD]
    assert [e["type"] for e in timed_out if e["type"] == "speech_skipped"] == ["speech_skipped"]
    bot_moves = [e for e in log if e["seq"] > taken[0]["seq"] and e.get("seat") == DEAD
                 and e["type"] in {"speech_posted", "vote_cast"}]
    dead_player = next(p for p in final["players"] if p["seat"] == DEAD)
    assert dead_player["taken_over"] is True
    assert all("taken_over" not in p for p in final["players"] if p["seat"] != DEAD)
    assert bot_moves, "the bot never played the seat"
    dead = (await client.get(f"/api/agents/{table.names[DEAD]}")).json()
    assert dead["abandoned"] == 1 and dead["wins"] == dead["losses"] == 0
    assert dead["reliability"]["timeouts"] >= 1 and dead["reliability"]["turns"] >= 1
    for name in table.names:
        ratings = (await client.get(f"/api/agents/{name}/ratings")).json()
        assert ratings["history"] == [] and ratings["rated_games"] == 0  # taken over: unrated
    alive = (await client.get(f"/api/agents/{table.names[1]}")).json()
    assert alive["wins"] + alive["losses"] == 1 and alive["abandoned"] == 0
    assert alive["reliability"]["timeouts"] == 0 and alive["reliability"]["turns"] >= 2


async def test_without_the_setting_a_silent_seat_is_never_taken_over(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, speak_timeout=1, vote_timeout=1)
    await table.open()
    final = await _play_without(table, DEAD)
    assert final["status"] == "finished"
    assert not [e for e in await table.events() if e["type"] == "seat_taken_over"]
    assert all("taken_over" not in p for p in final["players"])
    assert (await client.get(f"/api/agents/{table.names[DEAD]}")).json()["reliability"]["timeouts"] >= 1
