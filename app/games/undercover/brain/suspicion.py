"""Reading the table: how likely each seat holds another word, and which library word the speeches describe.

For a civilian "another word" means "likely undercover or blank"; for an undercover, "likely civilian". The
weights are in `weights`.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import mean

from app.games.undercover.brain.clues import candidate_words, content, fit, overlap, own_clues, phrases_of, tag_of
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.signals import hidden_left, hidden_odds, speech_evidence
from app.games.undercover.brain.weights import (
    CATEGORY_FIT,
    COPYCAT,
    FITS_OWN_WORD,
    HOLDS_CLUE,
    LIKE_REVEALED_MINE,
    LIKE_REVEALED_OTHER,
    NEUTRAL,
    PARTIAL_FIT_WEIGHT,
    REVEALED_CIVILIAN_WEIGHT,
    SKIPPED_FIT,
    THEIR_WORD,
    VOTED_OUT_MY_SIDE,
    VOTED_OUT_OTHER_SIDE,
)
from app.games.undercover.reading import copycat_shares
from app.games.undercover.reading import outlier as public_outlier
from app.games.undercover.text import normalise
from app.games.undercover.wordpairs import Word


def suspicion(ctx: Context) -> dict[int, float]:
    """Per other living seat: how likely it holds a different word than this seat (higher = more).

    A civilian's is `civilian_suspicion` (a probability). Otherwise built from how well the seat's speeches
    fit this seat's own clues (a blank, who has none, uses agreement with the table), repeating a phrase
    someone else said first, likeness to revealed seats, and votes against revealed seats.
    """
    if ctx.role == "civilian" and own_clues(ctx.word):
        return civilian_suspicion(ctx)
    clues = own_clues(ctx.word)
    tag = normalise(tag_of(ctx.word) or "")
    copied = _copycats(ctx)
    their_word = _revealed_word(ctx) if ctx.role == "civilian" else None
    scores: dict[int, float] = {}
    for seat in ctx.others_alive():
        speeches = ctx.speeches_of(seat)
        if clues:
            fits = [_fit_or_category(s.text, clues, tag) if s.text else SKIPPED_FIT for s in speeches]
            base = 1.0 - mean(fits) if fits else NEUTRAL
        else:
            base = outlier(ctx, seat)
        if their_word:
            theirs = [fit(s.text, their_word) for s in speeches if s.text]
            base += THEIR_WORD * max(theirs, default=0.0)
        scores[seat] = (base + COPYCAT * copied.get(seat, 0.0) + _revealed_likeness(ctx, seat)
                        + _vote_signal(ctx, seat))
    return scores


def civilian_suspicion(ctx: Context) -> dict[int, float]:
    """A civilian's view: the chance each other living seat is hidden, from every signal its seat may see.

    The log-likelihood ratios of what each seat's speeches added (`signals.speech_evidence`), of fitting the
    word a revealed undercover described, of likeness to revealed seats and of votes against them, turned
    into the posterior that the seat is one of the hidden seats left (`signals.hidden_odds`).
    """
    evidence = speech_evidence(ctx)
    their_word = _revealed_word(ctx)
    for seat, (uc, blank) in evidence.items():
        if their_word:
            theirs = [fit(s.text, their_word) for s in ctx.speeches_of(seat) if s.text]
            uc += THEIR_WORD * max(theirs, default=0.0)
        shared = _revealed_likeness(ctx, seat) + _vote_signal(ctx, seat)
        evidence[seat] = (uc + shared, blank + shared)
    return hidden_odds(evidence, *hidden_left(ctx))


def _revealed_word(ctx: Context) -> tuple[str, ...] | None:
    """The clues of the word a revealed undercover most likely held (read from its speeches), or None."""
    texts = [s.text for seat, role in ctx.revealed.items() if role == "undercover"
             for s in ctx.speeches_of(seat) if s.text]
    clues = own_clues(ctx.word)
    texts = [t for t in texts if not (clues and fit(t, clues) >= FITS_OWN_WORD)]
    best: tuple[float, tuple[str, ...]] | None = None
    for word in candidate_words(texts):
        if word.word == ctx.word:
            continue
        score = sum(fit(t, word.clues) for t in texts)
        if score >= HOLDS_CLUE and (best is None or score > best[0]):
            best = (score, word.clues)
    return best[1] if best else None


def _fit_or_category(text: str, clues: tuple[str, ...], tag: str) -> float:
    """A speech's fit to my clues; a speech that names only our shared category fits `CATEGORY_FIT`."""
    found = fit(text, clues)
    if tag and found < CATEGORY_FIT and tag in normalise(text):
        return CATEGORY_FIT
    return found


def _copycats(ctx: Context) -> dict[int, float]:
    """Share of each seat's speeches that only repeat phrases other seats said first (or say nothing)."""
    return copycat_shares(((s.seat, s.text) for s in ctx.speeches), phrases_of)


def outlier(ctx: Context, seat: int) -> float:
    """1 − how much the seat's speeches overlap the rest of the table's (`reading.outlier`)."""
    others = [text for s, text in ctx.others_texts() if s != seat]
    return public_outlier([s.text for s in ctx.speeches_of(seat) if s.text], others, overlap)


def _revealed_likeness(ctx: Context, seat: int) -> float:
    """Speeches like a revealed seat of my role → my side (−); like a revealed seat of another role → (+)."""
    if not ctx.revealed or ctx.role is None:
        return 0.0
    own = [s.text for s in ctx.speeches_of(seat) if s.text]
    signal = 0.0
    for dead, role in ctx.revealed.items():
        if role == "blank":  # a blank only echoed the table: looking like it says nothing
            continue
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


def word_scores(ctx: Context, *, skip_own_side: bool = False,
                known: Callable[[Word], tuple[str, ...]] | None = None) -> list[tuple[float, Word]]:
    """Library words (not this seat's own) ranked by how well the others' speeches fit their clues.

    A speech holding a clue scores 1 for that word, a partial overlap a little, so the majority's word comes
    first. Speeches of seats revealed as civilians count double; of revealed undercovers or blanks, not at
    all; with `skip_own_side`, speeches that fit this seat's own clues are left out too (its own side's).
    `known` gives the clues of a word this seat knows (default: all of the library's).
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
        clues_known = known(word) if known else word.clues
        for text, weight in weighted:
            f = fit(text, clues_known)
            score += weight * (f if f >= HOLDS_CLUE else PARTIAL_FIT_WEIGHT * f)
        scored.append((score, word))
    scored.sort(key=lambda item: -item[0])
    return scored


def _speech_weight(revealed_role: str | None) -> float:
    if revealed_role == "civilian":
        return REVEALED_CIVILIAN_WEIGHT
    return 0.0 if revealed_role in ("undercover", "blank") else 1.0
