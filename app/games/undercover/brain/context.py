"""What one seat knows, parsed from its own snapshot (`GET /api/matches/{id}` as that seat).

The arena builds the same snapshot shape from the pure engine, so the brain reads one format only and
never sees more than the seat may see: its own role and word, the table, the public log and its private log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Speech:
    """One turn of speaking; `text` is None when the turn was skipped or timed out."""

    seat: int
    round: int
    text: str | None
    pk: bool


@dataclass(frozen=True)
class Ballot:
    """One public vote."""

    seat: int
    round: int
    target: int
    pk: bool


@dataclass
class Context:
    """The seat's view, ready for the brain."""

    seat: int
    role: str | None
    word: str | None
    next_action: str
    round: int
    alive: list[int]
    pk_candidates: list[int] = field(default_factory=list)
    revealed: dict[int, str] = field(default_factory=dict)
    speeches: list[Speech] = field(default_factory=list)
    ballots: list[Ballot] = field(default_factory=list)
    fellows: frozenset[int] = frozenset()
    deadline_ts: float | None = None

    @property
    def in_pk(self) -> bool:
        return bool(self.pk_candidates)

    def others_alive(self) -> list[int]:
        return [s for s in self.alive if s != self.seat]

    def eligible_targets(self) -> list[int]:
        """Who this seat may vote for now: the tied seats in a PK, else every other living seat."""
        if self.in_pk:
            pool = [s for s in self.pk_candidates if s in self.alive and s != self.seat]
            if pool:
                return pool
        return self.others_alive()

    def speeches_of(self, seat: int) -> list[Speech]:
        return [s for s in self.speeches if s.seat == seat]

    def my_texts(self) -> list[str]:
        return [s.text for s in self.speeches if s.seat == self.seat and s.text]

    def others_texts(self) -> list[tuple[int, str]]:
        return [(s.seat, s.text) for s in self.speeches if s.seat != self.seat and s.text]

    def current_ballots(self) -> list[Ballot]:
        """Votes already cast in the vote now running (the PK's own votes during a PK)."""
        return [b for b in self.ballots if b.round == self.round and b.pk == self.in_pk]

    def previous_speaker(self) -> int | None:
        """The seat that spoke (or was skipped) just before this seat's turn, in this round and phase."""
        here = [s for s in self.speeches if s.round == self.round and s.pk == self.in_pk and s.seat != self.seat]
        return here[-1].seat if here else None


def context_from_snapshot(snap: dict[str, Any]) -> Context:
    """Parse a player's snapshot; raises KeyError when it has no `you` block (not a player)."""
    you = snap["you"]
    speeches: list[Speech] = []
    ballots: list[Ballot] = []
    for event in snap.get("public_log") or []:
        kind = event.get("type")
        if kind == "speech_posted":
            speeches.append(Speech(int(event["seat"]), int(event["round"]), str(event["text"]), bool(event.get("pk"))))
        elif kind == "speech_skipped":
            speeches.append(Speech(int(event["seat"]), int(event["round"]), None, bool(event.get("pk"))))
        elif kind == "vote_cast":
            ballots.append(Ballot(int(event["seat"]), int(event["round"]), int(event["target_seat"]),
                                  bool(event.get("pk"))))
    fellows: set[int] = set()
    for event in you.get("private_log") or []:
        if event.get("type") == "fellow_role_revealed":
            fellows.update(int(s) for s in event.get("fellow_seats") or [])
    seat = int(you["seat"])
    fellows.discard(seat)
    players = snap.get("players") or []
    return Context(
        seat=seat,
        role=you.get("role"),
        word=you.get("word"),
        next_action=str(you.get("next_action") or "none"),
        round=int(snap.get("round_index") or 0),
        alive=[int(p["seat"]) for p in players if p.get("alive")],
        pk_candidates=[int(s) for s in snap.get("pk_candidates") or []],
        revealed={int(p["seat"]): str(p["revealed_role"]) for p in players
                  if not p.get("alive") and p.get("revealed_role")},
        speeches=speeches,
        ballots=ballots,
        fellows=frozenset(fellows),
        deadline_ts=snap.get("deadline_ts"),
    )
