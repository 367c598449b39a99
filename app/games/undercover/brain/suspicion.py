"""Reading the table: how likely each seat holds another word, and which library word the speeches describe.

For a civilian "another word" means "likely undercover or blank"; for an undercover, "likely civilian". The
weights are in `weights`.
"""

from __future__ import annotations

from collections import Counter
from statistics import mean

from app.games.undercover.brain.clues import candidate_words, content, fit, overlap, own_clues, phrases_of
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.weights import (
    COPYCAT,
    FITS_OWN_WORD,
    HOLDS_CLUE,
    LIKE_REVEALED_MINE,
    LIKE_REVEALED_OTHER,
    NEUTRAL,
    PARTIAL_FIT_WEIGHT,
    REVEALED_CIVILIAN_WEIGHT,
    SKIPPED_FIT,
    VOTED_OUT_MY_SIDE,
    VOTED_OUT_OTHER_SIDE,
)
from app.games.undercover.wordpairs import Word


def suspicion(ctx: Context) -> dict[int, float]:
    """Per other living seat: how likely it holds a different word than this seat (higher = more).

    Built from how well the seat's speeches fit this seat's own clues (a blank, who has none, uses agreement
    with the table), repeating a phrase someone else said first, likeness to revealed seats, and votes
    against revealed seats.
    """
    clues = own_clues(ctx.word)
    copied = _copycats(ctx)
    scores: dict[int, float] = {}
    for seat in ctx.others_alive():
        speeches = ctx.speeches_of(seat)
        if clues:
            fits = [fit(s.text, clues) if s.text else SKIPPED_FIT for s in speeches]
            base = 1.0 - mean(fits) if fits else NEUTRAL
        else:
            base = outlier(ctx, seat)
        scores[seat] = (base + COPYCAT * copied.get(seat, 0.0) + _revealed_likeness(ctx, seat)
                        + _vote_signal(ctx, seat))
    return scores


def _copycats(ctx: Context) -> dict[int, float]:
    """Share of each seat's speeches that only repeat phrases other seats said first (or say nothing)."""
    first_said: dict[str, int] = {}
    hits: Counter[int] = Counter()
    totals: Counter[int] = Counter()
    for speech in ctx.speeches:
        if not speech.text:
            continue
        phrases = phrases_of(speech.text)
        totals[speech.seat] += 1
        if not any(first_said.setdefault(p, speech.seat) == speech.seat for p in phrases):
            hits[speech.seat] += 1
    return {seat: hits[seat] / totals[seat] for seat in totals}


def outlier(ctx: Context, seat: int) -> float:
    """1 − how much the seat's speeches overlap the rest of the table's."""
    others = [text for s, text in ctx.others_texts() if s != seat]
    own = [s.text for s in ctx.speeches_of(seat) if s.text]
    if not own or not others:
        return NEUTRAL
    return 1.0 - mean(max(overlap(text, o) for o in others) for text in own)


def _revealed_likeness(ctx: Context, seat: int) -> float:
    """Speeches like a revealed seat of my role → my side (−); like a revealed seat of another role → (+)."""
    if not ctx.revealed or ctx.role is None:
        return 0.0
    own = [s.text for s in ctx.speeches_of(seat) if s.text]
    signal = 0.0
    for dead, role in ctx.revealed.items():
        theirs = [s.text for s in ctx.speeches_of(dead) if s.text]
        if not own or not theirs:
            continue
        likeness = max(overlap(a, b) for a in own for b in theirs)
        signal += LIKE_REVEALED_OTHER * likeness if role != ctx.role else -LIKE_REVEALED_MINE * likeness
    return signal


def _vote_signal(ctx: Context, seat: int) -> float:
    """Voting out a revealed seat of my role hints at the other side; of another role, at mine."""
    signal = 0.0
    for ballot in ctx.ballots:
        if ballot.seat != seat or ballot.target not in ctx.revealed:
            continue
        signal += VOTED_OUT_MY_SIDE if ctx.revealed[ballot.target] == ctx.role else -VOTED_OUT_OTHER_SIDE
    return signal


def information(ctx: Context, seat: int) -> float:
    """How much a seat said: mean number of meaningful characters per turn (skips count 0)."""
    speeches = ctx.speeches_of(seat)
    return mean(len(content(s.text)) if s.text else 0 for s in speeches) if speeches else 0.0


def word_scores(ctx: Context, *, skip_own_side: bool = False) -> list[tuple[float, Word]]:
    """Library words (not this seat's own) ranked by how well the others' speeches fit their clues.

    A speech holding a clue scores 1 for that word, a partial overlap a little, so the majority's word comes
    first. Speeches of seats revealed as civilians count double; of revealed undercovers or blanks, not at
    all; with `skip_own_side`, speeches that fit this seat's own clues are left out too (its own side's).
    """
    clues = own_clues(ctx.word)
    weighted: list[tuple[str, float]] = []
    for seat, text in ctx.others_texts():
        weight = _speech_weight(ctx.revealed.get(seat))
        if skip_own_side and clues and fit(text, clues) >= FITS_OWN_WORD:
            weight = 0.0
        if weight:
            weighted.append((text, weight))
    if not weighted:
        return []
    scored = []
    for word in candidate_words(text for text, _ in weighted):
        if ctx.word and word.word == ctx.word:
            continue
        score = 0.0
        for text, weight in weighted:
            f = fit(text, word.clues)
            score += weight * (f if f >= HOLDS_CLUE else PARTIAL_FIT_WEIGHT * f)
        scored.append((score, word))
    scored.sort(key=lambda item: -item[0])
    return scored


def _speech_weight(revealed_role: str | None) -> float:
    if revealed_role == "civilian":
        return REVEALED_CIVILIAN_WEIGHT
    return 0.0 if revealed_role in ("undercover", "blank") else 1.0
