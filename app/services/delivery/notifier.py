"""Wake-ups for long-polls, published after commit (ARCHITECTURE seam 5).

Waiters compare sequence numbers, not pulses: `wait(match, after_seq)` returns at once when a newer seq
was already published, so an event committed between a waiter's read and its wait is never missed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

RESYNC = 2**62  # larger than any seq: "re-read from the database"
OnCommit = Callable[[str, int, float | None], None]  # (match_id, seq, timer_due) of a commit, ours or not


class Notifier(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def latest(self, match_id: str) -> int:
        """The newest seq published for the match (0 when none is known)."""
        ...

    @property
    def carries(self) -> bool:
        """Whether other processes are told of a commit (`stage`'s `carry` then reaches them)."""
        ...

    async def stage(self, session: Any, match_id: str, seq: int, timer_due: float | None,
                    carry: str | None = None) -> None:
        """Inside the command's transaction: queue the cross-process wake-up so it is sent exactly on commit.
        `carry`: text another process is handed (`on_carry`) before the wake-up reaches its waiters — the commit's
        content, so they need not read it from the database; not sent when too long."""
        ...

    async def publish(self, match_id: str, seq: int, timer_due: float | None = None) -> None:
        """After commit: wake this process's waiters, and tell `on_commit` (other processes' commits reach it
        the same way, through the listener)."""
        ...

    async def stage_key_change(self, session: Any, agent_id: str) -> None:
        """Inside the transaction that changes an agent's API key: tell the other processes on commit."""
        ...

    async def wait(self, match_id: str, after_seq: int, within: float) -> int:
        """Return the newest published seq once it exceeds `after_seq`, or whatever is known after `within` seconds."""
        ...

    @property
    def draining(self) -> bool:
        """The server is shutting down: long-polls answer with what they have instead of waiting."""
        ...

    def drain(self) -> None:
        """Shutdown begins: wake every waiter now, and make later waits return at once."""
        ...

    def waiting(self) -> int:
        """How many long-polls wait in this process now."""
        ...


class MemoryNotifier:
    """In-process wake-ups: one future per waiter, resolved by `publish`. Costs no database work."""

    KEEP_IDLE = 300.0

    def __init__(self, on_commit: OnCommit | None = None) -> None:
        self._on_commit = on_commit or (lambda _match_id, _seq, _due: None)
        self._latest: dict[str, tuple[int, float]] = {}
        self._waiters: dict[str, set[asyncio.Future[int]]] = {}
        self._draining = False

    @property
    def draining(self) -> bool:
        return self._draining

    def drain(self) -> None:
        self._draining = True
        for match_id in list(self._waiters):
            latest = self.latest(match_id)
            for future in self._waiters.pop(match_id, set()):
                if not future.done():
                    future.set_result(latest)

    def waiting(self) -> int:
        # Keys starting with "~" are the server's own (the bot filler's lobby wake-up), not long-polls.
        return sum(len(waiters) for key, waiters in self._waiters.items() if not key.startswith("~"))

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        for waiters in self._waiters.values():
            for future in waiters:
                future.cancel()

    def latest(self, match_id: str) -> int:
        return self._latest.get(match_id, (0, 0.0))[0]

    carries = False  # one process: nobody else to tell

    async def stage(self, session: Any, match_id: str, seq: int, timer_due: float | None,
                    carry: str | None = None) -> None:
        pass

    async def publish(self, match_id: str, seq: int, timer_due: float | None = None) -> None:
        self.deliver(match_id, seq)
        self._on_commit(match_id, seq, timer_due)

    async def stage_key_change(self, session: Any, agent_id: str) -> None:
        pass  # one process: the caller forgets the key in its own cache

    def wake_everyone(self) -> None:
        """Make every waiter re-read the database (after a lost connection): it may have missed a seq."""
        for match_id in list(self._waiters):
            for future in self._waiters.pop(match_id, set()):
                if not future.done():
                    future.set_result(RESYNC)

    def deliver(self, match_id: str, seq: int) -> None:
        """Record `seq` and wake every waiter of the match (also called by the PostgreSQL listener).

        The server's own keys (`~…`, the lobby's) announce "something new", stamped before their transaction
        commits, so they may arrive out of order: one older than the newest known still counts as new (it is
        recorded as the newest plus one), or a waiter that has seen the newer one would sleep through it."""
        now = time.monotonic()
        if match_id.startswith("~"):
            seq = max(seq, self.latest(match_id) + 1)
        if seq > self.latest(match_id):
            self._latest[match_id] = (seq, now)
        for future in self._waiters.pop(match_id, set()):
            if not future.done():
                future.set_result(seq)
        if len(self._latest) > 10_000:
            self._forget_idle(now)

    async def wait(self, match_id: str, after_seq: int, within: float) -> int:
        known = self.latest(match_id)
        if known > after_seq or within <= 0 or self._draining:
            return known
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(match_id, set()).add(future)
        try:
            async with asyncio.timeout(within):  # not wait_for, which may swallow a cancellation on 3.11
                return await future
        except TimeoutError:
            return self.latest(match_id)
        finally:
            waiters = self._waiters.get(match_id)
            if waiters is not None:
                waiters.discard(future)
                if not waiters:
                    del self._waiters[match_id]

    def _forget_idle(self, now: float) -> None:
        self._latest = {
            m: (seq, at) for m, (seq, at) in self._latest.items() if now - at < self.KEEP_IDLE or m in self._waiters
        }
