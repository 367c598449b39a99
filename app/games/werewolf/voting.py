"""`vote_round_N`: simultaneous votes, then exactly one resolution.

- Every living seat votes once for another living seat; in a PK the tied seats do not vote, and the
  others vote only for them. The last missing vote resolves at once; at `vote_timeout` the missing
  voters abstain (`vote_abstained`).
- Most votes goes out. No vote at all → nobody goes out (unlike undercover: nobody is executed at random
  when the whole village abstains).
- A tie follows `tie_break`, with undercover's options and meanings: `random` draws among the tied;
  `revote` gives the tied seats a PK (they speak again, the others vote among them; a PK that ties again,
  or a tie of every living seat, draws at random); `noop_then_random` sends nobody out, but a second tie on
  the next consecutive day draws at random.
- The seat voted out has last words (after the hunter's shot, if it is the hunter); then night falls.
"""

from __future__ import annotations

from typing import Any

from app.games.base import GameError
from app.games.kit import voting as tally
from app.games.kit.checks import clean_text, is_private, require_in_progress, require_living, require_stage
from app.games.werewolf import deaths, ending
from app.games.werewolf.checks import check_analysis, public_analysis
from app.games.werewolf.commands import Vote
from app.games.werewolf.state import Pending
from app.games.werewolf.step import Step
from app.games.werewolf.transitions import NextPending, PkRound, Transition, VoteRound


def open_vote(step: Step, _: VoteRound) -> Transition:
    """Enter `vote_round_N` and invite every voter."""
    state = step.state
    state.current_speaker_seat = None
    state.votes = {}
    if not tally.voters(state) or (state.pk and not state.pk_candidates):
        return _resolve(step)
    state.phase = f"vote_round_{state.round_index}"
    deadline = step.start_clock(state.config.vote_timeout, "vote_expire")
    step.emit("phase_started", "public", phase=state.phase, round_index=state.round_index, deadline_ts=deadline,
              pk=state.pk)
    for seat in tally.voters(state):
        tally.invite(step, seat)
    return None


def vote(step: Step, cmd: Vote) -> Transition:
    """Record one vote; the last one resolves the round."""
    state = step.state
    require_in_progress(state)
    require_living(state, cmd.seat)
    require_stage(state, "vote")
    if cmd.seat not in tally.voters(state):
        raise GameError("wrong_phase", "the tied seats do not vote in their PK", seat=cmd.seat)
    if cmd.seat in state.votes:
        raise GameError("already_voted", "you have voted this round", target_seat=state.votes[cmd.seat])
    if cmd.target_seat not in tally.targets_for(state, cmd.seat):
        raise GameError("invalid_target", "you cannot vote for that seat", target_seat=cmd.target_seat,
                        eligible_targets=tally.targets_for(state, cmd.seat))
    comment = clean_text(cmd.comment, "comment") if cmd.comment and cmd.comment.strip() else None
    analysis = check_analysis(cmd.analysis)
    state.votes[cmd.seat] = cmd.target_seat
    step.emit("vote_cast", "public", seat=cmd.seat, round=state.round_index, target_seat=cmd.target_seat,
              comment=comment, pk=state.pk, **public_analysis(analysis))
    step.emit("your_vote_recorded", f"private:seat:{cmd.seat}", seat=cmd.seat, round=state.round_index,
              target_seat=cmd.target_seat)
    if is_private(analysis):
        step.emit("analysis_recorded", f"private:seat:{cmd.seat}", seat=cmd.seat, round=state.round_index,
                  action="vote", analysis=analysis)
    if tally.all_voted(state):
        return _resolve(step)
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
        if not state.pk_candidates:
            return _resolve(step)
    tally.void_votes_for(step, seat)
    if tally.all_voted(state):
        return _resolve(step)
    return None


def _resolve(step: Step) -> Transition:
    state = step.state
    breakdown = tally.breakdown(state)
    if not state.votes:
        state.noop_streak = 0
        return _nobody_out(step, breakdown, None, "no_votes")
    result = tally.verdict(step)
    if result.pk:
        tally.announce_pk(step, result.pk, breakdown)
        return PkRound(result.pk)
    if result.out is None:
        return _nobody_out(step, breakdown, result.tie, "tie")
    return _eliminate(step, result.out, breakdown, result.tie)


def _nobody_out(step: Step, breakdown: dict[str, int], tie: str | None, reason: str) -> Transition:
    _round_resolved(step, None, breakdown, tie, reason=reason)
    step.state.pending, step.state.then_night = [], True
    return NextPending()


def _eliminate(step: Step, seat: int, breakdown: dict[str, int], tie: str | None) -> Transition:
    state = step.state
    state.noop_streak = 0
    deaths.kill(state, seat, "voted", f"day_{state.round_index}")
    _round_resolved(step, seat, breakdown, tie)
    deaths.announce(step, seat, cause="vote")
    if ending.finish_if_won(step):
        return None
    state.pending = [*deaths.hunter_shot_due(state, seat, last_words=True), Pending(seat=seat, kind="last_words")]
    state.then_night = True
    return NextPending()


def _round_resolved(step: Step, seat: int | None, breakdown: dict[str, int], tie: str | None,
                    **extra: Any) -> None:
    state = step.state
    step.emit("round_resolved", "public", round=state.round_index, eliminated_seat=seat, vote_breakdown=breakdown,
              tie_break_applied=tie, noop=seat is None, pk=state.pk, **extra,
              **(deaths.revealed(state, seat) if seat is not None else {}))
    state.votes, state.pk, state.pk_candidates = {}, False, []
