"""The process's long-lived pieces, built once at start-up and shared by every request."""

from __future__ import annotations

from app.db.database import Database
from app.services.ratelimit import RateLimiter
from app.settings import Settings


class Runtime:
    """Settings, database, rate limiter (and, with matches, the notifier and scheduler)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url, settings.db_pool_size)
        self.limiter = RateLimiter(settings.rate_limit_enabled)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        await self.db.dispose()
