"""Win conditions and the end of a match.

Checked after every batch of deaths (dawn, a vote, a shot, a concession), before anyone dead acts:

- no living werewolf → `village` (`all_werewolves_eliminated`); checked first, so a night that kills the
  last wolf (poison) and the last villager at once is the village's;
- `win_rule="side"` (屠边): no living villager → `werewolf` (`all_villagers_eliminated`), or no living god →
  `werewolf` (`all_gods_eliminated`);
- `win_rule="all"` (屠城): no living villager nor god → `werewolf` (`all_good_eliminated`);
- night `max_rounds + 1` would fall → `werewolf` (`max_rounds_reached`: the pack survived).

The result names every seat of the winning camp (dead or alive) and every seat's role.
"""

from __future__ import annotations

from app.games.kit import camp_outcome
from app.games.kit import voting as tally
from app.games.werewolf.config import Camp
from app.games.werewolf.state import MatchState, Step

SUMMARY = {
    "all_werewolves_eliminated": "好人胜：狼人全部出局",
    "all_villagers_eliminated": "狼人胜：平民全部出局（屠边）",
    "all_gods_eliminated": "狼人胜：神职全部出局（屠边）",
    "all_good_eliminated": "狼人胜：好人全部出局（屠城）",
    "max_rounds_reached": "狼人胜：轮数用尽，狼人仍在场",
}


def winner(state: MatchState) -> tuple[Camp, str] | None:
    """(winner_camp, reason) if the living seats decide the match, else None."""
    if not state.alive_with("werewolf"):
        return "village", "all_werewolves_eliminated"
    villagers, gods = state.alive_with("villager"), state.living_gods()
    if state.config.win_rule == "all":
        return ("werewolf", "all_good_eliminated") if not villagers and not gods else None
    if not villagers:
        return "werewolf", "all_villagers_eliminated"
    if not gods:
        return "werewolf", "all_gods_eliminated"
    return None


def finish_if_won(step: Step) -> bool:
    """Finish the match when a camp has won; True if it did."""
    decided = winner(step.state)
    if decided is None:
        return False
    finish(step, *decided)
    return True


def finish(step: Step, camp: Camp, reason: str) -> None:
    """Declare the end: the result on the state and one public `match_finished`."""
    state = step.state
    winners, losers = camp_outcome(state.players, lambda p: p.camp == camp)
    state.result = tally.close_table(step, camp, winners, losers, reason) | {
        "roles": {str(p.seat): p.role for p in state.players},
        "summary": f"{SUMMARY[reason]}（第 {state.round_index} 轮）"}
    step.emit("match_finished", "public", **state.result)
