"""A client written from `social-game-v1` alone: it knows only the values the spec names, and fails on anything else.

Issue 18 §1: with the default config a game's events, phases and `next_action` values are exactly the spec's, so
such a client plays a whole game without stalling. Plain functions of an HTTP client: `tests/api/test_spec_client.py`
runs them against the ASGI app, `tests/e2e/test_uvicorn.py` against the real server.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import httpx

# §2.4.2 `you.next_action`
NEXT_ACTIONS = frozenset({"speak", "vote", "wait_for_speak_round", "wait_for_vote_resolution", "wait_for_next_phase",
                          "eliminated", "none"})
# §2.5.1 public and private events, §5.1 `turn_warning`, §5.2 `vote_warning`, §2.3.1 `fellow_role_revealed`
EVENTS = frozenset({
    "match_created", "player_joined", "match_started", "phase_started", "speech_posted", "speech_skipped",
    "vote_cast", "round_resolved", "player_conceded", "match_finished", "match_aborted", "vote_warning",
    "role_assigned", "fellow_role_hint", "your_turn_to_speak", "your_turn_to_vote", "your_vote_recorded",
    "whisper_received", "turn_warning", "fellow_role_revealed",
})
# §2.5.2 names `god_only` for "发词阶段的角色分配明细、词对原文" without naming the event: the deal's record.
GOD_ONLY_EVENTS = frozenset({"roles_dealt"})
PHASE = re.compile(r"^(waiting|dealing|finished|(speak|vote|reveal)_round_[1-9][0-9]*)$")
STATUSES = frozenset({"waiting", "in_progress", "finished", "aborted"})
VISIBILITY = re.compile(r"^(public|god_only|private:host|private:seat:[0-9]+|private:role:undercover)$")
# The skill guide's speeches: checked there against every word of the library.
SPEECHES = ("它在日常生活里很常见，大多数人都用过。", "我补充一下：它通常是成双成对出现的。", "它和水有关，周末常见。")
_names = itertools.count()


class NotInSpec(AssertionError):
    """The server sent a value the protocol does not name."""


def check_event(event: dict[str, Any]) -> None:
    """One event: a spec type with a spec visibility (the deal's god_only record only as god_only)."""
    kind, visibility = event["type"], event["visibility"]
    if not VISIBILITY.match(visibility):
        raise NotInSpec(f"visibility {visibility!r} in {event}")
    if kind in GOD_ONLY_EVENTS and visibility == "god_only":
        return
    if kind not in EVENTS:
        raise NotInSpec(f"event type {kind!r}: {event}")


def check_snapshot(snap: dict[str, Any]) -> None:
    """A snapshot: spec status, phase, next_action and events."""
    if snap["status"] not in STATUSES:
        raise NotInSpec(f"status {snap['status']!r}")
    if not PHASE.match(snap["phase"]):
        raise NotInSpec(f"phase {snap['phase']!r}")
    for event in [*snap["public_log"], *snap.get("spectator_log", []), *snap.get("you", {}).get("private_log", [])]:
        check_event(event)
    you = snap.get("you")
    if you is not None and you["next_action"] not in NEXT_ACTIONS:
        raise NotInSpec(f"next_action {you['next_action']!r}")


@dataclass
class Seat:
    client: httpx.AsyncClient
    key: str
    seat: int = -1
    since: int = 0
    seen: list[dict[str, Any]] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    async def snapshot(self, match_id: str, **params: Any) -> dict[str, Any]:
        response = await self.client.get(f"/api/matches/{match_id}", headers=self.headers, params=params)
        assert response.status_code == 200, response.text
        snap: dict[str, Any] = response.json()
        check_snapshot(snap)
        return snap

    async def read_events(self, match_id: str) -> None:
        """Page through `/events` from `since`, as §2.5 describes (`next_since` is the cursor)."""
        while True:
            response = await self.client.get(f"/api/matches/{match_id}/events", headers=self.headers,
                                             params={"since": self.since})
            assert response.status_code == 200, response.text
            page = response.json()
            if not PHASE.match(page["phase"]) or page["status"] not in STATUSES:
                raise NotInSpec(f"events page phase/status {page['phase']!r}/{page['status']!r}")
            for event in page["events"]:
                check_event(event)
            self.seen += page["events"]
            if page["next_since"] == self.since:
                return
            self.since = page["next_since"]

    async def play(self, match_id: str, round_limit: int = 40) -> dict[str, Any]:
        """Long-poll for `your_turn`, do what `next_action` says (speak or vote), until the match ends."""
        for turn in range(round_limit * 10):
            snap = await self.snapshot(match_id, wait=5, wait_for="your_turn")
            await self.read_events(match_id)
            if snap["status"] in ("finished", "aborted"):
                return snap
            you = snap["you"]
            if you["next_action"] == "speak":
                body: dict[str, Any] = {"type": "speak", "text": SPEECHES[turn % len(SPEECHES)]}
            elif you["next_action"] == "vote":
                living = [p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != self.seat]
                body = {"type": "vote", "target_seat": living[0]}
            else:
                continue
            response = await self.client.post(f"/api/matches/{match_id}/action", headers=self.headers, json=body)
            assert response.status_code == 200, response.text
            accepted = response.json()
            if not PHASE.match(accepted["phase"]):
                raise NotInSpec(f"action response phase {accepted['phase']!r}")
        raise AssertionError("the match did not end")


async def register(client: httpx.AsyncClient) -> Seat:
    response = await client.post("/api/agents", json={"name": f"spec-client-{next(_names)}"})
    assert response.status_code == 201, response.text
    return Seat(client, response.json()["api_key"])


async def play_default_game(client: httpx.AsyncClient, config: dict[str, Any] | None = None) -> list[Seat]:
    """Six spec-only agents create (with no config: the spec's defaults), join and play one game to its end."""
    body: dict[str, Any] = {"game": "undercover"} if config is None else {"game": "undercover", "config": config}
    host = await register(client)
    created = await client.post("/api/matches", headers=host.headers, json=body)
    assert created.status_code == 201, created.text
    match_id, n = created.json()["match_id"], created.json()["config"]["n_players"]
    seats = [host] + [await register(client) for _ in range(n - 1)]
    host.seat = 0
    for seat, agent in enumerate(seats[1:], start=1):
        joined = await client.post(f"/api/matches/{match_id}/join", headers=agent.headers, json={})
        assert joined.status_code == 200, joined.text
        agent.seat = joined.json()["seat"]
        assert agent.seat == seat
    finals = await asyncio.wait_for(asyncio.gather(*(agent.play(match_id) for agent in seats)), timeout=120)
    assert all(final["status"] == "finished" for final in finals)
    for agent in seats:  # after the end every viewer is upgraded to the god view (§2.5.2): still only spec values
        agent.since = 0
        agent.seen = []
        await agent.read_events(match_id)
    return seats
