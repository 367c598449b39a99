"""Webhooks over the app: an agent that never polls plays a whole game from `your_turn` deliveries, every signature
verifies, a failing receiver gets the delivery once it recovers, a failing-for-a-day webhook is disabled, and the
SSRF rules refuse what they should."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text, update
from sqlalchemy.ext.asyncio import create_async_engine
from standardwebhooks.webhooks import Webhook as Verifier
from standardwebhooks.webhooks import WebhookVerificationError

from app.db.models import Webhook
from app.main import create_app
from tests.api.helpers import assert_error, bearer
from tests.api.table import Table
from tests.conftest import RecordingClient, _wipe, make_settings
from tests.webhooks.receiver import Receiver

HOOK_SETTINGS = {"public_base_url": "http://localhost", "webhook_allow_private": True, "webhook_retry_base": 0.2}


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    server = await Receiver().start()
    yield server
    await server.stop()


async def _client(app: FastAPI) -> httpx.AsyncClient:
    return RecordingClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost", timeout=60)


@pytest.fixture
async def hooked(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app with private webhook URLs allowed (the receiver is on 127.0.0.1) and fast retries."""
    app = create_app(make_settings(database_url, **HOOK_SETTINGS))
    async with app.router.lifespan_context(app), await _client(app) as client:
        yield client
    await _wipe(database_url)


async def add_hook(client: httpx.AsyncClient, key: str, url: str, **body: Any) -> dict[str, Any]:
    response = await client.post("/api/agents/me/webhooks", json={"url": url, **body}, headers=bearer(key))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert created["secret"].startswith("whsec_") and created["enabled"] is True
    return created


async def open_table(table: Table) -> None:
    """Open the match with the agents `table.register()` made (seat i is agent i), then fill it."""
    created = await table.client.post("/api/matches", json={"game": "undercover", "config": table.config},
                                      headers=table.h(0))
    assert created.status_code == 201, created.text
    table.match_id = created.json()["match_id"]
    for seat in range(1, table.n):
        await table.join(seat)


async def settled(client: httpx.AsyncClient, key: str, webhook_id: str) -> dict[str, Any]:
    """The webhook's record once no delivery is pending (the receiver sees a delivery before its sender records
    the answer)."""
    for _ in range(600):
        detail: dict[str, Any] = (await client.get(f"/api/agents/me/webhooks/{webhook_id}", headers=bearer(key))).json()
        if all(d["status"] != "pending" for d in detail["deliveries"]):
            return detail
        await asyncio.sleep(0.05)
    raise AssertionError(f"deliveries still pending: {detail}")


def decide(turn: dict[str, Any]) -> dict[str, Any]:
    """What a webhook-driven agent sends, from the delivery alone: the first allowed action of its turn."""
    allowed = {a["type"]: a for a in turn["allowed_actions"]}
    action = turn["next_action"]
    assert action in allowed, turn
    if action == "speak":
        return {"type": "speak", "text": f"嗯，我再想想。{turn['phase']}"}
    if action == "vote":
        return {"type": "vote", "target_seat": allowed["vote"]["targets"][0]}
    if action == "last_words":
        return {"type": "last_words", "text": "再见了各位"}
    return {"type": action}


async def play_by_webhooks(client: httpx.AsyncClient, receiver: Receiver, table: Table) -> dict[str, Any]:
    """Each seat waits for its own deliveries only; it never reads the match until it has finished."""
    finished: dict[int, dict[str, Any]] = {}

    async def seat_loop(seat: int) -> None:
        while True:
            got = await receiver.next(table.names[seat], within=60)
            assert got.verified, got
            body = got.body
            assert body["match_id"] == table.match_id and body["seat"] == seat
            if body["type"] == "match_finished":
                finished[seat] = body
                return
            if body["type"] == "your_turn":
                answer = await table.act(seat, decide(body))
                assert answer.status_code == 200, answer.text

    await asyncio.gather(*(seat_loop(seat) for seat in range(table.n)))
    return finished


