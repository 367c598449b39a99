"""The rule brain: pure functions from one seat's view (`Context`) to its next action.

- `speaking`: a safe clue phrase of the bot's own word in the persona's template (an undercover blends in,
  a blank echoes the common ground).
- `suspicion`: how likely each other seat holds another word, and which library word the room describes;
  a civilian's is the posterior of `signals` (what each speech added, as measured likelihood ratios).
- `voting`: the suspicion score per eligible seat, bent by the persona's `Voting` tendency.
- `eliminated`: last words in persona; a blank voted out guesses the word the speeches fit best.
- `debating`: the opt-in debate — answer a challenge in persona, else speak up once or pass.
- `weights`: every tuning number, named; `phrasing`: template filling shared by all of them.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.brains import BotPlay, vote_action
from app.games.undercover.brain import arena, llm, recap
from app.games.undercover.brain.context import context_from_snapshot
from app.games.undercover.brain.debating import debate_action
from app.games.undercover.brain.eliminated import compose_last_words, guess_word
from app.games.undercover.brain.personas import voice
from app.games.undercover.brain.speaking import compose_speech
from app.games.undercover.brain.suspicion import suspicion, word_scores
from app.games.undercover.brain.voting import choose_vote, rank_targets, vote_comment

__all__ = [
    "choose_vote",
    "compose_last_words",
    "compose_speech",
    "debate_action",
    "decide",
    "guess_word",
    "rank_targets",
    "suspicion",
    "vote_comment",
    "word_scores",
]


def decide(snapshot: dict[str, Any], persona: str, rng: random.Random, *,
           baseline: bool = False) -> dict[str, Any] | None:
    """The action body (`POST /action`) for this seat's `next_action`, or None when it has nothing to do.

    `persona` is the persona slug ("adai", "linglong", "laotie", "nuomi", "yingyan", "oscar"); `baseline`
    makes the vote uniform among the eligible seats (the arena's random-acting baseline).
    """
    ctx = context_from_snapshot(snapshot)
    style = voice(persona)
    action = ctx.next_action
    if action == "speak":
        text = compose_speech(ctx, style, rng)
        return {"type": "speak", "text": text} if text else {"type": "skip"}
    if action == "vote":
        return vote_action(choose_vote(ctx, style, rng, random_vote=baseline),
                           lambda target: vote_comment(ctx, style, target, rng))
    if action == "last_words":
        return {"type": "last_words", "text": compose_last_words(ctx, style, rng)}
    if action == "guess_word":
        return {"type": "guess_word", "word": guess_word(ctx, rng)}
    if action == "debate":
        return debate_action(snapshot, ctx, style, rng)
    return None


PLAY = BotPlay(decide, arena=arena.arena, draws=lambda phase: phase.startswith("vote_round_"), voice=llm.improve,
               recap_prompt=recap.messages)
"""What the bots find here besides `decide` (`app.games.brains`): its own arena report; the simulator draws who
votes first among the voters (every other turn is one seat's); seed 000's LLM prompts; the recap's rewrite prompt."""
