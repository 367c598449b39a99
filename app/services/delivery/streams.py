"""`GET /api/matches/{id}/events/stream`: the viewer-filtered events of `/events`, pushed as they commit.

The stream reads what a long-poll reads (the match cache, woken by the notifier; no database connection is held
while it waits) and filters by the same visibility rules, so while the match runs it carries exactly the events
`/events?since=N` returns. It stays a live feed to the end: the god view every viewer gets once the match is over
(hidden events revealed) is read from `/events` or the snapshot, not pushed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from app.protocol.errors import ApiError
from app.protocol.projection import visible_events
from app.protocol.registry import hidden_events
from app.protocol.viewer import TERMINAL
from app.services.delivery.notifier import RESYNC
from app.services.match import seen
from app.services.match.match_cache import CachedMatch
from app.services.match.match_reads import live_god, resolve_viewer
from app.services.match.seating import Caller
from app.services.match.shell import Shell

IDLE_RECHECK = 30.0  # seconds a stream waits on the notifier before re-reading anyway
PAGE = 100
LIVE = "in_progress"  # the status whose visibility rules a stream applies, before and after the end


class StreamSlots:
    """How many streams each client holds open in this process; one more than `limit` is 429 `too_many_streams`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def acquire(self, client: str) -> Slot:
        """Take one of `client`'s slots (429 `too_many_streams` when none is left)."""
        if self._open[client] >= self.limit:
            raise ApiError("too_many_streams", f"a client may hold at most {self.limit} event streams open at once; "
                           "close one first", limit=self.limit)
        self._open[client] += 1
        return Slot(self, client)

    def _release(self, client: str) -> None:
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]

    def open_for(self, client: str) -> int:
        return self._open[client]

    def held(self) -> int:
        """Streams open in this process now."""
        return sum(self._open.values())


class Slot:
    """One held stream; `release` is idempotent (the stream's end and the response's clean-up both call it)."""

    def __init__(self, slots: StreamSlots, client: str) -> None:
        self._slots, self._client, self._held = slots, client, True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._slots._release(self._client)


async def opened(shell: Shell, match_id: str, caller: Caller) -> CachedMatch:
    """Check the match and the caller's credentials before the response starts (404, 401 as `/events`)."""
    cached = await shell.cache.get(match_id)
    resolve_viewer(cached, caller)
    return cached


def _batch(shell: Shell, cached: CachedMatch, caller: Caller, since: int) -> list[dict[str, Any]]:
    viewer = resolve_viewer(cached, caller)

    def build() -> dict[str, Any]:
        after = [e for e in cached.events if e["seq"] > since]
        # A live feed: each event as this viewer could see it while the match ran, also for the last command's
        # events read after the end (the end-of-game god view is `/events`' and the snapshot's to give).
        # A competitive match's spectator gets the god view only at the end (issue 19): not in a live feed.
        god_live = live_god(shell, cached.row["config"])
        hidden = hidden_events(cached.game, cached.row["config"])
        return {"events": visible_events(cached.game, cached.state, viewer, LIVE, after, live_god=god_live,
                                         hidden=hidden)[:PAGE]}

    # Cached per (version, viewer, cursor): a crowd of streams at one cursor costs one filtering.
    events: list[dict[str, Any]] = cached.rendered(("stream", viewer, since), build)[0]["events"]
    return events


async def events(shell: Shell, match_id: str, caller: Caller, since: int,
                 first: CachedMatch) -> AsyncIterator[dict[str, Any]]:
    """Every event this viewer may see after `since`, as it commits; ends once the match has ended and every
    event is out (or when the server shuts down: the client resumes with `Last-Event-ID`)."""
    cached, cursor = first, since
    while True:
        batch = _batch(shell, cached, caller, cursor)
        for event in batch:
            yield event
        if batch:
            cursor = batch[-1]["seq"]
            continue
        if cached.row["status"] in TERMINAL or shell.notifier.draining:
            return
        await seen.seen(shell, cached, resolve_viewer(cached, caller))  # an open stream is an open page
        seq = await shell.notifier.wait(match_id, cached.row["events_total"], IDLE_RECHECK)
        if seq > cached.row["events_total"]:
            cached = await shell.cache.get(match_id, at_least=0 if seq >= RESYNC else seq)
        elif not shell.settings.only_writer:
            cached = await shell.cache.get(match_id)
