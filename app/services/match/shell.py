"""What the services need of the server process: the `Runtime` in production, typed here as a small interface so
services depend on these pieces, not on how the process assembles them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.db.database import Database
from app.services.delivery.hooked_agents import HookedAgents
from app.services.delivery.notifier import Notifier
from app.services.identity.key_cache import KeyCache
from app.services.match.group_commit import GroupCommit
from app.services.match.match_cache import MatchCache
from app.services.match.presence import Presence
from app.settings import Settings


class Shell(Protocol):
    @property
    def settings(self) -> Settings: ...

    @property
    def clock(self) -> Callable[[], float]:
        """Wall-clock seconds (the rules' `now`)."""
        ...

    @property
    def db(self) -> Database: ...

    @property
    def cache(self) -> MatchCache: ...

    @property
    def notifier(self) -> Notifier: ...

    @property
    def commands(self) -> GroupCommit:
        """The one write queue per match."""
        ...

    @property
    def keys(self) -> KeyCache:
        """API keys verified a moment ago (forget an agent's when its key changes)."""
        ...

    @property
    def presence(self) -> Presence:
        """When this process last marked a quick start's person seen."""
        ...

    @property
    def hooked(self) -> HookedAgents:
        """Which agents may have webhooks (lets a command skip the webhook query)."""
        ...

    def webhooks_due(self) -> None:
        """Webhook deliveries were committed: wake this process's sender."""
        ...

    def match_ended(self, match_id: str) -> None:
        """A command that ended this match has committed: start whatever runs after the end (`afterword`)."""
        ...

    def seat_left(self, match_id: str) -> None:
        """A seat of this running match conceded (committed): whatever held that agent there may move on."""
        ...
