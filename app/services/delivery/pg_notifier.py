"""Wake-ups across processes with PostgreSQL LISTEN/NOTIFY (ARCHITECTURE seam 5, scale-out path).

Local waiters are woken at once (no round trip); other processes learn through one dedicated LISTEN
connection, pinged now and then and re-established with back-off after loss. After a reconnect every waiter
re-reads the database, so nothing published while the connection was down is missed.

A command may also send its content (`stage`'s `carry`, when it fits PostgreSQL's 8,000 bytes) on a channel of its
own, just before its wake-up: the receiving process hands it to `on_carry` before the wake-up reaches its waiters,
so a long-poll woken by another process's command is answered without reading the match back. PostgreSQL delivers
notifications in commit order, and those of one transaction in the order they were sent. A process of an earlier
release does not listen on that channel, so processes of both releases run side by side during a rolling restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import direct
from app.services.delivery.notifier import MemoryNotifier, OnCommit

NOTIFY = text("SELECT pg_notify(:channel, :payload)")

log = logging.getLogger("wodi.notifier")
CHANNEL = "wodi_events"
KEYS_CHANNEL = "wodi_keys"  # payload: the agent whose API key changed
CARRY_CHANNEL = "wodi_carry"  # payload: `origin:match_id carry`, sent just before the commit's wake-up
MAX_PAYLOAD = 7_900  # bytes: PostgreSQL refuses a payload of 8,000 or more
OnCarry = Callable[[str, str], None]  # (match_id, carry) of another process's commit


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresNotifier(MemoryNotifier):
    """Commands NOTIFY `origin:match_id:seq[:timer_due]` in their transaction (`stage`); `publish` wakes local
    waiters at once; one listener per process delivers the other processes' notifications."""

    PING_EVERY = 5.0  # seconds: a LISTEN connection that stopped answering is noticed, and replaced, this soon

    carries = True

    def __init__(self, database_url: str, on_commit: OnCommit | None = None,
                 on_key_change: Callable[[str | None], None] | None = None, on_carry: OnCarry | None = None) -> None:
        super().__init__(on_commit)
        self._dsn = asyncpg_dsn(database_url)
        self._on_carry = on_carry or (lambda _match_id, _carry: None)
        self._on_key_change = on_key_change or (lambda _agent_id: None)
        self._listener: asyncpg.Connection | None = None
        self._origin = secrets.token_hex(4)  # tells our own notifications apart when they come back
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self.connected = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._keep_listening(), name="wodi-listen")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), 10)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._close_listener()
        await super().stop()

    async def _close_listener(self) -> None:
        if self._listener is not None and not self._listener.is_closed():
            try:
                await self._listener.close(timeout=2)
            except Exception:  # noqa: BLE001 - a peer that does not answer: drop the socket
                self._listener.terminate()
        self._listener = None

    async def stage(self, session: AsyncSession, match_id: str, seq: int, timer_due: float | None,
                    carry: str | None = None) -> None:
        # NOTIFY inside the transaction is delivered by PostgreSQL exactly when it commits, never otherwise.
        if carry is not None:
            carried = f"{self._origin}:{match_id} {carry}"
            if len(carried.encode()) <= MAX_PAYLOAD:
                await self._notify(session, CARRY_CHANNEL, carried)
        payload = f"{self._origin}:{match_id}:{seq}" + (f":{timer_due}" if timer_due is not None else "")
        await self._notify(session, CHANNEL, payload)

    @staticmethod
    async def _notify(session: AsyncSession, channel: str, payload: str) -> None:
        if not await direct.notify(session, channel, payload):
            await session.execute(NOTIFY, {"channel": channel, "payload": payload})

    async def stage_key_change(self, session: AsyncSession, agent_id: str) -> None:
        await session.execute(NOTIFY, {"channel": KEYS_CHANNEL, "payload": agent_id})

    def _key_changed(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self._on_key_change(payload)

    def _carried(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        head, _, carry = payload.partition(" ")
        origin, _, match_id = head.partition(":")
        if origin == self._origin:
            return  # our own commit: written through already
        try:
            self._on_carry(match_id, carry)
        except Exception:  # a carry is a shortcut: without it the woken waiters read the database
            log.exception("ignoring the content carried for match %s", match_id)

    def _received(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        parts = payload.split(":")
        try:
            origin, match_id, seq = parts[0], parts[1], int(parts[2])
            due = float(parts[3]) if len(parts) > 3 else None
        except (IndexError, ValueError):
            log.warning("ignoring malformed notification %r", payload)
            return
        if origin == self._origin:
            return  # our own commit: `publish` already woke our waiters with the cache written through
        self.deliver(match_id, seq)
        self._on_commit(match_id, seq, due)

    async def _listen(self, conn: asyncpg.Connection) -> None:
        """Until the connection is lost, or a ping goes unanswered."""
        while not self._lost.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.PING_EVERY):
                    await self._lost.wait()
            if not self._lost.is_set():
                await conn.fetchval("SELECT 1", timeout=self.PING_EVERY)

    async def _keep_listening(self) -> None:
        backoff = 0.2
        while True:
            try:
                self._listener = await asyncpg.connect(self._dsn, server_settings={"application_name": "wodi-listen"})
                self._lost.clear()
                self._listener.add_termination_listener(lambda _conn: self._lost.set())
                await self._listener.add_listener(CARRY_CHANNEL, self._carried)
                await self._listener.add_listener(CHANNEL, self._received)
                await self._listener.add_listener(KEYS_CHANNEL, self._key_changed)
                self.wake_everyone()  # anything published while we were away is re-read from the database
                self._on_key_change(None)  # and any key rotated meanwhile is looked up again
                self.connected.set()
                backoff = 0.2
                await self._listen(self._listener)
                log.warning("LISTEN connection lost; reconnecting")
            except Exception as exc:  # noqa: BLE001 - any failure of this connection means "reconnect"
                log.warning("LISTEN connection failed (%s); retrying in %.1f s", exc, backoff)
            self.connected.clear()
            await self._close_listener()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
