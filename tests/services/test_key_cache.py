"""The API-key cache of the match endpoints: expiry, forgetting on rotation, and no stale write-back."""

from __future__ import annotations

from app.db.models import Agent
from app.services.identity.key_cache import KeyCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def agent(agent_id: str) -> Agent:
    return Agent(agent_id=agent_id, name=f"name-{agent_id}")


def test_entries_expire_after_ttl() -> None:
    clock = Clock()
    keys = KeyCache(ttl=60, clock=clock)
    keys.put("d1", agent("a1"), keys.generation)
    clock.now += 59.9
    assert keys.get("d1") is not None
    clock.now += 0.2
    assert keys.get("d1") is None


def test_forget_drops_every_key_of_the_agent_only() -> None:
    keys = KeyCache()
    keys.put("old", agent("a1"), keys.generation)
    keys.put("other", agent("a2"), keys.generation)
    keys.forget("a1")
    assert keys.get("old") is None
    assert keys.get("other") is not None
    keys.forget(None)
    assert keys.get("other") is None


def test_a_lookup_that_began_before_a_rotation_is_not_stored() -> None:
    keys = KeyCache()
    started = keys.generation  # a lookup reads the row ...
    keys.forget("a1")  # ... the key is rotated meanwhile ...
    keys.put("old", agent("a1"), started)  # ... and what it read must not be remembered
    assert keys.get("old") is None


def test_capacity_evicts_the_least_recently_stored() -> None:
    keys = KeyCache(capacity=2)
    for n in range(3):
        keys.put(f"d{n}", agent(f"a{n}"), keys.generation)
    assert keys.get("d0") is None and keys.get("d1") is not None and keys.get("d2") is not None
