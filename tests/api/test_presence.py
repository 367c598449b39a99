"""Several server processes on one PostgreSQL database (two app instances here): a process alone on the database
serves its cached matches without a version check, and stops doing so before any other process can commit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.main import create_app
from app.services.pg_notifier import PostgresNotifier
from tests.api.table import Table
from tests.conftest import _wipe, make_settings

pytestmark = pytest.mark.postgres


def notifier(app: FastAPI) -> PostgresNotifier:
    chosen = app.state.runtime.notifier
    assert isinstance(chosen, PostgresNotifier)
    return chosen


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    assert condition()


@contextlib.asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        yield client


async def test_a_process_alone_steps_down_before_a_second_one_can_write(database_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        a = await stack.enter_async_context(serving(first))
        await until(lambda: notifier(first).sole_epoch is not None)
        table = Table(a, 4)
        await table.open()
        speaker = (await table.snap(None))["current_speaker_seat"]
        before = await table.snap(speaker)  # cached by the first process, which is alone: no version check
        # From here on the first process hears nothing from the second one through NOTIFY, as if delivery lagged:
        # only the presence hand-over keeps its reads current.
        monkeypatch.setattr(notifier(first), "deliver", lambda *_args: None)
        b = await stack.enter_async_context(serving(second))
        assert notifier(first).sole_epoch is None and notifier(second).sole_epoch is None
        acted = await b.post(f"/api/matches/{table.match_id}/action", headers=table.h(speaker),
                             json={"type": "speak", "text": "这个东西很常见"})
        assert acted.status_code == 200, acted.text
        after = await table.snap(speaker)  # on the first process: its own write, made through the second, is there
        assert after["events_total"] > before["events_total"]
        assert after["current_speaker_seat"] != speaker
        assert [e["text"] for e in after["public_log"] if e["type"] == "speech_posted"] == ["这个东西很常见"]


async def test_the_last_process_left_becomes_alone_again_with_a_new_epoch(database_url: str) -> None:
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        await stack.enter_async_context(serving(first))
        notifier(first).ALONE_RECHECK = 0.05
        await until(lambda: notifier(first).sole_epoch is not None)
        alone_before = notifier(first).sole_epoch
        async with serving(second):
            assert notifier(first).sole_epoch is None
            await asyncio.sleep(0.3)  # several rechecks while the second process is there: still not alone
            assert notifier(first).sole_epoch is None and notifier(second).sole_epoch is None
        await until(lambda: notifier(first).sole_epoch is not None)
        assert notifier(first).sole_epoch != alone_before  # entries checked in the earlier epoch are checked again


async def test_losing_the_listen_connection_leaves_sole_mode_at_once(database_url: str) -> None:
    app = create_app(make_settings(database_url))
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(_wipe, database_url)
        client = await stack.enter_async_context(serving(app))
        await until(lambda: notifier(app).sole_epoch is not None)
        epoch = notifier(app).sole_epoch
        listener = notifier(app)._listener
        assert listener is not None
        pid = listener.get_server_pid()
        async with app.state.runtime.db.reader() as session:
            assert (await session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})).scalar_one()
        await until(lambda: notifier(app).sole_epoch != epoch)
        # The locks went with the connection; the process reconnects, finds itself alone, and starts a new epoch.
        await until(lambda: notifier(app).sole_epoch is not None)
        assert notifier(app).sole_epoch != epoch
        table = Table(client, 4)
        await table.open()
        assert (await table.snap(0))["status"] == "in_progress"
