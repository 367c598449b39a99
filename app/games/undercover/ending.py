"""Win conditions and the end of a match (spec §4).

Checked after every `round_resolved` (once any pending guess is settled), every concession
and every guess:

- no undercover and no blank alive → `civilian` (`all_undercovers_eliminated`, or
  `all_undercovers_conceded_or_eliminated` when a concession removed the last one);
- undercovers + blanks alive ≥ civilians alive → `undercover` (`undercover_majority`);
  blanks count with the undercovers and share their win;
- round `max_rounds` resolved with no winner → `undercover` (`max_rounds_reached`);
- a blank voted out who names the civilians' word → `blank` alone (`blank_guessed_word`).

In a room with a table extension the result also carries `recap` (`recap`).
"""

from __future__ import annotations

from app.games.kit import camp_outcome
from app.games.kit import voting as tally
from app.games.undercover import recap
from app.games.undercover.state import MatchState, Step


def remaining(state: MatchState) -> tuple[int, int, int]:
    """Living civilians, undercovers and blanks."""
    return (len(state.alive_with("civilian")), len(state.alive_with("undercover")),
            len(state.alive_with("blank")))


def winner(state: MatchState) -> tuple[str, str] | None:
    """(winner_camp, reason) if the living seats decide the match, else None."""
    civilians, undercovers, blanks = remaining(state)
    if undercovers + blanks == 0:
        return "civilian", "all_undercovers_eliminated"
    if undercovers + blanks >= civilians:
        return "undercover", "undercover_majority"
    return None


def finish_if_won(step: Step, *, by_concession: bool = False) -> bool:
    """Finish the match when a camp has won; True if it did."""
    decided = winner(step.state)
    if decided is None:
        return False
    camp, reason = decided
    if by_concession and reason == "all_undercovers_eliminated":
        reason = "all_undercovers_conceded_or_eliminated"
    finish(step, camp, reason)
    return True


def finish(step: Step, camp: str, reason: str) -> None:
    """Declare the end: result on the state and one public `match_finished`."""
    state = step.state
    camp_roles = ("civilian",) if camp == "civilian" else ("undercover", "blank")
    _close(step, camp, reason, *camp_outcome(state.players, lambda p: p.role in camp_roles))


def finish_blank(step: Step, seat: int) -> None:
    """The eliminated blank named the civilians' word: it wins alone."""
    seats = [p.seat for p in step.state.players]
    _close(step, "blank", "blank_guessed_word", [seat], [s for s in seats if s != seat])


def _close(step: Step, camp: str, reason: str, winners: list[int], losers: list[int]) -> None:
    state = step.state
    assert state.wordpair is not None
    state.result = tally.close_table(step, camp, winners, losers, reason) | {
        "summary": _summary(state, reason, winners), "wordpair": state.wordpair.model_dump()}
    if state.config.table_extensions:
        state.result["recap"] = recap.recap(step, winners)
    step.emit("match_finished", "public", **state.result)


def _summary(state: MatchState, reason: str, winners: list[int]) -> str:
    n = state.round_index
    hidden = "卧底与白板" if state.config.n_blank else "卧底"
    if reason == "all_undercovers_eliminated":
        return f"平民胜：第 {n} 轮后{hidden}全部出局"
    if reason == "all_undercovers_conceded_or_eliminated":
        return f"平民胜：第 {n} 轮最后一名{hidden}自爆现身"
    if reason == "undercover_majority":
        return f"卧底胜：第 {n} 轮后卧底人数已不少于平民"
    if reason == "max_rounds_reached":
        return f"卧底胜：{n} 轮结束仍有卧底潜伏到底"
    blank = state.players[winners[0]]
    return f"白板胜：{blank.display_name} 出局后猜中了平民词"