async def test_an_agent_plays_a_whole_game_from_webhooks_alone(hooked: httpx.AsyncClient,
                                                                receiver: Receiver) -> None:
    table = Table(hooked, 4)
    await table.register()
    hooks = []
    for seat, name in enumerate(table.names):
        hook = await add_hook(hooked, table.keys[seat], receiver.url(name))
        receiver.secrets[name] = hook["secret"]
        hooks.append(hook)
    await open_table(table)
    finished = await play_by_webhooks(hooked, receiver, table)

    snap = await table.snap(0)
    assert snap["status"] == "finished"
    assert {f["status"] for f in finished.values()} == {"finished"}
    assert all(f["result"] == finished[0]["result"] for f in finished.values())
    assert all(r.verified for r in receiver.log) and receiver.log
    started = [r for r in receiver.log if r.body["type"] == "match_started"]
    assert sorted(r.hook for r in started) == sorted(table.names)
    turns = [r.body for r in receiver.log if r.body["type"] == "your_turn"]
    # Every action the game accepted answered a your_turn delivery, and each delivery was one turn.
    assert len(turns) == len(table.responses) and len({t["delivery_id"] for t in turns}) == len(turns)
    assert all(t["deadline_ts"] is not None and t["allowed_actions"] for t in turns)
    listed = (await hooked.get("/api/agents/me/webhooks", headers=table.h(0))).json()["webhooks"]
    assert listed[0]["last_status"] == 204 and listed[0]["last_error"] is None and "secret" not in listed[0]
    detail = await settled(hooked, table.keys[0], hooks[0]["webhook_id"])
    assert {d["status"] for d in detail["deliveries"]} == {"delivered"}


async def test_signature_is_standard_webhooks_over_id_timestamp_and_body(hooked: httpx.AsyncClient,
                                                                           receiver: Receiver) -> None:
    table = Table(hooked, 4)
    await table.register()
    hook = await add_hook(hooked, table.keys[0], receiver.url("sig"), events=["match_started"])
    receiver.secrets["sig"] = "whsec_" + "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="  # a wrong secret
    await open_table(table)
    got = await receiver.next("sig")
    assert got.body["type"] == "match_started" and not got.verified
    assert got.headers["webhook-id"] == got.body["delivery_id"]
    # With the right secret the same request verifies: HMAC-SHA256 over "id.timestamp.body", by the library.
    raw = json.dumps(got.body, ensure_ascii=False, separators=(",", ":"))
    assert Verifier(hook["secret"]).verify(raw, got.headers) == got.body
    with pytest.raises(WebhookVerificationError):
        Verifier(hook["secret"]).verify(raw.replace("match_started", "match_finished"), got.headers)
    stale = {**got.headers, "webhook-timestamp": str(int(got.headers["webhook-timestamp"]) - 301)}
    with pytest.raises(WebhookVerificationError):  # the replay window: five minutes
        Verifier(hook["secret"]).verify(raw, stale)


async def test_a_receiver_failing_three_times_then_recovering_gets_the_delivery(hooked: httpx.AsyncClient,
                                                                                 receiver: Receiver) -> None:
    table = Table(hooked, 4)
    await table.register()
    hook = await add_hook(hooked, table.keys[0], receiver.url("flaky"), events=["match_started"])
    receiver.secrets["flaky"] = hook["secret"]
    receiver.failures["flaky"] = 3
    await open_table(table)
    got = await receiver.next("flaky")
    attempts = [r for r in receiver.log if r.hook == "flaky"]
    assert [r.answered for r in attempts] == [503, 503, 503, 204]
    assert {r.headers["webhook-id"] for r in attempts} == {got.body["delivery_id"]}
    assert all(r.verified for r in attempts)
    detail = await settled(hooked, table.keys[0], hook["webhook_id"])
    assert detail["last_status"] == 204 and detail["failing_since"] is None and detail["enabled"] is True
    (delivery,) = detail["deliveries"]
    assert delivery["status"] == "delivered" and delivery["attempts"] == 4


async def test_failures_are_recorded_and_a_webhook_failing_for_a_day_is_disabled(
        hooked: httpx.AsyncClient, receiver: Receiver, database_url: str) -> None:
    table = Table(hooked, 4)
    await table.register()
    hook = await add_hook(hooked, table.keys[0], receiver.url("down"), events=["match_started", "your_turn"])
    receiver.failures["down"] = 10**6
    receiver.fail_status = 500
    await open_table(table)
    path = f"/api/agents/me/webhooks/{hook['webhook_id']}"
    for _ in range(600):
        detail = (await hooked.get(path, headers=table.h(0))).json()
        if detail["last_status"] == 500:
            break
        await asyncio.sleep(0.05)
    assert detail["last_status"] == 500 and detail["last_error"].startswith("HTTP 500")
    assert detail["failing_since"] is not None and detail["enabled"] is True
    engine = create_async_engine(database_url)
    async with engine.begin() as conn:
        await conn.execute(update(Webhook).where(Webhook.webhook_id == hook["webhook_id"])
                           .values(failing_since=datetime.now(UTC) - timedelta(hours=25)))
    await engine.dispose()
    for _ in range(600):
        detail = (await hooked.get(path, headers=table.h(0))).json()
        # The webhook's row and its deliveries are two reads: wait until both show the disabling's one commit.
        if not detail["enabled"] and all(d["status"] == "failed" for d in detail["deliveries"]):
            break
        await asyncio.sleep(0.05)
    assert detail["enabled"] is False and "failed for more than a day" in detail["disabled_reason"]
    assert detail["deliveries"] and all(d["status"] == "failed" for d in detail["deliveries"])
    seen = len(receiver.log)
    await table.act(0, {"type": "skip"})  # a new turn: nothing is queued for a disabled webhook
    await asyncio.sleep(0.5)
    assert len(receiver.log) == seen
    engine = create_async_engine(database_url)
    async with engine.connect() as conn:
        pending = await conn.execute(text("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'"))
        assert pending.scalar_one() == 0
    await engine.dispose()


