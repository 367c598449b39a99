"""By day: what a seat says (speech, last words), whom it votes for, and the comment it adds.

- The seer claims when she has found a living wolf, when someone else claims seer, when she is in a PK or was
  voted for the day before, always in her last words, and on day 1 sometimes with only a 金水 (persona
  boldness). A claimed seer repeats the claim in new words and adds each new check; she asks for her 查杀.
- A wolf named 查杀 by a claimant counter-claims (悍跳) with a fake 查杀 on that claimant; on day 1 the
  pack's first speaker sometimes fakes a claim first (one fake seer per pack). A fake seer names a new fake
  check each day: a good seat the village already suspects, sometimes a 金水 on a fellow wolf.
- Everyone else says whom it trusts among the claimants, whom it suspects, or that it has no information,
  and defends itself in a PK. Wolves talk the same way but steer away from the pack.
- Votes: a good seat votes for its most wolf-like seat, bent by the persona (`Voice.follow`,
  `contrarian`, `noise`); wolves vote with their fake seer's 查杀, else against a believed seer who named a
  wolf, else for the good seat the village suspects most — never for a fellow wolf while another seat is
  offered.
"""

from __future__ import annotations

import random
from collections import Counter

from app.games.werewolf.brain import weights as W
from app.games.werewolf.brain.judge import belief, ranked, suspicion, village_view
from app.games.werewolf.brain.table import Table
from app.games.werewolf.brain.talk import Part, compose, line
from app.games.werewolf.brain.voices import Voice


def speech(table: Table, style: Voice, rng: random.Random, *, last: bool = False) -> str:
    """The seat's speech of this turn (or its last words)."""
    if table.role == "seer":
        parts = _seer_parts(table, style, rng, last=last)
    elif table.is_wolf:
        parts = _wolf_parts(table, style, rng, last=last)
    else:
        parts = _good_parts(table, style, rng, last=last)
    return compose(table, style, rng, parts, frame=not last)


def _seer_parts(table: Table, style: Voice, rng: random.Random, *, last: bool) -> list[Part]:
    claimed = table.me in table.claims
    wolves = [s for s, wolf in table.my_checks.items() if wolf and s in table.living]
    rivals = [c for c in table.claims if c != table.me]
    threatened = table.me in table.pk_candidates or _votes_on(table, table.me, table.day - 1) >= W.SEER_THREAT_VOTES
    early = table.day == 1 and bool(table.my_checks) and rng.random() < W.SEER_EARLY_CLAIM * style.boldness
    if not (claimed or wolves or rivals or threatened or last or early):
        return _good_parts(table, style, rng, last=last)
    parts: list[Part] = []
    if not claimed or rng.random() < 0.5:
        parts.append(("claim", {}))
    said = table.claims[table.me].checks if claimed else {}
    for seat, wolf in sorted(table.my_checks.items(), key=lambda kv: table.check_nights.get(kv[0], 0)):
        if seat not in said or said[seat] != wolf:
            parts.append(("check_wolf" if wolf else "check_good", {"t": seat, "n": table.check_nights.get(seat, 1)}))
    parts += [("counter", {"c": c}) for c in rivals if c in table.living]
    if wolves:
        parts.append(("vote_plan", {"t": wolves[0]}))
    return parts


def _wolf_parts(table: Table, style: Voice, rng: random.Random, *, last: bool) -> list[Part]:
    pack = set(table.fellow_wolves)
    view = village_view(table)
    good = [s for s in table.others() if s not in pack]
    fake = table.me in table.claims
    if not fake and not pack & set(table.claims) and not last:
        named = [c for c, claim in table.claims.items() if claim.checks.get(table.me) and c not in pack]
        pack_spoke = any(s in pack and s != table.me for s, _ in table.speeches_today)
        counter = bool(named) and rng.random() < min(1.0, W.WOLF_COUNTER_CLAIM * style.boldness)
        first = table.day == 1 and not table.claims and not pack_spoke
        fake = counter or (first and rng.random() < W.WOLF_FAKE_CLAIM * style.boldness)
    if fake:
        return _fake_seer_parts(table, rng, good, view)
    parts: list[Part] = []
    believed = belief(table)
    for claimant in (c for c in table.claims if _fresh(table, c)):
        if claimant in pack:
            parts.append(("believe", {"c": claimant}))
        elif believed.get(claimant, 0.0) > 0.0 and any(claim_hits(table, claimant, pack)) and rng.random() < 0.7:
            parts.append(("doubt", {"c": claimant}))
    if last or table.me in table.pk_candidates:
        parts.insert(0, ("last" if last else "defend", {}))
    if good and rng.random() < 0.7:
        suspect = max(good, key=lambda s: (view.get(s, 0.0), rng.random()))
        parts.append(("suspect", {"t": suspect}))
    return parts or [("calm", {"d": table.day})]


