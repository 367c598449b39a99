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

from app.games.kit import voting as tally
from app.games.kit.checks import clean_text
from app.games.werewolf import deaths, ending
from app.games.werewolf.checks import check_analysis
from app.games.werewolf.commands import VoteRequest
from app.games.werewolf.state import Pending, Player, Step
from app.games.werewolf.transitions import NEXT_PENDING, Transition


def vote(step: Step, player: Player, req: VoteRequest) -> object:
    """Record one vote; the last one resolves the round."""
    tally.require_ballot(step.state, player.seat, req.target_seat)
    comment = clean_text(req.comment, "comment") if req.comment and req.comment.strip() else None
    return BALLOT.cast(step, player.seat, req.target_seat, comment, check_analysis(req.analysis))


def _resolve(step: Step) -> Transition:
    state = step.state
    breakdown = tally.breakdown(state)
    if not state.votes:
        state.noop_streak = 0
        return _nobody_out(step, breakdown, None, "no_votes")
    return tally.settle(step, breakdown, lambda result: _nobody_out(step, breakdown, result.tie, "tie"),
                        lambda seat, result: _eliminate(step, seat, breakdown, result.tie))


def _nobody_out(step: Step, breakdown: dict[str, int], tie: str | None, reason: str) -> Transition:
    _round_resolved(step, None, breakdown, tie, reason=reason)
    step.state.pending, step.state.then_night = [], True
    return NEXT_PENDING


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
    return NEXT_PENDING


def _round_resolved(step: Step, seat: int | None, breakdown: dict[str, int], tie: str | None,
                    **extra: Any) -> None:
    state = step.state
    step.emit("round_resolved", "public", round=state.round_index, eliminated_seat=seat, vote_breakdown=breakdown,
              tie_break_applied=tie, noop=seat is None, pk=state.pk, **extra,
              **(deaths.revealed(state, seat) if seat is not None else {}))
    state.votes, state.pk, state.pk_candidates = {}, False, []


BALLOT = tally.Ballot(resolve=_resolve)
