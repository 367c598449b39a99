"""Voting: a score per eligible seat (`suspicion`), bent by the persona's `Voting` tendency.

PK candidates only, never the bot itself, a known fellow only when nobody else is eligible.
"""

from __future__ import annotations

import random
from collections import Counter

from app.games.undercover.brain.clues import is_safe, phrase_of
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import VOTE_COMMON, Voice
from app.games.undercover.brain.phrasing import render, sentences
from app.games.undercover.brain.suspicion import information, outlier, suspicion
from app.games.undercover.brain.weights import (
    CIVILIAN_FOLLOWS,
    CIVILIANS_CLOSE_RANKS,
    FELLOW_PENALTY,
    HIDDEN_SIDE_FOLLOWS,
    NEUTRAL,
    SILENT_VOTE,
    THIRD_CHOICE,
)


def rank_targets(ctx: Context, persona: Voice) -> list[tuple[int, float]]:
    """Eligible seats with their vote score, best first (ties: lower seat first, so like minds agree)."""
    targets = ctx.eligible_targets()
    if not targets:
        return []
    base = suspicion(ctx)
    if ctx.role == "blank":
        # a blank does not know who the undercover is: it votes as the civilians it poses as do, against the
        # seat whose speeches stand out from the table's (often the undercover: it is no clairvoyant teammate)
        base = {seat: outlier(ctx, seat) for seat in base}
    ballots = ctx.current_ballots()
    counts = Counter(b.target for b in ballots if b.seat != ctx.seat)
    total = max(1, sum(counts.values()))
    follow = persona.voting.follow + (HIDDEN_SIDE_FOLLOWS if ctx.role in ("undercover", "blank") else CIVILIAN_FOLLOWS)
    if ctx.role == "civilian" and ctx.n_blank:
        follow += CIVILIANS_CLOSE_RANKS  # two seats hide: a split vote saves one of them
    scored = []
    for seat in targets:
        share = counts[seat] / total
        score = base.get(seat, NEUTRAL) + (follow - persona.voting.contrarian) * share
        if seat in ctx.fellows:
            score -= FELLOW_PENALTY
        scored.append((seat, score))
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def choose_vote(ctx: Context, persona: Voice, rng: random.Random, *, random_vote: bool = False) -> int | None:
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
        avengers = _avengers(ctx, targets)
        if avengers:
            return rng.choice(avengers)
    if tendency.boring and rng.random() < tendency.boring:
        candidates = [s for s in targets if s not in ctx.fellows] or targets
        return min(candidates, key=lambda s: (information(ctx, s), s))
    ranking = [seat for seat, _ in rank_targets(ctx, persona)]
    roll = rng.random()
    if roll < tendency.top or len(ranking) == 1:
        return ranking[0]
    if roll < tendency.top + tendency.second or len(ranking) == 2:
        return ranking[1]
    return ranking[2] if rng.random() < THIRD_CHOICE else rng.choice(ranking)


def _avengers(ctx: Context, targets: list[int]) -> list[int]:
    """Eligible seats (not fellows) that voted for this seat in the previous round."""
    voted_me = sorted({b.seat for b in ctx.ballots
                       if b.round == ctx.round - 1 and b.target == ctx.seat and b.seat in targets})
    return [s for s in voted_me if s not in ctx.fellows]


# Which claims each persona likes to make, most liked first (it makes the first one that is true).
CLAIM_TASTE: dict[str, tuple[str, ...]] = {
    "adai": ("majority", "first", "suspect", "plain"),
    "linglong": ("suspect", "contrarian", "plain", "quote"),
    "laotie": ("revenge", "contrarian", "nobody", "suspect", "quote", "plain"),
    "nuomi": ("plain", "suspect", "majority"),
    "yingyan": ("data", "quote", "quiet", "plain"),
    "oscar": ("suspect", "quiet", "plain", "majority"),
}


def vote_claims(ctx: Context, target: int) -> dict[str, dict[str, str]]:
    """The claims a comment on a vote for `target` may make right now, each with its extra values.

    - majority: more than half of the ballots already cast (at least two) name the target;
    - first: no ballot cast yet; nobody: ballots cast, none on the target;
    - contrarian: ballots cast and the target is not the leading seat;
    - revenge: the target voted for this seat in an earlier vote; quiet: the target said least;
    - data: this seat's suspicion model ranks the target first; quote: a phrase the target said;
    - suspect / plain: no checkable claim.
    """
    ballots = [b for b in ctx.current_ballots() if b.seat != ctx.seat]
    counts = Counter(b.target for b in ballots)
    top = max(counts.values(), default=0)
    eligible = ctx.eligible_targets()
    found: dict[str, dict[str, str]] = {"suspect": {}, "plain": {}}
    if len(ballots) >= 2 and counts[target] * 2 > len(ballots):
        found["majority"] = {}
    if not ballots:
        found["first"] = {}
    elif counts[target] == 0:
        found["nobody"] = {}
    if ballots and counts[target] < top:
        found["contrarian"] = {}
    if any(b.seat == target and b.target == ctx.seat and (b.round, b.pk) != (ctx.round, ctx.in_pk)
           for b in ctx.ballots):
        found["revenge"] = {}
    if eligible and information(ctx, target) <= min(information(ctx, s) for s in eligible):
        found["quiet"] = {}
    scores = suspicion(ctx)
    if eligible and scores.get(target, 0.0) >= max(scores.get(s, 0.0) for s in eligible):
        found["data"] = {}
    said = [phrase_of(s.text) for s in ctx.speeches_of(target) if s.text]
    said = [p for p in said if len(p) >= 2 and is_safe(p, ctx.word)]
    if said:
        found["quote"] = {"quote": said[-1]}
    return found


def vote_comment(ctx: Context, persona: Voice, target: int, rng: random.Random) -> str | None:
    """A short public reason in persona that states only what is true, or None (sometimes a bot just votes).

    The persona's favourite true claim first (`CLAIM_TASTE`); a template this seat already used in the
    game is skipped, so no comment repeats.
    """
    if rng.random() < SILENT_VOTE:
        return None
    claims = vote_claims(ctx, target)
    old = [*ctx.my_comments(), *ctx.my_texts()]
    taste = CLAIM_TASTE.get(persona.slug, ("plain",))
    for claim in [c for c in taste if c in claims and rng.random() < 0.75] + ["plain", "suspect"]:
        if claim not in claims:
            continue
        templates = [*persona.vote.get(claim, ()), *VOTE_COMMON.get(claim, ())]
        values = {"target": str(target), **claims[claim]}
        old_sentences = {s for text in old for s in sentences(text)}
        fresh = [t for t in templates if not any(s in old_sentences for s in sentences(t.format(**values)))]
        for text in render(fresh, values, rng):
            if is_safe(text, ctx.word):
                return text
    return None
