"""The lobby filler: official bot agents that take the empty seats of rooms nobody else is filling.

`LobbyFiller(base_url, official_key, fill_after, llm=None)` runs three parts on one HTTP client: the agents'
pool (`app.bots.pool`: registration, growth up to `pool_max` per persona, the reserve), the lobby
(`app.bots.lobby`: which waiting rooms get which bots) and the seats (`app.bots.seats`: one play task per seated
agent, resumed after a restart). It registers the pool, resumes the tables its agents still sit at, then every
`poll_interval` seconds takes up the seats the server gave its agents (`Seats.adopt`: a quick start seats free
official agents in its own transaction) and lists the waiting rooms; `wake` (the server passes the lobby key of its
notifier) ends the pause between passes as soon as a room to fill at once is opened, so a quick-start room never
waits for the next poll. With `showcase`, each regular pass also opens the platform's showcase when nothing public
is live (`app.bots.showcase`). Errors are logged and retried with back-off; `stop()` cancels everything and closes
the client.

The server can run it in-process::

    filler = LobbyFiller(settings.bot_base_url, settings.official_bot_key, settings.bot_fill_after,
                         llm=LLMBrain.from_settings(settings))
    await filler.start()   # returns at once; the work happens in a background task
    ...
    await filler.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any, Protocol

import httpx

from app.bots.llm import LLMBrain
from app.bots.lobby import Lobby
from app.bots.personas import PERSONAS
from app.bots.player import BotStats
from app.bots.pool import BotAgent, Pool, RegistrationRefused
from app.bots.seats import Seats
from app.bots.showcase import Showcase
from app.services.match.lobby import BOT_USER_AGENT

log = logging.getLogger("app.bots")


class Wake(Protocol):
    """What the filler sleeps on between passes (the server's `app.services.match.lobby.LobbyWake`)."""

    def latest(self) -> int: ...

    async def wait(self, after: int, within: float) -> int: ...

    def rooms(self) -> list[dict[str, Any]] | None:
        """The rooms to fill at once the last wake-up brought (taken once), or None: the filler lists them."""
        ...

    def seats(self) -> list[dict[str, Any]] | None:
        """The official agents' live seats the last wake-up brought (taken once), or None: the filler asks."""
        ...


class LobbyFiller:
    """Fills waiting rooms with official bots and plays their games; see the module docstring."""

    def __init__(self, base_url: str, official_key: str, fill_after: float = 20.0, llm: LLMBrain | None = None,
                 *, agents_per_persona: int = 2, max_per_persona: int = 1, partial: bool = False,
                 poll_interval: float = 3.0, think: float = 1.0, poll_wait: float = 25.0,
                 seed: int | None = None, pool_max: int | None = None, wake: Wake | None = None,
                 reserve: int = 0, showcase: bool = False) -> None:
        self.base_url = base_url.rstrip("/")
        self.official_key = official_key
        self.llm = llm
        self.poll_interval = poll_interval
        self.stats = BotStats()
        rng = random.Random(seed)
        self.pool = Pool(official_key, agents_per_persona, pool_max, reserve)
        self.seats = Seats(self.pool, self.stats, rng, llm=llm, think=think, poll_wait=poll_wait)
        self.lobby = Lobby(self.pool, self.seats, self.stats, rng, fill_after=fill_after,
                           max_per_persona=max_per_persona, partial=partial)
        self.showcase = Showcase(self.lobby) if showcase else None
        self.wake = wake
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._registered = False

    # What the server's metrics, the tests and the logs read.
    @property
    def agents(self) -> list[BotAgent]:
        return self.pool.agents

    @property
    def fill_after(self) -> float:
        return self.lobby.fill_after

    @property
    def joins(self) -> int:
        return self.lobby.joins

    @property
    def urgent_seats(self) -> int:
        return self.lobby.urgent_seats

    @property
    def adopted(self) -> int:
        """Seats the server gave our agents (a quick start's) that they took up."""
        return self.seats.adopted

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def pool_size(self) -> int:
        """Bot agents registered (holding a key) now."""
        return self.pool.size()

    def idle_count(self) -> int:
        """Registered bot agents sitting at no table."""
        return self.pool.idle_count()

    def busy(self) -> dict[str, str]:
        """Handle → match of every bot agent sitting at a table."""
        return self.seats.busy()

    async def fill_once(self, *, urgent_only: bool = False, urgent: list[dict[str, Any]] | None = None) -> int:
        """One pass over the waiting rooms (`Lobby.fill_once`)."""
        return await self.lobby.fill_once(urgent_only=urgent_only, urgent=urgent)

    async def start(self) -> None:
        """Start the background task (idempotent); returns immediately."""
        if self._task is not None and not self._task.done():
            return
        if not self.official_key:
            log.warning("lobby filler: no official bot key, so no official bots")
            return
        self._stopping = asyncio.Event()
        # Two connection pools: the players' (a long-poll or an action per seated agent) and the filler's own
        # (listing, registering, joining), so seating a room never waits behind the players' long-polls.
        most = self.pool.pool_max * len(PERSONAS) + 8
        limits = httpx.Limits(max_connections=most, max_keepalive_connections=most)
        self.pool.client, self.seats.client = (
            httpx.AsyncClient(base_url=self.base_url, timeout=30.0, limits=limits,
                              headers={"User-Agent": BOT_USER_AGENT}) for _ in range(2))
        self._task = asyncio.create_task(self._run(), name="wodi-lobby-filler")
        log.info("lobby filler: started for %s (fill after %.1fs, %d bot agents%s)", self.base_url,
                 self.fill_after, len(self.agents), ", LLM brain on" if self.llm else "")

    async def stop(self) -> None:
        """Cancel the filler and every game task, then close the HTTP client(s)."""
        self._stopping.set()
        tasks = [t for t in [self._task, self.pool.topping_up] if t is not None]
        for task in tasks:
            task.cancel()
        tasks += self.lobby.cancel() + self.seats.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._registered = False
        for agent in self.agents:
            agent.match_id = None
        for client in (self.pool.client, self.seats.client):
            if client is not None:
                await client.aclose()
        self.pool.client = self.seats.client = None
        if self.llm is not None:
            await self.llm.aclose()
        log.info("lobby filler: stopped")

    async def _run(self) -> None:
        backoff = 0.25  # the first attempt in-process may come before the server listens: retry soon
        woken, last_full = False, 0.0
        while not self._stopping.is_set():
            try:
                if not self._registered:
                    await self.pool.register_all()
                    await self.pool.discover()  # the pool an earlier run grew: its agents may sit at tables
                    await self.seats.resume()
                    self._registered = True
                    self.pool.top_up()
                seen = self.wake.latest() if self.wake is not None else 0
                # Woken early for a room to fill at once: the aged rooms wait for their regular pass (at most
                # `poll_interval` apart however often the filler is woken).
                regular = not woken or time.monotonic() - last_full >= self.poll_interval
                last_full = time.monotonic() if regular else last_full
                brought = self.wake if woken else None  # what the wake-up brought (None: ask the server)
                # First the seats the server gave our agents (a quick start's, in its own transaction): the rooms
                # then read them as taken.
                try:
                    if await self.seats.adopt(brought.seats() if brought is not None else None):
                        self.pool.taken()
                except httpx.HTTPError as exc:  # the rooms are filled all the same; the next pass asks again
                    log.warning("lobby filler: the server's list of our seats: %s: %s", type(exc).__name__, exc)
                await self.fill_once(urgent_only=not regular, urgent=brought.rooms() if brought is not None else None)
                if regular and self.showcase is not None:
                    await self.showcase.once()
                backoff = 0.25
                woken = await self._until_woken(seen)
            except RegistrationRefused as exc:
                log.error("lobby filler: %s; official bots stay off", exc)
                return
            except Exception as exc:  # noqa: BLE001 - the server may be starting, restarting or failing: retry
                log.warning("lobby filler: %s: %s; retrying in %.2fs", type(exc).__name__, exc, backoff)
                await self._pause(backoff)
                backoff = min(backoff * 2, 60.0)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._stopping.wait()

    async def _until_woken(self, seen: int) -> bool:
        """Pause `poll_interval`, or less: until a room to fill at once is announced after `seen` (then True)."""
        if self.wake is None:
            await self._pause(self.poll_interval)
            return False
        began = time.monotonic()
        if await self.wake.wait(seen, self.poll_interval) > seen:
            return True
        # Nothing new: either the interval passed, or the server is draining and answers every wait at once.
        await self._pause(self.poll_interval - (time.monotonic() - began))
        return False
