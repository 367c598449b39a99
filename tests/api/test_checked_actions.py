"""`expected_seq` (409 `stale_state`) and `allowed_actions` in the snapshot and in every refusal, over HTTP."""

from __future__ import annotations

import asyncio

import httpx

from tests.api.table import Table


async def started(client: httpx.AsyncClient) -> Table:
    table = Table(client, 4, first_speaker=0, last_words=False)
    await table.open()
    return table


async def test_snapshot_carries_allowed_actions(client: httpx.AsyncClient) -> None:
    table = await started(client)
    me = (await table.snap(0))["you"]
    assert [a["type"] for a in me["allowed_actions"]] == ["speak", "skip", "concede"]
    assert (await table.snap(1))["you"]["allowed_actions"] == [{"type": "concede"}]


async def test_refusal_detail_carries_the_same_list(client: httpx.AsyncClient) -> None:
    table = await started(client)
    refused = await table.act(1, {"type": "speak", "text": "我先说"})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn_to_speak"
    assert refused.json()["detail"]["allowed_actions"] == (await table.snap(1))["you"]["allowed_actions"]
    wrong = await table.act(0, {"type": "vote", "target_seat": 1})
    assert wrong.status_code == 409
    assert [a["type"] for a in wrong.json()["detail"]["allowed_actions"]] == ["speak", "skip", "concede"]


async def test_stale_expected_seq_is_refused_with_the_current_count(client: httpx.AsyncClient) -> None:
    table = await started(client)
    seen = (await table.snap(0))["events_total"]
    stale = await table.act(0, {"type": "speak", "text": "一种饮料", "expected_seq": seen - 1})
    assert stale.status_code == 409, stale.text
    detail = stale.json()["detail"]
    assert stale.json()["error"] == "stale_state"
    assert detail["events_total"] == seen and detail["expected_seq"] == seen - 1
    assert [a["type"] for a in detail["allowed_actions"]] == ["speak", "skip", "concede"]
    assert (await table.snap(0))["events_total"] == seen  # nothing happened
    fresh = await table.act(0, {"type": "speak", "text": "一种饮料", "expected_seq": seen})
    assert fresh.status_code == 200, fresh.text


async def test_within_one_batch_an_earlier_vote_moves_the_seq(client: httpx.AsyncClient) -> None:
    table = await started(client)
    for seat in range(4):
        assert (await table.act(seat, {"type": "skip"})).status_code == 200
    seen = (await table.snap(0))["events_total"]
    first, second = await asyncio.gather(
        table.act(0, {"type": "vote", "target_seat": 1, "expected_seq": seen}),
        table.act(2, {"type": "vote", "target_seat": 1, "expected_seq": seen}))
    assert sorted([first.status_code, second.status_code]) == [200, 409], (first.text, second.text)
    loser = second if second.status_code == 409 else first
    assert loser.json()["error"] == "stale_state" and loser.json()["detail"]["events_total"] > seen
    assert loser.json()["detail"]["allowed_actions"][0]["type"] == "vote"


async def test_expected_seq_must_be_a_count(client: httpx.AsyncClient) -> None:
    table = await started(client)
    bad = await table.act(0, {"type": "skip", "expected_seq": -1})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_request"
