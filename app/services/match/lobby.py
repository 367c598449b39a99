"""The lobby's wake-up: a room the official bots should fill at once (`matches.fill_now`) is announced on the
notifier under the key `LOBBY`, so the bot filler sleeps on it like a long-poll sleeps on a match — in this process
at once, in the others through the notifier's NOTIFY on commit."""

from __future__ import annotations

import time

from app.services.delivery.notifier import Notifier

LOBBY = "~lobby"  # never a match id (those are 8 lowercase alphanumerics)
# The official bots' HTTP client says so: the request log writes their requests at DEBUG (`app.logs`).
BOT_USER_AGENT = "wodi-bots/1"
ROOMS_PER_PASS = 100  # waiting rooms, oldest first, the bot filler reads in one pass


def next_seq(notifier: Notifier) -> int:
    """A sequence number above every one this process knows for the lobby: microseconds of the clock, so processes
    sharing a database agree closely enough (a wake-up the filler misses is found by its next poll anyway)."""
    return max(notifier.latest(LOBBY) + 1, time.time_ns() // 1000)


class LobbyWake:
    """What the bot filler sleeps on: `latest()` before a pass, then `wait(after, within)` for the next room."""

    def __init__(self, notifier: Notifier) -> None:
        self._notifier = notifier

    def latest(self) -> int:
        return self._notifier.latest(LOBBY)

    async def wait(self, after: int, within: float) -> int:
        return await self._notifier.wait(LOBBY, after, within)

    def rooms(self) -> None:
        """In process the filler lists the rooms itself (a wake-up here carries none)."""
        return None

    def seats(self) -> None:
        """In process the filler asks for its agents' seats itself."""
        return None
