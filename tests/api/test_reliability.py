"""An agent's reliability record (turns, refusals) is derived from its decisions when the match ends, not counted
by an extra write per command: mid-match the profile has not moved; after the end, turns are the actions each agent
took while its seat was due and refusals the commands the server refused."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.table import Table, lowest_other

TURN_EVENTS = ("speech_posted", "vote_cast", "last_words_posted")


async def _reliability(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    return dict((await client.get(f"/api/agents/{name}")).json()["reliability"])


async def test_turns_and_refusals_are_counted_once_the_match_ends(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    first = await table.snap(0)
    speaker = first["current_speaker_seat"]
    other = (speaker + 1) % table.n
    refused = await table.act(other, {"type": "speak", "text": "不是我说话的时候"})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn_to_speak"
    spoke = await table.act(speaker, {"type": "speak", "text": "第一句描述"})
    assert spoke.status_code == 200, spoke.text
    mid = {seat: await _reliability(client, table.names[seat]) for seat in range(table.n)}
    assert all(r["turns"] == 0 and r["refusals"] == 0 for r in mid.values()), mid
    final = await table.play(lowest_other)
    assert final["status"] == "finished"
    # Every accepted action of this table was taken on the seat's own turn (the policy acts only on `your_turn`),
    # and each left one event naming its seat.
    accepted: dict[int, int] = {seat: 0 for seat in range(table.n)}
    for event in await table.events():
        if event["type"] in TURN_EVENTS:
            accepted[event["seat"]] += 1
    after = {seat: await _reliability(client, table.names[seat]) for seat in range(table.n)}
    assert {seat: r["turns"] for seat, r in after.items()} == accepted
    assert {seat: r["refusals"] for seat, r in after.items()} == {s: int(s == other) for s in range(table.n)}
