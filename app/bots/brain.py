"""The rule brain: pure functions from one seat's view (`Context`) to its next action.

- Speaking: a clue phrase of the bot's own word in the persona's template, never the word itself (every text
  is checked with the server's own `leaks` and another template or clue is tried when one leaks), never a clue
  this bot already said. Civilians prefer clues nobody said yet. An undercover blends in (persona `blend`): when the
  others' speeches clearly describe one library word it borrows a clue of that word nobody said yet, else it
  echoes them vaguely; when it does not blend, it says its own clue that overlaps most with what was said.
  A blank echoes the common ground.
- Voting: a score per eligible seat — how unlike the bot's own word the seat's speeches are (plus copying,
  likeness to revealed seats and how it voted) — bent by the persona's `Voting` tendency; PK candidates only;
  never the bot itself.
- Last words in persona; a blank voted out guesses the library word whose clues the speeches fit best.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Sequence
from statistics import mean
from typing import Any

from app.bots.clues import (
    candidate_words,
    content,
    fit,
    is_safe,
    overlap,
    own_clues,
    phrase_of,
    phrases_of,
    uses_clue,
)
from app.bots.context import Context, context_from_snapshot
from app.bots.personas import Persona
from app.games.undercover.wordpairs import Word

SKIPPED_FIT = 0.35  # a skipped turn neither proves nor disproves much
SAFE_FALLBACKS = ("我先听听大家的。", "过。", "嗯……")


# --------------------------------------------------------------------------- entry point


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


# --------------------------------------------------------------------------- speaking


def compose_speech(ctx: Context, persona: Persona, rng: random.Random) -> str | None:
    """One safe speech for this turn, or None when nothing safe could be said (the caller skips)."""
    clues = own_clues(ctx.word)
    mine = ctx.my_texts()
    unused = [c for c in clues if not uses_clue(mine, c)]
    clue = _pick_clue(ctx, persona, unused, rng)
    values = _values(ctx, rng)
    if clue is not None:
        templates = persona.speak_undercover if ctx.role == "undercover" else persona.speak
        values["clue"] = clue
        first = _render(templates, values, rng) + _render(persona.speak, values, rng) + [clue]
    else:
        echoing = [t for t in persona.vague if "{echo}" in t or "{summary}" in t]
        first = _render(echoing, values, rng) + _render(persona.vague, values, rng)
    later = [c for c in unused if c != clue]
    rng.shuffle(later)
    options = first + later + _render(persona.vague, {k: v for k, v in values.items() if k != "clue"}, rng)
    said = [c for c in clues if c not in unused]
    return next((text for text in [*options, *SAFE_FALLBACKS]
                 if is_safe(text, ctx.word) and not any(uses_clue([text], c) for c in said)), None)


def _pick_clue(ctx: Context, persona: Persona, unused: list[str], rng: random.Random) -> str | None:
    """The clue to say now, or None to speak vaguely (blank, blending undercover, no clue left).

    An undercover that blends (persona `blend`, more so after round 1) first tries to read the room: when
    the others' speeches clearly point at one library word, it borrows a clue of that word nobody said yet;
    else it echoes them vaguely. Otherwise it says its own clue that overlaps most with what was said.
    """
    if ctx.role == "blank":
        return None
    others = [text for _, text in ctx.others_texts()]
    if ctx.role == "undercover":
        blend = persona.blend + (0.25 if ctx.round > 1 else 0.0)
        if others and rng.random() < blend:
            return _borrowed_clue(ctx, others, rng)
        if not unused:
            return None
        return _best_by(unused, lambda c: sum(overlap(c, t) for t in others), rng)
    if not unused:
        return None
    fresh = [c for c in unused if not uses_clue(others, c)] or unused
    style = "specific" if ctx.in_pk else persona.clue_pick
    if style == "specific":
        return _best_by(fresh, len, rng)
    if style == "vague":
        return _best_by(fresh, lambda c: -len(c), rng)
    return rng.choice(fresh)


def _borrowed_clue(ctx: Context, others: list[str], rng: random.Random) -> str | None:
    """A fresh clue of the word the majority seems to describe, or None when the room is not clear."""
    ranked = word_scores(ctx, skip_own_side=True)
    if not ranked or ranked[0][0] < 2.0:
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
        if ctx.role == "civilian" and clues and fit(text, clues) < 0.5:
            continue
        if ctx.role == "undercover" and clues and fit(text, clues) >= 0.5:
            continue
        pool.append((phrase, text))
    if not pool:
        return None
    texts = [text for _, text in ctx.others_texts()]
    return _best_by([p for p, _ in pool], lambda p: sum(overlap(p, t) for t in texts), rng)


def _summary(ctx: Context) -> str | None:
    """Up to three phrases of different seats, this round first: 「…」「…」 (an undercover skips the
    speeches that fit its own word, so it sums up the majority)."""
    seen: dict[int, str] = {}
    clues = own_clues(ctx.word)
    texts = [(seat, text) for seat, text in ctx.others_texts()
             if not (ctx.role == "undercover" and clues and fit(text, clues) >= 0.5)]
    ordered = sorted(texts, key=lambda item: 0 if _said_this_round(ctx, item[0]) else 1)
    for seat, text in ordered:
        phrase = phrase_of(text)
        if seat not in seen and phrase and is_safe(phrase, ctx.word) and phrase not in seen.values():
            seen[seat] = phrase
        if len(seen) == 3:
            break
    return "".join(f"「{p}」" for p in seen.values()) or None


def _said_this_round(ctx: Context, seat: int) -> bool:
    return any(s.seat == seat and s.round == ctx.round for s in ctx.speeches)


def _render(templates: Sequence[str], values: dict[str, str], rng: random.Random) -> list[str]:
    """Every template whose placeholders all have values, filled in, in random order."""
    usable = [t for t in templates if _fields(t) <= values.keys()]
    rng.shuffle(usable)
    return [t.format(**values) for t in usable]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _best_by(items: Sequence[str], key: Any, rng: random.Random) -> str:
    """The item with the highest key; ties broken at random."""
    scored = [(key(item), item) for item in items]
    top = max(score for score, _ in scored)
    return rng.choice([item for score, item in scored if score == top])


# --------------------------------------------------------------------------- suspicion


def suspicion(ctx: Context) -> dict[int, float]:
    """Per other living seat: how likely it holds a different word than this seat (higher = more).

    For a civilian that is "likely undercover or blank"; for an undercover, "likely civilian". Built from how
    well the seat's speeches fit this seat's own clues (a blank, who has none, uses agreement with the table),
    repeating a phrase someone else said first, likeness to revealed seats, and votes against revealed seats.
    """
    clues = own_clues(ctx.word)
    copied = _copycats(ctx)
    scores: dict[int, float] = {}
    for seat in ctx.others_alive():
        speeches = ctx.speeches_of(seat)
        if clues:
            fits = [fit(s.text, clues) if s.text else SKIPPED_FIT for s in speeches]
            base = 1.0 - mean(fits) if fits else 0.5
        else:
            base = _outlier(ctx, seat)
        scores[seat] = base + 0.25 * copied.get(seat, 0.0) + _revealed_likeness(ctx, seat) + _vote_signal(ctx, seat)
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


def _outlier(ctx: Context, seat: int) -> float:
    """1 − how much the seat's speeches overlap the rest of the table's."""
    others = [text for s, text in ctx.others_texts() if s != seat]
    own = [s.text for s in ctx.speeches_of(seat) if s.text]
    if not own or not others:
        return 0.5
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
        signal += 0.4 * likeness if role != ctx.role else -0.3 * likeness
    return signal


def _vote_signal(ctx: Context, seat: int) -> float:
    """Voting out a revealed seat of my role hints at the other side; of another role, at mine."""
    signal = 0.0
    for ballot in ctx.ballots:
        if ballot.seat != seat or ballot.target not in ctx.revealed:
            continue
        signal += 0.15 if ctx.revealed[ballot.target] == ctx.role else -0.1
    return signal


def _information(ctx: Context, seat: int) -> float:
    """How much a seat said: mean number of meaningful characters per turn (skips count 0)."""
    speeches = ctx.speeches_of(seat)
    return mean(len(content(s.text)) if s.text else 0 for s in speeches) if speeches else 0.0


# --------------------------------------------------------------------------- voting


def rank_targets(ctx: Context, persona: Persona) -> list[tuple[int, float]]:
    """Eligible seats with their vote score, best first (ties: lower seat first, so like minds agree)."""
    targets = ctx.eligible_targets()
    if not targets:
        return []
    base = suspicion(ctx)
    if ctx.role == "blank":
        base = {seat: 1.0 - _outlier(ctx, seat) for seat in base}
    ballots = ctx.current_ballots()
    counts = Counter(b.target for b in ballots if b.seat != ctx.seat)
    total = max(1, sum(counts.values()))
    follow = persona.voting.follow + (0.8 if ctx.role in ("undercover", "blank") else 0.0)
    scored = []
    for seat in targets:
        share = counts[seat] / total
        score = base.get(seat, 0.5) + (follow - persona.voting.contrarian) * share
        if seat in ctx.fellows:
            score -= 5.0
        scored.append((seat, score))
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def choose_vote(ctx: Context, persona: Persona, rng: random.Random, *, random_vote: bool = False) -> int | None:
    """The seat to vote for, bent by the persona's tendency; None when there is nobody to vote for."""
    targets = ctx.eligible_targets()
    if not targets:
        return None
    if random_vote:
        return rng.choice(targets)
    tendency = persona.voting
    if rng.random() < tendency.random:
        return rng.choice(targets)
    if tendency.revenge and rng.random() < tendency.revenge:
        avengers = sorted({b.seat for b in ctx.ballots
                           if b.round == ctx.round - 1 and b.target == ctx.seat and b.seat in targets})
        avengers = [s for s in avengers if s not in ctx.fellows]
        if avengers:
            return rng.choice(avengers)
    if tendency.boring and rng.random() < tendency.boring:
        candidates = [s for s in targets if s not in ctx.fellows] or targets
        return min(candidates, key=lambda s: (_information(ctx, s), s))
    ranking = [seat for seat, _ in rank_targets(ctx, persona)]
    roll = rng.random()
    if roll < tendency.top or len(ranking) == 1:
        return ranking[0]
    if roll < tendency.top + tendency.second or len(ranking) == 2:
        return ranking[1]
    return ranking[2] if rng.random() < 0.5 else rng.choice(ranking)


