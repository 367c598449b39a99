"""The bots' process takes up the seats the server gave its agents (a quick start seats free official agents in its
own transaction): `Seats.adopt` plays each listed seat of an agent of ours that is free here — not an agent without
a key yet, not one whose join is under way, and not one whose game in that match has just ended (a list read before
the end)."""

from __future__ import annotations

import random

from app.bots.personas import PERSONAS
from app.bots.player import BotStats
from app.bots.pool import BotAgent, Pool
from app.bots.seats import Seats


class Recording(Seats):
    def __init__(self, pool: Pool) -> None:
        super().__init__(pool, BotStats(), random.Random(1))
        self.started: list[tuple[str, str]] = []

    def seat(self, agent: BotAgent, match_id: str) -> None:
        agent.match_id = match_id
        self.started.append((agent.handle, match_id))


async def test_adopt_plays_each_seat_of_a_free_agent_of_ours_once() -> None:
    pool = Pool("key", agents_per_persona=1)
    adai, linglong, laotie, nuomi, yingyan, _ = pool.agents
    for agent in (adai, linglong, laotie, nuomi):
        agent.key = f"key-{agent.handle}"
    linglong.match_id = "joining"  # in a room's line-up: its join's answer says where it sits
    seats = Recording(pool)
    seats.left[laotie.handle] = "ended001"  # its game there ended after the list was read
    listed = [{"name": agent.handle, "match_id": match_id} for agent, match_id in
              [(adai, "table001"), (linglong, "table002"), (laotie, "ended001"), (nuomi, "table003"),
               (yingyan, "table004")]] + [{"name": "someone-else", "match_id": "table005"}]
    assert await seats.adopt(listed) == 2
    assert seats.started == [(adai.handle, "table001"), (nuomi.handle, "table003")]
    assert seats.adopted == 2 and yingyan.match_id is None, "no key yet: the next list brings it again"
    assert await seats.adopt(listed) == 0, "seated already"
    assert len(pool.agents) == len(PERSONAS)
