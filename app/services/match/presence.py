"""Whether the person at a running quick start still has it open (issue 26): a read by seat 0's holder — a
snapshot, an events page, a long-poll, an open event stream — marks the seat seen (`seats.last_seen_at`), at most
once every `SEEN_EVERY` seconds per seat and process, so reads stay cheap. The janitor ends a quick table whose
person has not been seen for `WODI_QUICK_START_AWAY_AFTER` seconds (`app.services.match.quick_end`). The marking
itself is
`app.services.match.seen`; this module holds only the per-process memory the shell carries."""

from __future__ import annotations

SEEN_EVERY = 30.0  # seconds between two marks of one seat (a page long-polls every 25 s)
REMEMBERED = 10_000  # marks kept per process before the oldest are forgotten


class Presence:
    """When this process last marked each (match, seat) seen."""

    def __init__(self) -> None:
        self._marked: dict[tuple[str, int], float] = {}

    def due(self, match_id: str, seat: int, now: float) -> bool:
        """True (and remembered) when the seat was not marked in the last `SEEN_EVERY` seconds."""
        last = self._marked.get((match_id, seat))
        if last is not None and now - last < SEEN_EVERY:
            return False
        if len(self._marked) >= REMEMBERED:
            for key in list(self._marked)[: REMEMBERED // 2]:
                del self._marked[key]
        self._marked[(match_id, seat)] = now
        return True
