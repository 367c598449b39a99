"""What a vote comment claims, checked against the state the voter saw (used by the quality figures' checker,
`quality`, and by the LLM voice, `llm`, before it sends an LLM's comment).

A claim is recognised by its wording: following "everyone" (大家/多数/跟风…), going against the vote
(不跟风/反着…), "nobody voted this seat", "data"/"most suspicious" (the voter's own suspicion model must rank
the target first), revenge ("投了我"), "said least", "first vote", and a quote 「…」 of a seat. The rule brain
(`app.games.undercover.brain.voting.vote_claims`) decides what is true on its own; this module is the
independent reading of the finished text.
"""

from __future__ import annotations

import re
from collections import Counter

from app.games.undercover.brain.context import Context
from app.games.undercover.brain.suspicion import information, suspicion
from app.games.undercover.text import normalise

MAJORITY = re.compile(r"大家|多数|大伙|跟风|都投|跟票|票都")
CONTRARIAN = re.compile(r"不跟风|反着|偏不|没人投|冷门|唱反调")
DATA = re.compile(r"数据|匹配度|一致性|统计|嫌疑最高|最可疑|排第一")
REVENGE = re.compile(r"投了?我")
QUIET = re.compile(r"话最少|说得最少|信息最少|没怎么说|最少")
FIRST = re.compile(r"第一票|头一票|先投")
QUOTE = re.compile(r"(\d+)号[^「」]{0,6}「([^」]+)」")


def comment_claims(comment: str, ctx: Context, target: int) -> list[tuple[str, bool]]:
    """Each claim the comment makes, and whether the state the voter saw bears it out."""
    ballots = [b for b in ctx.current_ballots() if b.seat != ctx.seat]
    counts = Counter(b.target for b in ballots)
    top = max(counts.values(), default=0)
    claims: list[tuple[str, bool]] = []
    if CONTRARIAN.search(comment):
        if "没人投" in comment:
            claims.append(("nobody", counts[target] == 0))
        else:
            claims.append(("contrarian", bool(ballots) and counts[target] < top))
    elif MAJORITY.search(comment):
        claims.append(("majority", len(ballots) >= 2 and counts[target] * 2 > len(ballots)))
    if DATA.search(comment):
        scores = suspicion(ctx)
        eligible = ctx.eligible_targets()
        best = max(scores.get(s, 0.0) for s in eligible) if eligible else 0.0
        claims.append(("data", scores.get(target, 0.0) >= best - 1e-9))
    if REVENGE.search(comment):
        claims.append(("revenge", any(b.seat == target and b.target == ctx.seat and
                                      (b.round, b.pk) != (ctx.round, ctx.in_pk) for b in ctx.ballots)))
    if QUIET.search(comment):
        eligible = ctx.eligible_targets()
        least = min(information(ctx, s) for s in eligible) if eligible else 0.0
        claims.append(("quiet", information(ctx, target) <= least + 1e-9))
    if FIRST.search(comment):
        claims.append(("first", not ballots))
    for seat, quoted in QUOTE.findall(comment):
        said = [normalise(s.text) for s in ctx.speeches_of(int(seat)) if s.text]
        claims.append(("quote", any(normalise(quoted) in text for text in said)))
    return claims


def false_claims(comment: str, ctx: Context, target: int) -> list[str]:
    """The claims of `comment` that the state does not bear out."""
    return [claim for claim, true in comment_claims(comment, ctx, target) if not true]
