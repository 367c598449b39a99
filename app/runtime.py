"""The process's long-lived pieces, built once at start-up and shared by every request (the services' `Shell`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

import asyncpg
from sqlalchemy import event

from app.db import schema
from app.db.database import Database
from app.games.installed import installed
from app.protocol import registry
from app.protocol.errors import ApiError
from app.services.delivery.hooked_agents import HookedAgents
from app.services.delivery.notifier import MemoryNotifier, Notifier
from app.services.delivery.pg_notifier import PostgresNotifier
from app.services.delivery.streams import StreamSlots
from app.services.delivery.webhook_sender import WebhookSender
from app.services.delivery.webhooks import signing_secret
from app.services.identity.key_cache import KeyCache
from app.services.identity.ratelimit import RateLimiter
from app.services.identity.sessions import SessionSigner
from app.services.match import matches
from app.services.match.group_commit import GroupCommit
from app.services.match.match_cache import MatchCache
from app.services.match.presence import Presence
from app.services.match.scheduler import Scheduler
from app.services.platform import metrics
from app.services.platform.afterword import Afterwords
from app.services.platform.benchmarks import BenchmarkRunner
from app.services.platform.tournaments import TournamentRunner
from app.services.platform.writers_lock import hold_writers_lock
from app.settings import Settings

if TYPE_CHECKING:
    from app.bots.recap_voice import RecapVoice

log = logging.getLogger("wodi.runtime")


class BotPool(Protocol):
    """The official bots' pool as `/metrics` shows it: the filler itself when it runs on this loop."""

    def pool_size(self) -> int: ...

    def idle_count(self) -> int: ...


@dataclass(frozen=True)
class ReportedPool:
    """The pool's figures as the bots' own process last reported them (`GET /api/bots/wake`)."""

    size: int
    idle: int

    def pool_size(self) -> int:
        return self.size

    def idle_count(self) -> int:
        return self.idle


class Runtime:
    """Settings, database, rate limiter, caches, the write queue, notifier and scheduler of one process."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.db = Database(settings.database_url, settings.db_pool_size)
        event.listen(self.db.engine.sync_engine.pool, "checkout", lambda *_: metrics.DB_CHECKOUTS.inc())
        self.limiter = RateLimiter(settings.rate_limit_enabled)
        self.sessions = SessionSigner(settings)
        self.keys = KeyCache()
        self.commands = GroupCommit(batch_errors=(ApiError,))
        # With other writers a timer may be armed elsewhere: re-read the earliest deadline every second as well.
        self.scheduler = Scheduler(settings, self.db, clock, partial(matches.fire_timer, self),
                                   partial(matches.janitor_abort, self), partial(matches.end_away, self),
                                   max_sleep=30.0 if settings.only_writer else 1.0)
        self.tournaments = TournamentRunner(self, self.scheduler.poke_event)
        self.scheduler.move_event = self.tournaments.fire
        self.notifier: Notifier = (
            MemoryNotifier(on_commit=self.scheduler.poke) if settings.only_writer
            else PostgresNotifier(settings.database_url, on_commit=self.scheduler.poke, on_key_change=self.keys.forget,
                                  on_carry=self._carried)
        )
        self.cache = MatchCache(self.db, self.notifier, self.commands.busy, only_writer=settings.only_writer)
        # Every process sends webhooks (claims are SKIP LOCKED); with other writers, deliveries they queued are
        # found by re-reading the earliest due time every second.
        self.webhook_sender = WebhookSender(settings, self.db, clock, partial(signing_secret, self),
                                            max_sleep=30.0 if settings.only_writer else 1.0)
        self.streams = StreamSlots(settings.streams_per_client)
        self.hooked = HookedAgents(authoritative=settings.only_writer)
        self.presence = Presence()
        self._writers_lock: asyncpg.Connection | None = None
        self.bots: BotPool | None = None  # the official bots' pool, run or last reported here (`/metrics`)
        self.afterwords = Afterwords(self, _recap_writer(settings), settings.llm_timeout)
        self.benchmarks = BenchmarkRunner(self)
        for game, brain in installed():
            registry.register(game, brain)

    async def start(self) -> None:
        """Raises `SchemaMismatch` when the database is not migrated to this release's schema, `DatabaseInUse` when
        it is held by a process of the other mode."""
        try:
            await schema.check(self.db.engine)
        except schema.SchemaMismatch:
            await self.db.dispose()  # nothing else has started yet
            raise
        if not self.settings.is_sqlite:
            self._writers_lock = await hold_writers_lock(self.settings.database_url, self.settings.single_process,
                                                         self._writers_lock_lost)
        await self.hooked.load(self.db)
        await self.notifier.start()
        await self.scheduler.start()
        await self.webhook_sender.start()
        metrics.watch(self)
        await self.benchmarks.start()
        await self.tournaments.start()

    def _carried(self, match_id: str, carry: str) -> None:
        self.cache.carried(match_id, carry)  # another process's commit, with its content (`match_cache.carry`)

    def _writers_lock_lost(self, _conn: object) -> None:
        log.error("the connection holding the writers lock was lost: another server process may start on this "
                  "database now%s", "; every read is checked against the database from now on"
                  if self.cache.only_writer else "")
        self.cache.only_writer = False

    def drain(self) -> None:
        """Shutdown begins (called from the signal handler's loop turn): answer every waiting long-poll now, so a
        restart waits for ordinary requests only, not for the longest long-poll."""
        self.notifier.drain()

    def webhooks_due(self) -> None:
        self.webhook_sender.poke()

    def match_ended(self, match_id: str) -> None:
        self.afterwords.ended(match_id)
        self.benchmarks.ended(match_id)
        self.tournaments.ended(match_id)

    def seat_left(self, match_id: str) -> None:
        self.benchmarks.ended(match_id)  # a run whose agent conceded stops (moving a run on is safe any time)

    async def stop(self) -> None:
        metrics.unwatch(self)
        await self.benchmarks.stop()
        await self.tournaments.stop()
        await self.afterwords.stop()
        await self.webhook_sender.stop()
        await self.scheduler.stop()
        await self.notifier.stop()
        if self._writers_lock is not None:
            self._writers_lock.remove_termination_listener(self._writers_lock_lost)
            await self._writers_lock.close()
        await self.db.dispose()


def _recap_writer(settings: Settings) -> RecapVoice | None:
    """The LLM that rewrites a finished recap in persona, when `WODI_LLM_BASE_URL` is set (else None)."""
    from app.bots.llm import LLMBrain
    from app.bots.recap_voice import RecapVoice

    brain = LLMBrain.from_settings(settings)
    return None if brain is None else RecapVoice(brain)
