"""The end of a seat: last words in persona, and a blank voted out guessing the civilians' word."""

from __future__ import annotations

import random

from app.games.undercover.brain.clues import is_safe, uses_clue
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import Voice
from app.games.undercover.brain.phrasing import SAFE_FALLBACKS, render
from app.games.undercover.brain.suspicion import suspicion, word_scores
from app.games.undercover.brain.weights import BLANK_CLUES, BLANK_RECALL, BLANK_SURE
from app.games.undercover.wordpairs import Word


def compose_last_words(ctx: Context, voice: Voice, rng: random.Random) -> str:
    """A goodbye in persona, addressing whoever voted this seat out, or pointing at its top suspect."""
    values: dict[str, str] = {}
    voters = ctx.voted_me_out()
    if voters:
        values["voters"] = "、".join(str(s) for s in voters)
    others = [s for s in ctx.alive if s != ctx.seat and s not in ctx.fellows]
    if others:
        scores = suspicion(ctx)
        values["suspect"] = str(max(others, key=lambda s: (scores.get(s, 0.0), -s)))
    addressed = [t for t in voice.last_words if "{voters}" in t]
    options = render(addressed, values, rng) if voters and rng.random() < 0.6 else []
    options += render(voice.last_words, values, rng)
    return next((text for text in [*options, *SAFE_FALLBACKS] if is_safe(text, ctx.word)), "……")


def guess_word(ctx: Context, rng: random.Random, recall: float = BLANK_RECALL) -> str:
    """A blank voted out names the library word the others' speeches fit best — when they make one clear.

    It is not clairvoyant: it has not learnt the library by heart, so it connects each clue of a word with
    that word only with probability `recall` (drawn afresh for this guess). And it listens first: a guess
    needs the score of two recognised clues (`BLANK_SURE`), and two different ones (`BLANK_CLUES`): with
    less (a round of category hints, one odd clue, one clue repeated around the table) it says it does not
    know, as a person would.
    """
    memory: dict[str, tuple[str, ...]] = {}

    def known(word: Word) -> tuple[str, ...]:
        if word.word not in memory:
            memory[word.word] = tuple(c for c in word.clues if rng.random() < recall)
        return memory[word.word]

    ranked = word_scores(ctx, known=known)
    if not ranked or ranked[0][0] < BLANK_SURE:
        return "不知道"
    word = ranked[0][1]
    heard = [text for _, text in ctx.others_texts()]
    if sum(1 for clue in known(word) if uses_clue(heard, clue)) < BLANK_CLUES:
        return "不知道"  # one clue heard twice is still one clue
    return word.word
