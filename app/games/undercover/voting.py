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

from app.games.kit import voting as tally
from app.games.kit.checks import clean_text, is_private
from app.games.kit.dispatch import Cue
from app.games.undercover import ending
from app.games.undercover.actions import VoteAction
from app.games.undercover.checks import check_analysis, check_said, remember_said
from app.games.undercover.instructions import screen, strings_of
from app.games.undercover.state import Player, Step
from app.games.undercover.transitions import PK_CONCEDED, Reveal, Transition


def vote(step: Step, player: Player, req: VoteAction) -> object:
    """Record one vote; the last one resolves the round."""
    state = step.state
    tally.require_ballot(state, player.seat, req.target_seat)
    comment = clean_text(req.comment, "comment") if req.comment and req.comment.strip() else None
    if comment:
        check_said(state, player, comment)
    analysis = check_analysis(req.analysis, player)
    public = analysis if analysis is not None and not is_private(analysis) else None
    flags = screen([comment, *strings_of(public)], compete_mode=state.config.compete_mode, field="comment")
    if comment:
        remember_said(state, player.seat, comment)
    return BALLOT.cast(step, player.seat, req.target_seat, comment, analysis, **flags)


def end_pk_by_concession(step: Step, _: Cue) -> Transition:
    """A tied seat conceded and left one candidate: nobody else goes out this round."""
    _round_resolved(step, None, tally.breakdown(step.state), "revote", reason="candidate_conceded")
    return Reveal(None)


def _resolve(step: Step) -> Transition:
    state = step.state
    breakdown = tally.breakdown(state)
    if not state.votes:
        pool = state.pk_candidates if state.pk else state.living_seats()
        return _eliminate(step, step.rng("abstain").choice(pool), breakdown, "random")

    def nobody_out(result: tally.Verdict) -> Transition:
        _round_resolved(step, None, breakdown, result.tie)
        return Reveal(None)

    return tally.settle(step, breakdown, nobody_out, lambda seat, result: _eliminate(step, seat, breakdown, result.tie))


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


BALLOT = tally.Ballot(resolve=_resolve, warning=True, pk_broken=lambda step: PK_CONCEDED)
