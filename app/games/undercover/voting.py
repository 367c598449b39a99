"""`vote_round_N`: simultaneous votes, then exactly one resolution of the round.

- Every living seat votes once for another living seat; in a PK only the seats outside the
  tie vote, and only for the tied seats. The last missing vote resolves the round at once.
- `vote_timeout` seconds, with a public `vote_warning` at half time; on expiry the missing
  voters abstain (one `vote_abstained` event listing them) and the round resolves.
- Most votes is out. No votes at all → a random living seat (spec §5.2), or a random tied
  seat in a PK. A tie follows `tie_break` (see `_break_tie`); a PK that ties again → random.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.base import GameError
from app.games.undercover import ending
from app.games.undercover.checks import (
    check_analysis,
    check_secret,
    clean_text,
    is_private,
    require_in_progress,
    require_living,
    require_stage,
)
from app.games.undercover.commands import Vote
from app.games.undercover.instructions import screen, strings_of
from app.games.undercover.state import MatchState
from app.games.undercover.step import Step
from app.games.undercover.transitions import PkConceded, PkRound, Reveal, Transition, VoteRound


def voters(state: MatchState) -> list[int]:
    """Seats that vote this round: the living, minus the tied seats during a PK."""
    return [s for s in state.living_seats() if not (state.pk and s in state.pk_candidates)]


def targets_for(state: MatchState, voter: int) -> list[int]:
    """Seats `voter` may vote for: the tied seats in a PK, else every other living seat."""
    if state.pk:
        return [s for s in state.pk_candidates if state.players[s].alive]
    return [s for s in state.living_seats() if s != voter]


def open_vote(step: Step, _: VoteRound) -> Transition:
    """Enter `vote_round_N` and invite every voter."""
    state = step.state
    state.current_speaker_seat = None
    state.votes = {}
    if not voters(state):
        return _resolve(step)
    state.phase = f"vote_round_{state.round_index}"
    deadline = step.start_clock(state.config.vote_timeout, "vote_warning", "vote_expire")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
              deadline_ts=deadline, pk=state.pk)
    for seat in voters(state):
        _invite(step, seat)
    return None


def vote(step: Step, cmd: Vote) -> Transition:
    """Record one vote; the last one resolves the round."""
    state = step.state
    require_in_progress(state)
    player = require_living(state, cmd.seat)
    require_stage(state, "vote")
    if cmd.seat not in voters(state):
        raise GameError("wrong_phase", "the tied seats do not vote in their PK", seat=cmd.seat)
    if cmd.seat in state.votes:
        raise GameError("already_voted", "you have voted this round", target_seat=state.votes[cmd.seat])
    if cmd.target_seat not in targets_for(state, cmd.seat):
        raise GameError("invalid_target", "you cannot vote for that seat", target_seat=cmd.target_seat,
                        eligible_targets=targets_for(state, cmd.seat))
    comment = clean_text(cmd.comment, "comment") if cmd.comment and cmd.comment.strip() else None
    if comment:
        check_secret(player, comment)
    analysis = check_analysis(cmd.analysis, player)
    public = analysis if analysis is not None and not is_private(analysis) else None
    flags = screen([comment, *strings_of(public)], compete_mode=state.config.compete_mode, field="comment")
    state.votes[cmd.seat] = cmd.target_seat
    _announce_vote(step, cmd.seat, comment, analysis, flags)
    if all(seat in state.votes for seat in voters(state)):
        return _resolve(step)
    return None


def on_warning(step: Step) -> Transition:
    """Half the voting time is gone: say publicly who has not voted."""
    state = step.state
    missing = [s for s in voters(state) if s not in state.votes]
    step.emit("vote_warning", "public", round=state.round_index, missing_count=len(missing),
              missing_seats=missing, deadline_ts=state.deadline_ts, pk=state.pk)
    assert state.deadline_at is not None
    step.arm("vote_expire", state.deadline_at)
    return None


def on_expire(step: Step) -> Transition:
    """Time is up: the missing voters abstain and the round resolves."""
    state = step.state
    missing = [s for s in voters(state) if s not in state.votes]
    if missing:
        step.emit("vote_abstained", "public", round=state.round_index, seats=missing, pk=state.pk)
    return _resolve(step)


def after_concede(step: Step, seat: int) -> Transition:
    """A seat left mid-vote: its vote goes; votes for it are void and those voters vote again."""
    state = step.state
    state.votes.pop(seat, None)
    if state.pk and seat in state.pk_candidates:
        state.pk_candidates.remove(seat)
        if len(state.pk_candidates) < 2:
            return PkConceded()
    voided = [voter for voter, target in state.votes.items() if target == seat]
    for voter in voided:
        del state.votes[voter]
    if voided:
        step.emit("votes_voided", "public", round=state.round_index, target_seat=seat, voter_seats=voided)
        for voter in voided:
            _invite(step, voter)
    if all(s in state.votes for s in voters(state)):
        return _resolve(step)
    return None


def end_pk_by_concession(step: Step, _: PkConceded) -> Transition:
    """A tied seat conceded and left one candidate: nobody else goes out this round."""
    _round_resolved(step, None, _breakdown(step.state), "revote", reason="candidate_conceded")
    return Reveal(None)


def _resolve(step: Step) -> Transition:
    state = step.state
    breakdown = _breakdown(state)
    counts = Counter(state.votes.values())
    if not counts:
        pool = state.pk_candidates if state.pk else state.living_seats()
        return _eliminate(step, step.rng("abstain").choice(pool), breakdown, "random")
    top_count = max(counts.values())
    top = sorted(seat for seat, n in counts.items() if n == top_count)
    if len(top) == 1:
        return _eliminate(step, top[0], breakdown, "revote" if state.pk else None)
    if state.pk or state.config.tie_break == "random":
        return _eliminate(step, step.rng("tie").choice(top), breakdown, "random")
    return _break_tie(step, top, breakdown)


def _break_tie(step: Step, tied: list[int], breakdown: dict[str, int]) -> Transition:
    """`revote` → a PK among the tied (unless nobody could vote in it); `noop_then_random` →
    nobody out, but the second consecutive noop draws at random."""
    state = step.state
    if state.config.tie_break == "revote":
        if all(seat in tied for seat in state.living_seats()):
            return _eliminate(step, step.rng("tie").choice(tied), breakdown, "random")
        step.emit("vote_tied", "public", round=state.round_index, tied_seats=tied,
                  vote_breakdown=breakdown, next="revote")
        return PkRound(tuple(tied))
    if state.noop_streak >= 1:
        return _eliminate(step, step.rng("tie").choice(tied), breakdown, "random")
    state.noop_streak += 1
    _round_resolved(step, None, breakdown, "noop")
    return Reveal(None)


def _eliminate(step: Step, seat: int, breakdown: dict[str, int], tie: str | None) -> Transition:
    state = step.state
    player = state.players[seat]
    player.alive = False
    player.eliminated_in = f"round_{state.round_index}"
    player.revealed_role = player.role
    state.noop_streak = 0
    _round_resolved(step, seat, breakdown, tie)
    return Reveal(seat)


def _round_resolved(step: Step, seat: int | None, breakdown: dict[str, int], tie: str | None,
                    **extra: Any) -> None:
    state = step.state
    civilians, undercovers, blanks = ending.remaining(state)
    step.emit("round_resolved", "public", round=state.round_index, eliminated_seat=seat,
              revealed_role=None if seat is None else state.players[seat].role,
              vote_breakdown=breakdown, tie_break_applied=tie, noop=seat is None,
              remaining_civilians=civilians, remaining_undercovers=undercovers,
              remaining_blanks=blanks, **extra)


def _breakdown(state: MatchState) -> dict[str, int]:
    counts = Counter(state.votes.values())
    return {str(seat): counts[seat] for seat in sorted(counts)}


def _invite(step: Step, seat: int) -> None:
    state = step.state
    step.emit("your_turn_to_vote", f"private:seat:{seat}", seat=seat, round=state.round_index,
              deadline_ts=state.deadline_ts, eligible_targets=targets_for(state, seat), pk=state.pk)


def _announce_vote(step: Step, seat: int, comment: str | None, analysis: dict[str, Any] | None,
                   flags: dict[str, list[str]]) -> None:
    state = step.state
    target = state.votes[seat]
    public = {"analysis": analysis} if analysis is not None and not is_private(analysis) else {}
    step.emit("vote_cast", "public", seat=seat, round=state.round_index, target_seat=target,
              comment=comment, pk=state.pk, **public, **flags)
    step.emit("your_vote_recorded", f"private:seat:{seat}", seat=seat, round=state.round_index,
              target_seat=target)
    if is_private(analysis):
        step.emit("analysis_recorded", f"private:seat:{seat}", seat=seat, round=state.round_index,
                  action="vote", analysis=analysis)