async def test_webhooks_are_listed_and_deleted_by_their_agent_only(hooked: httpx.AsyncClient,
                                                                     receiver: Receiver) -> None:
    table = Table(hooked, 2)
    await table.register()
    hook = await add_hook(hooked, table.keys[0], receiver.url("a"))
    alias = await hooked.post("/webhooks", json={"url": receiver.url("b"), "events": ["your_turn"]},
                              headers=table.h(0))
    assert alias.status_code == 201 and alias.json()["events"] == ["your_turn"]
    mine = (await hooked.get("/api/agents/me/webhooks", headers=table.h(0))).json()["webhooks"]
    assert [h["webhook_id"] for h in mine] == [hook["webhook_id"], alias.json()["webhook_id"]]
    assert all("secret" not in h and "secret_prefix" not in h for h in mine)
    other = await hooked.delete(f"/api/agents/me/webhooks/{hook['webhook_id']}", headers=table.h(1))
    assert_error(other, 404, "webhook_not_found")
    gone = await hooked.delete(f"/api/agents/me/webhooks/{hook['webhook_id']}", headers=table.h(0))
    assert gone.status_code == 200 and gone.json() == {"deleted": hook["webhook_id"]}
    assert len((await hooked.get("/api/agents/me/webhooks", headers=table.h(0))).json()["webhooks"]) == 1
    assert_error(await hooked.get("/api/agents/me/webhooks"), 401, "auth_required")
    bad = await hooked.post("/api/agents/me/webhooks", json={"url": receiver.url("c"), "events": ["speech"]},
                            headers=table.h(0))
    assert_error(bad, 400, "bad_request")
    for n in range(4):
        await add_hook(hooked, table.keys[0], receiver.url(f"more{n}"))
    assert_error(await hooked.post("/api/agents/me/webhooks", json={"url": receiver.url("x")}, headers=table.h(0)),
                 409, "too_many_webhooks")


async def test_a_turn_nobody_could_receive_expires_at_its_deadline(hooked: httpx.AsyncClient,
                                                                   receiver: Receiver) -> None:
    table = Table(hooked, 4, speak_timeout=1)
    await table.register()
    hook = await add_hook(hooked, table.keys[0], receiver.url("late"), events=["your_turn"])
    receiver.failures["late"] = 10**6
    await open_table(table)
    for _ in range(600):
        detail = await settled(hooked, table.keys[0], hook["webhook_id"])
        if any(d["status"] == "expired" for d in detail["deliveries"]):
            break
        await asyncio.sleep(0.05)
    first = detail["deliveries"][-1]  # newest first: the oldest is seat 0's first turn
    assert first["status"] == "expired" and first["attempts"] >= 1 and first["last_error"].startswith("the turn")
    assert detail["enabled"] is True


async def test_a_webhook_registered_mid_game_gets_the_next_turn(hooked: httpx.AsyncClient,
                                                                 receiver: Receiver) -> None:
    """Commands of a table without webhooks skip the webhook query (this process knows who has webhooks); a
    registration made during the game is known at once."""
    table = Table(hooked, 4)
    await table.register()
    await open_table(table)
    assert (await table.act(0, {"type": "skip"})).status_code == 200  # seat 1's turn: nobody to tell
    assert receiver.log == []
    hook = await add_hook(hooked, table.keys[2], receiver.url("late-comer"), events=["your_turn"])
    receiver.secrets["late-comer"] = hook["secret"]
    assert (await table.act(1, {"type": "skip"})).status_code == 200  # seat 2's turn
    got = await receiver.next("late-comer")
    assert got.verified and got.body["seat"] == 2 and got.body["next_action"] == "speak"
