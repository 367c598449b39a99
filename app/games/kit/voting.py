"""The phase kit of a simultaneous vote with tie-breaks and PK: who votes for whom, the breakdown, the tie-break.

`tie_break`, for every game: `random` draws among the tied; `revote` gives the tied seats a PK
(a PK that ties again, or a tie of every living seat, draws at random); `noop_then_random` sends nobody
out, but a second tie on the next consecutive round draws at random.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from app.games.kit.table import Table, TableStep


@dataclass(frozen=True)
class Verdict:
    """How counted votes end: `out` goes out (None: nobody, a noop), `tie` is `tie_break_applied`;
    a non-empty `pk` means the tied seats face a PK instead."""

    out: int | None
    tie: str | None = None
    pk: tuple[int, ...] = ()


def voters(state: Table) -> list[int]:
    """Seats that vote now: the living, minus the tied seats during a PK."""
    return [s for s in state.living_seats() if not (state.pk and s in state.pk_candidates)]


def targets_for(state: Table, voter: int) -> list[int]:
    """Seats `voter` may vote for: the tied seats in a PK, else every other living seat."""
    if state.pk:
        return [s for s in state.pk_candidates if state.players[s].alive]
    return [s for s in state.living_seats() if s != voter]


def all_voted(state: Table) -> bool:
    """Every seat that votes now has voted."""
    return all(seat in state.votes for seat in voters(state))


def invite(step: TableStep, seat: int) -> None:
    """Ask `seat` privately for its vote, with the seats it may name."""
    state = step.state
    step.emit("your_turn_to_vote", f"private:seat:{seat}", seat=seat, round=state.round_index,
              deadline_ts=state.deadline_ts, eligible_targets=targets_for(state, seat), pk=state.pk)


def abstain_missing(step: TableStep) -> None:
    """Time is up: one public `vote_abstained` lists the voters who did not vote (none: no event)."""
    state = step.state
    missing = [s for s in voters(state) if s not in state.votes]
    if missing:
        step.emit("vote_abstained", "public", round=state.round_index, seats=missing, pk=state.pk)


def void_votes_for(step: TableStep, seat: int) -> None:
    """`seat` left: the votes cast for it are void (`votes_voided`) and those voters are asked again."""
    state = step.state
    voided = [voter for voter, target in state.votes.items() if target == seat]
    for voter in voided:
        del state.votes[voter]
    if voided:
        step.emit("votes_voided", "public", round=state.round_index, target_seat=seat, voter_seats=voided)
        for voter in voided:
            invite(step, voter)


def breakdown(state: Table) -> dict[str, int]:
    """Votes received per seat, keyed by the seat as a string, in seat order."""
    counts = Counter(state.votes.values())
    return {str(seat): counts[seat] for seat in sorted(counts)}


def verdict(step: TableStep) -> Verdict:
    """Decide a round with at least one vote: most votes goes out, a tie follows `tie_break`.

    A `noop` counts in `noop_streak`; the caller resets it when a seat goes out.
    """
    state = step.state
    counts = Counter(state.votes.values())
    top_count = max(counts.values())
    top = sorted(seat for seat, n in counts.items() if n == top_count)
    if len(top) == 1:
        return Verdict(top[0], "revote" if state.pk else None)
    if state.pk or state.config.tie_break == "random":
        return _draw(step, top)
    if state.config.tie_break == "revote":
        if all(seat in top for seat in state.living_seats()):
            return _draw(step, top)
        return Verdict(None, pk=tuple(top))
    if state.noop_streak >= 1:
        return _draw(step, top)
    state.noop_streak += 1
    return Verdict(None, "noop")


def _draw(step: TableStep, tied: list[int]) -> Verdict:
    return Verdict(step.rng("tie").choice(tied), "random")


def announce_pk(step: TableStep, tied: tuple[int, ...], votes: dict[str, int]) -> None:
    """Tell everyone the tied seats face a PK."""
    state = step.state
    step.emit("vote_tied", "public", round=state.round_index, tied_seats=list(tied), vote_breakdown=votes,
              next="revote")


def close_table(step: TableStep, camp: str | None, winners: list[int], losers: list[int],
                reason: str) -> dict[str, Any]:
    """The match is over: nobody speaks, is pending or votes, no clock runs; the result's head (the game adds its
    own fields, then emits `match_finished`)."""
    state = step.state
    state.status = state.phase = "finished"
    state.current_speaker_seat = None
    state.pending, state.votes, state.pk, state.pk_candidates = [], {}, False, []
    step.stop_clock()
    return {"winner_camp": camp, "winning_seats": winners, "losing_seats": losers, "reason": reason}
