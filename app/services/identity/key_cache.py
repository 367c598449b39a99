"""API keys verified a moment ago, so the match endpoints' hot path (every long-poll and every action carries
a key) does not look the key up in the database each time.

An entry lives `ttl` seconds. Rotating a key forgets its agent here when the rotation commits and, through the
notifier, in every other process; a lost LISTEN connection clears the whole cache when it comes back. So a
rotated key stops working everywhere as soon as the rotation is committed and announced. Only the match
endpoints use it, and only for who the caller is (`agent_id`); profile and account endpoints read the row.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from app.db.models import Agent


class KeyCache:
    def __init__(self, ttl: float = 60.0, capacity: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.capacity = capacity
        self._clock = clock
        self._entries: OrderedDict[str, tuple[Agent, float]] = OrderedDict()
        # Bumped by every forget: a lookup that started before a rotation must not store what it read.
        self.generation = 0

    def get(self, key_digest: str) -> Agent | None:
        hit = self._entries.get(key_digest)
        if hit is None:
            return None
        agent, stored_at = hit
        if self._clock() - stored_at >= self.ttl:
            del self._entries[key_digest]
            return None
        return agent

    def put(self, key_digest: str, agent: Agent, generation: int) -> None:
        if generation != self.generation:
            return
        self._entries[key_digest] = (agent, self._clock())
        self._entries.move_to_end(key_digest)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def forget(self, agent_id: str | None) -> None:
        """Drop every entry of `agent_id` (its key changed), or everything for None."""
        self.generation += 1
        if agent_id is None:
            self._entries.clear()
            return
        for key_digest in [d for d, (agent, _) in self._entries.items() if agent.agent_id == agent_id]:
            del self._entries[key_digest]
