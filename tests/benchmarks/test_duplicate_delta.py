"""The duplicate delta tells a worse agent from the reference, and the reference from itself (fixed seeds, so the
runs replay alike: every reference seat's dice are seeded by the deal).

A random-acting agent (one of the offered actions, filler text) runs 60 werewolf games: its delta is negative and
its interval excludes 0. The reference brain, playing the agent's seat as an ordinary HTTP client, runs the same 60
deals: its interval contains 0. Werewolf (6 seats), because one seat of six moves the result most there; a short
night clock, because a wolf pack that disagrees waits for it (the rules' design).
"""

from __future__ import annotations

import httpx
import pytest

from tests.api.helpers import bearer, register
from tests.benchmarks import agent

pytestmark = pytest.mark.slow
RUN = {"game": "werewolf", "games": 60, "seed": 11, "config": {"night_timeout": 2}}


async def test_a_random_agent_loses_to_the_reference_on_the_same_deals(client: httpx.AsyncClient) -> None:
    key = bearer((await register(client, "bench-random"))["api_key"])
    view = await agent.run(client, key, RUN, seed=11)
    duplicate = view["report"]["duplicate"]
    print("random agent:", view["report"]["overall"], view["report"]["reference"], duplicate)  # the figures, with -s
    assert view["status"] == "finished" and duplicate["deals"] == 60
    assert duplicate["delta"] < 0 and duplicate["interval"][1] < 0, duplicate


async def test_the_reference_against_itself_shows_no_difference(client: httpx.AsyncClient) -> None:
    key = bearer((await register(client, "bench-self"))["api_key"])
    view = await agent.run(client, key, RUN, seed=11, policy=agent.ReferencePolicy(), usage=None)
    duplicate = view["report"]["duplicate"]
    print("reference vs itself:", view["report"]["overall"], view["report"]["reference"], duplicate)
    assert view["status"] == "finished" and duplicate["deals"] == 60
    assert duplicate["interval"][0] <= 0 <= duplicate["interval"][1], duplicate
