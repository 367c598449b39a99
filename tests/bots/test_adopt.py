"""The bots' process takes up the seats the server gave its agents (a quick start seats free official agents, or
makes a persona's next one, in its own transaction): `Seats.adopt` plays each listed seat of an official agent that
is free here — an agent the server made joins the pool first — but not one whose join is under way, not one the
reserve is registering, and not one whose game in that match has just ended (a list read before the end)."""

from __future__ import annotations

import random

from app.bots.personas import ADAI, PERSONAS
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


async def test_adopt_plays_each_seat_of_a_free_official_agent_once() -> None:
    pool = Pool("key", agents_per_persona=1, pool_max=3)
    adai, linglong, laotie, nuomi, yingyan, oscar = pool.agents
    for agent in (adai, linglong, laotie, nuomi):
        agent.key = f"key-{agent.handle}"
    linglong.match_id = "joining"  # in a room's line-up: its join's answer says where it sits
    oscar.match_id = ""  # the reserve holds it while it registers it: the next list brings it again
    seats = Recording(pool)
    seats.left[laotie.handle] = "ended001"  # its game there ended after the list was read
    listed = [{"name": handle, "match_id": match_id} for handle, match_id in [
        (adai.handle, "table001"), (linglong.handle, "table002"), (laotie.handle, "ended001"),
        (nuomi.handle, "table003"), (yingyan.handle, "table004"), (oscar.handle, "table005"),
        (ADAI.handle(3), "table006"),  # made by the server: the pool has not reached it
        (ADAI.handle(4), "table007"),  # past the pool's limit: not ours to play
        ("someone-else", "table008")]]
    assert await seats.adopt(listed) == 4
    assert seats.started == [(adai.handle, "table001"), (nuomi.handle, "table003"), (yingyan.handle, "table004"),
                             (ADAI.handle(3), "table006")]
    made = [a for a in pool.agents if a.persona is ADAI]
    assert [a.handle for a in made] == [ADAI.handle(1), ADAI.handle(2), ADAI.handle(3)]
    assert made[1].match_id is None and not made[1].key, "the agents before it join unregistered and free"
    assert seats.adopted == 4 and len(pool.agents) == len(PERSONAS) + 2
    assert await seats.adopt(listed) == 0, "seated already"
