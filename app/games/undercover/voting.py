"""`vote_round_N`: simultaneous votes, then exactly one resolution of the round.

- Every living seat votes once for another living seat; in a PK only the seats outside the
  tie vote, and only for the tied seats. The last missing vote resolves the round at once.
- `vote_timeout` seconds, with a public `vote_warning` at half time; on expiry the missing
  voters abstain (one `vote_abstained` event listing them) and the round resolves.
- Most votes is out. No votes at all → a random living seat (spec §5.2), or a random tied
  seat in a PK. A tie follows `tie_break` (see `_break_tie`); a PK that ties again → random.
"""

from __future__ import annotations

from typing import Any

from app.games.base import GameError
from app.games.kit import voting as tally
from app.games.kit.checks import clean_text, is_private, require_in_progress, require_living, require_stage
from app.games.undercover import ending
from app.games.undercover.checks import check_analysis, check_said, remember_said
from app.games.undercover.commands import Vote
from app.games.undercover.instructions import screen, strings_of
from app.games.undercover.step import Step
from app.games.undercover.transitions import PkConceded, PkRound, Reveal, Transition, VoteRound


def open_vote(step: Step, _: VoteRound) -> Transition:
    """Enter `vote_round_N` and invite every voter."""
    state = step.state
    state.current_speaker_seat = None
    state.votes = {}
    if not tally.voters(state):
        return _resolve(step)
    state.phase = f"vote_round_{state.round_index}"
    deadline = step.start_clock(state.config.vote_timeout, "vote_expire", warning="vote_warning")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index,
              deadline_ts=deadline, pk=state.pk)
    for seat in tally.voters(state):
        tally.invite(step, seat)
    return None


def vote(step: Step, cmd: Vote) -> Transition:
    """Record one vote; the last one resolves the round."""
    state = step.state
    require_in_progress(state)
    player = require_living(state, cmd.seat)
    require_stage(state, "vote")
    if cmd.seat not in tally.voters(state):
        raise GameError("wrong_phase", "the tied seats do not vote in their PK", seat=cmd.seat)
    if cmd.seat in state.votes:
        raise GameError("already_voted", "you have voted this round", target_seat=state.votes[cmd.seat])
    if cmd.target_seat not in tally.targets_for(state, cmd.seat):
        raise GameError("invalid_target", "you cannot vote for that seat", target_seat=cmd.target_seat,
                        eligible_targets=tally.targets_for(state, cmd.seat))
    comment = clean_text(cmd.comment, "comment") if cmd.comment and cmd.comment.strip() else None
    if comment:
        check_said(state, player, comment)
    analysis = check_analysis(cmd.analysis, player)
    public = analysis if analysis is not None and not is_private(analysis) else None
    flags = screen([comment, *strings_of(public)], compete_mode=state.config.compete_mode, field="comment")
    state.votes[cmd.seat] = cmd.target_seat
    _announce_vote(step, cmd.seat, comment, analysis, flags)
    if comment:
        remember_said(state, cmd.seat, comment)
    if tally.all_voted(state):
        return _resolve(step)
    return None


def on_warning(step: Step) -> Transition:
    """Half the voting time is gone: say publicly who has not voted."""
    state = step.state
    missing = [s for s in tally.voters(state) if s not in state.votes]
    step.emit("vote_warning", "public", round=state.round_index, missing_count=len(missing),
              missing_seats=missing, deadline_ts=state.deadline_ts, pk=state.pk)
    assert state.deadline_at is not None
    step.arm("vote_expire", state.deadline_at)
    return None


def on_expire(step: Step) -> Transition:
    """Time is up: the missing voters abstain and the round resolves."""
    tally.abstain_missing(step)
    return _resolve(step)


def after_concede(step: Step, seat: int) -> Transition:
    """A seat left mid-vote: its vote goes; votes for it are void and those voters vote again."""
    state = step.state
    state.votes.pop(seat, None)
    if state.pk and seat in state.pk_candidates:
        state.pk_candidates.remove(seat)
        if len(state.pk_candidates) < 2:
            return PkConceded()
    tally.void_votes_for(step, seat)
    if tally.all_voted(state):
        return _resolve(step)
    return None


def end_pk_by_concession(step: Step, _: PkConceded) -> Transition:
    """A tied seat conceded and left one candidate: nobody else goes out this round."""
    _round_resolved(step, None, tally.breakdown(step.state), "revote", reason="candidate_conceded")
    return Reveal(None)


def _resolve(step: Step) -> Transition:
    state = step.state
    breakdown = tally.breakdown(state)
    if not state.votes:
        pool = state.pk_candidates if state.pk else state.living_seats()
        return _eliminate(step, step.rng("abstain").choice(pool), breakdown, "random")
    result = tally.verdict(step)
    if result.pk:
        tally.announce_pk(step, result.pk, breakdown)
        return PkRound(result.pk)
    if result.out is None:
        _round_resolved(step, None, breakdown, result.tie)
        return Reveal(None)
    return _eliminate(step, result.out, breakdown, result.tie)


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
