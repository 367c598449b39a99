"""Wake-ups across processes with PostgreSQL LISTEN/NOTIFY (ARCHITECTURE seam 5, scale-out path).

Local waiters are woken at once (no round trip); other processes learn through one dedicated LISTEN
connection, re-established with back-off after loss. After a reconnect every waiter re-reads the database,
so nothing published while the connection was down is missed.

Presence (two advisory locks): every server process holds `PRESENCE_LOCK` shared on that same connection. Now
and then (`ALONE_RECHECK`) a process tries to take it exclusively: that succeeds only if no other server process
is connected, and while it holds it nobody can start a write that claims to be alone. It then takes `SOLE_LOCK`
exclusively (waiting out the writes in flight), drops back to shared presence, and is alone: the only writer, so
the matches it committed and wrote through its cache are current and its reads skip the version check
(`sole_epoch`, a new value each time).

Writes prove their right in the statement that locks the match row (`presence_check`): a process that is not
alone takes `SOLE_LOCK` shared, which is refused while another process is alone; the lone process takes
`PRESENCE_LOCK` shared and checks that its LISTEN session is still alive (it holds a random token lock drawn
per connection exclusively, so asking for it shared fails): that session has held `PRESENCE_LOCK` shared since
before this process became alone, so nobody else can have become alone since, and the write's own shared hold keeps
it so until it commits. A process whose session PostgreSQL ended cannot write behind a newcomer, and a newcomer
cannot become alone while such a write is in flight.
A refused write, and every process that connects, says hello on `HELLO_CHANNEL`; the lone process leaves sole mode
at once (in the notification callback) and releases `SOLE_LOCK`.

Sole mode is also a lease: while alone the process pings its LISTEN connection every `HEARTBEAT` seconds and
serves its cache unchecked only if a ping sent less than `SOLE_LEASE` seconds ago was answered. The connection asks
PostgreSQL for TCP keepalives and a user timeout (`KEEPALIVE`), so a session that stopped answering is dropped, and
its locks with it, only well after its lease ran out. A connection seen closed leaves sole mode at once. (A session
that PostgreSQL ends abruptly, without the close reaching us — an administrator's kill during a network partition —
is covered only by the lease: up to `SOLE_LEASE` seconds.)

Every server process sharing a database must run this protocol: a process of a release before it takes none of
these locks, so stop the old processes before starting new ones (README, Scale-out).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.matches import PresenceCheck
from app.services.notifier import MemoryNotifier

log = logging.getLogger("wodi.notifier")
CHANNEL = "wodi_events"
KEYS_CHANNEL = "wodi_keys"  # payload: the agent whose API key changed
HELLO_CHANNEL = "wodi_hello"  # payload: the origin of a process that is there, or whose write was refused
PRESENCE_LOCK = 0x57_0D_50_2E  # advisory-lock keys: shared by every server process's LISTEN session …
SOLE_LOCK = 0x57_0D_50_2F  # … exclusive by the LISTEN session of a process that is alone
TOKEN_KEYS = (2**32, 2**62)  # each LISTEN session holds one random bigint key from this range exclusively


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresNotifier(MemoryNotifier):
    """Commands NOTIFY `origin:match_id:seq[:timer_due]` in their transaction (`stage`); `publish` wakes local
    waiters at once; one listener per process delivers the other processes' notifications."""

    ALONE_RECHECK = 2.0  # seconds between checks, in shared mode, whether the other processes have gone
    HEARTBEAT = 1.0  # seconds between pings of the LISTEN connection while alone
    PING_TIMEOUT = 3.0  # a ping unanswered this long: the connection is treated as lost
    SOLE_LEASE = 3.0  # sole mode holds only while a ping sent this recently was answered
    # PostgreSQL drops a peer that stopped answering after idle + interval x count = 25 s, or 10 s after data it
    # sent went unacknowledged (TCP connections): only then can its locks pass to another process, and by then its
    # lease ran out long ago.
    KEEPALIVE = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3",
                 "tcp_user_timeout": "10000", "application_name": "wodi-listen"}

    def __init__(self, database_url: str, on_remote: Callable[[str, int, float | None], None] | None = None,
                 on_key_change: Callable[[str | None], None] | None = None) -> None:
        super().__init__()
        self._dsn = asyncpg_dsn(database_url)
        self._on_remote = on_remote
        self._on_key_change = on_key_change or (lambda _agent_id: None)
        self._listener: asyncpg.Connection | None = None
        self._origin = secrets.token_hex(4)  # tells our own notifications apart when they come back
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._stir = asyncio.Event()  # the presence loop has something to do: a hello to answer, or a lost connection
        self._exclusive = False  # our LISTEN session holds SOLE_LOCK (until a hello makes us step down)
        self._epochs = 0
        self._sole: int | None = None  # the epoch, while this process believes it is the only one on the database
        self._beat = 0.0  # when the last answered ping (or the exclusive lock's grant) was sent
        self._session: tuple[int, Any] | None = None  # (pid, backend_start) of our LISTEN session in PostgreSQL
        self._token = 0  # the token lock our current LISTEN session holds exclusively
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

    async def stage(self, session: AsyncSession, match_id: str, seq: int, timer_due: float | None) -> None:
        # NOTIFY inside the transaction is delivered by PostgreSQL exactly when it commits, never otherwise.
        payload = f"{self._origin}:{match_id}:{seq}" + (f":{timer_due}" if timer_due is not None else "")
        await session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    async def stage_key_change(self, session: AsyncSession, agent_id: str) -> None:
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": KEYS_CHANNEL, "payload": agent_id})

    def _key_changed(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self._on_key_change(payload)

    @property
    def sole_epoch(self) -> int | None:
        if self._sole is None or time.monotonic() - self._beat >= self.SOLE_LEASE:
            return None
        return self._sole

    def presence_check(self) -> PresenceCheck:
        if self._exclusive:
            # Our own SOLE_LOCK hold lives on the LISTEN session, which a pooled connection asking for it shared
            # would collide with. Prove instead that the session is alive (it holds our token lock): it has held
            # PRESENCE_LOCK shared since it connected, so no other process can have become alone meanwhile, and
            # the PRESENCE_LOCK we take shared keeps it so until we commit, even if the session dies now.
            return PresenceCheck(shared=PRESENCE_LOCK, holder=self._token, generation=self._epochs)
        return PresenceCheck(shared=SOLE_LOCK)

    async def ask_to_share(self, session: AsyncSession, refused: PresenceCheck) -> None:
        if refused.holder is not None and self._exclusive and refused.generation == self._epochs:
            # Our LISTEN session no longer holds SOLE_LOCK: PostgreSQL ended it. We are not alone any more.
            log.warning("the LISTEN session lost its locks; reconnecting")
            self._connection_lost(None)
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": HELLO_CHANNEL, "payload": self._origin})

    def _hello(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload != self._origin and (self._sole is not None or self._exclusive):
            # Leave sole mode now, synchronously: the newcomer cannot commit before we release the exclusive hold.
            self._sole = None
            self._stir.set()

    def _connection_lost(self, _conn: Any) -> None:
        self._sole = None  # PostgreSQL dropped our locks with the connection: others may be writing already
        self._exclusive = False
        self._lost.set()
        self._stir.set()

    async def _join(self, conn: asyncpg.Connection) -> None:
        """Take the presence lock shared (queueing behind another process's check whether it is alone), then say
        hello, so a process that is alone steps down before our first write has to ask it to."""
        started = time.monotonic()
        while True:
            try:
                async with conn.transaction():  # a session lock taken in a transaction outlives it
                    await conn.execute("SET LOCAL lock_timeout = '2s'")
                    await conn.execute("SELECT pg_advisory_lock_shared($1)", PRESENCE_LOCK)
                break
            except asyncpg.LockNotAvailableError:
                log.warning("still waiting for the presence lock (%.0f s)", time.monotonic() - started)
        await conn.execute("SELECT pg_notify($1, $2)", HELLO_CHANNEL, self._origin)

    async def _try_alone(self, conn: asyncpg.Connection) -> bool:
        """Alone if no other server process holds the presence lock; then take the sole lock, waiting out the
        writes in flight (theirs hold it shared). True when this process is now alone."""
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", PRESENCE_LOCK):
            return False
        try:
            async with conn.transaction():
                # Writes hold it for milliseconds; while we wait, new ones are refused and retry.
                await conn.execute("SET LOCAL lock_timeout = '500ms'")
                await conn.execute("SELECT pg_advisory_lock($1)", SOLE_LOCK)
        except asyncpg.LockNotAvailableError:
            return False
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", PRESENCE_LOCK)  # back to the shared hold only
        return True

    async def _presence(self, conn: asyncpg.Connection) -> None:
        """While connected: step down on a hello, ping while alone, and check now and then whether we are alone."""
        next_try = 0.0
        while not self._lost.is_set():
            self._stir.clear()
            now = time.monotonic()
            if self._exclusive and self._sole is None:  # a hello arrived: let the other process write
                self._exclusive = False  # first: our writes now ask for the sole lock shared (and wait their turn)
                await conn.execute("SELECT pg_advisory_unlock($1)", SOLE_LOCK)
                log.info("another server process is on the database: reads check the match version again")
                next_try = time.monotonic() + self.ALONE_RECHECK
            elif self._exclusive:  # alone: renew the lease
                async with asyncio.timeout(self.PING_TIMEOUT):  # unanswered: handled as a lost connection
                    await conn.fetchval("SELECT 1")
                self._beat = now
            elif now >= next_try:
                if await self._try_alone(conn):
                    self._exclusive, self._beat = True, now
                    self._epochs += 1
                    self._sole = self._epochs
                    log.info("this process is alone on the database: cached matches are served without a version "
                             "check until another process arrives")
                next_try = time.monotonic() + self.ALONE_RECHECK
            pause = self.HEARTBEAT if self._exclusive else next_try - time.monotonic()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(pause, 0.01)):
                    await self._stir.wait()

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
        if self._on_remote is not None:
            self._on_remote(match_id, seq, due)

    @staticmethod
    async def _take_token(conn: asyncpg.Connection) -> int:
        """A random lock key no other session holds, for this session to prove it is alive by (62 random bits: a
        later session drawing a dead one's token is not a practical concern)."""
        low, high = TOKEN_KEYS
        while True:
            token = low + secrets.randbelow(high - low)
            if await conn.fetchval("SELECT pg_try_advisory_lock($1::bigint)", token):
                return token

    async def _end_previous_session(self, conn: asyncpg.Connection) -> None:
        """Our previous LISTEN session may live on in PostgreSQL (a connection that stopped answering), holding
        its locks until keepalives give up: end it (the same pid and start time, so never another session)."""
        if self._session is not None:
            pid, started = self._session
            await conn.fetchval("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE pid = $1 AND backend_start = $2", pid, started)

    async def _keep_listening(self) -> None:
        backoff = 0.2
        while True:
            try:
                # command_timeout: a query on a connection that stopped answering fails (and we reconnect).
                self._listener = await asyncpg.connect(self._dsn, server_settings=self.KEEPALIVE, command_timeout=5)
                await self._end_previous_session(self._listener)
                self._session = (self._listener.get_server_pid(), await self._listener.fetchval(
                    "SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"))
                self._token = await self._take_token(self._listener)
                self._lost.clear()
                self._listener.add_termination_listener(self._connection_lost)
                await self._listener.add_listener(CHANNEL, self._received)
                await self._listener.add_listener(KEYS_CHANNEL, self._key_changed)
                await self._listener.add_listener(HELLO_CHANNEL, self._hello)
                self.wake_everyone()  # anything published while we were away is re-read from the database
                self._on_key_change(None)  # and any key rotated meanwhile is looked up again
                await self._join(self._listener)
                self.connected.set()
                backoff = 0.2
                await self._presence(self._listener)
                log.warning("LISTEN connection lost; reconnecting")
            except Exception as exc:  # noqa: BLE001 - any failure of this connection means "reconnect"
                log.warning("LISTEN connection failed (%s); retrying in %.1f s", exc, backoff)
            self.connected.clear()
            self._sole, self._exclusive = None, False
            await self._close_listener()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
