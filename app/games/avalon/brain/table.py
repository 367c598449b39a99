"""One seat's reading of the table: who it trusts, from what it was dealt and what the record shows."""

from __future__ import annotations

import random
from typing import Any

KNOWN = 10.0  # a seat known evil (or, negative, known good)


class Table:
    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.snap, self.you = snapshot, snapshot["you"]
        self.me: int = self.you["seat"]
        self.n = len(snapshot["players"])
        self.evil_me = self.you.get("side") == "evil"
        self.allies = set(self.you.get("evil_seats") or []) if self.evil_me else set()
        self.known_evil = set(self.you.get("evil_seats") or []) if self.you.get("role") == "merlin" else set()
        self.quests: list[dict[str, Any]] = snapshot.get("quests") or []
        self.proposals: list[dict[str, Any]] = snapshot.get("proposals") or []
        self.team: list[int] = snapshot.get("team") or []
        self.suspicion = self._suspicion()

    # --- reading --------------------------------------------------------------------------------------------

    def _suspicion(self) -> dict[int, float]:
        s = {seat: 0.0 for seat in range(self.n)}
        for quest in self.quests:
            others = [x for x in quest["team"] if x != self.me]
            for seat in others:
                if quest["fails"]:
                    s[seat] += 2.0 * quest["fails"] / max(1, len(others))
                else:
                    s[seat] -= 0.4
        failed = {tuple(q["team"]) for q in self.quests if q["fails"]}
        for p in self.proposals:
            if tuple(p["team"]) in failed:
                for seat in p["approve"]:
                    s[seat] += 0.3
        for check in self.you.get("lady_results") or []:
            s[check["target_seat"]] = KNOWN if check["side"] == "evil" else -KNOWN
        for seat in self.known_evil:
            s[seat] = KNOWN
        s[self.me] = -KNOWN
        return s

    def clean(self, team: list[int]) -> bool:
        return not any(seat in self.known_evil or seat in self.allies for seat in team)

    def suspects(self) -> list[int]:
        """Other seats, most suspect first (good seats' view)."""
        return sorted((s for s in range(self.n) if s != self.me), key=lambda s: -self.suspicion[s])

    def conferred(self) -> bool:
        return any(e["type"] == "evil_conferred" and e.get("seat") == self.me
                   for e in self.you.get("private_log") or [])

    # --- choosing -------------------------------------------------------------------------------------------

    def pick_team(self, size: int, rng: random.Random) -> list[int]:
        if self.evil_me:  # itself, then the seats the table trusts most, never another evil seat if it can help
            others = [s for s in range(self.n) if s != self.me and s not in self.allies]
            rng.shuffle(others)
            others.sort(key=lambda s: self.suspicion[s])
            return sorted([self.me, *others[:size - 1]])
        ranked = list(range(self.n))
        rng.shuffle(ranked)
        ranked.sort(key=lambda s: self.suspicion[s])
        return sorted(ranked[:size])

    def approves(self, slip: float, rng: random.Random) -> bool:
        team = self.team
        if self.evil_me:
            carries = any(s in self.allies or s == self.me for s in team)
            return carries or (self.snap.get("proposal_no") == 5 and rng.random() < 0.3)
        if self.snap.get("proposal_no") == 5:
            return True
        if self.known_evil:  # Merlin: rejects evil teams, sometimes lets one pass on an early quest
            return self.clean(team) or (len(self.quests) < 2 and rng.random() < slip)
        best = sorted(self.suspicion[s] for s in range(self.n))[:len(team)]
        return sum(self.suspicion[s] for s in team) <= sum(best) + 0.5 and all(
            self.suspicion[s] < KNOWN for s in team)

    def fails(self, hide: float, rng: random.Random) -> bool:
        if not self.evil_me:
            return False
        quest_no = len(self.quests) + 1
        needed = (self.snap.get("fails_needed") or [1] * 5)[quest_no - 1]
        evil_on_team = sorted(s for s in self.team if s in self.allies or s == self.me)
        if self.you.get("role") == "oberon" or needed > 1:
            return True
        if quest_no == 1 and rng.random() < hide and sum(q["fails"] > 0 for q in self.quests) < 2:
            return False
        return evil_on_team[0] == self.me

    def lady_target(self, targets: list[int], rng: random.Random) -> int:
        unsure = sorted(targets, key=lambda s: (-abs(self.suspicion[s] - 1.0) if not self.evil_me else 0,
                                                rng.random()))
        return unsure[-1] if not self.evil_me else rng.choice(targets)

    def merlin_guess(self, targets: list[int], rng: random.Random) -> int:
        """The good seat whose votes and teams kept away from evil best."""
        evil = self.allies | {self.me}
        score = {s: rng.random() * 0.1 for s in targets}
        for p in self.proposals:
            dirty = any(s in evil for s in p["team"])
            for seat, choice in p["votes"].items():
                if int(seat) in score:
                    score[int(seat)] += 1.0 if (choice == "reject") == dirty else -0.5
            if p["leader_seat"] in score and not dirty:
                score[p["leader_seat"]] += 1.0
        return max(targets, key=lambda s: score[s])