def claim_hits(table: Table, claimant: int, pack: set[int]) -> list[int]:
    """The seats of the pack that `claimant` has named 查杀."""
    return [t for t, wolf in table.claims[claimant].checks.items() if wolf and t in pack | {table.me}]


def _fake_seer_parts(table: Table, rng: random.Random, good: list[int], view: dict[int, float]) -> list[Part]:
    claim = table.claims.get(table.me)
    said = claim.checks if claim else {}
    parts: list[Part] = [] if claim and rng.random() < 0.5 else [("claim", {})]
    rivals = [c for c in table.claims if c != table.me and c not in table.fellow_wolves]
    if len(said) < max(1, table.day):
        fresh = [s for s in good if s not in said]
        target = next((c for c in rivals if c in fresh), None)
        fellows = [s for s in table.fellow_wolves if s != table.me and s in table.living and s not in said]
        if target is None and fellows and rng.random() < 0.3:
            parts.append(("check_good", {"t": fellows[0], "n": table.day}))
        elif target is not None or fresh:
            target = target if target is not None else max(fresh, key=lambda s: (view.get(s, 0.0), rng.random()))
            parts.append(("check_wolf", {"t": target, "n": table.day}))
            said = {**said, target: True}
    parts += [("counter", {"c": c}) for c in rivals if c in table.living]
    named = [s for s, wolf in said.items() if wolf and s in table.living]
    if named:
        parts.append(("vote_plan", {"t": named[-1]}))
    return parts


def _good_parts(table: Table, style: Voice, rng: random.Random, *, last: bool) -> list[Part]:
    parts: list[Part] = []
    if last:
        parts.append(("last", {}))
    elif table.me in table.pk_candidates or _votes_on(table, table.me, table.day) > 0:
        parts.append(("defend", {}))
    believed = belief(table)
    for claimant, p in sorted(believed.items(), key=lambda kv: -kv[1]):
        if not _fresh(table, claimant):
            continue
        if p >= 0.5:
            parts.append(("believe", {"c": claimant}))
        elif p <= 0.3 and len(believed) > 1:
            parts.append(("doubt", {"c": claimant}))
    score = suspicion(table)
    against = [v.voter for v in table.votes if v.day == table.day - 1 and believed.get(v.target, 0.0) >= 0.5]
    against = [s for s in against if s in table.living and s != table.me]
    if against and rng.random() < 0.6:
        parts.append(("voted_seer", {"t": against[0], "d": table.day - 1}))
    others = table.others()
    if others:
        top = ranked(table, others)[0]
        if score.get(top, 0.0) >= 1.0:
            parts.append(("suspect", {"t": top}))
    return parts or [("calm", {"d": table.day})]


def _fresh(table: Table, seat: int) -> bool:
    """A claimant still worth a word today: alive, or gone since yesterday."""
    gone = {**table.night_dead, **table.voted_out, **table.shot}.get(seat)
    return gone is None or gone >= table.day - 1


def _votes_on(table: Table, seat: int, day: int) -> int:
    return sum(1 for v in table.votes if v.day == day and v.target == seat)


def vote_target(table: Table, style: Voice, rng: random.Random) -> int | None:
    """The seat this seat votes out (one of the offered targets)."""
    offered = table.targets("vote")
    if not offered:
        return None
    if rng.random() < style.noise:
        return rng.choice(offered)
    today = Counter(v.target for v in table.votes if v.day == table.day and v.pk == bool(table.pk_candidates))
    cast = sum(today.values()) or 1
    if table.is_wolf:
        return _wolf_vote(table, rng, offered, today, cast)
    score = suspicion(table)
    lean = style.follow - style.contrarian
    return max(offered, key=lambda s: (score.get(s, 0.0) + 3.0 * lean * today[s] / cast, rng.random()))


def _wolf_vote(table: Table, rng: random.Random, offered: list[int], today: Counter[int], cast: int) -> int:
    pack = set(table.fellow_wolves) | {table.me}
    good = [s for s in offered if s not in pack]
    if not good:
        return rng.choice(offered)
    for claimant in table.claims:
        if claimant in pack:
            named = [t for t, wolf in table.claims[claimant].checks.items() if wolf and t in good]
            if named:
                return named[-1]
    believed = belief(table)
    hunters = [c for c in good if c in table.claims and claim_hits(table, c, pack)]
    if hunters:
        return max(hunters, key=lambda s: believed.get(s, 0.0))
    view = village_view(table)
    return max(good, key=lambda s: (view.get(s, 0.0) + 2.0 * today[s] / cast, rng.random()))


def vote_comment(table: Table, style: Voice, rng: random.Random, target: int) -> str | None:
    """A short public reason, now and then."""
    if rng.random() < 0.5:
        return None
    return line(table, style, rng, "comment", {"t": target, "d": table.day})
