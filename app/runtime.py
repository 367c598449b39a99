"""The process's long-lived pieces, built once at start-up and shared by every request."""

from __future__ import annotations

import time
from collections.abc import Callable

from app.db.database import Database
from app.services.games import install_games
from app.services.match_cache import MatchCache
from app.services.notifier import MemoryNotifier, Notifier
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
        self.notifier: Notifier = MemoryNotifier()
        self.scheduler = Scheduler(self)

    async def start(self) -> None:
        install_games()
        await self.notifier.start()
        await self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()
        await self.notifier.stop()
        await self.db.dispose()
