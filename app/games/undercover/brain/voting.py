"""Voting: a score per eligible seat (`suspicion`), bent by the persona's `Voting` tendency.

PK candidates only, never the bot itself, a known fellow only when nobody else is eligible.
"""

from __future__ import annotations

import random
from collections import Counter

from app.games.undercover.brain.clues import is_safe
from app.games.undercover.brain.context import Context
from app.games.undercover.brain.personas import Voice
from app.games.undercover.brain.phrasing import render
from app.games.undercover.brain.suspicion import information, outlier, suspicion
from app.games.undercover.brain.weights import FELLOW_PENALTY, HIDDEN_SIDE_FOLLOWS, NEUTRAL, SILENT_VOTE, THIRD_CHOICE


def rank_targets(ctx: Context, persona: Voice) -> list[tuple[int, float]]:
    """Eligible seats with their vote score, best first (ties: lower seat first, so like minds agree)."""
    targets = ctx.eligible_targets()
    if not targets:
        return []
    base = suspicion(ctx)
    if ctx.role == "blank":
        base = {seat: 1.0 - outlier(ctx, seat) for seat in base}
    ballots = ctx.current_ballots()
    counts = Counter(b.target for b in ballots if b.seat != ctx.seat)
    total = max(1, sum(counts.values()))
    follow = persona.voting.follow + (HIDDEN_SIDE_FOLLOWS if ctx.role in ("undercover", "blank") else 0.0)
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


def vote_comment(ctx: Context, persona: Voice, target: int, rng: random.Random) -> str | None:
    """A short public reason in persona, or None (sometimes a bot just votes)."""
    if rng.random() < SILENT_VOTE:
        return None
    options = render(persona.vote_comments, {"target": str(target)}, rng)
    return next((text for text in options if is_safe(text, ctx.word)), None)