def vote_comment(ctx: Context, persona: Persona, target: int, rng: random.Random) -> str | None:
    """A short public reason in persona, or None (sometimes a bot just votes)."""
    if rng.random() < 0.25:
        return None
    options = _render(persona.vote_comments, {"target": str(target)}, rng)
    return next((text for text in options if is_safe(text, ctx.word)), None)


# --------------------------------------------------------------------------- the end of a seat


def compose_last_words(ctx: Context, persona: Persona, rng: random.Random) -> str:
    """A goodbye in persona, pointing at the seat this bot suspects most when the template wants one."""
    values: dict[str, str] = {}
    others = [s for s in ctx.alive if s != ctx.seat]
    if others:
        scores = suspicion(ctx)
        values["suspect"] = str(max(others, key=lambda s: (scores.get(s, 0.0), -s)))
    options = _render(persona.last_words, values, rng)
    return next((text for text in [*options, *SAFE_FALLBACKS] if is_safe(text, ctx.word)), "……")


def guess_word(ctx: Context) -> str:
    """A blank voted out names the library word whose clues the others' speeches fit best."""
    ranked = word_scores(ctx)
    return ranked[0][1].word if ranked else "不知道"


def word_scores(ctx: Context, *, skip_own_side: bool = False) -> list[tuple[float, Word]]:
    """Library words (not this seat's own) ranked by how well the others' speeches fit their clues.

    A speech holding a clue scores 1 for that word, a partial overlap a little, so the majority's word comes
    first. Speeches of seats revealed as civilians count double; of revealed undercovers or blanks, not at
    all; with `skip_own_side`, speeches that fit this seat's own clues are left out too (its own side's).
    """
    clues = own_clues(ctx.word)
    weighted: list[tuple[str, float]] = []
    for seat, text in ctx.others_texts():
        role = ctx.revealed.get(seat)
        weight = 2.0 if role == "civilian" else 0.0 if role in ("undercover", "blank") else 1.0
        if skip_own_side and clues and fit(text, clues) >= 0.5:
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
            score += weight * (f if f >= 1.0 else 0.3 * f)
        scored.append((score, word))
    scored.sort(key=lambda item: -item[0])
    return scored
