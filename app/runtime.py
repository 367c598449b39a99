"""The process's long-lived pieces, built once at start-up and shared by every request."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from app.db.database import Database
from app.protocol.errors import ApiError
from app.services.games import install_games
from app.services.group_commit import GroupCommit
from app.services.key_cache import KeyCache
from app.services.leader import run_as_leader
from app.services.match_cache import MatchCache
from app.services.notifier import MemoryNotifier, Notifier
from app.services.pg_notifier import PostgresNotifier
from app.services.ratelimit import RateLimiter
from app.services.scheduler import Scheduler
from app.services.sessions import SessionSigner
from app.settings import Settings

BOT_FILLER_LOCK = 0x57_0D_1B_07  # advisory-lock key of the lobby bot filler


class Runtime:
    """Settings, database, rate limiter, match cache, notifier and scheduler of one process."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.db = Database(settings.database_url, settings.db_pool_size)
        self.limiter = RateLimiter(settings.rate_limit_enabled)
        self.sessions = SessionSigner(settings)
        self._bots: asyncio.Task[None] | None = None
        self.cache = MatchCache()
        self.keys = KeyCache()
        self.commands: GroupCommit[Any] = GroupCommit(batch_errors=(ApiError,))
        self.scheduler = Scheduler(self, max_sleep=1.0 if self.shared_database else 30.0)
        self.notifier: Notifier = (
            PostgresNotifier(settings.database_url, on_remote=self._remote_change, on_key_change=self.keys.forget)
            if self.shared_database
            else MemoryNotifier()
        )

    @property
    def shared_database(self) -> bool:
        """Other processes may write to this database: wake-ups must travel through PostgreSQL."""
        choice = self.settings.notifier
        return choice == "postgres" or (choice == "auto" and not self.settings.is_sqlite)

    def _remote_change(self, _match_id: str, _seq: int, timer_due: float | None) -> None:
        self.scheduler.poke(timer_due)

    async def start(self) -> None:
        install_games()
        await self.notifier.start()
        await self.scheduler.start()
        if self.settings.bots_enabled:
            self._bots = asyncio.create_task(run_as_leader(self.settings.database_url, BOT_FILLER_LOCK,
                                                           self._fill_lobby), name="wodi-bots")

    async def _fill_lobby(self) -> None:
        """The official bots, as protocol clients of this server over HTTP (one process at a time runs them)."""
        from app.bots.llm import LLMBrain
        from app.bots.runner import LobbyFiller

        settings = self.settings
        filler = LobbyFiller(settings.bot_base_url or f"http://127.0.0.1:{settings.port}", settings.official_bot_key,
                             settings.bot_fill_after, llm=LLMBrain.from_settings(settings))
        await filler.start()
        try:
            await asyncio.Event().wait()
        finally:
            await filler.stop()

    async def stop(self) -> None:
        if self._bots is not None:
            self._bots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bots
        await self.scheduler.stop()
        await self.notifier.stop()
        await self.db.dispose()
