"""Long-poll: wakes on what this viewer may see, never on what it may not; no lost wake-ups."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from tests.api.table import Table


async def test_events_long_poll_wakes_on_a_speech(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    since = snap["events_total"]
    poll = asyncio.create_task(client.get(f"/api/matches/{table.match_id}/events",
                                          params={"since": since, "wait": 20}))
    await asyncio.sleep(0.2)
    assert not poll.done()
    speaker = snap["current_speaker_seat"]
    posted = await table.act(speaker, {"type": "speak", "text": "一种常见的东西"})
    page = (await asyncio.wait_for(poll, 5)).json()
    assert page["events"][0]["seq"] == posted.json()["seq"] and page["events"][0]["type"] == "speech_posted"
    assert all(e["visibility"] == "public" for e in page["events"])
    assert page["next_since"] == page["events"][-1]["seq"] and page["since"] == since


async def test_private_events_do_not_wake_other_viewers(client: httpx.AsyncClient) -> None:
    table = Table(client, 4, speak_timeout=2)
    await table.open()
    snap = await table.snap(0)
    since, speaker = snap["events_total"], snap["current_speaker_seat"]
    other = (speaker + 1) % 4
    url = f"/api/matches/{table.match_id}/events"
    anonymous = asyncio.create_task(client.get(url, params={"since": since, "wait": 20}))
    bystander = asyncio.create_task(client.get(url, params={"since": since, "wait": 20}, headers=table.h(other)))
    own = (await client.get(url, params={"since": since, "wait": 20}, headers=table.h(speaker))).json()
    assert [e["type"] for e in own["events"]] == ["turn_warning"]
    assert own["events"][0]["visibility"] == f"private:seat:{speaker}"
    for task in (anonymous, bystander):
        page = (await task).json()
        assert page["events"], "an invisible event must not end a long-poll with an empty answer"
        assert page["events"][0]["type"] == "speech_skipped"
        assert all(e["type"] != "turn_warning" for e in page["events"])


async def test_snapshot_wait_for_your_turn(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    speaker = snap["current_speaker_seat"]
    nxt = (speaker + 1) % 4
    waiting = asyncio.create_task(table.snap(nxt, wait=20, wait_for="your_turn"))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    await table.act(speaker, {"type": "speak", "text": "我觉得挺好"})
    mine = await asyncio.wait_for(waiting, 5)
    assert mine["you"]["your_turn"] is True and mine["you"]["next_action"] == "speak"
    now = await table.snap(nxt, wait=20, wait_for="your_turn")
    assert now["you"]["next_action"] == "speak", "an already-true condition returns at once"


async def test_opponent_joined_and_any_change(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open(fill=False)
    full = asyncio.create_task(table.snap(0, wait=20, wait_for="opponent_joined"))
    change = asyncio.create_task(table.snap(None, wait=20, wait_for="any_change"))
    # Both must hold the room as it was before the join: a poll that first read it after the join waits for the
    # next change instead.
    notifier = app.state.runtime.notifier
    for _ in range(500):
        if notifier.waiting() >= 2:
            break
        await asyncio.sleep(0.01)
    assert notifier.waiting() >= 2
    await table.join(1)
    changed = await asyncio.wait_for(change, 5)
    assert changed["seats_open"] == 2
    assert not full.done()
    await table.join(2)
    await table.join(3)
    started = await asyncio.wait_for(full, 5)
    assert started["status"] == "in_progress" and started["you"]["role"] in {"civilian", "undercover"}


async def test_many_waiters_all_wake(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    url = f"/api/matches/{table.match_id}/events"
    polls = [asyncio.create_task(client.get(url, params={"since": snap["events_total"], "wait": 20}))
             for _ in range(50)]
    await asyncio.sleep(0.2)
    await table.act(snap["current_speaker_seat"], {"type": "skip"})
    pages = await asyncio.wait_for(asyncio.gather(*polls), 10)
    assert all(p.json()["events"][0]["type"] == "speech_skipped" for p in pages)


async def test_wait_zero_and_finished_match_return_at_once(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    await table.play()
    total = (await table.snap(None))["events_total"]
    page = await asyncio.wait_for(client.get(f"/api/matches/{table.match_id}/events",
                                             params={"since": total, "wait": 30}), 5)
    assert page.json()["events"] == [] and page.json()["status"] == "finished"
    snap = await asyncio.wait_for(table.snap(0, wait=30, wait_for="your_turn"), 5)
    assert snap["you"]["next_action"] == "none"


async def test_any_change_since_a_seq_the_caller_read(app: FastAPI, client: httpx.AsyncClient) -> None:
    """`since` (an `events_total` the caller read): `any_change` answers once the match has an event after it — at
    once when it moved between that read and this request, which a plain `any_change` would hold for the next
    event. A `since` the match has not passed waits as before; a bad one is refused."""
    table = Table(client, 4)
    await table.open(fill=False)
    url = f"/api/matches/{table.match_id}"
    read = (await client.get(url)).json()["events_total"]
    await table.join(1)  # the match moves after the caller's read, before its long-poll
    plain = asyncio.create_task(client.get(url, params={"wait": 20, "wait_for": "any_change"}))
    caught_up = await asyncio.wait_for(client.get(url, params={"wait": 20, "wait_for": "any_change", "since": read}),
                                       5)
    assert caught_up.status_code == 200 and caught_up.json()["events_total"] > read and caught_up.json()[
        "seats_open"] == 2
    notifier = app.state.runtime.notifier
    for _ in range(500):
        if notifier.waiting() >= 1:
            break
        await asyncio.sleep(0.01)
    assert notifier.waiting() >= 1 and not plain.done()  # without `since`, the join is the baseline: it waits
    now = caught_up.json()["events_total"]
    ahead = asyncio.create_task(client.get(url, params={"wait": 20, "wait_for": "any_change", "since": now}))
    for _ in range(500):
        if notifier.waiting() >= 2:
            break
        await asyncio.sleep(0.01)
    assert notifier.waiting() >= 2 and not ahead.done()
    await table.join(2)
    assert (await asyncio.wait_for(ahead, 5)).json()["seats_open"] == 1
    assert (await asyncio.wait_for(plain, 5)).json()["seats_open"] == 1
    for bad in ("-1", "x"):
        refused = await client.get(url, params={"wait": 1, "since": bad})
        assert refused.status_code == 400 and refused.json()["detail"]["field"] == "since", refused.text
