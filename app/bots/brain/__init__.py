"""The rule brain: pure functions from one seat's view (`Context`) to its next action.

- `speaking`: a safe clue phrase of the bot's own word in the persona's template (an undercover blends in,
  a blank echoes the common ground).
- `suspicion`: how likely each other seat holds another word, and which library word the room describes.
- `voting`: the suspicion score per eligible seat, bent by the persona's `Voting` tendency.
- `eliminated`: last words in persona; a blank voted out guesses the word the speeches fit best.
- `weights`: every tuning number, named; `phrasing`: template filling shared by all of them.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.brain.eliminated import compose_last_words, guess_word
from app.bots.brain.speaking import compose_speech
from app.bots.brain.suspicion import suspicion, word_scores
from app.bots.brain.voting import choose_vote, rank_targets, vote_comment
from app.bots.context import context_from_snapshot
from app.bots.personas import Persona

__all__ = [
    "choose_vote",
    "compose_last_words",
    "compose_speech",
    "decide",
    "guess_word",
    "rank_targets",
    "suspicion",
    "vote_comment",
    "word_scores",
]


def decide(snapshot: dict[str, Any], persona: Persona, rng: random.Random, *,
           random_votes: bool = False) -> dict[str, Any] | None:
    """The action body (`POST /action`) for this seat's `next_action`, or None when it has nothing to do.

    `random_votes` makes the vote uniform among the eligible seats (the arena's baseline).
    """
    ctx = context_from_snapshot(snapshot)
    action = ctx.next_action
    if action == "speak":
        text = compose_speech(ctx, persona, rng)
        return {"type": "speak", "text": text} if text else {"type": "skip"}
    if action == "vote":
        target = choose_vote(ctx, persona, rng, random_vote=random_votes)
        if target is None:
            return None
        body: dict[str, Any] = {"type": "vote", "target_seat": target}
        comment = vote_comment(ctx, persona, target, rng)
        if comment:
            body["comment"] = comment
        return body
    if action == "last_words":
        return {"type": "last_words", "text": compose_last_words(ctx, persona, rng)}
    if action == "guess_word":
        return {"type": "guess_word", "word": guess_word(ctx)}
    return None
