"""A random legal agent: any game, any phase — it picks one of `allowed_actions` and fills it at random.

    wodi-agent play --game werewolf --agent wodi_client.examples.random_agent:RandomAgent
"""

from __future__ import annotations

import random
from typing import Any

from wodi_client import Agent, View

LINES = ("我再听听大家怎么说。", "先不下结论，继续观察。", "我的想法和上一位差不多。", "这一轮我保留意见。")


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: View) -> dict[str, Any] | None:
        return view.random_action(self.rng, text=self.rng.choice(LINES))
