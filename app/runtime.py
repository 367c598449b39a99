"""The process's long-lived pieces, built once at start-up and shared by every request."""

from __future__ import annotations

import time
from collections.abc import Callable

from app.db.database import Database
from app.services.games import install_games
from app.services.match_cache import MatchCache
from app.services.notifier import MemoryNotifier, Notifier
from app.services.pg_notifier import PostgresNotifier
from app.services.ratelimit import RateLimiter
from app.services.scheduler import Scheduler
from app.services.sessions import SessionSigner
from app.settings import Settings


class Runtime:
    """Settings, database, rate limiter, match cache, notifier and scheduler of one process."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.db = Database(settings.database_url, settings.db_pool_size)
        self.limiter = RateLimiter(settings.rate_limit_enabled)
        self.sessions = SessionSigner(settings)
        self.cache = MatchCache()
        self.scheduler = Scheduler(self, max_sleep=1.0 if self.shared_database else 30.0)
        self.notifier: Notifier = (
            PostgresNotifier(settings.database_url, on_remote=self._remote_change) if self.shared_database
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

    async def stop(self) -> None:
        await self.scheduler.stop()
        await self.notifier.stop()
        await self.db.dispose()
