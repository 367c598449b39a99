"""One bot agent's play loop for one match, over the public HTTP API only.

Long-poll the seat's snapshot (`wait_for=your_turn`), decide through the seat loop (`app.bots.seat.turn`: the
game's rule brain; optionally voiced by the LLM brain, `app.bots.llm`), act, and stop when the match is finished
or aborted. Once eliminated it only waits for the end.
Server errors and dropped connections are retried with back-off; every refused action is counted by error
code in `BotStats`, and the turn is retried with a plain action (skip / ready / "……") so a game never stalls on a bot.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.bots.llm import LLMBrain
from app.bots.personas import Persona
from app.bots.seat import turn
from app.games.installed import brains
from app.protocol.viewer import TERMINAL

log = logging.getLogger("app.bots")

CONTENT_ERRORS = ("speech_contains_secret_word", "speech_looks_like_instruction", "text_too_long", "bad_request")


class BotKeyRejected(RuntimeError):
    """The server no longer accepts this bot's API key (someone re-registered it)."""


@dataclass
class BotStats:
    """Counters shared by every player loop of one runner."""

    errors: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    games: int = 0
    retries: int = 0


class MatchPlayer:
    """Plays `match_id` as the agent holding `api_key`, in the voice of `persona`."""

    def __init__(self, client: httpx.AsyncClient, api_key: str, match_id: str, persona: Persona, *,
                 llm: LLMBrain | None = None, stats: BotStats | None = None, rng: random.Random | None = None,
                 think: float = 0.0, wait: float = 25.0, name: str = "",
                 give_up_after: int | None = None) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {api_key}"}
        self.match_id = match_id
        self.persona = persona
        self.llm = llm
        self.stats = stats or BotStats()
        self.rng = rng or random.Random()
        self.think = think
        self.wait = wait
        self.name = name or persona.handle()
        self.give_up_after = give_up_after  # consecutive failed reads before giving up (None: never)
        self.seat: int | None = None

    async def run(self) -> dict[str, Any] | None:
        """Play to the end; returns the last snapshot (finished or aborted), or None if the match is gone."""
        wait_for = "your_turn"
        backoff = 0.5
        failures = 0
        plain = False  # after a refused text, this turn is retried with a plain action
        while True:
            try:
                snap = await self._snapshot(wait_for)
            except (httpx.TransportError, ServerBusy) as exc:
                self.stats.retries += 1
                failures += 1
                if self.give_up_after is not None and failures >= self.give_up_after:
                    raise
                log.info("%s: %s while reading %s; retrying in %.1fs", self.name, exc, self.match_id, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 15.0)
                continue
            backoff, failures = 0.5, 0
            if snap is None:
                return None
            if snap["status"] in TERMINAL:
                return snap
            you = snap.get("you")
            if not you:
                return None
            self.seat = you.get("seat")
            if you.get("next_action") == "eliminated":
                wait_for = "match_finished"
                continue
            if not you.get("your_turn"):
                continue
            body = await self._choose(snap, plain)
            if body is None:
                await asyncio.sleep(0.2)
                continue
            plain = await self._act(body)

    async def _snapshot(self, wait_for: str) -> dict[str, Any] | None:
        response = await self.client.get(f"/api/matches/{self.match_id}", headers=self.headers,
                                         params={"wait": self.wait, "wait_for": wait_for},
                                         timeout=self.wait + 15.0)
        if response.status_code == 200:
            return dict(response.json())
        code = error_code(response)
        if response.status_code == 401:
            raise BotKeyRejected(f"{self.name}: {code}")
        if response.status_code == 404:
            return None
        raise ServerBusy(f"HTTP {response.status_code} {code}")

    async def _choose(self, snap: dict[str, Any], plain: bool) -> dict[str, Any] | None:
        decide = brains().get(str(snap.get("game")))
        body = turn(decide, snap, self.persona.slug, self.rng, plain=plain) if decide is not None else None
        if body is None or plain:
            return body
        deadline = snap.get("deadline_ts")
        left = float(deadline) - time.time() if deadline else 60.0
        if self.llm is not None:
            body = await self.llm.improve(snap, self.persona, body, budget=left - 2.0)
            left = float(deadline) - time.time() if deadline else 60.0
        if self.think > 0:
            await asyncio.sleep(min(self.think * self.rng.uniform(0.5, 1.0), max(0.0, left / 4)))
        return body

    async def _act(self, body: dict[str, Any]) -> bool:
        """Send one action; True when this turn should be retried with a plain action."""
        try:
            response = await self.client.post(f"/api/matches/{self.match_id}/action", json=body,
                                              headers=self.headers, timeout=30.0)
        except httpx.TransportError as exc:
            self.stats.retries += 1
            log.info("%s: %s while acting in %s", self.name, exc, self.match_id)
            await asyncio.sleep(0.5)
            return False
        if response.status_code == 200:
            self.stats.actions[str(body["type"])] += 1
            return False
        code = error_code(response)
        self.stats.errors[code] += 1
        log.warning("%s: %s refused in %s: %s", self.name, body.get("type"), self.match_id, code)
        if response.status_code == 401:
            raise BotKeyRejected(f"{self.name}: {code}")
        if response.status_code == 429:
            await asyncio.sleep(float(response.headers.get("Retry-After") or 2))
        elif response.status_code >= 500:
            await asyncio.sleep(1.0)
        else:
            await asyncio.sleep(0.2)
        return code in CONTENT_ERRORS


class ServerBusy(RuntimeError):
    """A 5xx (or other unexpected) answer to a read; worth retrying."""


def error_code(response: httpx.Response) -> str:
    """The `error` code of an error response (`http_<status>` when the body is not the envelope)."""
    try:
        data = response.json()
    except ValueError:
        return f"http_{response.status_code}"
    return str(data.get("error") or f"http_{response.status_code}") if isinstance(data, dict) else "unknown"
