"""The phase kit of a simultaneous vote with tie-breaks and PK: who votes for whom, the breakdown, the tie-break.

`tie_break`, for every game: `random` draws among the tied; `revote` gives the tied seats a PK
(a PK that ties again, or a tie of every living seat, draws at random); `noop_then_random` sends nobody
out, but a second tie on the next consecutive round draws at random.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from app.games.base import GameError
from app.games.kit.checks import is_private, require_in_progress, require_living, require_stage
from app.games.kit.dispatch import Cue
from app.games.kit.table import Table, TableStep
from app.games.kit.turns import PkRound

T = TypeVar("T")

VOTE_EXPIRE, VOTE_WARNING = "vote_expire", "vote_warning"


VOTE_ROUND = Cue("vote_round")
"""A transition: open `vote_round_N` for the current round (a PK's vote when the PK is on; `Ballot.open`)."""


@dataclass(frozen=True)
class Ballot:
    """One game's `vote_round_N`: how counted votes resolve, whether a public half-time `vote_warning` runs, and
    what a PK left with fewer than two candidates does (None: it resolves once no candidate is left)."""

    resolve: Callable[[Any], object]
    warning: bool = False
    pk_broken: Callable[[Any], object] | None = None

    def open(self, step: Any, _transition: object = None) -> object:
        """Open `vote_round_N` for `config.vote_timeout` seconds and invite every voter (nobody votes: resolve)."""
        state = step.state
        state.current_speaker_seat = None
        state.votes = {}
        if not voters(state) or (state.pk and not state.pk_candidates):
            return self.resolve(step)
        state.phase = f"vote_round_{state.round_index}"
        warning = VOTE_WARNING if self.warning else None
        deadline = step.start_clock(state.config.vote_timeout, VOTE_EXPIRE, warning=warning)
        step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
                  deadline_ts=deadline, pk=state.pk, voters=voters(state))
        for seat in voters(state):
            invite(step, seat)
        return None

    def cast(self, step: Any, seat: int, target: int, comment: str | None, analysis: dict[str, Any] | None,
             **flags: Any) -> object:
        """Record a checked vote (`vote_cast`, public; the voter's receipt; a private analysis); the last missing
        vote resolves."""
        state = step.state
        state.votes[seat] = target
        public = {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}
        step.emit("vote_cast", "public", seat=seat, round=state.round_index, target_seat=target, comment=comment,
                  pk=state.pk, **public, **flags)
        step.emit("your_vote_recorded", f"private:seat:{seat}", seat=seat, round=state.round_index,
                  target_seat=target)
        if is_private(analysis):
            step.emit("analysis_recorded", f"private:seat:{seat}", seat=seat, round=state.round_index,
                      action="vote", analysis=analysis)
        return self.resolve(step) if all_voted(state) else None

    def on_warning(self, step: Any) -> object:
        """Half the voting time is gone: say publicly who has not voted."""
        state = step.state
        missing = [s for s in voters(state) if s not in state.votes]
        step.emit("vote_warning", "public", round=state.round_index, missing_count=len(missing),
                  missing_seats=missing, deadline_ts=state.deadline_ts, pk=state.pk)
        step.arm(VOTE_EXPIRE, state.deadline_at)
        return None

    def on_expire(self, step: Any) -> object:
        """Time is up: the missing voters abstain and the round resolves."""
        abstain_missing(step)
        return self.resolve(step)

    def leave(self, step: Any, seat: int) -> object:
        """A seat left mid-vote: its vote goes; votes for it are void and those voters vote again."""
        state = step.state
        state.votes.pop(seat, None)
        if state.pk and seat in state.pk_candidates:
            state.pk_candidates.remove(seat)
            if self.pk_broken is not None and len(state.pk_candidates) < 2:
                return self.pk_broken(step)
            if self.pk_broken is None and not state.pk_candidates:
                return self.resolve(step)
        void_votes_for(step, seat)
        return self.resolve(step) if all_voted(state) else None

    @property
    def timers(self) -> dict[str, Callable[[Any], object]]:
        """The vote's timer kinds and their handlers."""
        return {VOTE_EXPIRE: self.on_expire, **({VOTE_WARNING: self.on_warning} if self.warning else {})}


def require_ballot(state: Any, seat: int, target: int) -> Any:
    """The acting seat, which may vote for `target` now."""
    require_in_progress(state)
    player = require_living(state, seat)
    require_stage(state, "vote")
    if seat not in voters(state):
        raise GameError("wrong_phase", "the tied seats do not vote in their PK", seat=seat)
    if seat in state.votes:
        raise GameError("already_voted", "you have voted this round", target_seat=state.votes[seat])
    if target not in targets_for(state, seat):
        raise GameError("invalid_target", "you cannot vote for that seat", target_seat=target,
                        eligible_targets=targets_for(state, seat))
    return player


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


def settle(step: TableStep, votes: dict[str, int], nobody_out: Callable[[Verdict], T],
           out: Callable[[int, Verdict], T]) -> T | PkRound:
    """Decide a round with at least one vote (`verdict`) and carry it out: tied seats facing a PK are announced
    and their round opens; otherwise `nobody_out(verdict)` or `out(seat, verdict)`, the game's own."""
    result = verdict(step)
    if result.pk:
        announce_pk(step, result.pk, votes)
        return PkRound(result.pk)
    if result.out is None:
        return nobody_out(result)
    return out(result.out, result)


def off_table_action(state: Table) -> str | None:
    """Every seat's next action while the match is not being played: `none` once it ended, a wait before it
    starts; None while it is in progress."""
    if state.status in ("finished", "aborted"):
        return "none"
    return "wait_for_next_phase" if state.status == "waiting" else None


def day_action(state: Table, stage: str, seat: int) -> str | None:
    """A living seat's next action in the day's shared stages: its speech when it holds the floor (`speak`), its
    vote (`vote`); None in any other stage (the game's own)."""
    if stage == "speak":
        return "speak" if state.current_speaker_seat == seat else "wait_for_speak_round"
    if stage == "vote":
        return "vote" if seat in voters(state) and seat not in state.votes else "wait_for_vote_resolution"
    return None


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


def vote_accuracy(sides: Mapping[int, str | None], seat: int, events: Sequence[Mapping[str, Any]], side: str,
                  found: Callable[[str | None], bool]) -> dict[str, float]:
    """A benchmark figure (`registry.SeatFigures`): for a seat on `side`, the share of its votes (`vote_cast`) that
    named a seat whose side `found` accepts; {} for a seat on another side and for one that never voted."""
    if sides.get(seat) != side:
        return {}
    targets = [int(e["target_seat"]) for e in events
               if e.get("type") == "vote_cast" and e.get("seat") == seat and e.get("target_seat") is not None]
    if not targets:
        return {}
    return {"vote_accuracy": sum(1 for t in targets if found(sides.get(t))) / len(targets)}
