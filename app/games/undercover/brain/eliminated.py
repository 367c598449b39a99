"""The end of a seat: last words in persona, and a blank voted out guessing the civilians' word."""

from __future__ import annotations

import random

from app.games.undercover.brain.clues import is_safe
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import Voice
from app.games.undercover.brain.phrasing import SAFE_FALLBACKS, render
from app.games.undercover.brain.suspicion import suspicion, word_scores


def compose_last_words(ctx: Context, persona: Voice, rng: random.Random) -> str:
    """A goodbye in persona, pointing at the seat this bot suspects most when the template wants one."""
    values: dict[str, str] = {}
    others = [s for s in ctx.alive if s != ctx.seat]
    if others:
        scores = suspicion(ctx)
        values["suspect"] = str(max(others, key=lambda s: (scores.get(s, 0.0), -s)))
    options = render(persona.last_words, values, rng)
    return next((text for text in [*options, *SAFE_FALLBACKS] if is_safe(text, ctx.word)), "……")


def guess_word(ctx: Context) -> str:
    """A blank voted out names the library word whose clues the others' speeches fit best."""
    ranked = word_scores(ctx)
    return ranked[0][1].word if ranked else "不知道"
