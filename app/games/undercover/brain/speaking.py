"""Speaking: a clue phrase of the bot's own word in the persona's template, never the word itself.

Every text is checked with `is_safe` (another template or clue is tried when one leaks), and a bot never
repeats a clue it already said. Civilians prefer clues nobody said yet. An undercover blends in (persona
`blend`): when the others' speeches clearly describe one library word it borrows a clue of that word nobody
said yet, else it echoes them vaguely; when it does not blend, it says its own clue that overlaps most with
what was said. A blank echoes the common ground.
"""

from __future__ import annotations

import random

from app.games.undercover.brain.clues import fit, is_safe, overlap, own_clues, phrase_of, uses_clue
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import Voice
from app.games.undercover.brain.phrasing import SAFE_FALLBACKS, best_by, render
from app.games.undercover.brain.suspicion import word_scores
from app.games.undercover.brain.weights import BLEND_AFTER_ROUND_1, CLEAR_ROOM, FITS_OWN_WORD

SUMMARY_PHRASES = 3  # a summary quotes at most this many seats


def compose_speech(ctx: Context, persona: Voice, rng: random.Random) -> str | None:
    """One safe speech for this turn, or None when nothing safe could be said (the caller skips)."""
    clues = own_clues(ctx.word)
    mine = ctx.my_texts()
    unused = [c for c in clues if not uses_clue(mine, c)]
    clue = _pick_clue(ctx, persona, unused, rng)
    values = _values(ctx, rng)
    if clue is not None:
        templates = persona.speak_undercover if ctx.role == "undercover" else persona.speak
        values["clue"] = clue
        first = render(templates, values, rng) + render(persona.speak, values, rng) + [clue]
    else:
        echoing = [t for t in persona.vague if "{echo}" in t or "{summary}" in t]
        first = render(echoing, values, rng) + render(persona.vague, values, rng)
    later = [c for c in unused if c != clue]
    rng.shuffle(later)
    options = first + later + render(persona.vague, {k: v for k, v in values.items() if k != "clue"}, rng)
    said = [c for c in clues if c not in unused]
    return next((text for text in [*options, *SAFE_FALLBACKS]
                 if is_safe(text, ctx.word) and not any(uses_clue([text], c) for c in said)), None)


def _pick_clue(ctx: Context, persona: Voice, unused: list[str], rng: random.Random) -> str | None:
    """The clue to say now, or None to speak vaguely (blank, blending undercover, no clue left).

    An undercover that blends (persona `blend`, more so after round 1) first tries to read the room: when
    the others' speeches clearly point at one library word, it borrows a clue of that word nobody said yet;
    else it echoes them vaguely. Otherwise it says its own clue that overlaps most with what was said.
    """
    if ctx.role == "blank":
        return None
    others = [text for _, text in ctx.others_texts()]
    if ctx.role == "undercover":
        blend = persona.blend + (BLEND_AFTER_ROUND_1 if ctx.round > 1 else 0.0)
        if others and rng.random() < blend:
            return _borrowed_clue(ctx, others, rng)
        if not unused:
            return None
        return best_by(unused, lambda c: sum(overlap(c, t) for t in others), rng)
    if not unused:
        return None
    fresh = [c for c in unused if not uses_clue(others, c)] or unused
    style = "specific" if ctx.in_pk else persona.clue_pick
    if style == "specific":
        return best_by(fresh, len, rng)
    if style == "vague":
        return best_by(fresh, lambda c: -len(c), rng)
    return rng.choice(fresh)


def _borrowed_clue(ctx: Context, others: list[str], rng: random.Random) -> str | None:
    """A fresh clue of the word the majority seems to describe, or None when the room is not clear."""
    ranked = word_scores(ctx, skip_own_side=True)
    if not ranked or ranked[0][0] < CLEAR_ROOM:
        return None
    word = ranked[0][1]
    spoken = [*others, *ctx.my_texts()]
    fresh = [c for c in word.clues if not uses_clue(spoken, c) and is_safe(c, ctx.word)]
    return rng.choice(fresh) if fresh else None


def _values(ctx: Context, rng: random.Random) -> dict[str, str]:
    """Placeholder values besides the clue: previous speaker, an echoed phrase, a summary."""
    values: dict[str, str] = {}
    prev = ctx.previous_speaker()
    if prev is not None:
        values["prev"] = str(prev)
    echo = _echo(ctx, rng)
    if echo:
        values["echo"] = echo
    summary = _summary(ctx)
    if summary:
        values["summary"] = summary
    return values


def _echo(ctx: Context, rng: random.Random) -> str | None:
    """A phrase the others said that this seat can safely lean on.

    Civilian: a phrase of a speech that fits its own clues. Undercover: of a speech that does not (the
    majority's). Blank: the phrase most shared across the table.
    """
    clues = own_clues(ctx.word)
    mine = ctx.my_texts()
    pool: list[tuple[str, str]] = []  # (phrase, text)
    for _, text in ctx.others_texts():
        phrase = phrase_of(text)
        if not phrase or not is_safe(phrase, ctx.word) or uses_clue(mine, phrase):
            continue
        if ctx.role == "civilian" and clues and fit(text, clues) < FITS_OWN_WORD:
            continue
        if ctx.role == "undercover" and clues and fit(text, clues) >= FITS_OWN_WORD:
            continue
        pool.append((phrase, text))
    if not pool:
        return None
    texts = [text for _, text in ctx.others_texts()]
    return best_by([p for p, _ in pool], lambda p: sum(overlap(p, t) for t in texts), rng)


def _summary(ctx: Context) -> str | None:
    """Up to three phrases of different seats, this round first: 「…」「…」 (an undercover skips the
    speeches that fit its own word, so it sums up the majority)."""
    seen: dict[int, str] = {}
    clues = own_clues(ctx.word)
    texts = [(seat, text) for seat, text in ctx.others_texts()
             if not (ctx.role == "undercover" and clues and fit(text, clues) >= FITS_OWN_WORD)]
    ordered = sorted(texts, key=lambda item: 0 if _said_this_round(ctx, item[0]) else 1)
    for seat, text in ordered:
        phrase = phrase_of(text)
        if seat not in seen and phrase and is_safe(phrase, ctx.word) and phrase not in seen.values():
            seen[seat] = phrase
        if len(seen) == SUMMARY_PHRASES:
            break
    return "".join(f"「{p}」" for p in seen.values()) or None


def _said_this_round(ctx: Context, seat: int) -> bool:
    return any(s.seat == seat and s.round == ctx.round for s in ctx.speeches)
