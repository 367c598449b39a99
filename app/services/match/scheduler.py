"""Timers are data: sleep until the earliest `timer_due` in the database, then submit Timeout commands.

Rebuilt from the database at start-up, so a restart loses no timer; the rules ignore a stale token, so a
timer that fires twice is harmless. The janitor (waiting rooms nobody joined) runs on the same loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from app.db import idempotency as idempotency_repo
from app.db import matches as repo
from app.db import tournaments as tournaments_repo
from app.db.database import Database
from app.settings import Settings

log = logging.getLogger("wodi.scheduler")
IDLE_SLEEP = 30.0
FAILED_RETRY = 5.0
IDEMPOTENCY_TTL = timedelta(hours=24)


FireTimer = Callable[[str, int], Awaitable[bool]]  # (match_id, token) → the Timeout command changed the match
AbortIdle = Callable[[str, datetime], Awaitable[bool]]  # (match_id, idle since) → the waiting room was aborted
EndAway = Callable[[str, datetime], Awaitable[bool]]  # (match_id, seen before) → the quick start was ended
MoveEvent = Callable[[str], Awaitable[None]]  # (tournament_id) → the event moved on as far as it can now


class Scheduler:
    """Fires due timers with `fire_timer`, closes idle waiting rooms with `abort_idle` and ends quick starts whose
    person has gone with `end_away` (all go through the match's write queue); told of every commit's deadline, this
    process's and the others', by `poke`."""

    def __init__(self, settings: Settings, db: Database, clock: Callable[[], float], fire_timer: FireTimer,
                 abort_idle: AbortIdle, end_away: EndAway | None = None, max_sleep: float = IDLE_SLEEP,
                 move_event: MoveEvent | None = None) -> None:
        self.settings, self.db, self.clock = settings, db, clock
        self._fire_timer, self._abort_idle, self._end_away = fire_timer, abort_idle, end_away
        self.move_event = move_event  # tournaments' due times (issue 31) are fired on the same loop
        self._events_due: float | None = 0.0  # the earliest event due time last read (0: read at the first loop)
        # With several processes a timer may be armed elsewhere; re-reading the earliest deadline every
        # `max_sleep` seconds bounds how late it fires even if its notification was lost.
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        self._next_due: float | None = None
        self._failed: dict[tuple[str, int], float] = {}  # (match, token) → retry after (clock)
        self._tasks: list[asyncio.Task[None]] = []

    def poke(self, _match_id: str, _seq: int, due: float | None) -> None:
        """A commit (here or in another process) armed a timer; wake up early if it is due before our plan."""
        if due is not None and (self._next_due is None or due < self._next_due):
            self._wake.set()

    def poke_event(self, due: float | None) -> None:
        """An event's due time was set in this process (others' are read every loop with the timers' deadline)."""
        if due is not None and (self._events_due is None or due < self._events_due):
            self._events_due = due
        self.poke("", 0, due)

    async def start(self) -> None:
        """Sweep once before serving (what a stopped server left behind is cleared before its first request, and a
        clock moved after start-up never meets a first sweep still under way), then run the timers and the janitor."""
        await self._sweep()
        self._tasks = [asyncio.create_task(self._timers(), name="wodi-timers"),
                       asyncio.create_task(self._janitor(), name="wodi-janitor")]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _timers(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.run_due()
            except Exception:
                log.exception("timer loop failed; retrying")
                delay = 1.0
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancellation that arrives just as
            # the event is set (a poke during shutdown), and `stop()` would then wait for this loop forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()

    async def run_due(self) -> float:
        """Fire every due timer; return how long to sleep before the next one."""
        clock = self.clock
        self._next_due = None  # while firing, any poke must wake us again
        async with self.db.reader() as session:
            due = await repo.due_timers(session, clock())
        for match_id, token in due:
            if self._failed.get((match_id, token), 0.0) > clock():
                continue
            try:
                await self._fire_timer(match_id, token)
                self._failed.pop((match_id, token), None)
            except Exception:
                log.exception("timer of match %s failed; retrying in %.0f s", match_id, FAILED_RETRY)
                self._failed[(match_id, token)] = clock() + FAILED_RETRY
        await self._move_events()
        async with self.db.reader() as session:
            next_due = await repo.next_due(session)
            if self.move_event is not None:
                event_due = self._events_due = await tournaments_repo.next_due(session)
                next_due = event_due if next_due is None else next_due if event_due is None else min(next_due,
                                                                                                       event_due)
        retry = min(self._failed.values(), default=None)
        if next_due is not None and next_due <= clock() and retry is not None:
            next_due = retry  # the only due timers are failing ones: wait for their retry, don't spin
        self._next_due = next_due
        if next_due is None:
            return self.max_sleep
        return min(max(next_due - clock(), 0.01), self.max_sleep)

    async def _move_events(self) -> None:
        """Move every tournament whose due time has come (its row lock makes a second mover skip it)."""
        if self.move_event is None or self._events_due is None or self._events_due > self.clock():
            return
        clock = self.clock
        async with self.db.reader() as session:
            due = await tournaments_repo.due(session, clock())
        for tournament_id in due:
            if self._failed.get((tournament_id, 0), 0.0) > clock():
                continue
            try:
                await self.move_event(tournament_id)
                self._failed.pop((tournament_id, 0), None)
            except Exception:
                log.exception("tournament %s failed to move; retrying in %.0f s", tournament_id, FAILED_RETRY)
                self._failed[(tournament_id, 0)] = clock() + FAILED_RETRY

    async def _janitor(self) -> None:
        while True:
            await asyncio.sleep(self.settings.janitor_interval)
            await self._sweep()

    async def _sweep(self) -> None:
        try:
            await self.sweep_waiting_rooms()
            await self.sweep_quick_tables()
            await self.sweep_idempotency_keys()
        except Exception:
            log.exception("janitor sweep failed")

    async def sweep_idempotency_keys(self) -> int:
        """Forget `Idempotency-Key` answers older than 24 h (a retry after that runs again); returns how many."""
        before = datetime.fromtimestamp(self.clock(), UTC) - IDEMPOTENCY_TTL
        async with self.db.writer() as session:
            return await idempotency_repo.purge(session, before)

    async def sweep_quick_tables(self) -> int:
        """End running quick starts whose person has not read the match for `quick_start_away_after` seconds (the
        page is closed); returns how many."""
        if self._end_away is None:
            return 0
        before = datetime.fromtimestamp(self.clock(), UTC) - timedelta(seconds=self.settings.quick_start_away_after)
        async with self.db.reader() as session:
            away = await repo.quick_tables_to_end(session, before)
        return sum([await self._end_away(match_id, before) for match_id in away])

    async def sweep_waiting_rooms(self) -> int:
        """Abort waiting rooms with no join for `waiting_room_ttl` seconds; returns how many."""
        before = datetime.fromtimestamp(self.clock(), UTC) - timedelta(seconds=self.settings.waiting_room_ttl)
        async with self.db.reader() as session:
            stale = await repo.stale_waiting(session, before)
        return sum([await self._abort_idle(match_id, before) for match_id in stale])
