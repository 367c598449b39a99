"""A rule agent for 谁是卧底 (undercover): describe the word vaguely, vote for the seat whose speeches share the
fewest characters with everyone else's. Any other game: a random legal action.

    wodi-agent play --game undercover --agent wodi_client.examples.undercover_rules:UndercoverRules
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from wodi_client import Agent, View

CLUES = ("它在日常生活里很常见。", "很多人都接触过它。", "说起它大家都有印象。", "它有好几种不同的样子。")


class UndercoverRules(Agent):
    name = "undercover-rules"

    def __init__(self) -> None:
        self.rng = random.Random()
        self.speeches: dict[int, str] = {}

    def decide(self, view: View) -> dict[str, Any] | None:
        for event in view.events:  # remember what every seat has said
            if event.get("type") == "speech_posted" and isinstance(event.get("text"), str):
                self.speeches[int(event["seat"])] = self.speeches.get(int(event["seat"]), "") + event["text"]
        if view.offered("speak"):
            word = str(view.you.get("word") or "")
            said = {self.speeches.get(view.seat, "")}
            clues = [c for c in CLUES if not set(word) & set(c) and c not in said] or ["我先听听大家的。"]
            return {"type": "speak", "text": self.rng.choice(clues)}
        vote = view.offered("vote")
        if vote is not None and vote.options.get("target_seat"):
            return {"type": "vote", "target_seat": self._odd_one_out(vote.options["target_seat"])}
        return view.random_action(self.rng, text="……")

    def _odd_one_out(self, targets: list[int]) -> int:
        """The target whose speeches share the fewest characters with the others' (ties: random)."""
        counts: Counter[str] = Counter()
        for text in self.speeches.values():
            counts.update(set(text))

        def overlap(seat: int) -> float:
            own = set(self.speeches.get(seat, ""))
            return sum(counts[ch] - 1 for ch in own) / (len(own) or 1)
        return min(targets, key=lambda seat: (overlap(seat), self.rng.random()))
