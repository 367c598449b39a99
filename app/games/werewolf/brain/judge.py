"""How wolf-like each seat looks, from what the seat knows (`Table`), and how far each seer claim is believed.

The village reasoning, used by every good seat (and by the wolves to guess what the village believes):
- a seat's own knowledge first: a seer's checks, a wolf's pack, the victims the witch was shown;
- seer claims: one claimant is believed; two or more compete — a claimant killed at night, one whose 查杀
  turned out a wolf, one who claimed first, is believed more; one who claimed right after being named 查杀 by
  another claimant (悍跳) is believed less. A believed claimant's 查杀 is near-certain evidence, its 金水 a
  pardon; a disbelieved claimant is probably a wolf, and its 金水 a fellow wolf;
- votes: voting against a believed claimant, or for its 金水, is suspicious; voting for its 查杀 is not.
"""

from __future__ import annotations

from dataclasses import replace

from app.games.werewolf.brain import weights as W
from app.games.werewolf.brain.table import Claim, Table


def belief(table: Table) -> dict[int, float]:
    """Claimant seat → probability (as this seat sees it) that it is the real seer."""
    claims = list(table.claims.values())
    if not claims:
        return {}
    if table.role == "seer":
        return {c.seat: (1.0 if c.seat == table.me else 0.0) for c in claims}
    scores = {c.seat: _credit(table, c, claims) for c in claims}
    if len(claims) == 1:
        only = claims[0].seat
        return {only: min(0.95, max(0.05, W.SINGLE_CLAIM_BELIEF + 0.1 * scores[only]))}
    total = sum(scores.values()) or 1.0
    return {seat: score / total for seat, score in scores.items()}


def _credit(table: Table, claim: Claim, claims: list[Claim]) -> float:
    if table.is_wolf:
        return W.CREDIT_FLOOR if claim.seat in table.fellow_wolves else 1.0 + W.CREDIT_KILLED
    if claim.seat == table.me:
        return 1.0
    credit = 1.0
    if claim.seat in table.night_dead:
        credit += W.CREDIT_KILLED
    if claim.seat in table.victims_seen:
        credit += W.CREDIT_KILLED
    for target, wolf in claim.checks.items():
        shown = table.revealed.get(target)
        if shown is not None:
            credit += W.CREDIT_CHECK_RIGHT if (shown == "werewolf") == wolf else -W.CREDIT_CHECK_RIGHT
        if wolf and target in table.victims_seen:
            credit -= W.CREDIT_CHECK_RIGHT  # the wolves do not knife their own
        if wolf and target == table.me:
            credit -= W.CREDIT_CHECK_RIGHT * 2  # I know I am good
        if not wolf and target == table.me:
            credit += W.CREDIT_FIRST
    if claim.order == min(c.order for c in claims):
        credit += W.CREDIT_FIRST
    for other in claims:
        if other.seat != claim.seat and other.checks.get(claim.seat) and other.order < claim.order:
            credit -= W.CREDIT_COUNTER_JUMP
    return max(W.CREDIT_FLOOR, credit)


def suspicion(table: Table) -> dict[int, float]:
    """Seat → how wolf-like it looks to this seat (higher: more), for every seat but mine."""
    score = {s: 0.0 for s in table.seats if s != table.me}
    for seat in table.fellow_wolves:
        if seat != table.me:
            score[seat] = W.KNOWN
    for seat, wolf in table.my_checks.items():
        score[seat] = W.KNOWN if wolf else -W.KNOWN
    for seat in table.victims_seen:
        if seat in score:
            score[seat] -= W.VICTIM_GOOD
    for seat, shown in table.revealed.items():
        if seat in score:
            score[seat] += W.KNOWN if shown == "werewolf" else -W.KNOWN
    believed = belief(table)
    for claim in table.claims.values():
        p = believed.get(claim.seat, 0.0)
        if claim.seat in score:
            score[claim.seat] += W.FAKE_CLAIM * (1 - p) - W.REAL_CLAIM * p
        for target, wolf in claim.checks.items():
            if target not in score:
                continue
            if wolf:
                score[target] += W.CHECK_WOLF * p - W.FAKE_CHECK_WOLF * (1 - p)
            else:
                score[target] += -W.CHECK_GOOD * p + W.FAKE_CHECK_GOOD * (1 - p)
    for vote in table.votes:
        if vote.voter not in score:
            continue
        p = believed.get(vote.target, 0.0)
        score[vote.voter] += W.VOTE_ON_SEER * p
        for claim in table.claims.values():
            named = claim.checks.get(vote.target)
            if named is not None and claim.seat != vote.voter:
                q = believed.get(claim.seat, 0.0)
                score[vote.voter] += (-W.VOTE_WITH_SEER if named else W.VOTE_FOR_GOLD) * q
    return score


def ranked(table: Table, seats: list[int]) -> list[int]:
    """`seats`, most wolf-like first (ties by seat)."""
    score = suspicion(table)
    return sorted(seats, key=lambda s: (-score.get(s, 0.0), s))


def village_view(table: Table) -> dict[int, float]:
    """What a wolf guesses the village thinks of each seat: the village reasoning without the pack's knowledge."""
    return suspicion(replace(table, role="villager", fellow_wolves=[], pack_choices={}))
